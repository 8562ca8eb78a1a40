import { z } from 'zod';

/**
 * Fair-use top-ups (issue 36): packages the ISP sells (extra gigabytes for the rest of the cycle, or full speed
 * until the cycle ends) and the top-ups a customer bought for a subscription's cycle. Money in minor units.
 */
export const TOP_UP_KINDS = ['extra_data', 'full_speed'] as const;
export const TOP_UP_STATUSES = ['pending', 'active', 'cancelled'] as const;

export const topUpPackageSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  kind: z.enum(TOP_UP_KINDS),
  data_gb: z.number().int().nullable(),
  price: z.number().int(),
  currency: z.string(),
  status: z.enum(['active', 'inactive']),
  sort_order: z.number().int(),
});
export type TopUpPackage = z.infer<typeof topUpPackageSchema>;

export const topUpSchema = z.object({
  id: z.string().uuid(),
  subscription_id: z.string().uuid(),
  package_id: z.string().uuid().nullable(),
  kind: z.enum(TOP_UP_KINDS),
  extra_bytes: z.number().int(),
  price: z.number().int(),
  currency: z.string(),
  cycle_start: z.string(),
  cycle_end: z.string(),
  invoice_id: z.string().uuid().nullable(),
  status: z.enum(TOP_UP_STATUSES),
  activated_at: z.string().nullable(),
  created_at: z.string(),
});
export type TopUp = z.infer<typeof topUpSchema>;

export const topUpBuySchema = z.object({ package_id: z.string().uuid({ message: 'Choose a top-up package' }) });

export const topUpBoughtSchema = z.object({
  top_up: topUpSchema,
  /** The invoice to pay (null only if it was deleted); paid already when credit covered it. */
  invoice: z.object({ id: z.string().uuid(), number: z.string(), status: z.string(), total_amount: z.number().int() }).nullable(),
});
