import { z } from 'zod';
import { fairUseSummarySchema } from './top-up';
import { pagePaginationSchema } from '../envelope';

/**
 * Data usage (issue 8), from RADIUS accounting. Bytes are whole numbers (64-bit counters fit a JS number up
 * to 8 PiB). Download = sent to the customer (the NAS's output octets), upload = received from them (input).
 * Days are UTC; a period's `end` is exclusive (the first day of the next period).
 */
export const USAGE_MAX_PAST_PERIODS = 11;
/** The plans' data cap unit, as RADIUS counts it: 1 GB = 10^9 bytes. */
export const BYTES_PER_GB = 1_000_000_000;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const usageQuerySchema = z.object({
  /** Staff: whose usage (default: the caller). */
  user_id: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().uuid({ message: 'user_id must be a valid id' }).optional(),
  ),
  /** Which subscription (default: the user's active one, else their newest). */
  subscription_id: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().uuid({ message: 'subscription_id must be a valid id' }).optional(),
  ),
  /** 0 = the current period, 1 = the one before, … */
  period: z.coerce.number().int().min(0).max(USAGE_MAX_PAST_PERIODS).optional().default(0),
});
export type UsageQuery = z.input<typeof usageQuerySchema>;
export type UsageQueryParsed = z.output<typeof usageQuerySchema>;

export const usagePeriodSchema = z.object({ index: z.number().int(), start: day, end: day });
export type UsagePeriod = z.infer<typeof usagePeriodSchema>;

export const usageSchema = z.object({
  user_id: z.string().uuid(),
  subscription: z
    .object({
      id: z.string().uuid(),
      status: z.string(),
      plan_name: z.string(),
      data_cap_gb: z.number().int().nullable(),
    })
    .nullable(),
  /**
   * Every line (subscription) of the user, in the order the default is picked (active, suspended, pending, then
   * the rest; newest first within each), so a screen can offer to show another one (issue 34).
   */
  lines: z.array(
    z.object({ id: z.string().uuid(), status: z.string(), plan_name: z.string(), created_at: z.string() }),
  ),
  /** Newest first; periods[0] is the current one. */
  periods: z.array(usagePeriodSchema),
  period: usagePeriodSchema,
  days: z.array(z.object({ date: day, download: z.number(), upload: z.number() })),
  totals: z.object({ download: z.number(), upload: z.number(), total: z.number() }),
  /** Against the plan's data cap (both directions count); null limit: unlimited. */
  cap: z.object({
    limit: z.number().nullable(),
    used: z.number(),
    remaining: z.number().nullable(),
    percent: z.number().nullable(),
  }),
  /** Fair use this cycle (issue 36): the current period only; null for a plan without tiers or cap. */
  fair_use: fairUseSummarySchema.nullable().optional(),
  /** The open accounting session, if the customer is online. */
  session: z
    .object({
      username: z.string(),
      online_since: z.string(),
      framed_ip: z.string().nullable(),
      download: z.number(),
      upload: z.number(),
      last_update: z.string(),
    })
    .nullable(),
});
export type Usage = z.infer<typeof usageSchema>;

/**
 * Staff's overview (issue 34, GET /usage/customers): the customers with a line, by their data used this calendar
 * month (UTC, from its first day to today), the heaviest first, searchable by name or e-mail, paged.
 */
export const usageCustomersQuerySchema = z.object({
  page: z.coerce.number().int().min(1, { message: 'page must be 1 or more' }).default(1),
  limit: z.coerce.number().int().min(1).max(100, { message: 'limit must be at most 100' }).default(20),
  search: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().trim().max(100, { message: 'search must be at most 100 characters' }).optional(),
  ),
});
export type UsageCustomersQuery = z.output<typeof usageCustomersQuerySchema>;

const bytesTotals = { download: z.number(), upload: z.number(), total: z.number() };
export const usageCustomerSchema = z.object({
  user_id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  /** How many lines (subscriptions, in any status) the customer has. */
  lines: z.number().int(),
  /** Sessions open now. */
  online: z.number().int(),
  ...bytesTotals,
});
export type UsageCustomer = z.infer<typeof usageCustomerSchema>;

export const usageCustomersSchema = z.object({
  /** The month counted: its first day and the day after today (exclusive), UTC. */
  period: z.object({ start: day, end: day }),
  /** The whole network this month (every customer, whatever the search), and the sessions open now. */
  totals: z.object({ ...bytesTotals, customers: z.number().int(), online: z.number().int() }),
  items: z.array(usageCustomerSchema),
  pagination: pagePaginationSchema,
});
export type UsageCustomers = z.infer<typeof usageCustomersSchema>;
