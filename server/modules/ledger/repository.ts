/**
 * Writing and reading the double-entry ledger's postings (issue 31), and the credit history's entries the money
 * movements write with them.
 */
import { and, eq, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import { creditEntries, LEDGER_ACCOUNTS, ledgerPostings, type CreditEntryRow } from '../../db/schema';

export function createLedgerRepository(db: Db) {
  return {
    async insertPostings(rows: (typeof ledgerPostings.$inferInsert)[]): Promise<void> {
      await db.insert(ledgerPostings).values(rows);
    },

    /**
     * Per customer and currency (one customer's when userId is given): the sum of each account's postings, the
     * payer's negative postings (received) and its positive ones (refunded), as the database gives them.
     */
    async balances(userId?: string): Promise<Record<string, unknown>[]> {
      const where = userId ? sql`where user_id = ${userId}` : sql``;
      return rowsOf<Record<string, unknown>>(
        await db.execute(sql`
      select user_id, currency,
        ${sql.join(
          LEDGER_ACCOUNTS.map(
            (a) => sql`coalesce(sum(amount) filter (where account = ${a}), 0) as ${sql.identifier(a)}`,
          ),
          sql`, `,
        )},
        coalesce(-sum(amount) filter (where account = 'payer' and amount < 0), 0) as received,
        coalesce(sum(amount) filter (where account = 'payer' and amount > 0), 0) as refunded
      from ledger_postings ${where}
      group by user_id, currency`),
      );
    },

    /** Up to 100 transfers whose postings do not sum to zero. */
    async unbalancedTransfers(): Promise<{ transfer_id: string }[]> {
      return rowsOf<{ transfer_id: string }>(
        await db.execute(
          sql`select transfer_id from ledger_postings group by transfer_id having sum(amount) <> 0 limit 100`,
        ),
      );
    },

    async insertCreditEntry(values: typeof creditEntries.$inferInsert): Promise<CreditEntryRow> {
      const [row] = await db.insert(creditEntries).values(values).returning();
      return row;
    },

    /** Whether the invoice's applied credit was released already (its released_from_invoice entry). */
    async invoiceCreditReleased(invoiceId: string): Promise<boolean> {
      const [done] = await db
        .select({ id: creditEntries.id })
        .from(creditEntries)
        .where(and(eq(creditEntries.invoiceId, invoiceId), eq(creditEntries.kind, 'released_from_invoice')))
        .limit(1);
      return !!done;
    },
  };
}
