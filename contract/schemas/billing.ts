import { z } from 'zod';

/** The recurring billing job (issue 4): one run per day, started by the scheduler or by an admin. */
export const BILLING_RUN_COUNT_KEYS = [
  'renewal_invoices',
  'overdue_invoices',
  'suspended',
  'expired',
  'cancelled_invoices',
  'emails',
] as const;
export type BillingRunCountKey = (typeof BILLING_RUN_COUNT_KEYS)[number];

export const billingRunCountsSchema = z.object({
  /** Invoices issued for the period that follows the current one. */
  renewal_invoices: z.number().int(),
  /** Unpaid invoices past their due date, now overdue. */
  overdue_invoices: z.number().int(),
  /** Active subscriptions suspended for an invoice overdue past the grace days. */
  suspended: z.number().int(),
  /** Subscriptions whose service ended (cancelled at period end, or never paid). */
  expired: z.number().int(),
  /** Open renewal invoices of expired subscriptions, cancelled (their period is never served). */
  cancelled_invoices: z.number().int(),
  /** E-mails sent after the run committed. */
  emails: z.number().int(),
  /** Dunning reminders and late-fee notices (issue 38; absent on older runs). */
  dunning_messages: z.number().int().optional(),
  /** Late-fee invoices added (issue 38; absent on older runs). */
  late_fees: z.number().int().optional(),
});
export type BillingRunCounts = z.infer<typeof billingRunCountsSchema>;

export const billingRunSchema = z.object({
  id: z.string(),
  /** The UTC day the run covered (YYYY-MM-DD). */
  run_date: z.string(),
  triggered_by: z.enum(['scheduler', 'api']),
  triggered_by_user_id: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  counts: billingRunCountsSchema,
});
export type BillingRun = z.infer<typeof billingRunSchema>;

/** POST /billing/run: the day's run, and whether it had already happened (then nothing was done again). */
export const billingRunResultSchema = z.object({
  alreadyRan: z.boolean(),
  run: billingRunSchema,
});
export type BillingRunResult = z.infer<typeof billingRunResultSchema>;

export const billingRunListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).optional().default(1),
  limit: z.coerce.number().int().min(1).max(100).optional().default(20),
});
export type BillingRunListQueryParsed = z.output<typeof billingRunListQuerySchema>;

export const BILLING_MESSAGES = {
  ran: 'Billing run completed',
  alreadyRan: 'Billing already ran today; nothing was done again',
  runs: 'Billing runs retrieved successfully',
} as const;
