/**
 * What is still to pay on an invoice: its total less the customer credit applied when it was issued
 * (issue 21). Every payment path (checkout, autopay, manual, webhooks) compares against this, never against
 * the total alone.
 */
import type { InvoiceRow } from '../../db/schema';

export function amountDue(invoice: Pick<InvoiceRow, 'totalAmount' | 'creditApplied'>): number {
  return Math.max(0, invoice.totalAmount - invoice.creditApplied);
}
