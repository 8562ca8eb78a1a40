/** Reading the customer credit ledger's tables: the entries, their sums, and the customer's users row lock. */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { creditEntries, invoices, users, type CreditEntryRow } from '../../db/schema';

export function createCreditRepository(db: Db) {
  return {
    /** Locks the user's row FOR NO KEY UPDATE for the rest of the transaction; false when there is no such user. */
    async lockUser(userId: string): Promise<boolean> {
      const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
      return !!row;
    },

    async userExists(userId: string): Promise<boolean> {
      const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
      return !!row;
    },

    /** The sum of the user's entries in one currency (0 when there are none). */
    async balanceOf(userId: string, currency: string): Promise<number> {
      const [row] = await db
        .select({ total: sql<string | number | null>`coalesce(sum(${creditEntries.amount}), 0)` })
        .from(creditEntries)
        .where(and(eq(creditEntries.userId, userId), eq(creditEntries.currency, currency)));
      return Number(row?.total ?? 0);
    },

    /** The sum per currency the user has entries in, by currency. */
    async balancesOf(userId: string): Promise<{ currency: string; total: string | number | null }[]> {
      return db
        .select({
          currency: creditEntries.currency,
          total: sql<string | number | null>`coalesce(sum(${creditEntries.amount}), 0)`,
        })
        .from(creditEntries)
        .where(eq(creditEntries.userId, userId))
        .groupBy(creditEntries.currency)
        .orderBy(creditEntries.currency);
    },

    /** The sum of a payment's overpayment entries (0 when there are none). */
    async overpaidBy(paymentId: string): Promise<number> {
      const [row] = await db
        .select({ total: sql<string | number | null>`coalesce(sum(${creditEntries.amount}), 0)` })
        .from(creditEntries)
        .where(and(eq(creditEntries.paymentId, paymentId), eq(creditEntries.kind, 'overpayment')));
      return Number(row?.total ?? 0);
    },

    async countEntries(userId: string): Promise<number> {
      const [{ total }] = await db
        .select({ total: count() })
        .from(creditEntries)
        .where(eq(creditEntries.userId, userId));
      return Number(total);
    },

    /** One page of the user's entries, newest first (credit_entries_user_created_idx), with their invoice's number. */
    async entriesPage(
      userId: string,
      limit: number,
      offset: number,
    ): Promise<{ entry: CreditEntryRow; invoiceNumber: string | null }[]> {
      return db
        .select({ entry: creditEntries, invoiceNumber: invoices.number })
        .from(creditEntries)
        .leftJoin(invoices, eq(invoices.id, creditEntries.invoiceId))
        .where(eq(creditEntries.userId, userId))
        .orderBy(desc(creditEntries.createdAt), desc(creditEntries.id))
        .limit(limit)
        .offset(offset);
    },
  };
}
