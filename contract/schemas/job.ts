import { z } from 'zod';

/**
 * Background jobs (issue 14): what admins see of the shared job queue (pg-boss on the portal's database) —
 * device backups, the billing run's check, database backups, e-mail delivery, device polls, traffic roll-ups,
 * RADIUS sweeps, audit retention. Newest first; done jobs are kept a week, failed ones a month.
 */
export const JOB_STATUSES = ['queued', 'retrying', 'running', 'done', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** The queues, with the words admins read for them. */
export const JOB_NAMES: Record<string, string> = {
  'device-backup': 'Device configuration backup',
  'device-backup-schedule': 'Scheduled device backups (check)',
  'billing-run': 'Daily billing run (check)',
  'database-backup': 'Scheduled database backup (check)',
  'mail-delivery': 'E-mail delivery',
  'mail-outbox-sweep': 'E-mail outbox sweep',
  'device-poll': 'Device polling (SNMP)',
  'traffic-roll-up': 'Traffic roll-up',
  'radius-sweep': 'RADIUS stale-session sweep',
  'audit-retention': 'Audit trail retention',
};

export const jobListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  name: z.string().trim().min(1).max(100).optional(),
  status: z.enum(JOB_STATUSES, { message: `status must be one of: ${JOB_STATUSES.join(', ')}` }).optional(),
});
export type JobListQuery = z.output<typeof jobListQuerySchema>;

export const jobSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(JOB_STATUSES),
  /** Why the last try failed, or null. */
  error: z.string().nullable(),
  retry_count: z.number().int(),
  retry_limit: z.number().int(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  data: z.unknown(),
});
export type JobItem = z.infer<typeof jobSchema>;

export const JOB_MESSAGES = {
  list: 'Jobs retrieved successfully',
} as const;
