import { z } from 'zod';
import { JOB_STATUSES } from '../jobs';

/**
 * Background jobs (issue 14): what admins see of the shared job queue (pg-boss on the portal's database) —
 * device backups, the billing run's check, database backups, e-mail delivery, device polls, traffic roll-ups,
 * RADIUS sweeps, audit retention. Newest first; done jobs are kept a week, failed ones a month.
 */
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
