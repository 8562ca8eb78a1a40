/**
 * Autopay (issue 21): a customer's saved cards and a subscription's "Pay automatically" state. The card number
 * never reaches the portal: only brand, last four and expiry.
 */
import { z } from 'zod';

export const savedCardSchema = z.object({
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
});
export type SavedCardView = z.infer<typeof savedCardSchema>;

export const paymentMethodSchema = savedCardSchema.extend({
  id: z.string().uuid(),
  user_id: z.string().uuid(),
  provider: z.string(),
  created_at: z.string(),
  /** Subscriptions that charge this card automatically. */
  subscription_ids: z.array(z.string().uuid()),
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

/** What the customer and staff see of a subscription's autopay. */
export const autopayStateSchema = z.object({
  enabled: z.boolean(),
  card: savedCardSchema.extend({ id: z.string().uuid() }).nullable(),
  last_failure: z.object({ at: z.string(), code: z.string(), message: z.string() }).nullable(),
  /** When the next automatic attempt is scheduled (a retry after a failure), or null. */
  next_retry: z.string().nullable(),
  /** A saved card of this customer that autopay could use (turning it on needs one). */
  available_card: savedCardSchema.extend({ id: z.string().uuid() }).nullable(),
});
export type AutopayState = z.infer<typeof autopayStateSchema>;

export const autopayToggleInputSchema = z.object({
  enabled: z.boolean({ message: 'enabled must be true or false' }),
});
export type AutopayToggleInput = z.input<typeof autopayToggleInputSchema>;

export const autopaySetupStartedSchema = z.object({ paymentUrl: z.string() });

export const paymentMethodListQuerySchema = z.object({
  /** Staff: another customer's cards. */
  user_id: z.string().uuid({ message: 'user_id must be a valid id' }).optional(),
});

/** billing.autopay_retry_days: days after the first attempt; 1–10 increasing whole days between 1 and 60. */
export const autopayRetryDaysSchema = z
  .array(
    z
      .number({ message: 'Retry days must be numbers' })
      .int({ message: 'Retry days must be whole days' })
      .min(1, { message: 'Retry days must be between 1 and 60' })
      .max(60, { message: 'Retry days must be between 1 and 60' }),
  )
  .max(10, { message: 'At most 10 retries' })
  .refine((days) => days.every((d, i) => i === 0 || d > days[i - 1]), {
    message: 'Retry days must be in increasing order',
  });

export const AUTOPAY_MESSAGES = {
  methods: 'Saved cards',
  setupStarted: 'Card set-up started',
  removed: 'Card removed; automatic payment is off for the subscriptions that used it',
  enabled: 'Automatic payment is on',
  disabled: 'Automatic payment is off',
  state: 'Automatic payment',
  notFound: 'Subscription not found',
  methodNotFound: 'Saved card not found',
  noCard: 'Save a card first: automatic payment needs a saved card',
  noProvider: 'No payment gateway that can save cards is active',
  notOwner: 'Only the customer can save a card for their subscription',
  notActive: 'Automatic payment is for subscriptions that are pending, active or suspended',
} as const;
