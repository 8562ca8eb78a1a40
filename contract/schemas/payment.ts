import { z } from 'zod';

/** Payments (spec §3, §4, §7, issue 4). Money is integer minor units; JSON is snake_case. */
/**
 * expired (issue 31): a checkout the customer abandoned, closed by the payment-expiry sweep after
 * PAYMENT_CHECKOUT_HOURS (CHECKOUT_LIFETIME_HOURS, 24); no money was taken, and a late success from the provider still counts it.
 */
export const PAYMENT_STATUSES = ['pending', 'paid', 'failed', 'refunded', 'expired'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * How long a checkout (POST /payments/initiate) stays open before the payment-expiry sweep marks it expired:
 * 24 hours, the lifetime of a Stripe Checkout Session (its default and its maximum), so the portal never shows
 * as pending a checkout the provider has already closed, nor closes one the customer could still finish. A
 * success reported later still counts (PaymentService.completePayment). PAYMENT_CHECKOUT_HOURS overrides it.
 */
export const CHECKOUT_LIFETIME_HOURS = 24;

/**
 * A staff recording (cash, bank transfer) writes its pending row and completes it within one request, in
 * seconds; one still pending after this long belongs to a request that died (a node killed in between).
 */
export const MANUAL_RECORDING_TIMEOUT_MINUTES = 10;

/** How staff record a manual payment. */
export const MANUAL_PAYMENT_METHODS = ['cash', 'bank_transfer'] as const;
export type ManualPaymentMethod = (typeof MANUAL_PAYMENT_METHODS)[number];

/** Spec §8 ("a payment counts as complete when its status is paid, completed or success"). */
export const COMPLETE_PAYMENT_STATUSES = ['paid', 'completed', 'success'] as const;
export const isCompletePaymentStatus = (status: string) =>
  (COMPLETE_PAYMENT_STATUSES as readonly string[]).includes(status.toLowerCase());

/** Why a payment was not counted (stored as its failure_reason). */
export const PAYMENT_FAILURE_REASONS = {
  amountMismatch: 'Amount or currency does not match the invoice',
  alreadyPaid: 'Invoice already paid: not counted, refund needed',
  notPayable: 'Invoice not payable: not counted, refund needed',
  declined: 'Declined by the payer or the provider',
  /** A staff recording whose request died between writing the pending row and completing it (the expiry sweep). */
  recordingDied: 'Recording did not finish; no money was counted',
} as const;

/** Failed payments whose money the provider did take: they are owed back (automatically, or by staff). */
export const REFUND_NEEDED_REASONS = [
  PAYMENT_FAILURE_REASONS.alreadyPaid,
  PAYMENT_FAILURE_REASONS.notPayable,
  PAYMENT_FAILURE_REASONS.amountMismatch,
] as const;

/** Marks a payment whose refund is being made at the provider (the claim against a double refund). */
export const REFUND_IN_PROGRESS = 'Refund in progress';

/** Whether a refund may be asked for: paid, or taken but not counted, and no refund already under way. */
export function isRefundable(status: string, failureReason: string | null): boolean {
  if (status === 'paid') return failureReason !== REFUND_IN_PROGRESS;
  return status === 'failed' && (REFUND_NEEDED_REASONS as readonly string[]).includes(failureReason ?? '');
}

export const paymentSchema = z.object({
  id: z.string().uuid(),
  invoice_id: z.string().uuid(),
  user_id: z.string().uuid(),
  gateway_id: z.string().uuid().nullable(),
  /** The provider adapter that handles it: sandbox, stripe, manual. */
  provider: z.string(),
  /** The provider's reference (unique per provider). */
  transaction_id: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  amount: z.number().int(),
  currency: z.string(),
  /** The provider id, or cash / bank_transfer for manual payments. */
  payment_method: z.string(),
  payment_date: z.string().nullable(),
  reference: z.string().nullable(),
  /** Why a payment was not counted (amount mismatch, invoice already paid: refund needed, declined). */
  failure_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Payment = z.infer<typeof paymentSchema>;

const optionalUuid = (name: string) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z
      .string()
      .uuid({ message: `${name} must be a valid id` })
      .optional(),
  );

/** A row of the staff payments list (GET /payments): the payment with its customer, invoice and gateway. */
export const paymentListItemSchema = paymentSchema.extend({
  user_name: z.string(),
  user_email: z.string(),
  invoice_number: z.string(),
  /** The gateway's name; null for a payment whose gateway was deleted (or a manual one recorded without one). */
  gateway_name: z.string().nullable(),
});
export type PaymentListItem = z.infer<typeof paymentListItemSchema>;

export const PAYMENT_PAGE_DEFAULT_LIMIT = 20;
const emptyAsAbsent = (v: unknown) => (v === '' || v === null ? undefined : v);
/** A day (YYYY-MM-DD, UTC: from its start / to its end) or an ISO date-time with offset (as the list's date filter sends). */
const dayOrInstant = z.union([z.string().regex(/^\d{4}-\d{2}-\d{2}$/), z.iso.datetime({ offset: true })], {
  message: 'Use a date (YYYY-MM-DD) or an ISO date-time, e.g. 2026-01-31T00:00:00Z',
});

/**
 * GET /payments (admin, billing, support): every payment, newest first (created_at, then id), filtered by status,
 * provider, method, gateway, customer, a created_at range (inclusive) and a search on the reference, the
 * provider's transaction id, the customer's e-mail or the invoice number.
 */
export const paymentListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).optional().default(1),
  limit: z.coerce.number().int().min(1).max(100).optional().default(PAYMENT_PAGE_DEFAULT_LIMIT),
  status: z.preprocess(
    emptyAsAbsent,
    z.enum(PAYMENT_STATUSES, { message: `status must be one of ${PAYMENT_STATUSES.join(', ')}` }).optional(),
  ),
  provider: z.preprocess(emptyAsAbsent, z.string().trim().min(1).max(32).optional()),
  payment_method: z.preprocess(emptyAsAbsent, z.string().trim().min(1).max(32).optional()),
  gateway_id: optionalUuid('gateway_id'),
  user_id: optionalUuid('user_id'),
  from: z.preprocess(emptyAsAbsent, dayOrInstant.optional()),
  to: z.preprocess(emptyAsAbsent, dayOrInstant.optional()),
  search: z.preprocess(emptyAsAbsent, z.string().trim().max(200).optional()),
});
export type PaymentListQuery = z.input<typeof paymentListQuerySchema>;
export type PaymentListQueryParsed = z.output<typeof paymentListQuerySchema>;

/** POST /payments/initiate. Only invoice_id matters; the others are accepted as the client sends them. */
export const paymentInitiateInputSchema = z.object({
  invoice_id: z.string({ message: 'invoice_id is required' }).uuid({ message: 'invoice_id must be a valid id' }),
  subscription_id: optionalUuid('subscription_id'),
  user_id: optionalUuid('user_id'),
  plan_id: optionalUuid('plan_id'),
  /** A provider id (sandbox, stripe, manual); default: the default active gateway's provider. */
  payment_method: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().trim().max(32).optional()),
});
export type PaymentInitiateInput = z.input<typeof paymentInitiateInputSchema>;
export type PaymentInitiateInputParsed = z.output<typeof paymentInitiateInputSchema>;

export const paymentInitiatedSchema = z.object({
  /** The hosted checkout page; null for manual payments (no checkout). */
  paymentUrl: z.string().nullable(),
  /** The same address (some clients read redirectUrl). */
  redirectUrl: z.string().nullable(),
  transactionId: z.string(),
  payment: paymentSchema,
});
export type PaymentInitiated = z.infer<typeof paymentInitiatedSchema>;

export const paymentStatusSchema = z.object({ payment: paymentSchema });

/** POST /payments/invoices/{id}/manual (admin, billing). */
export const manualPaymentInputSchema = z.object({
  amount: z
    .number({ message: 'amount is required' })
    .int({ message: 'amount must be whole minor units' })
    .positive({ message: 'amount must be positive' }),
  payment_method: z.enum(MANUAL_PAYMENT_METHODS, { message: 'payment_method must be cash or bank_transfer' }),
  reference: z
    .string({ message: 'reference is required' })
    .trim()
    .min(1, { message: 'reference is required' })
    .max(200, { message: 'reference must be at most 200 characters' }),
});
export type ManualPaymentInput = z.input<typeof manualPaymentInputSchema>;
export type ManualPaymentInputParsed = z.output<typeof manualPaymentInputSchema>;

export const PAYMENT_MESSAGES = {
  initiated: 'Payment initiated successfully',
  statusPending: 'Payment is pending',
  statusPaid: 'Payment completed successfully',
  statusFailed: 'Payment failed',
  statusRefunded: 'Payment refunded',
  statusExpired: 'Payment expired',
  manualRecorded: 'Payment recorded successfully',
  webhookProcessed: 'Webhook processed',
  webhookDuplicate: 'Event already processed',
  alreadyCounted: 'Payment already processed',
  notCounted: 'The invoice was already paid; this payment was not counted and needs a refund',
  notCountedRefunded: 'The invoice was already paid; this payment was not counted and was refunded',
  refunded: 'Payment refunded successfully',
  invoicePayments: 'Payments retrieved successfully',
  list: 'Payments retrieved successfully',
  refundNotPaid: 'Only a paid payment, or one taken but not counted, can be refunded',
  refundInProgress: 'A refund of this payment is already in progress',
  overpaymentSpent: (overpaid: string, balance: string) =>
    `This payment left ${overpaid} of credit, and only ${balance} of credit is left: refund it to credit instead, or add the spent credit back first`,
  refundUnavailable: 'The payment provider could not make the refund; nothing was changed',
  invoiceNotFound: 'Invoice not found',
  notYourInvoice: 'You can only pay your own invoices',
  invoicePaid: 'This invoice is already paid',
  invoiceNotPayable: 'This invoice cannot be paid',
  noGateway: 'No active payment gateway is available',
  providerUnavailable: 'This payment method is not available',
  paymentNotFound: 'Payment not found',
  amountMismatch: 'Payment amount does not match the invoice',
  badSignature: 'Invalid webhook signature',
  unknownProvider: 'Unknown payment provider',
} as const;
