import { z } from 'zod';

/**
 * Backups kept by the running portal (issue 13): archives in DATA_DIR/backups written by the schedule or on an
 * admin's request, listed with size and time, downloadable by admins. The archive format is described in
 * server/modules/backups/archive.ts.
 */

/** A backup file name as the portal writes it: isp-portal-2026-11-25T03-00-00-000Z.tar.gz */
export const BACKUP_NAME_PATTERN = /^isp-portal-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.tar\.gz$/;

export const backupItemSchema = z.object({
  name: z.string(),
  /** Bytes. */
  size: z.number().int(),
  created_at: z.string(),
  /** GET this (signed in as an admin) to download the archive. */
  download_url: z.string(),
});
export type BackupItem = z.infer<typeof backupItemSchema>;

export const backupListSchema = z.object({
  /** Newest first. */
  items: z.array(backupItemSchema),
  /** The newest failed attempt since the last good backup, or null. */
  last_failure: z.object({ at: z.string(), message: z.string() }).nullable(),
  schedule: z.object({
    enabled: z.boolean(),
    interval_hours: z.number().int(),
    keep: z.number().int(),
  }),
});
export type BackupList = z.infer<typeof backupListSchema>;

export const BACKUP_MESSAGES = {
  list: 'Backups retrieved successfully',
  created: 'Backup created successfully',
  failed: 'The backup failed',
  notFound: 'Backup not found',
  inProgress: 'A backup is already being taken; try again in a moment',
} as const;
