import { z } from 'zod';
import { pagePaginationSchema } from '../envelope';

/**
 * The customer credit ledger (issue 21). A customer's balance per currency is the sum of their entries; money
 * is integer minor units. Kinds: overpayment (+), refund_to_credit (+), adjustment (± by staff, with a
 * reason), applied_to_invoice (− when an invoice is issued and uses the credit), overpayment_reversed (− when
 * a payment that overpaid is refunded to its payer: its excess goes back with it), released_from_invoice (+ when an
 * invoice that had used credit is cancelled or deleted).
 */
export const CREDIT_KINDS = [
  'overpayment',
  'refund_to_credit',
  'adjustment',
  'applied_to_invoice',
  'overpayment_reversed',
  'released_from_invoice',
] as const;
export type CreditKind = (typeof CREDIT_KINDS)[number];

export const CREDIT_PAGE_DEFAULT_LIMIT = 20;

export const creditEntrySchema = z.object({
  id: z.string().uuid(),
  kind: z.enum(CREDIT_KINDS),
  /** Signed minor units: + adds credit, − uses it. */
  amount: z.number().int(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  reason: z.string().nullable(),
  invoice_id: z.string().uuid().nullable(),
  invoice_number: z.string().nullable(),
  payment_id: z.string().uuid().nullable(),
  created_by: z.string().uuid().nullable(),
  created_at: z.string(),
});
export type CreditEntry = z.infer<typeof creditEntrySchema>;

export const creditBalanceSchema = z.object({ currency: z.string(), amount: z.number().int() });
export type CreditBalance = z.infer<typeof creditBalanceSchema>;

/** GET /credit (the caller's own) and GET /users/{id}/credit (staff): balances and the history, newest first. */
export const creditAccountSchema = z.object({
  balances: z.array(creditBalanceSchema),
  entries: z.array(creditEntrySchema),
  pagination: pagePaginationSchema,
});
export type CreditAccount = z.infer<typeof creditAccountSchema>;

export const creditQuerySchema = z.object({
  page: z.coerce.number().int().min(1).optional().default(1),
  limit: z.coerce.number().int().min(1).max(100).optional().default(CREDIT_PAGE_DEFAULT_LIMIT),
});
export type CreditQueryParsed = z.output<typeof creditQuerySchema>;

export const CREDIT_REASON_MIN = 3;
export const CREDIT_REASON_MAX = 500;

/** POST /users/{id}/credit: staff add (amount > 0) or take (amount < 0) credit, always with a reason. */
export const creditAdjustInputSchema = z.object({
  amount: z
    .number({ message: 'Amount is required (a whole number of minor units)' })
    .int({ message: 'Amount must be a whole number of minor units' })
    .refine((v) => v !== 0, { message: 'Amount must not be zero' })
    .refine((v) => Math.abs(v) <= 100_000_000, { message: 'Amount is too large' }),
  currency: z
    .string()
    .trim()
    .transform((v) => v.toUpperCase())
    .pipe(z.string().regex(/^[A-Z]{3}$/, { message: 'Currency must be a three-letter code' }))
    .optional(),
  reason: z
    .string({ message: 'A reason is required' })
    .trim()
    .min(CREDIT_REASON_MIN, { message: `A reason of at least ${CREDIT_REASON_MIN} characters is required` })
    .max(CREDIT_REASON_MAX, { message: `The reason must be at most ${CREDIT_REASON_MAX} characters` }),
});
export type CreditAdjustInput = z.input<typeof creditAdjustInputSchema>;
export type CreditAdjustInputParsed = z.output<typeof creditAdjustInputSchema>;

export const creditAdjustedSchema = z.object({ entry: creditEntrySchema, balance: creditBalanceSchema });
export type CreditAdjusted = z.infer<typeof creditAdjustedSchema>;

/** POST /payments/{id}/refund: optional body; "credit" keeps the money as the customer's credit. */
export const refundInputSchema = z
  .object({ to: z.enum(['provider', 'credit']).optional().default('provider') })
  .optional()
  .transform((v) => v ?? { to: 'provider' as const });
export type RefundInputParsed = z.output<typeof refundInputSchema>;

export const CREDIT_MESSAGES = {
  account: 'Credit retrieved successfully',
  adjusted: 'Credit adjusted successfully',
  userNotFound: 'User not found',
  belowZero: (balance: string) => `The adjustment would take more credit than the customer has (balance ${balance})`,
  refundedToCredit: 'Payment refunded to the customer\u2019s credit',
} as const;
