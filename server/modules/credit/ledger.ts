/**
 * Reading the customer credit ledger (issue 21): a customer's balance per currency is SUM(amount) of their
 * credit_entries — never a stored figure. The entries are written only by the money movements of the double-entry
 * ledger (server/modules/ledger/movements.ts, issue 31), each with its transfer. Every writer runs inside the
 * caller's transaction and first locks the customer's users row (lockCustomer, below), then reads the balance,
 * then writes: two writers for the same customer wait for each other, so the same credit is never spent twice and
 * the balance never goes below zero. Lock order: whatever the caller already holds (settings counter,
 * subscription, payment, invoice), then the users row last.
 */
import { pagePagination } from '../../../contract/envelope';
import type { CreditAccount, CreditBalance, CreditEntry, CreditQueryParsed } from '../../../contract/schemas/credit';
import type { Db } from '../../db/client';
import type { CreditEntryRow } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { createCreditRepository } from './repository';

/**
 * Locks the customer's users row for the rest of the transaction; 404 when there is no such user. FOR NO KEY
 * UPDATE, not FOR UPDATE: two ledger writers still wait for each other, but it does not conflict with the KEY
 * SHARE lock every insert referencing the user takes (a new subscription or invoice row). With FOR UPDATE two
 * subscribes deadlocked on PostgreSQL: each had inserted a row referencing the user (KEY SHARE), one held the
 * invoice-number lock and wanted the user row, the other held KEY SHARE and wanted the invoice-number lock.
 */
export async function lockCustomer(tx: Db, userId: string): Promise<void> {
  if (!(await createCreditRepository(tx).lockUser(userId))) throw notFound('User not found');
}

/** Whether there is a user with this id. */
export async function userExists(db: Db, userId: string): Promise<boolean> {
  return createCreditRepository(db).userExists(userId);
}

/** The balance in one currency: the sum of the entries (0 when there are none). */
export async function balanceOf(db: Db, userId: string, currency: string): Promise<number> {
  return createCreditRepository(db).balanceOf(userId, currency);
}

/** Every currency the customer has entries in, with its sum (zero balances included: the history explains them). */
export async function balancesOf(db: Db, userId: string): Promise<CreditBalance[]> {
  const rows = await createCreditRepository(db).balancesOf(userId);
  return rows.map((r) => ({ currency: r.currency, amount: Number(r.total ?? 0) }));
}

/** The credit a payment left as an overpayment (0 when it paid exactly). */
export async function overpaidBy(db: Db, paymentId: string): Promise<number> {
  return createCreditRepository(db).overpaidBy(paymentId);
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
  const repo = createCreditRepository(db);
  const total = await repo.countEntries(userId);
  const rows = await repo.entriesPage(userId, query.limit, (query.page - 1) * query.limit);
  return {
    balances: await balancesOf(db, userId),
    entries: rows.map((r) => toCreditEntry(r.entry, r.invoiceNumber ?? null)),
    pagination: pagePagination(query.page, query.limit, total),
  };
}
