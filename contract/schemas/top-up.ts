import { z } from 'zod';

/**
 * Fair-use top-ups (issue 36): packages the ISP sells (extra gigabytes for the rest of the cycle, or full speed
 * until the cycle ends) and the top-ups a customer bought for a subscription's cycle. Money in minor units.
 */
export const TOP_UP_KINDS = ['extra_data', 'full_speed'] as const;
export const TOP_UP_STATUSES = ['pending', 'active', 'cancelled'] as const;

export const TOP_UP_PACKAGE_STATUSES = ['active', 'inactive'] as const;

export const topUpPackageSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  kind: z.enum(TOP_UP_KINDS),
  /** extra_data: the gigabytes added to every threshold for the rest of the cycle; null for full_speed. */
  data_gb: z.number().int().nullable(),
  price: z.number().int(),
  currency: z.string(),
  status: z.enum(TOP_UP_PACKAGE_STATUSES),
  sort_order: z.number().int(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});

/** Staff create body (admin, billing); the currency defaults to the settings'. */
export const topUpPackageInputSchema = z
  .object({
    name: z
      .string({ message: 'Name is required' })
      .trim()
      .min(2, { message: 'Name must be at least 2 characters' })
      .max(80, { message: 'Name must be at most 80 characters' }),
    kind: z.enum(TOP_UP_KINDS, { message: `Kind must be one of ${TOP_UP_KINDS.join(', ')}` }),
    data_gb: z
      .number()
      .int({ message: 'Extra data must be whole gigabytes' })
      .positive({ message: 'Extra data must be greater than 0' })
      .max(1_000_000)
      .nullable()
      .optional()
      .default(null),
    price: z
      .number({ message: 'Price is required' })
      .int({ message: 'Price must be in minor units (a whole number)' })
      .min(0, { message: 'Price cannot be negative' })
      .max(100_000_000),
    currency: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{3}$/, { message: 'Currency must be a 3-letter code' })
      .optional(),
    status: z.enum(TOP_UP_PACKAGE_STATUSES).optional().default('active'),
    sort_order: z.number().int().min(-100_000).max(100_000).optional().default(0),
  })
  .superRefine((p, ctx) => {
    if (p.kind === 'extra_data' && p.data_gb == null)
      ctx.addIssue({ code: 'custom', path: ['data_gb'], message: 'An extra-data top-up needs its gigabytes' });
  });

export const topUpPackageUpdateSchema = z.object({
  name: topUpPackageInputSchema.shape.name.optional(),
  data_gb: z.number().int().positive().max(1_000_000).nullable().optional(),
  price: topUpPackageInputSchema.shape.price.optional(),
  currency: topUpPackageInputSchema.shape.currency,
  status: z.enum(TOP_UP_PACKAGE_STATUSES).optional(),
  sort_order: z.number().int().min(-100_000).max(100_000).optional(),
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
  invoice: z
    .object({ id: z.string().uuid(), number: z.string(), status: z.string(), total_amount: z.number().int() })
    .nullable(),
});

const rateSchema = z.object({ download_kbps: z.number().int(), upload_kbps: z.number().int() });

/**
 * Fair use this cycle (issue 36), as the customer's home and the usage screens show it: the tier (0: full speed),
 * the bytes this cycle (the billing period; both directions), the rate now (null: stopped), what happens at the
 * next threshold, this cycle's active top-ups and the packages on sale.
 */
export const fairUseSummarySchema = z.object({
  tier: z.number().int(),
  cycle_bytes: z.number(),
  rate: rateSchema.nullable(),
  next: z.object({ after_bytes: z.number(), stop: z.boolean(), rate: rateSchema.nullable() }).nullable(),
  extra_bytes: z.number(),
  full_speed: z.boolean(),
  top_ups: z.array(
    topUpPackageSchema.pick({ id: true, name: true, kind: true, data_gb: true, price: true, currency: true }),
  ),
});
export type FairUseSummary = z.infer<typeof fairUseSummarySchema>;
