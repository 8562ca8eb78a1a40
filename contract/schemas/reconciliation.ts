import { z } from 'zod';

/**
 * The reconciliation report (issue 31): per period and currency, where the money went, and the customers whose
 * books do not balance. The invariant, for each customer and currency, at every moment:
 *
 *   received + credit granted by staff = applied to invoices + credit balance + refunded to the payer + held
 *
 * received: every payment the payer's money reached us by (paid, refunded, or taken but not counted);
 * applied: a paid invoice's total, and the credit an open, refunded or cancelled invoice still holds;
 * refunded: payments given back through their provider (a refund to credit is in the credit balance instead);
 * held: payments taken but not counted (invoice already paid, wrong amount) that are still to be given back.
 * Money is integer minor units.
 *
 * Each side is a balance of the double-entry ledger (server/db/schema/money.ts, ledger_postings), where the sum holds
 * by construction; the alarm is a customer whose ledger differs from the payments, invoices and credit history the
 * modules keep, or whose ledger shows a shortfall.
 */
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Use a date as YYYY-MM-DD' });

export const reconciliationQuerySchema = z
  .object({ from: isoDay.optional(), to: isoDay.optional() })
  .refine((q) => !q.from || !Number.isNaN(Date.parse(`${q.from}T00:00:00Z`)), {
    message: 'Use a date as YYYY-MM-DD',
    path: ['from'],
  })
  .refine((q) => !q.to || !Number.isNaN(Date.parse(`${q.to}T00:00:00Z`)), {
    message: 'Use a date as YYYY-MM-DD',
    path: ['to'],
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'The start must not be after the end', path: ['to'] });
export type ReconciliationQuery = z.output<typeof reconciliationQuerySchema>;

export const receivedLineSchema = z.object({
  provider: z.string(),
  payment_method: z.string().nullable(),
  gateway_id: z.string().nullable(),
  gateway_name: z.string().nullable(),
  amount: z.number().int(),
  count: z.number().int(),
});

export const currencyReportSchema = z.object({
  currency: z.string(),
  /** Money that reached us in the period, by provider, method and gateway. */
  received: z.number().int(),
  received_by: z.array(receivedLineSchema),
  /** Totals of the invoices paid in the period (by money and credit together). */
  invoices_paid: z.number().int(),
  invoices_paid_count: z.number().int(),
  /** The credit ledger's movements in the period, by kind (signed: + adds credit, − uses it). */
  credit_movements: z.record(z.string(), z.number().int()),
  refunded_to_provider: z.number().int(),
  refunded_to_credit: z.number().int(),
});

export const imbalanceSchema = z.object({
  user_id: z.string(),
  user_name: z.string().nullable(),
  user_email: z.string().nullable(),
  currency: z.string(),
  received: z.number().int(),
  granted: z.number().int(),
  applied: z.number().int(),
  credit: z.number().int(),
  refunded: z.number().int(),
  held: z.number().int(),
  /**
   * received + granted − (applied + credit + refunded + held) from the ledger: 0 when the books balance. Negative
   * when money was given back that was no longer there (the ledger's shortfall account).
   */
  difference: z.number().int(),
  /**
   * Where the double-entry ledger and the modules' own rows (payments, invoices, credit history) disagree, side by
   * side: money moved without its ledger transfer, or a ledger transfer without its movement. Empty when they agree.
   */
  mismatches: z.array(
    z.object({
      side: z.enum(['received', 'granted', 'applied', 'credit', 'refunded', 'held']),
      ledger: z.number().int(),
      records: z.number().int(),
    }),
  ),
});
export type Imbalance = z.infer<typeof imbalanceSchema>;

export const reconciliationSchema = z.object({
  from: z.string(),
  to: z.string(),
  currencies: z.array(currencyReportSchema),
  /** Every customer and currency where the invariant does not hold, over all time (the alarm: there should be none). */
  imbalances: z.array(imbalanceSchema),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;
export type CurrencyReport = z.infer<typeof currencyReportSchema>;

export const RECONCILIATION_MESSAGES = { report: 'Reconciliation retrieved successfully' } as const;
