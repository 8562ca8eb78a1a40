/**
 * The customer credit ledger (issue 21): a customer's balance per currency is SUM(amount) of their
 * credit_entries — never a stored figure. Every writer runs inside the caller's transaction and first locks the
 * customer's users row (SELECT … FOR NO KEY UPDATE), then reads the balance, then writes: two writers for the same
 * customer wait for each other, so the same credit is never spent twice and the balance never goes below zero.
 * Lock order: whatever the caller already holds (settings counter, subscription, payment, invoice), then the
 * users row last.
 */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { pagePagination } from '../../../contract/envelope';
import type { CreditAccount, CreditBalance, CreditEntry, CreditQueryParsed } from '../../../contract/schemas/credit';
import type { Db } from '../../db/client';
import { creditEntries, invoices, users, type CreditEntryKind, type CreditEntryRow, type InvoiceRow } from '../../db/schema';
import { notFound } from '../../lib/errors';

/**
 * Locks the customer's users row for the rest of the transaction; 404 when there is no such user. FOR NO KEY
 * UPDATE, not FOR UPDATE: two ledger writers still wait for each other, but it does not conflict with the KEY
 * SHARE lock every insert referencing the user takes (a new subscription or invoice row). With FOR UPDATE two
 * subscribes deadlocked on PostgreSQL: each had inserted a row referencing the user (KEY SHARE), one held the
 * invoice-number lock and wanted the user row, the other held KEY SHARE and wanted the invoice-number lock.
 */
export async function lockCustomer(tx: Db, userId: string): Promise<void> {
  const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
  if (!row) throw notFound('User not found');
}

/** The balance in one currency: the sum of the entries (0 when there are none). */
export async function balanceOf(db: Db, userId: string, currency: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string | number | null>`coalesce(sum(${creditEntries.amount}), 0)` })
    .from(creditEntries)
    .where(and(eq(creditEntries.userId, userId), eq(creditEntries.currency, currency)));
  return Number(row?.total ?? 0);
}

/** Every currency the customer has entries in, with its sum (zero balances included: the history explains them). */
export async function balancesOf(db: Db, userId: string): Promise<CreditBalance[]> {
  const rows = await db
    .select({ currency: creditEntries.currency, total: sql<string | number | null>`coalesce(sum(${creditEntries.amount}), 0)` })
    .from(creditEntries)
    .where(eq(creditEntries.userId, userId))
    .groupBy(creditEntries.currency)
    .orderBy(creditEntries.currency);
  return rows.map((r) => ({ currency: r.currency, amount: Number(r.total ?? 0) }));
}

export interface NewCreditEntry {
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

/** Writes one entry; the caller has locked the customer (lockCustomer) and checked the balance where it matters. */
export async function insertEntry(tx: Db, entry: NewCreditEntry): Promise<CreditEntryRow> {
  if (!Number.isInteger(entry.amount) || entry.amount === 0) throw new Error('A credit entry is a non-zero whole number of minor units');
  const [row] = await tx
    .insert(creditEntries)
    .values({
      userId: entry.userId,
      kind: entry.kind,
      amount: entry.amount,
      currency: entry.currency,
      reason: entry.reason ?? null,
      invoiceId: entry.invoiceId ?? null,
      paymentId: entry.paymentId ?? null,
      createdBy: entry.createdBy ?? null,
      createdAt: entry.now,
    })
    .returning();
  return row;
}

/** Adds credit (overpayment, refund to credit): locks the customer and writes a positive entry. */
export async function addCredit(tx: Db, entry: NewCreditEntry & { kind: 'overpayment' | 'refund_to_credit' }): Promise<CreditEntryRow> {
  await lockCustomer(tx, entry.userId);
  return insertEntry(tx, entry);
}

/**
 * A newly issued invoice uses the customer's credit in its currency first: min(balance, total) becomes an
 * applied_to_invoice entry and the invoice's credit_applied. Returns the invoice as it is now (unchanged when
 * there is no credit). The caller decides what "fully covered" means for the invoice's status.
 */
export async function applyCreditToInvoice(tx: Db, invoice: InvoiceRow, now: Date): Promise<InvoiceRow> {
  if (invoice.totalAmount <= 0 || invoice.creditApplied > 0) return invoice;
  await lockCustomer(tx, invoice.userId);
  const balance = await balanceOf(tx, invoice.userId, invoice.currency);
  const applied = Math.min(balance, invoice.totalAmount);
  if (applied <= 0) return invoice;
  await insertEntry(tx, {
    userId: invoice.userId,
    kind: 'applied_to_invoice',
    amount: -applied,
    currency: invoice.currency,
    reason: `Applied to invoice ${invoice.number}`,
    invoiceId: invoice.id,
    now,
  });
  const [row] = await tx.update(invoices).set({ creditApplied: applied, updatedAt: now }).where(eq(invoices.id, invoice.id)).returning();
  return row;
}

export function toCreditEntry(row: CreditEntryRow, invoiceNumber: string | null): CreditEntry {
  return {
    id: row.id,
    kind: row.kind,
    amount: row.amount,
    currency: row.currency,
    reason: row.reason,
    invoice_id: row.invoiceId,
    invoice_number: invoiceNumber,
    payment_id: row.paymentId,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
  };
}

/** Balances and one page of the history, newest first (credit_entries_user_created_idx). */
export async function creditAccount(db: Db, userId: string, query: CreditQueryParsed): Promise<CreditAccount> {
  const [{ total }] = await db.select({ total: count() }).from(creditEntries).where(eq(creditEntries.userId, userId));
  const rows = await db
    .select({ entry: creditEntries, invoiceNumber: invoices.number })
    .from(creditEntries)
    .leftJoin(invoices, eq(invoices.id, creditEntries.invoiceId))
    .where(eq(creditEntries.userId, userId))
    .orderBy(desc(creditEntries.createdAt), desc(creditEntries.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  return {
    balances: await balancesOf(db, userId),
    entries: rows.map((r) => toCreditEntry(r.entry, r.invoiceNumber ?? null)),
    pagination: pagePagination(query.page, query.limit, Number(total)),
  };
}
