/**
 * Every movement of money, one function each (issue 31). The money modules (payments, refunds, invoices, credit,
 * and through them subscriptions, billing, autopay and vouchers) call these instead of writing credit entries or
 * deciding on their own what a payment or a refund does to a customer's money. Each runs in the caller's
 * transaction and writes one balanced transfer (ledger.ts) and, where the customer's credit moves, the
 * credit_entries row of their credit history, so the two cannot disagree.
 *
 * Locking (credit/ledger.ts): whatever the caller holds (payment, invoice, subscription rows), then the customer's
 * users row (lockCustomer) before a balance is read, so two writers never spend the same credit.
 *
 * A refund reverses every movement its payment caused: the part the invoice kept leaves revenue, the overpayment's
 * credit leaves the credit account (refund to the payer), or the kept part becomes credit (refund to credit).
 */
import type { Db } from '../../db/client';
import type { CreditEntryKind, CreditEntryRow, InvoiceRow, PaymentRow } from '../../db/schema';
import { balanceOf, lockCustomer, overpaidBy } from '../credit/ledger';
import { createInvoiceRepository } from '../invoices/repository';
import { transfer } from './ledger';
import { createLedgerRepository } from './repository';

interface NewCreditEntry {
  userId: string;
  kind: CreditEntryKind;
  amount: number;
  currency: string;
  reason?: string | null;
  invoiceId?: string | null;
  paymentId?: string | null;
  createdBy?: string | null;
  now: Date;
}

/** One line of the customer's credit history; only the movements below write them (with their transfer). */
async function creditEntry(tx: Db, entry: NewCreditEntry): Promise<CreditEntryRow> {
  if (!Number.isInteger(entry.amount) || entry.amount === 0)
    throw new Error('A credit entry is a non-zero whole number of minor units');
  return createLedgerRepository(tx).insertCreditEntry({
    userId: entry.userId,
    kind: entry.kind,
    amount: entry.amount,
    currency: entry.currency,
    reason: entry.reason ?? null,
    invoiceId: entry.invoiceId ?? null,
    paymentId: entry.paymentId ?? null,
    createdBy: entry.createdBy ?? null,
    createdAt: entry.now,
  });
}

type PaymentRef = Pick<PaymentRow, 'id' | 'userId' | 'currency' | 'amount' | 'invoiceId'>;

/**
 * A payment counted for its invoice: the payer's money splits into revenue (the amount due) and, for a manual
 * payment above the amount due, credit (an overpayment entry). The caller has marked payment and invoice paid.
 */
export async function paymentReceived(
  tx: Db,
  payment: PaymentRef,
  invoice: Pick<InvoiceRow, 'id' | 'number'>,
  overpaid: number,
  now: Date,
  createdBy: string | null,
): Promise<void> {
  if (overpaid > 0) {
    await lockCustomer(tx, payment.userId);
    await creditEntry(tx, {
      userId: payment.userId,
      kind: 'overpayment',
      amount: overpaid,
      currency: payment.currency,
      reason: `Overpayment of invoice ${invoice.number}`,
      invoiceId: invoice.id,
      paymentId: payment.id,
      createdBy,
      now,
    });
  }
  await transfer(
    tx,
    {
      userId: payment.userId,
      currency: payment.currency,
      kind: 'payment_received',
      paymentId: payment.id,
      invoiceId: invoice.id,
      now,
    },
    { payer: -payment.amount, revenue: payment.amount - overpaid, credit: overpaid },
  );
}

/** A provider took money no invoice counted (already paid, not payable, wrong amount): held until given back. */
export async function paymentHeld(tx: Db, payment: PaymentRef, now: Date): Promise<void> {
  await transfer(
    tx,
    {
      userId: payment.userId,
      currency: payment.currency,
      kind: 'payment_held',
      paymentId: payment.id,
      invoiceId: payment.invoiceId,
      now,
    },
    { payer: -payment.amount, held: payment.amount },
  );
}

/** Held money given back to the payer. */
export async function heldRefunded(tx: Db, payment: PaymentRef, now: Date): Promise<void> {
  await transfer(
    tx,
    {
      userId: payment.userId,
      currency: payment.currency,
      kind: 'held_refunded',
      paymentId: payment.id,
      invoiceId: payment.invoiceId,
      now,
    },
    { held: -payment.amount, payer: payment.amount },
  );
}

/**
 * A counted payment given back to the payer through its provider: the invoice's part leaves revenue and the
 * overpayment's credit is taken back (overpayment_reversed). The caller has checked that the balance still holds
 * it (refundByStaff answers 409 first); when a provider reports a refund after the credit was spent, only what is
 * left is taken and the rest is a shortfall (the reconciliation alarm). Returns the credit taken back.
 */
export async function refundedToPayer(
  tx: Db,
  payment: PaymentRef,
  now: Date,
  createdBy: string | null,
  reason: string,
): Promise<number> {
  const overpaid = await overpaidBy(tx, payment.id);
  let taken = 0;
  if (overpaid > 0) {
    await lockCustomer(tx, payment.userId);
    taken = Math.max(0, Math.min(overpaid, await balanceOf(tx, payment.userId, payment.currency)));
    if (taken > 0) {
      await creditEntry(tx, {
        userId: payment.userId,
        kind: 'overpayment_reversed',
        amount: -taken,
        currency: payment.currency,
        reason,
        paymentId: payment.id,
        createdBy,
        now,
      });
    }
  }
  await transfer(
    tx,
    {
      userId: payment.userId,
      currency: payment.currency,
      kind: 'refund_to_provider',
      paymentId: payment.id,
      invoiceId: payment.invoiceId,
      now,
    },
    { payer: payment.amount, revenue: -(payment.amount - overpaid), credit: -taken, shortfall: -(overpaid - taken) },
  );
  return taken;
}

/**
 * A counted payment refunded to the customer's credit: what the invoice kept (the payment less its overpayment,
 * which is credit already) moves from revenue to credit. Returns the credit entry, or null when nothing was kept.
 */
export async function refundedToCredit(
  tx: Db,
  payment: PaymentRef,
  invoiceNumber: string | null,
  now: Date,
  createdBy: string | null,
): Promise<CreditEntryRow | null> {
  const kept = payment.amount - (await overpaidBy(tx, payment.id));
  if (kept <= 0) return null;
  await lockCustomer(tx, payment.userId);
  const entry = await creditEntry(tx, {
    userId: payment.userId,
    kind: 'refund_to_credit',
    amount: kept,
    currency: payment.currency,
    reason: `Refund of invoice ${invoiceNumber ?? ''} to credit`.replace('  ', ' '),
    invoiceId: payment.invoiceId,
    paymentId: payment.id,
    createdBy,
    now,
  });
  await transfer(
    tx,
    {
      userId: payment.userId,
      currency: payment.currency,
      kind: 'refund_to_credit',
      paymentId: payment.id,
      invoiceId: payment.invoiceId,
      now,
    },
    { revenue: -kept, credit: kept },
  );
  return entry;
}

/**
 * A newly issued invoice uses the customer's credit in its currency first: min(balance, total) moves from credit
 * to revenue and becomes the invoice's credit_applied. Returns the invoice as it is now (unchanged when there is no
 * credit). The caller decides what "fully covered" means for the invoice's status.
 */
export async function applyCreditToInvoice(tx: Db, invoice: InvoiceRow, now: Date): Promise<InvoiceRow> {
  if (invoice.totalAmount <= 0 || invoice.creditApplied > 0) return invoice;
  await lockCustomer(tx, invoice.userId);
  const balance = await balanceOf(tx, invoice.userId, invoice.currency);
  const applied = Math.min(balance, invoice.totalAmount);
  if (applied <= 0) return invoice;
  await creditEntry(tx, {
    userId: invoice.userId,
    kind: 'applied_to_invoice',
    amount: -applied,
    currency: invoice.currency,
    reason: `Applied to invoice ${invoice.number}`,
    invoiceId: invoice.id,
    now,
  });
  await transfer(
    tx,
    { userId: invoice.userId, currency: invoice.currency, kind: 'credit_applied', invoiceId: invoice.id, now },
    { credit: -applied, revenue: applied },
  );
  return createInvoiceRepository(tx).setCreditApplied(invoice.id, applied, now);
}

/**
 * An invoice that will never be paid (cancelled, deleted) gives back the credit it had applied when it was
 * issued: revenue back to credit, a released_from_invoice entry (one per invoice, a partial unique index).
 * Nothing when none was applied or it was released already.
 */
export async function releaseInvoiceCredit(
  tx: Db,
  invoice: Pick<InvoiceRow, 'id' | 'userId' | 'currency' | 'creditApplied' | 'number'>,
  now: Date,
): Promise<void> {
  if (invoice.creditApplied <= 0) return;
  await lockCustomer(tx, invoice.userId);
  if (await createLedgerRepository(tx).invoiceCreditReleased(invoice.id)) return;
  await creditEntry(tx, {
    userId: invoice.userId,
    kind: 'released_from_invoice',
    amount: invoice.creditApplied,
    currency: invoice.currency,
    reason: `Invoice ${invoice.number} cancelled: credit returned`,
    invoiceId: invoice.id,
    now,
  });
  await transfer(
    tx,
    { userId: invoice.userId, currency: invoice.currency, kind: 'credit_released', invoiceId: invoice.id, now },
    { revenue: -invoice.creditApplied, credit: invoice.creditApplied },
  );
}

/**
 * Staff give (amount > 0) or take (amount < 0) credit. The caller has locked the customer and refused a balance
 * below zero (CreditService.adjust answers 409).
 */
export async function creditAdjusted(
  tx: Db,
  input: { userId: string; amount: number; currency: string; reason: string; createdBy: string | null; now: Date },
): Promise<CreditEntryRow> {
  const row = await creditEntry(tx, { ...input, kind: 'adjustment' });
  await transfer(
    tx,
    { userId: input.userId, currency: input.currency, kind: 'credit_adjustment', now: input.now },
    { grants: -input.amount, credit: input.amount },
  );
  return row;
}
