/**
 * Device configuration and backups (issue 7): the running configuration view, stored versions, line diffs and
 * the jobs that fetch them. JSON is snake_case. Content shown in the browser is masked (secrets replaced by
 * MASK); only the download of a version carries the export as stored.
 */
import { z } from 'zod';

export const DEVICE_BACKUP_TRIGGERS = ['manual', 'scheduled'] as const;
export type DeviceBackupTrigger = (typeof DEVICE_BACKUP_TRIGGERS)[number];

export const DEVICE_JOB_KINDS = ['backup', 'config_fetch'] as const;
export type DeviceJobKind = (typeof DEVICE_JOB_KINDS)[number];

/** unchanged: the export was identical to the latest version, so no new version was stored. */
export const DEVICE_JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'unchanged'] as const;
export type DeviceJobStatus = (typeof DEVICE_JOB_STATUSES)[number];
export const DEVICE_JOB_FINISHED: readonly DeviceJobStatus[] = ['succeeded', 'failed', 'unchanged'];

export const DEVICE_JOB_STAGES = ['queued', 'connecting', 'fetching', 'saving', 'done'] as const;
export type DeviceJobStage = (typeof DEVICE_JOB_STAGES)[number];

/** What replaces a secret value in a masked configuration. */
export const CONFIG_MASK = '********';

export const deviceJobSchema = z.object({
  id: z.string(),
  device_id: z.string(),
  kind: z.enum(DEVICE_JOB_KINDS),
  trigger: z.enum(DEVICE_BACKUP_TRIGGERS),
  status: z.enum(DEVICE_JOB_STATUSES),
  stage: z.enum(DEVICE_JOB_STAGES),
  percent: z.number().int(),
  error: z.string().nullable(),
  backup_id: z.string().nullable(),
  /** The version number of backup_id, when there is one. */
  backup_version: z.number().int().nullable(),
  requested_by: z.string().nullable(),
  requested_by_name: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type DeviceJob = z.infer<typeof deviceJobSchema>;

export const deviceBackupSchema = z.object({
  id: z.string(),
  device_id: z.string(),
  version: z.number().int(),
  sha256: z.string(),
  size_bytes: z.number().int(),
  line_count: z.number().int(),
  trigger: z.enum(DEVICE_BACKUP_TRIGGERS),
  created_by: z.string().nullable(),
  created_by_name: z.string().nullable(),
  created_at: z.string(),
});
export type DeviceBackup = z.infer<typeof deviceBackupSchema>;

export const deviceBackupDetailSchema = deviceBackupSchema.extend({
  /** The export with secrets masked. */
  content: z.string(),
  masked_count: z.number().int(),
});
export type DeviceBackupDetail = z.infer<typeof deviceBackupDetailSchema>;

export const deviceConfigSchema = z.object({
  device_id: z.string(),
  device_name: z.string(),
  fetched_at: z.string(),
  /** The running configuration export with secrets masked. */
  content: z.string(),
  size_bytes: z.number().int(),
  line_count: z.number().int(),
  masked_count: z.number().int(),
  sha256: z.string(),
  /** The stored version whose content equals this export, if any. */
  matches_backup_version: z.number().int().nullable(),
});
export type DeviceConfig = z.infer<typeof deviceConfigSchema>;

export const DIFF_LINE_TYPES = ['context', 'added', 'removed'] as const;
export type DiffLineType = (typeof DIFF_LINE_TYPES)[number];

export const diffLineSchema = z.object({
  type: z.enum(DIFF_LINE_TYPES),
  text: z.string(),
  /** Line number in the older version (null for an added line). */
  old_line: z.number().int().nullable(),
  /** Line number in the newer version (null for a removed line). */
  new_line: z.number().int().nullable(),
});
export type DiffLine = z.infer<typeof diffLineSchema>;

export const diffHunkSchema = z.object({
  old_start: z.number().int(),
  old_lines: z.number().int(),
  new_start: z.number().int(),
  new_lines: z.number().int(),
  lines: z.array(diffLineSchema),
});
export type DiffHunk = z.infer<typeof diffHunkSchema>;

export const deviceBackupDiffSchema = z.object({
  from: deviceBackupSchema,
  to: deviceBackupSchema,
  added: z.number().int(),
  removed: z.number().int(),
  identical: z.boolean(),
  hunks: z.array(diffHunkSchema),
});
export type DeviceBackupDiff = z.infer<typeof deviceBackupDiffSchema>;

const uuidParam = (name: string) => z.string().uuid({ message: `${name} must be a valid id` });

export const deviceBackupListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const deviceJobListQuerySchema = deviceBackupListQuerySchema.extend({
  status: z.enum(DEVICE_JOB_STATUSES).optional(),
  kind: z.enum(DEVICE_JOB_KINDS).optional(),
});

export const deviceBackupDiffQuerySchema = z.object({
  from: uuidParam('from'),
  to: uuidParam('to'),
  /** Unchanged lines shown around each change. */
  context: z.coerce.number().int().min(0).max(50).default(3),
});

export const deviceIdParamsSchema = z.object({ id: uuidParam('Device id') });
export const deviceBackupParamsSchema = z.object({ id: uuidParam('Device id'), backupId: uuidParam('Backup id') });
export const deviceJobParamsSchema = z.object({ jobId: uuidParam('Job id') });
