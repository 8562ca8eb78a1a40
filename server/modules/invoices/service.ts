/**
 * Issuing invoices. The number comes from the settings counter (billing.invoice_next_number), read and
 * advanced under a row lock (SELECT … FOR UPDATE) in the caller's transaction: two concurrent invoices wait
 * for each other, and a transaction that rolls back gives its number back, so numbers are unique and gap-free.
 */
import { eq, sql } from 'drizzle-orm';
import { INVOICE_DUE_DAYS, type Invoice, type InvoiceLineItem } from '../../../contract/schemas/invoice';
import type { Db } from '../../db/client';
import { invoices, settings, type InvoiceRow } from '../../db/schema';
import { defaultSettings } from '../settings/defaults';

type Billing = ReturnType<typeof defaultSettings>['billing'];

/** Digits of the zero-padded sequence (INV-000001). */
export const INVOICE_NUMBER_DIGITS = 6;

export function formatInvoiceNumber(prefix: string, sequence: number): string {
  return `${prefix}${String(sequence).padStart(INVOICE_NUMBER_DIGITS, '0')}`;
}

/** Tax on a subtotal at a rate in basis points, rounded half up to the minor unit. */
export function taxFor(subtotal: number, rateBp: number): number {
  return Math.round((subtotal * rateBp) / 10_000);
}

const isoDate = (d: Date) => d.toISOString().slice(0, 10);

export function toInvoice(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    number: row.number,
    user_id: row.userId,
    subscription_id: row.subscriptionId,
    status: row.status,
    currency: row.currency,
    line_items: row.lineItems,
    subtotal: row.subtotal,
    tax_rate_bp: row.taxRateBp,
    tax: row.tax,
    total_amount: row.totalAmount,
    issue_date: row.issueDate,
    due_date: row.dueDate,
    paid_date: row.paidDate ? row.paidDate.toISOString() : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Takes the next invoice number; must run inside a transaction (the lock is held until it ends). */
export async function takeInvoiceNumber(tx: Db, now: Date): Promise<string> {
  // Make sure the counter row exists (a fresh install may have no stored billing settings yet).
  await tx
    .insert(settings)
    .values({ key: 'billing', value: defaultSettings().billing, updatedAt: now })
    .onConflictDoNothing({ target: settings.key });
  const [row] = await tx.select({ value: settings.value }).from(settings).where(eq(settings.key, 'billing')).for('update');
  const billing: Billing = { ...defaultSettings().billing, ...((row?.value as Partial<Billing> | undefined) ?? {}) };
  const sequence = Number.isInteger(billing.invoice_next_number) && billing.invoice_next_number >= 1 ? billing.invoice_next_number : 1;
  await tx
    .update(settings)
    .set({ value: sql`${JSON.stringify({ ...billing, invoice_next_number: sequence + 1 })}::jsonb`, updatedAt: now })
    .where(eq(settings.key, 'billing'));
  return formatInvoiceNumber(billing.invoice_prefix ?? '', sequence);
}

export interface IssueInvoiceInput {
  userId: string;
  subscriptionId: string | null;
  currency: string;
  lineItems: InvoiceLineItem[];
  taxRateBp: number;
  now: Date;
}

/** Writes an unpaid invoice with the next number; must run inside a transaction. */
export async function issueInvoice(tx: Db, input: IssueInvoiceInput): Promise<InvoiceRow> {
  const subtotal = input.lineItems.reduce((sum, item) => sum + item.amount, 0);
  const tax = taxFor(subtotal, input.taxRateBp);
  const number = await takeInvoiceNumber(tx, input.now);
  const due = new Date(input.now.getTime() + INVOICE_DUE_DAYS * 86_400_000);
  const [row] = await tx
    .insert(invoices)
    .values({
      number,
      userId: input.userId,
      subscriptionId: input.subscriptionId,
      status: 'unpaid',
      currency: input.currency,
      lineItems: input.lineItems,
      subtotal,
      taxRateBp: input.taxRateBp,
      tax,
      totalAmount: subtotal + tax,
      issueDate: isoDate(input.now),
      dueDate: isoDate(due),
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning();
  return row;
}
