/**
 * Imports the old system's payments (issue 39) as paid invoices, so a customer's payment history is complete here.
 * Each is what the portal itself writes for an invoice paid at once: a paid invoice of one line, and one paid
 * payment of its total with its ledger movement (paymentReceived: the payer's money to revenue), so the books
 * balance (received = applied) and the reconciliation report counts it in the month it was paid.
 *
 * Nothing else happens: no subscription is renewed or activated by it (the subscriptions step brings their
 * periods), and no e-mail or receipt is sent.
 */
import { and, eq } from 'drizzle-orm';
import type { InvoiceLineItem } from '../../../contract/schemas/invoice';
import { invoices, payments } from '../../db/schema';
import { takeInvoiceNumber } from '../../modules/invoices/service';
import { paymentReceived } from '../../modules/ledger/movements';
import type { SourcePaidInvoice } from '../model';
import { isDryTarget, type Step, targetOf } from './types';

/** The payments' provider: imported money, told apart from the gateways' and from staff's manual records. */
export const IMPORT_PROVIDER = 'import';

const isoDate = (d: Date) => d.toISOString().slice(0, 10);

export const transactionIdOf = (source: string, key: string) => `${source}:${key}`;

export const invoicesStep: Step<SourcePaidInvoice> = {
  kind: 'invoice',
  auditTarget: 'invoice',
  items: (snapshot) => snapshot.invoices,

  async decide(db, ctx, item) {
    const userId = targetOf(ctx, 'customer', item.customerKey);
    if (!userId) return { action: 'skip', reason: `Its customer (${item.customerKey}) was not imported.` };
    if (!Number.isInteger(item.amount) || item.amount <= 0)
      return { action: 'skip', reason: 'Nothing was paid (the amount is not above 0).' };
    // A payment imported before (by a run whose mapping was lost) is the same money: linked, not counted twice.
    const [earlier] = await db
      .select({ invoiceId: payments.invoiceId })
      .from(payments)
      .where(
        and(eq(payments.provider, IMPORT_PROVIDER), eq(payments.transactionId, transactionIdOf(ctx.source, item.key))),
      )
      .limit(1);
    if (earlier) return { action: 'link', targetId: earlier.invoiceId, reason: 'This payment was imported before.' };
    const changes: string[] = [];
    if (item.method.length > 32) changes.push(`Its payment method is shortened to "${item.method.slice(0, 32)}".`);
    return changes.length ? { action: 'create', changes } : { action: 'create' };
  },

  async create(tx, ctx, item) {
    const userId = targetOf(ctx, 'customer', item.customerKey);
    if (!userId || isDryTarget(userId)) throw new Error(`Invoice ${item.key}: its customer was not imported`);
    const subscriptionId = targetOf(ctx, 'subscription', item.subscriptionKey);
    const day = isoDate(item.paidAt);
    const line: InvoiceLineItem = {
      description: item.description,
      quantity: 1,
      unit_amount: item.amount,
      amount: item.amount,
    };
    const number = await takeInvoiceNumber(tx, ctx.now);
    const [invoice] = await tx
      .insert(invoices)
      .values({
        number,
        userId,
        subscriptionId: subscriptionId && !isDryTarget(subscriptionId) ? subscriptionId : null,
        status: 'paid',
        currency: ctx.currency,
        lineItems: [line],
        subtotal: item.amount,
        taxRateBp: 0,
        tax: 0,
        totalAmount: item.amount,
        issueDate: day,
        dueDate: day,
        paidDate: item.paidAt,
        // Dated when it was paid, so the customer's history reads in order.
        createdAt: item.paidAt,
        updatedAt: ctx.now,
      })
      .returning();
    const [payment] = await tx
      .insert(payments)
      .values({
        invoiceId: invoice!.id,
        userId,
        provider: IMPORT_PROVIDER,
        transactionId: transactionIdOf(ctx.source, item.key),
        status: 'paid',
        amount: item.amount,
        currency: ctx.currency,
        paymentMethod: (item.method.trim() || 'unknown').slice(0, 32),
        paymentDate: item.paidAt,
        reference: item.reference.slice(0, 200) || null,
        createdAt: item.paidAt,
        updatedAt: ctx.now,
      })
      .returning();
    // The money's way through the books, dated when it was paid (the reconciliation's period).
    await paymentReceived(tx, payment!, invoice!, 0, item.paidAt, null);
    return invoice!.id;
  },
};
