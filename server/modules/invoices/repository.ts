/** Reading and deleting invoices (staff list with filters, the caller's own, public by id). */
import { and, count, desc, eq, gte, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { InvoiceListQueryParsed } from '../../../contract/schemas/invoice';
import type { Db } from '../../db/client';
import { invoices, ledgerPostings, plans, settings, subscriptions, users, type InvoiceRow } from '../../db/schema';
import { likePattern } from '../../db/paging';

export interface InvoiceWithNames {
  row: InvoiceRow;
  userName: string;
  userEmail: string;
  /** The owner's language (issue 37): their invoice PDF is written in it. */
  userLanguage: string | null;
  planName: string | null;
}

export function createInvoiceRepository(db: Db) {
  const joined = () =>
    db
      .select({
        row: invoices,
        userName: users.name,
        userEmail: users.email,
        userLanguage: users.language,
        planName: plans.name,
      })
      .from(invoices)
      .innerJoin(users, eq(users.id, invoices.userId))
      .leftJoin(subscriptions, eq(subscriptions.id, invoices.subscriptionId))
      .leftJoin(plans, eq(plans.id, subscriptions.planId));

  return {
    async page(
      query: Partial<InvoiceListQueryParsed> & { page: number; limit: number },
    ): Promise<{ items: InvoiceWithNames[]; total: number }> {
      const conditions: SQL[] = [];
      if (query.status) conditions.push(eq(invoices.status, query.status));
      if (query.user_id) conditions.push(eq(invoices.userId, query.user_id));
      if (query.from) conditions.push(gte(invoices.issueDate, query.from));
      if (query.to) conditions.push(lte(invoices.issueDate, query.to));
      if (query.search) {
        const p = likePattern(query.search);
        conditions.push(or(ilike(invoices.number, p), ilike(users.name, p), ilike(users.email, p))!);
      }
      const where = conditions.length ? and(...conditions) : undefined;
      const [items, [{ total }]] = await Promise.all([
        joined()
          .where(where)
          .orderBy(desc(invoices.issueDate), desc(invoices.createdAt), desc(invoices.number))
          .limit(query.limit)
          .offset((query.page - 1) * query.limit),
        db.select({ total: count() }).from(invoices).innerJoin(users, eq(users.id, invoices.userId)).where(where),
      ]);
      return { items, total: Number(total) };
    },

    /**
     * In a transaction: the stored billing settings (the invoice counter), locked until it ends; the row is made
     * with `initial` first when there is none (a fresh install).
     */
    async lockBillingSettings(initial: unknown, now: Date): Promise<unknown> {
      await db
        .insert(settings)
        .values({ key: 'billing', value: initial, updatedAt: now })
        .onConflictDoNothing({ target: settings.key });
      const [row] = await db
        .select({ value: settings.value })
        .from(settings)
        .where(eq(settings.key, 'billing'))
        .for('update');
      return row?.value;
    },

    async storeBillingSettings(value: unknown, now: Date): Promise<void> {
      await db
        .update(settings)
        .set({ value: sql`${JSON.stringify(value)}::jsonb`, updatedAt: now })
        .where(eq(settings.key, 'billing'));
    },

    async insert(values: typeof invoices.$inferInsert): Promise<InvoiceRow> {
      const [row] = await db.insert(invoices).values(values).returning();
      return row;
    },

    async markPaid(id: string, now: Date): Promise<InvoiceRow> {
      const [paid] = await db
        .update(invoices)
        .set({ status: 'paid', paidDate: now, updatedAt: now })
        .where(eq(invoices.id, id))
        .returning();
      return paid;
    },

    /** The customer credit the invoice used when it was issued (the ledger's applyCreditToInvoice). */
    async setCreditApplied(id: string, applied: number, now: Date): Promise<InvoiceRow> {
      const [row] = await db
        .update(invoices)
        .set({ creditApplied: applied, updatedAt: now })
        .where(eq(invoices.id, id))
        .returning();
      return row;
    },

    /** The open (unpaid or overdue) invoices among ids become cancelled; those cancelled. */
    async cancelOpen(ids: string[], now: Date): Promise<InvoiceRow[]> {
      return db
        .update(invoices)
        .set({ status: 'cancelled', updatedAt: now })
        .where(and(inArray(invoices.id, ids), inArray(invoices.status, ['unpaid', 'overdue'])))
        .returning();
    },

    /** The invoice, locked until the transaction ends. */
    async lock(id: string): Promise<InvoiceRow | undefined> {
      const [row] = await db.select().from(invoices).where(eq(invoices.id, id)).for('update');
      return row;
    },

    /** Whether the ledger records money a payer paid for this invoice. */
    async hasPayerMovement(id: string): Promise<boolean> {
      const [moved] = await db
        .select({ id: ledgerPostings.id })
        .from(ledgerPostings)
        .where(and(eq(ledgerPostings.invoiceId, id), eq(ledgerPostings.account, 'payer')))
        .limit(1);
      return !!moved;
    },

    async delete(id: string): Promise<void> {
      await db.delete(invoices).where(eq(invoices.id, id));
    },

    async findById(id: string): Promise<InvoiceWithNames | undefined> {
      const [row] = await joined().where(eq(invoices.id, id)).limit(1);
      return row;
    },
  };
}

export type InvoiceRepository = ReturnType<typeof createInvoiceRepository>;
