import { useState } from 'react';
import { Alert, Button, Progress, Select, Space, Tag } from 'antd';
import { DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { useNotification, useOne, type HttpError } from '@refinedev/core';
import { VOUCHER_STATES, type VoucherBatch, type VoucherState } from '../../contract/schemas/vouchers';
import { t } from '../../src/i18n';
import { defaultLanguage, offeredLanguages } from '../../src/i18n/language';
import { BATCHES, canDownload, downloadCodes } from './api';
import { formatTime } from '../../src/components/dates';

/** How often a batch that is still being made is read again. */
export const BATCH_POLL_MS = 1_000;

/**
 * The batch as it is now: a batch that a job is still making (status "generating") is read again every
 * BATCH_POLL_MS until it is ready; a ready one is taken as given.
 */
export function useLiveBatch<T extends VoucherBatch>(batch: T): T | VoucherBatch {
  const generating = batch.status === 'generating';
  const { result } = useOne<VoucherBatch>({
    resource: 'vouchers',
    id: batch.id,
    meta: { endpoint: BATCHES },
    queryOptions: {
      enabled: generating,
      refetchInterval: (q) =>
        (q.state.data as { data?: VoucherBatch } | undefined)?.data?.status === 'ready' || q.state.status === 'error'
          ? false
          : BATCH_POLL_MS,
    },
  });
  return generating && result?.id === batch.id ? result : batch;
}

/** A batch a job is making: how many codes so far, as a bar (the downloads come once it is ready). */
export function BatchProgress({ batch }: { batch: Pick<VoucherBatch, 'count' | 'generated'> }) {
  const percent = Math.floor((100 * batch.generated) / Math.max(1, batch.count));
  return (
    <Alert
      type="info"
      showIcon
      data-testid="batch-progress"
      message={t('vouchers.generating.title', { generated: batch.generated, count: batch.count })}
      description={
        <>
          <Progress percent={percent} status="active" aria-label={t('vouchers.generating.progress')} />
          <div>{t('vouchers.generating.note')}</div>
        </>
      }
    />
  );
}

export const STATE_COLORS: Record<VoucherState, string> = {
  unused: 'blue',
  active: 'green',
  used_up: 'default',
  expired: 'orange',
  revoked: 'red',
};

export function VoucherStateTag({ state }: { state: VoucherState }) {
  return <Tag color={STATE_COLORS[state]}>{t(`vouchers.state.${state}`)}</Tag>;
}

/** A batch's vouchers per state ("Unused 7", "Used up 2"…), the states it has only. */
export function StateCounts({ states }: { states: Record<string, number> }) {
  const present = VOUCHER_STATES.filter((s) => (states[s] ?? 0) > 0);
  return (
    <Space size={[4, 4]} wrap>
      {present.map((s) => (
        <Tag key={s} color={STATE_COLORS[s]}>{`${t(`vouchers.state.${s}`)} ${states[s]}`}</Tag>
      ))}
    </Space>
  );
}

const time = (iso: string) => formatTime(iso);

/**
 * "Download CSV" and "Print cards (PDF)" while the batch's 60-minute window is open, with the time it closes;
 * after it, a note that the codes are gone for good.
 */
export function DownloadCodes({
  batch,
  note = 'vouchers.download.note',
}: {
  batch: Pick<VoucherBatch, 'id' | 'export_until'>;
  note?: string;
}) {
  const { open } = useNotification();
  const [busy, setBusy] = useState<'csv' | 'pdf' | null>(null);
  const [closed, setClosed] = useState(false);
  // The cards' language: the ISP's default unless staff pick another offered one (issue 37).
  const [cardLanguage, setCardLanguage] = useState<string>(defaultLanguage);
  const languages = offeredLanguages();
  if (!canDownload(batch) || closed)
    return <Alert type="info" showIcon message={t('vouchers.download.over')} data-testid="download-over" />;
  const download = async (kind: 'csv' | 'pdf') => {
    setBusy(kind);
    try {
      await downloadCodes(batch.id, kind, cardLanguage);
    } catch (error) {
      // The body of a failed file download is not read: 409 is the closed window.
      if ((error as HttpError).statusCode === 409) setClosed(true);
      else open?.({ type: 'error', message: (error as HttpError).message || t('vouchers.download.failed') });
    } finally {
      setBusy(null);
    }
  };
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="download-codes"
      message={t(note, { time: time(batch.export_until!) })}
      description={
        <Space wrap style={{ marginTop: 8 }}>
          {languages.length > 1 && (
            <Select
              aria-label={t('vouchers.download.language')}
              value={cardLanguage}
              onChange={setCardLanguage}
              options={languages.map((l) => ({ value: l.code, label: l.name }))}
              style={{ minWidth: 160 }}
              data-testid="cards-language"
            />
          )}
          <Button
            icon={<PrinterOutlined />}
            type="primary"
            loading={busy === 'pdf'}
            onClick={() => void download('pdf')}
          >
            {t('vouchers.download.pdf')}
          </Button>
          <Button icon={<DownloadOutlined />} loading={busy === 'csv'} onClick={() => void download('csv')}>
            {t('vouchers.download.csv')}
          </Button>
        </Space>
      }
    />
  );
}
