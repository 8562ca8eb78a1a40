import { formatKbps } from '../rate';
import { z } from 'zod';
import { LANGUAGE_CODES } from '../languages';
import { byLanguage } from './settings';

/** Plans (spec §3, §4, §7). JSON is snake_case; money is integer minor units (1999 = 19.99). */
export const BILLING_CYCLES = ['monthly', 'quarterly', 'half_yearly', 'yearly'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

export const PLAN_STATUSES = ['active', 'inactive'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export const PLAN_SORT_FIELDS = ['name', 'price', 'sort_order', 'created_at', 'download_mbps'] as const;
export type PlanSortField = (typeof PLAN_SORT_FIELDS)[number];

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** What RADIUS does once a plan's data cap is reached: refuse the login, or let it in at the throttled rate. */
export const DATA_CAP_ACTIONS = ['reject', 'throttle'] as const;
export type DataCapAction = (typeof DATA_CAP_ACTIONS)[number];
const throttleKbps = z
  .number()
  .int()
  .min(8, { message: 'Throttled rate must be at least 8 kbit/s' })
  .max(10_000_000)
  .nullable();

/**
 * Fair use (issue 36): after `after_gb` gigabytes in a cycle (the subscription's billing period) the rate drops
 * to the tier's, in kbit/s. At most 8 tiers, thresholds strictly ascending whole gigabytes, each tier no faster
 * than the one before, and below the data cap (the hard stop) when the plan has one.
 */
export const MAX_USAGE_TIERS = 8;
export const usageTierSchema = z.object({
  after_gb: z
    .number({ message: 'Tier threshold is required' })
    .int({ message: 'Tier threshold must be whole gigabytes' })
    .positive({ message: 'Tier threshold must be greater than 0' })
    .max(1_000_000),
  download_kbps: z.number().int().min(8, { message: 'Tier rate must be at least 8 kbit/s' }).max(10_000_000),
  upload_kbps: z.number().int().min(8, { message: 'Tier rate must be at least 8 kbit/s' }).max(10_000_000),
});
export type UsageTier = z.infer<typeof usageTierSchema>;

/** The problems of a list of tiers (empty: none), each with the path of the field at fault. */
export function usageTierProblems(
  tiers: readonly UsageTier[],
  dataCapGb: number | null | undefined,
): { path: (string | number)[]; message: string }[] {
  const out: { path: (string | number)[]; message: string }[] = [];
  if (tiers.length > MAX_USAGE_TIERS) out.push({ path: [], message: `At most ${MAX_USAGE_TIERS} usage tiers` });
  tiers.forEach((tier, i) => {
    const prev = tiers[i - 1];
    if (prev && tier.after_gb <= prev.after_gb)
      out.push({ path: [i, 'after_gb'], message: 'Tier thresholds must be strictly ascending' });
    if (prev && (tier.download_kbps > prev.download_kbps || tier.upload_kbps > prev.upload_kbps))
      out.push({ path: [i, 'download_kbps'], message: 'A tier must not be faster than the one before it' });
    if (dataCapGb != null && tier.after_gb >= dataCapGb)
      out.push({ path: [i, 'after_gb'], message: 'Tier thresholds must be below the data cap' });
  });
  return out;
}

/** "after 500 GB: 10/2 Mbit/s", one tier. */
export const describeTier = (t: UsageTier) => `after ${t.after_gb} GB: ${formatKbps(t.download_kbps, t.upload_kbps)}`;

/** The plan form's text for tiers: one line per tier, "<after GB> <download kbit/s> <upload kbit/s>". */
export const tiersToText = (tiers: readonly UsageTier[] | undefined) =>
  (tiers ?? []).map((t) => `${t.after_gb} ${t.download_kbps} ${t.upload_kbps}`).join('\n');

/** Parses the form's text (blank lines ignored); a malformed line gives NaN values, which the API refuses. */
export const tiersFromText = (text: unknown): UsageTier[] =>
  String(text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [after, down, up] = line.split(/[\s,/;]+/).map(Number);
      return { after_gb: after ?? Number.NaN, download_kbps: down ?? Number.NaN, upload_kbps: up ?? Number.NaN };
    });

/**
 * The description in other languages than the ISP's default (issue 37), by language code; a blank one is dropped
 * (that language's readers get the default's description).
 */
const descriptionTranslationsSchema = byLanguage(z.string().trim().max(2000).nullable()).transform(
  (map) => Object.fromEntries(Object.entries(map).filter(([, text]) => text)) as Record<string, string>,
);

const usageTiersSchema = z.array(usageTierSchema).max(MAX_USAGE_TIERS, {
  message: `At most ${MAX_USAGE_TIERS} usage tiers`,
});

/** A plan as the API returns it. Timestamps are ISO strings. */
export const planSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  /** The description in other offered languages (optional in the type: older fixtures predate it). */
  description_translations: z.partialRecord(z.enum(LANGUAGE_CODES), z.string()).optional(),
  download_mbps: z.number().int().positive(),
  upload_mbps: z.number().int().positive(),
  /** null = unlimited */
  data_cap_gb: z.number().int().positive().nullable(),
  /** RADIUS, once the data cap is reached (optional in the type: older fixtures predate it; the API always sends it). */
  data_cap_action: z.enum(DATA_CAP_ACTIONS).optional(),
  /** Throttled rates in kbit/s; null: 1024. */
  throttle_download_kbps: z.number().int().nullable().optional(),
  throttle_upload_kbps: z.number().int().nullable().optional(),
  /** Fair-use tiers per cycle (optional in the type: older fixtures predate it; the API always sends it). */
  usage_tiers: z.array(usageTierSchema).optional(),
  price: z.number().int().min(0),
  setup_fee: z.number().int().min(0),
  currency: z.string().regex(/^[A-Z]{3}$/),
  billing_cycle: z.enum(BILLING_CYCLES),
  features: z.array(z.string()),
  is_featured: z.boolean(),
  /** Installed at the customer's address: an order must give the service address (issue 31). */
  requires_installation: z.boolean().optional(),
  sort_order: z.number().int(),
  status: z.enum(PLAN_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Plan = z.infer<typeof planSchema>;

const speed = (label: string) =>
  z
    .number({ message: `${label} is required` })
    .int({ message: `${label} must be a whole number` })
    .positive({ message: `${label} must be greater than 0` })
    .max(1_000_000);
const money = (label: string) =>
  z
    .number({ message: `${label} is required` })
    .int({ message: `${label} must be in minor units (a whole number)` })
    .min(0, { message: `${label} cannot be negative` })
    .max(100_000_000);

/**
 * Create body. Unknown keys (id, created_at, updated_at sent back by a form) are stripped, not refused
 * (spec §5: payload cleanup). slug is generated from name when absent; currency defaults to the settings'.
 */
export const planInputSchema = z
  .object({
    name: z
      .string({ message: 'Name is required' })
      .trim()
      .min(2, { message: 'Name must be at least 2 characters' })
      .max(80, { message: 'Name must be at most 80 characters' }),
    slug: z
      .string()
      .trim()
      .toLowerCase()
      .min(1)
      .max(100)
      .regex(SLUG_PATTERN, { message: 'Slug may contain only lowercase letters, digits and dashes' })
      .optional(),
    description: z
      .string()
      .trim()
      .max(2000)
      .nullable()
      .optional()
      .transform((v) => (v ? v : null)),
    description_translations: descriptionTranslationsSchema.optional().default({}),
    download_mbps: speed('Download speed'),
    upload_mbps: speed('Upload speed'),
    data_cap_gb: z
      .number()
      .int()
      .positive({ message: 'Data cap must be greater than 0' })
      .nullable()
      .optional()
      .default(null),
    data_cap_action: z
      .enum(DATA_CAP_ACTIONS, { message: `Data cap action must be one of ${DATA_CAP_ACTIONS.join(', ')}` })
      .optional(),
    throttle_download_kbps: throttleKbps.optional(),
    throttle_upload_kbps: throttleKbps.optional(),
    usage_tiers: usageTiersSchema.optional().default([]),
    price: money('Price'),
    setup_fee: money('Setup fee').optional().default(0),
    currency: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{3}$/, { message: 'Currency must be a 3-letter code' })
      .optional(),
    billing_cycle: z.enum(BILLING_CYCLES, { message: `Billing cycle must be one of ${BILLING_CYCLES.join(', ')}` }),
    features: z.array(z.string().trim().min(1).max(200)).max(50).optional().default([]),
    is_featured: z.boolean().optional().default(false),
    requires_installation: z.boolean().optional().default(false),
    sort_order: z.number().int().min(-100_000).max(100_000).optional().default(0),
    status: z.enum(PLAN_STATUSES).optional().default('active'),
  })
  .superRefine((plan, ctx) => {
    for (const p of usageTierProblems(plan.usage_tiers, plan.data_cap_gb))
      ctx.addIssue({ code: 'custom', path: ['usage_tiers', ...p.path], message: p.message });
  });
export type PlanInput = z.input<typeof planInputSchema>;
export type PlanInputParsed = z.output<typeof planInputSchema>;

/** Update body: every field optional, no defaults applied (absent = unchanged). A body of only {status} is the toggle. */
export const planUpdateSchema = z.object({
  name: planInputSchema.shape.name.optional(),
  slug: planInputSchema.shape.slug,
  description: z
    .string()
    .trim()
    .max(2000)
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v ? v : null)),
  /** Sent: replaces every language's description (a language left out has none). */
  description_translations: descriptionTranslationsSchema.optional(),
  download_mbps: speed('Download speed').optional(),
  upload_mbps: speed('Upload speed').optional(),
  data_cap_gb: z.number().int().positive({ message: 'Data cap must be greater than 0' }).nullable().optional(),
  data_cap_action: planInputSchema.shape.data_cap_action,
  throttle_download_kbps: throttleKbps.optional(),
  throttle_upload_kbps: throttleKbps.optional(),
  /** Checked against the data cap with the stored plan (the cap may be left out of the body). */
  usage_tiers: usageTiersSchema.optional().superRefine((tiers, ctx) => {
    for (const p of usageTierProblems(tiers ?? [], null))
      ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
  }),
  price: money('Price').optional(),
  setup_fee: money('Setup fee').optional(),
  currency: planInputSchema.shape.currency,
  billing_cycle: z
    .enum(BILLING_CYCLES, { message: `Billing cycle must be one of ${BILLING_CYCLES.join(', ')}` })
    .optional(),
  features: z.array(z.string().trim().min(1).max(200)).max(50).optional(),
  is_featured: z.boolean().optional(),
  requires_installation: z.boolean().optional(),
  sort_order: z.number().int().min(-100_000).max(100_000).optional(),
  status: z.enum(PLAN_STATUSES).optional(),
});
export type PlanUpdate = z.input<typeof planUpdateSchema>;
export type PlanUpdateParsed = z.output<typeof planUpdateSchema>;

export const planListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).optional().default(1),
  limit: z.coerce.number().int().min(1).max(100).optional().default(20),
  sort: z.enum(PLAN_SORT_FIELDS).optional().default('sort_order'),
  order: z.enum(['asc', 'desc']).optional().default('asc'),
  status: z.enum(PLAN_STATUSES).optional(),
  billing_cycle: z.enum(BILLING_CYCLES).optional(),
  search: z.string().trim().max(100).optional(),
  /** The language of the descriptions (issue 37): each plan's own in it, else the default language's. */
  lang: z.string().trim().max(35).optional(),
});
export type PlanListQuery = z.input<typeof planListQuerySchema>;
export type PlanListQueryParsed = z.output<typeof planListQuerySchema>;
