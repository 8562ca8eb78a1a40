/**
 * The billing run's queries (issue 4): its billing_runs row and advisory lock, the settings it reads, the invoices
 * it marks overdue, the subscriptions it locks and suspends, expires or renews, and what its e-mails need.
 */
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { BillingRunCounts } from '../../../contract/schemas/billing';
import type { Db } from '../../db/client';
import {
  billingRuns,
  invoices,
  plans,
  settings,
  subscriptions,
  users,
  type BillingRunRow,
  type InvoiceRow,
  type SubscriptionRow,
} from '../../db/schema';

const OPEN = ['unpaid', 'overdue'] as const;

export function createBillingRepository(db: Db) {
  return {
    /** The PostgreSQL advisory lock with this key, held until the transaction ends. */
    async advisoryLock(key: number): Promise<void> {
      await db.execute(sql.raw(`select pg_advisory_xact_lock(${key})`));
    },

    /** The run of this UTC day, if any. */
    async runOn(runDate: string): Promise<BillingRunRow | undefined> {
      const [existing] = await db.select().from(billingRuns).where(eq(billingRuns.runDate, runDate)).limit(1);
      return existing;
    },

    async ranOn(runDate: string): Promise<boolean> {
      const [row] = await db
        .select({ id: billingRuns.id })
        .from(billingRuns)
        .where(eq(billingRuns.runDate, runDate))
        .limit(1);
      return Boolean(row);
    },

    async insertRun(values: typeof billingRuns.$inferInsert): Promise<BillingRunRow> {
      const [started] = await db.insert(billingRuns).values(values).returning();
      return started;
    },

    async finishRun(id: string, finishedAt: Date, counts: BillingRunCounts): Promise<BillingRunRow> {
      const [row] = await db.update(billingRuns).set({ finishedAt, counts }).where(eq(billingRuns.id, id)).returning();
      return row;
    },

    /** One page of the runs, newest first, and how many there are. */
    async runsPage(limit: number, offset: number) {
      return Promise.all([
        db
          .select()
          .from(billingRuns)
          .orderBy(desc(billingRuns.runDate), desc(billingRuns.startedAt))
          .limit(limit)
          .offset(offset),
        db.select({ total: count() }).from(billingRuns),
      ]);
    },

    /** The settings rows with these keys. */
    async settings(keys: string[]) {
      return db.select().from(settings).where(inArray(settings.key, keys));
    },

    /** Unpaid invoices due before this day become overdue; those changed. */
    async markOverdue(today: string, now: Date): Promise<InvoiceRow[]> {
      return db
        .update(invoices)
        .set({ status: 'overdue', updatedAt: now })
        .where(and(eq(invoices.status, 'unpaid'), lt(invoices.dueDate, today)))
        .returning();
    },

    /**
     * Active subscriptions with an open invoice due before cutoff, one row per such invoice (oldest due first),
     * the subscriptions locked FOR UPDATE.
     */
    async lockActiveWithOpenInvoiceDueBefore(cutoff: string) {
      return db
        .select({ sub: subscriptions, invoice: invoices, planName: plans.name })
        .from(subscriptions)
        .innerJoin(invoices, eq(invoices.subscriptionId, subscriptions.id))
        .innerJoin(plans, eq(plans.id, subscriptions.planId))
        .where(
          and(eq(subscriptions.status, 'active'), inArray(invoices.status, [...OPEN]), lt(invoices.dueDate, cutoff)),
        )
        .orderBy(asc(invoices.dueDate), asc(invoices.number))
        .for('update', { of: subscriptions });
    },

    async suspend(subscriptionId: string, reason: string, now: Date): Promise<void> {
      await db
        .update(subscriptions)
        .set({ status: 'suspended', suspensionReason: reason, updatedAt: now })
        .where(eq(subscriptions.id, subscriptionId));
    },

    /**
     * Locked FOR UPDATE, oldest first: cancelled ones whose period ended (or never began), active or suspended
     * ones whose period ended before unpaidBefore, and active data lines whose time limit passed.
     */
    async lockToExpire(now: Date, unpaidBefore: Date): Promise<SubscriptionRow[]> {
      return db
        .select()
        .from(subscriptions)
        .where(
          or(
            and(
              eq(subscriptions.status, 'cancelled'),
              or(isNull(subscriptions.currentPeriodEnd), lte(subscriptions.currentPeriodEnd, now)),
            ),
            and(
              inArray(subscriptions.status, ['active', 'suspended']),
              lt(subscriptions.currentPeriodEnd, unpaidBefore),
            ),
            // A data line (data vouchers, issue 31) with a time limit ends at it: nothing is billed to carry it on.
            and(
              eq(subscriptions.status, 'active'),
              isNotNull(subscriptions.dataAllowanceBytes),
              lte(subscriptions.currentPeriodEnd, now),
            ),
          ),
        )
        .orderBy(asc(subscriptions.createdAt), asc(subscriptions.id))
        .for('update');
    },

    async expire(subscriptionId: string, now: Date): Promise<void> {
      await db
        .update(subscriptions)
        .set({ status: 'expired', updatedAt: now })
        .where(eq(subscriptions.id, subscriptionId));
    },

    /** The subscription's open (unpaid or overdue) invoices, with their line items. */
    async openInvoicesOf(subscriptionId: string) {
      return db
        .select({ id: invoices.id, lineItems: invoices.lineItems })
        .from(invoices)
        .where(and(eq(invoices.subscriptionId, subscriptionId), inArray(invoices.status, [...OPEN])));
    },

    /** Active subscriptions (not data lines) whose period ends before endsBefore, with their plan; locked FOR UPDATE. */
    async lockToRenew(endsBefore: Date) {
      return db
        .select({ sub: subscriptions, plan: plans })
        .from(subscriptions)
        .innerJoin(plans, eq(plans.id, subscriptions.planId))
        .where(
          and(
            eq(subscriptions.status, 'active'),
            lt(subscriptions.currentPeriodEnd, endsBefore),
            isNull(subscriptions.dataAllowanceBytes),
          ),
        )
        .orderBy(asc(subscriptions.currentPeriodEnd), asc(subscriptions.id))
        .for('update', { of: subscriptions });
    },

    /** The line items of every invoice of the subscription. */
    async invoiceLinesOf(subscriptionId: string) {
      return db
        .select({ lineItems: invoices.lineItems })
        .from(invoices)
        .where(eq(invoices.subscriptionId, subscriptionId));
    },

    async people(ids: string[]) {
      return db
        .select({ id: users.id, email: users.email, name: users.name, language: users.language })
        .from(users)
        .where(inArray(users.id, ids));
    },

    /** The active subscriptions among these. */
    async activeAmong(ids: string[]) {
      return db
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(and(inArray(subscriptions.id, ids), eq(subscriptions.status, 'active')));
    },

    /** The invoice with its customer's e-mail, name and language. */
    async invoiceWithCustomer(invoiceId: string) {
      const [row] = await db
        .select({ invoice: invoices, email: users.email, name: users.name, language: users.language })
        .from(invoices)
        .innerJoin(users, eq(users.id, invoices.userId))
        .where(eq(invoices.id, invoiceId))
        .limit(1);
      return row;
    },
  };
}
