import { z } from 'zod';
import { autopayStateSchema } from './autopay';
import { invoiceSchema } from './invoice';
import { paymentSchema } from './payment';

/** Subscriptions (spec §3, §4, §7, issue 4). JSON is snake_case. */
export const SUBSCRIPTION_STATUSES = ['pending', 'active', 'suspended', 'cancelled', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Spec §9: the list's default meta. */
export const SUBSCRIPTION_LIST_DEFAULT_LIMIT = 50;

export const subscriptionSchema = z.object({
  id: z.string().uuid(),
  user_id: z.string().uuid(),
  plan_id: z.string().uuid(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  location: z.string().nullable(),
  note: z.string().nullable(),
  suspension_reason: z.string().nullable(),
  current_period_start: z.string().nullable(),
  current_period_end: z.string().nullable(),
  /** A line bought with data vouchers (issue 31): its data allowance in bytes (both directions) and what it used;
   *  the line ends when the use reaches the allowance. null: no allowance. */
  data_allowance_bytes: z.number().int().nullable(),
  data_used_bytes: z.number().int(),
  /** Denormalised for lists and detail screens. */
  plan_name: z.string(),
  user_name: z.string(),
  user_email: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Autopay (issue 21): on the detail (GET /subscriptions/:id) only. */
  autopay: autopayStateSchema.optional(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/** POST /subscriptions: user_id may be left out by a customer (it is the caller). */
export const subscriptionInputSchema = z.object({
  user_id: z.string({ message: 'user_id must be a string' }).uuid({ message: 'user_id must be a valid id' }).optional(),
  plan_id: z.string({ message: 'Plan is required' }).uuid({ message: 'plan_id must be a valid id' }),
  location: z
    .string()
    .trim()
    .max(300, { message: 'Location must be at most 300 characters' })
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
  note: z
    .string()
    .trim()
    .max(1000, { message: 'Note must be at most 1000 characters' })
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
});
export type SubscriptionInput = z.input<typeof subscriptionInputSchema>;
export type SubscriptionInputParsed = z.output<typeof subscriptionInputSchema>;

export const subscriptionCreatedSchema = z.object({ subscription: subscriptionSchema, invoice: invoiceSchema });
export type SubscriptionCreated = z.infer<typeof subscriptionCreatedSchema>;

/** GET /subscriptions: only the non-empty filters are sent (spec §7); empty strings count as absent. */
const emptyAsAbsent = (v: unknown) => (v === '' ? undefined : v);
export const subscriptionListQuerySchema = z.object({
  status: z.preprocess(emptyAsAbsent, z.enum(SUBSCRIPTION_STATUSES).optional()),
  user_id: z.preprocess(emptyAsAbsent, z.string().uuid({ message: 'user_id must be a valid id' }).optional()),
  plan_id: z.preprocess(emptyAsAbsent, z.string().uuid({ message: 'plan_id must be a valid id' }).optional()),
  search: z.preprocess(emptyAsAbsent, z.string().trim().max(100).optional()),
  /** Creation date range, inclusive UTC days (YYYY-MM-DD). */
  from: z.preprocess(
    emptyAsAbsent,
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Dates must be YYYY-MM-DD' })
      .optional(),
  ),
  to: z.preprocess(
    emptyAsAbsent,
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Dates must be YYYY-MM-DD' })
      .optional(),
  ),
  /** Page `page` of `limit` items, as every list; `offset` (rows to skip) is still accepted and wins when both are sent. */
  page: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional().default(SUBSCRIPTION_LIST_DEFAULT_LIMIT),
  offset: z.coerce.number().int().min(0).optional(),
});
export type SubscriptionListQuery = z.input<typeof subscriptionListQuerySchema>;
export type SubscriptionListQueryParsed = z.output<typeof subscriptionListQuerySchema>;

export const activePlanSchema = z.object({
  subscription: subscriptionSchema,
  plan: z.object({
    id: z.string().uuid(),
    name: z.string(),
    download_mbps: z.number().int(),
    upload_mbps: z.number().int(),
    data_cap_gb: z.number().int().nullable(),
    price: z.number().int(),
    currency: z.string(),
    billing_cycle: z.string(),
  }),
});
export type ActivePlan = z.infer<typeof activePlanSchema>;

/** PATCH /subscriptions/{id}/status (staff). A suspension needs a reason (checked in the service). */
export const subscriptionStatusInputSchema = z.object({
  status: z.enum(SUBSCRIPTION_STATUSES, { message: `status must be one of ${SUBSCRIPTION_STATUSES.join(', ')}` }),
  suspension_reason: z
    .string()
    .trim()
    .max(500, { message: 'Suspension reason must be at most 500 characters' })
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
});
export type SubscriptionStatusInputParsed = z.output<typeof subscriptionStatusInputSchema>;

/** POST /subscriptions/{id}/cancel */
export const subscriptionCancelInputSchema = z.object({
  suspension_reason: z
    .string()
    .trim()
    .max(500, { message: 'Reason must be at most 500 characters' })
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
  immediate: z.boolean().optional().default(false),
});
export type SubscriptionCancelInputParsed = z.output<typeof subscriptionCancelInputSchema>;

/** PATCH /subscriptions/{id}/upgrade */
export const subscriptionUpgradeInputSchema = z.object({
  plan_id: z.string({ message: 'Plan is required' }).uuid({ message: 'plan_id must be a valid id' }),
});

/** Renew and upgrade answer with the subscription and the invoice they issued. */
export const subscriptionWithInvoiceSchema = z.object({ subscription: subscriptionSchema, invoice: invoiceSchema });
export type SubscriptionWithInvoice = z.infer<typeof subscriptionWithInvoiceSchema>;

/**
 * GET /subscriptions/orders: the caller's subscriptions, newest first, each with its invoices and the payments
 * made on them (both newest first).
 */
export const orderSchema = subscriptionSchema.extend({
  invoices: z.array(invoiceSchema),
  payments: z.array(paymentSchema),
});
export type Order = z.infer<typeof orderSchema>;
