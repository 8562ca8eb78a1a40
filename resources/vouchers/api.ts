/**
 * The voucher calls that are not a list or a record: the one-hour downloads of a new batch's codes (through the
 * authorised client: a plain link would carry no token), and the terms in words.
 */
import type { VoucherBatch } from '../../contract/schemas/vouchers';
import { httpClient } from '../../providers/http-client';
import { saveBlob } from '../../src/components/saveBlob';
import { t } from '../../src/i18n';

export const BATCHES = 'vouchers/batches';
const enc = encodeURIComponent;

/** The export's file name: the server's (Content-Disposition), else vouchers-<id>.<ext>. */
function fileNameOf(disposition: unknown, fallback: string): string {
  const m = typeof disposition === 'string' ? /filename="([^"]+)"/.exec(disposition) : null;
  return m?.[1] ?? fallback;
}

/**
 * Downloads the batch's unused codes as CSV or as printable cards (PDF, in `language`: the people who buy the
 * cards may read another language than the office); the server refuses after 60 minutes.
 */
export async function downloadCodes(batchId: string, kind: 'csv' | 'pdf', language?: string): Promise<void> {
  const path = kind === 'csv' ? 'codes.csv' : 'cards.pdf';
  const res = await httpClient.get<Blob>(`/${BATCHES}/${enc(batchId)}/${path}`, {
    params: kind === 'pdf' && language ? { language } : undefined,
    responseType: 'blob',
    fallbackMessage: t('vouchers.download.failed'),
  });
  saveBlob(res.data, fileNameOf(res.headers['content-disposition'], `vouchers-${batchId.slice(0, 8)}.${kind}`));
}

/** Validity in words: "7 days", "12 h", "90 min"; "No limit" for none. */
export function validityLabel(minutes: number | null): string {
  if (minutes === null) return t('vouchers.terms.none');
  if (minutes % 1440 === 0) return t('vouchers.terms.days', { n: minutes / 1440 });
  if (minutes % 60 === 0) return t('vouchers.terms.hours', { n: minutes / 60 });
  return t('vouchers.terms.minutes', { n: minutes });
}

/** A data allowance in words: "5 GB" (whole 1024 MB), "500 MB"; "No limit" for none. */
export function allowanceLabel(mb: number | null): string {
  if (mb === null) return t('vouchers.terms.none');
  return mb >= 1024 && mb % 1024 === 0 ? t('vouchers.terms.gb', { n: mb / 1024 }) : t('vouchers.terms.mb', { n: mb });
}

/** What a card of the batch gives: "7 days · 5 GB". */
export function termsLabel(batch: Pick<VoucherBatch, 'validity_minutes' | 'data_allowance_mb'>): string {
  return [
    batch.validity_minutes !== null ? validityLabel(batch.validity_minutes) : null,
    batch.data_allowance_mb !== null ? allowanceLabel(batch.data_allowance_mb) : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Can the codes still be downloaded (the server's export_until is in the future)? */
export const canDownload = (batch: Pick<VoucherBatch, 'export_until'>, now = Date.now()) =>
  batch.export_until !== null && new Date(batch.export_until).getTime() > now;
