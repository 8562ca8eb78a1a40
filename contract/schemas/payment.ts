import { z } from 'zod';

/** Payments (spec §3, §4, §7, issue 4). Money is integer minor units; JSON is snake_case. */
export const PAYMENT_STATUSES = ['pending', 'paid', 'failed', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** How staff record a manual payment. */
export const MANUAL_PAYMENT_METHODS = ['cash', 'bank_transfer'] as const;
export type ManualPaymentMethod = (typeof MANUAL_PAYMENT_METHODS)[number];

/** Spec §8 ("a payment counts as complete when its status is paid, completed or success"). */
export const COMPLETE_PAYMENT_STATUSES = ['paid', 'completed', 'success'] as const;
export const isCompletePaymentStatus = (status: string) => (COMPLETE_PAYMENT_STATUSES as readonly string[]).includes(status.toLowerCase());

/** Why a payment was not counted (stored as its failure_reason). */
export const PAYMENT_FAILURE_REASONS = {
  amountMismatch: 'Amount or currency does not match the invoice',
  alreadyPaid: 'Invoice already paid: not counted, refund needed',
  notPayable: 'Invoice not payable: not counted, refund needed',
  declined: 'Declined by the payer or the provider',
} as const;

/** Failed payments whose money the provider did take: they are owed back (automatically, or by staff). */
export const REFUND_NEEDED_REASONS = [PAYMENT_FAILURE_REASONS.alreadyPaid, PAYMENT_FAILURE_REASONS.notPayable, PAYMENT_FAILURE_REASONS.amountMismatch] as const;

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
  z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().uuid({ message: `${name} must be a valid id` }).optional());

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
  amount: z.number({ message: 'amount is required' }).int({ message: 'amount must be whole minor units' }).positive({ message: 'amount must be positive' }),
  payment_method: z.enum(MANUAL_PAYMENT_METHODS, { message: 'payment_method must be cash or bank_transfer' }),
  reference: z.string({ message: 'reference is required' }).trim().min(1, { message: 'reference is required' }).max(200, { message: 'reference must be at most 200 characters' }),
});
export type ManualPaymentInput = z.input<typeof manualPaymentInputSchema>;
export type ManualPaymentInputParsed = z.output<typeof manualPaymentInputSchema>;

export const PAYMENT_MESSAGES = {
  initiated: 'Payment initiated successfully',
  statusPending: 'Payment is pending',
  statusPaid: 'Payment completed successfully',
  statusFailed: 'Payment failed',
  statusRefunded: 'Payment refunded',
  manualRecorded: 'Payment recorded successfully',
  webhookProcessed: 'Webhook processed',
  webhookDuplicate: 'Event already processed',
  alreadyCounted: 'Payment already processed',
  notCounted: 'The invoice was already paid; this payment was not counted and needs a refund',
  notCountedRefunded: 'The invoice was already paid; this payment was not counted and was refunded',
  refunded: 'Payment refunded successfully',
  invoicePayments: 'Payments retrieved successfully',
  refundNotPaid: 'Only a paid payment, or one taken but not counted, can be refunded',
  refundInProgress: 'A refund of this payment is already in progress',
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
