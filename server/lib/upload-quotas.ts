/**
 * Upload quotas (issue 32): the attachments of one ticket, the photos of one installation, and what one customer
 * uploads in 24 hours (ticket attachments and installation photos together) each have a ceiling in MB, set in the
 * settings (section "uploads"). An upload that would pass one is refused whole with 413 and a message naming it.
 */
import { and, eq, gt, sum } from 'drizzle-orm';
import type { Db } from '../db/client';
import { installationPhotos, ticketAttachments } from '../db/schema';
import { AppError } from './errors';
import { discard, type StagedFile } from './stored-files';

export interface UploadQuotas {
  /** All attachments of one ticket, in MB. */
  ticket_mb: number;
  /** All photos of one installation, in MB. */
  installation_mb: number;
  /** What one customer uploads in 24 hours, in MB (staff are not counted). */
  customer_daily_mb: number;
}

export const DEFAULT_UPLOAD_QUOTAS: UploadQuotas = { ticket_mb: 25, installation_mb: 50, customer_daily_mb: 50 };

const MB = 1024 * 1024;
const DAY_MS = 24 * 3600_000;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

export const UPLOAD_QUOTA_MESSAGES = {
  ticket: (limitMb: number, used: number) =>
    `The attachments of a ticket are limited to ${limitMb} MB in all (${mb(used)} already used). Send smaller files or fewer of them.`,
  installation: (limitMb: number, used: number) =>
    `The photos of an installation are limited to ${limitMb} MB in all (${mb(used)} already used). Send smaller photos or fewer of them.`,
  daily: (limitMb: number, used: number) =>
    `You can upload up to ${limitMb} MB in 24 hours (${mb(used)} already uploaded). Please try again later.`,
} as const;

const total = async (query: Promise<Array<{ n: string | number | null }>>) => Number((await query)[0]?.n ?? 0);

/**
 * Refuses (413) an upload of `adding` bytes to a ticket or an installation that would pass its quota or, for a
 * customer, their daily quota. Run inside the transaction that records the files (after the owner row's lock), so
 * two uploads at once cannot both slip under a limit; running it before storing the files as well saves the work.
 */
export async function checkUploadQuota(
  db: Db,
  quotas: UploadQuotas,
  upload: {
    area: 'tickets' | 'installations';
    ownerId: string;
    uploaderId: string;
    customer: boolean;
    adding: number;
    now: Date;
  },
): Promise<void> {
  const { area, ownerId, uploaderId, customer, adding, now } = upload;
  const used =
    area === 'tickets'
      ? await total(
          db
            .select({ n: sum(ticketAttachments.size) })
            .from(ticketAttachments)
            .where(eq(ticketAttachments.ticketId, ownerId)),
        )
      : await total(
          db
            .select({ n: sum(installationPhotos.size) })
            .from(installationPhotos)
            .where(eq(installationPhotos.installationId, ownerId)),
        );
  const limitMb = area === 'tickets' ? quotas.ticket_mb : quotas.installation_mb;
  if (used + adding > limitMb * MB) {
    throw new AppError(
      413,
      area === 'tickets'
        ? UPLOAD_QUOTA_MESSAGES.ticket(limitMb, used)
        : UPLOAD_QUOTA_MESSAGES.installation(limitMb, used),
    );
  }
  if (!customer) return;
  const since = new Date(now.getTime() - DAY_MS);
  const today =
    (await total(
      db
        .select({ n: sum(ticketAttachments.size) })
        .from(ticketAttachments)
        .where(and(eq(ticketAttachments.uploadedBy, uploaderId), gt(ticketAttachments.createdAt, since))),
    )) +
    (await total(
      db
        .select({ n: sum(installationPhotos.size) })
        .from(installationPhotos)
        .where(and(eq(installationPhotos.uploadedBy, uploaderId), gt(installationPhotos.createdAt, since))),
    ));
  if (today + adding > quotas.customer_daily_mb * MB)
    throw new AppError(413, UPLOAD_QUOTA_MESSAGES.daily(quotas.customer_daily_mb, today));
}

/**
 * The same check for files just received and not yet stored (tickets and installations call it before storing):
 * refused files are deleted from the staging folder before the 413 goes out. Returns the check's input for the
 * second run under the owner's lock.
 */
export async function checkStagedUploadQuota(
  db: Db,
  quotas: UploadQuotas,
  upload: { area: 'tickets' | 'installations'; ownerId: string; uploaderId: string; customer: boolean; now: Date },
  staged: readonly StagedFile[],
): Promise<Parameters<typeof checkUploadQuota>[2]> {
  const quota = { ...upload, adding: staged.reduce((n, f) => n + f.size, 0) };
  try {
    await checkUploadQuota(db, quotas, quota);
  } catch (error) {
    await discard(staged);
    throw error;
  }
  return quota;
}
