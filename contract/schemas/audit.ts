import { z } from 'zod';

/** The audit trail (issue 13): who did what, when, from where; append-only. */
export const auditEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  actor_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  /** The role at that moment, 'system' for jobs, 'anonymous' for a caller not signed in. */
  actor_role: z.string(),
  action: z.string(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  /** {field: {from, to}} for changed fields ({changed: true} for secrets), or other details. */
  changes: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
  request_id: z.string().nullable(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

const isoDate = z.iso.datetime({ offset: true, message: 'Use an ISO date-time, e.g. 2026-01-31T00:00:00Z' });

export const auditListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  actor_id: z.string().uuid({ message: 'actor_id must be a valid id' }).optional(),
  action: z.string().trim().min(1).max(80).optional(),
  target_type: z.string().trim().min(1).max(40).optional(),
  target_id: z.string().trim().min(1).max(100).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  /** csv: the matching events as a CSV file (up to 50 000), newest first. */
  format: z.enum(['json', 'csv']).default('json'),
});
export type AuditListQuery = z.output<typeof auditListQuerySchema>;

export const AUDIT_MESSAGES = {
  list: 'Audit events retrieved successfully',
  show: 'Audit event retrieved successfully',
  notFound: 'Audit event not found',
} as const;
