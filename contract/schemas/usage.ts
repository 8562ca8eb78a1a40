import { z } from 'zod';

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
  user_id: z.preprocess((v) => (v === '' ? undefined : v), z.string().uuid({ message: 'user_id must be a valid id' }).optional()),
  /** Which subscription (default: the user's active one, else their newest). */
  subscription_id: z.preprocess((v) => (v === '' ? undefined : v), z.string().uuid({ message: 'subscription_id must be a valid id' }).optional()),
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
    .object({ id: z.string().uuid(), status: z.string(), plan_name: z.string(), data_cap_gb: z.number().int().nullable() })
    .nullable(),
  /** Newest first; periods[0] is the current one. */
  periods: z.array(usagePeriodSchema),
  period: usagePeriodSchema,
  days: z.array(z.object({ date: day, download: z.number(), upload: z.number() })),
  totals: z.object({ download: z.number(), upload: z.number(), total: z.number() }),
  /** Against the plan's data cap (both directions count); null limit: unlimited. */
  cap: z.object({ limit: z.number().nullable(), used: z.number(), remaining: z.number().nullable(), percent: z.number().nullable() }),
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
