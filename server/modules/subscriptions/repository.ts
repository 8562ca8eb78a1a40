import { likePattern, PreparedByShape } from '../../db/paging';
import { and, asc, count, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { SubscriptionListQueryParsed } from '../../../contract/schemas/subscription';
import type { Db } from '../../db/client';
import {
  installations,
  invoices,
  payments,
  plans,
  subscriptions,
  users,
  type InvoiceRow,
  type PaymentRow,
  type PlanRow,
  type SubscriptionRow,
} from '../../db/schema';

const OPEN_INVOICE = ['unpaid', 'overdue'] as const;

export interface SubscriptionWithNames {
  row: SubscriptionRow;
  planName: string;
  userName: string;
  userEmail: string;
}

const columns = { row: subscriptions, planName: plans.name, userName: users.name, userEmail: users.email };

type PageValues = { status?: string; user_id?: string; plan_id?: string; from?: string; to?: string; pattern?: string };

/** The list's filters as named placeholders, for those present (the shape of the prepared statement). */
function pageConditions(values: PageValues): SQL | undefined {
  const conditions: SQL[] = [];
  if (values.status) conditions.push(eq(subscriptions.status, sql.placeholder('status')));
  if (values.user_id) conditions.push(eq(subscriptions.userId, sql.placeholder('user_id')));
  if (values.plan_id) conditions.push(eq(subscriptions.planId, sql.placeholder('plan_id')));
  if (values.from) conditions.push(gte(subscriptions.createdAt, sql`${sql.placeholder('from')}::timestamptz`));
  if (values.to) conditions.push(lt(subscriptions.createdAt, sql`${sql.placeholder('to')}::timestamptz`));
  if (values.pattern) {
    const p = sql.placeholder('pattern');
    conditions.push(
      or(
        ilike(users.name, p),
        ilike(users.email, p),
        ilike(plans.name, p),
        ilike(subscriptions.location, p),
        ilike(subscriptions.note, p),
      )!,
    );
  }
  return conditions.length ? and(...conditions) : undefined;
}

export function createSubscriptionRepository(db: Db) {
  const joined = () =>
    db
      .select(columns)
      .from(subscriptions)
      .innerJoin(plans, eq(plans.id, subscriptions.planId))
      .innerJoin(users, eq(users.id, subscriptions.userId));
  const pages = new PreparedByShape<ReturnType<typeof preparePage>>('subscriptions_page');
  const counts = new PreparedByShape<ReturnType<typeof prepareCount>>('subscriptions_count');
  function preparePage(values: PageValues, name: string) {
    return db
      .select(columns)
      .from(subscriptions)
      .innerJoin(plans, eq(plans.id, subscriptions.planId))
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .where(pageConditions(values))
      .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name);
  }
  /** The count joins the plan and the customer only for a search (which matches their names); every subscription has both. */
  function prepareCount(values: PageValues, name: string) {
    const base = db.select({ total: count() }).from(subscriptions);
    const joinedBase = values.pattern
      ? base.innerJoin(plans, eq(plans.id, subscriptions.planId)).innerJoin(users, eq(users.id, subscriptions.userId))
      : base;
    return joinedBase.where(pageConditions(values)).prepare(name);
  }

  return {
    async page(
      query: SubscriptionListQueryParsed & { offset: number },
    ): Promise<{ items: SubscriptionWithNames[]; total: number }> {
      const values = {
        status: query.status,
        user_id: query.user_id,
        plan_id: query.plan_id,
        // Inclusive UTC days: from 00:00 of `from` to before 00:00 of the day after `to`.
        from: query.from ? new Date(`${query.from}T00:00:00Z`).toISOString() : undefined,
        to: query.to ? new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000).toISOString() : undefined,
        pattern: query.search ? likePattern(query.search) : undefined,
      };
      const shape = Object.entries(values)
        .filter(([, v]) => v !== undefined)
        .map(([k]) => k)
        .join(',');
      // Two statements, not a count(*) over () on the page's: that makes PostgreSQL read and join every matching
      // row before the LIMIT (1.1 s for the first page of 150 000 subscriptions in bench:api).
      const [items, counted] = await Promise.all([
        pages
          .get(shape, (name) => preparePage(values, name))
          .execute({ ...values, limit: query.limit, offset: query.offset }),
        counts.get(shape, (name) => prepareCount(values, name)).execute(values),
      ]);
      return { items, total: Number(counted[0].total) };
    },

    async findById(id: string): Promise<SubscriptionWithNames | undefined> {
      const [row] = await joined().where(eq(subscriptions.id, id)).limit(1);
      return row;
    },

    /** Every subscription of one user, newest first. */
    async ownedBy(userId: string): Promise<SubscriptionWithNames[]> {
      return joined()
        .where(eq(subscriptions.userId, userId))
        .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id));
    },

    /** The user's newest active subscription and its plan. */
    async activeFor(userId: string): Promise<{ subscription: SubscriptionWithNames; plan: PlanRow } | undefined> {
      const [row] = await db
        .select({ ...columns, plan: plans })
        .from(subscriptions)
        .innerJoin(plans, eq(plans.id, subscriptions.planId))
        .innerJoin(users, eq(users.id, subscriptions.userId))
        .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'active')))
        .orderBy(desc(subscriptions.currentPeriodStart), desc(subscriptions.createdAt))
        .limit(1);
      if (!row) return undefined;
      const { plan, ...subscription } = row;
      return { subscription, plan };
    },

    /** The subscription row (LIMIT 1). */
    async row(id: string): Promise<SubscriptionRow | undefined> {
      const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
      return row;
    },

    /** The subscription row, locked FOR UPDATE until the transaction ends. */
    async lock(id: string): Promise<SubscriptionRow | undefined> {
      const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id)).for('update');
      return row;
    },

    async insert(values: typeof subscriptions.$inferInsert): Promise<SubscriptionRow> {
      const [row]: SubscriptionRow[] = await db.insert(subscriptions).values(values).returning();
      return row;
    },

    async update(id: string, patch: Partial<SubscriptionRow>): Promise<void> {
      await db.update(subscriptions).set(patch).where(eq(subscriptions.id, id));
    },

    async updateReturning(id: string, patch: Partial<SubscriptionRow>): Promise<SubscriptionRow> {
      const [row] = await db.update(subscriptions).set(patch).where(eq(subscriptions.id, id)).returning();
      return row;
    },

    async delete(id: string): Promise<void> {
      await db.delete(subscriptions).where(eq(subscriptions.id, id));
    },

    async customer(userId: string) {
      const [user] = await db
        .select({ id: users.id, name: users.name, email: users.email })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return user;
    },

    /** The plan (LIMIT 1). */
    async plan(id: string): Promise<PlanRow> {
      const [plan]: PlanRow[] = await db.select().from(plans).where(eq(plans.id, id)).limit(1);
      return plan;
    },

    async invoice(id: string): Promise<InvoiceRow | undefined> {
      const [invoice] = await db.select().from(invoices).where(eq(invoices.id, id)).limit(1);
      return invoice;
    },

    /** The customer's pending subscription, with its plan's name and an open invoice's number, if any. */
    async pendingOrderOf(userId: string) {
      const [pending] = await db
        .select({ id: subscriptions.id, planName: plans.name, number: invoices.number })
        .from(subscriptions)
        .innerJoin(plans, eq(plans.id, subscriptions.planId))
        .leftJoin(
          invoices,
          and(eq(invoices.subscriptionId, subscriptions.id), inArray(invoices.status, [...OPEN_INVOICE])),
        )
        .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'pending')))
        .limit(1);
      return pending;
    },

    /** The subscription's open (unpaid or overdue) invoices. */
    async openInvoiceIds(subscriptionId: string) {
      return db
        .select({ id: invoices.id })
        .from(invoices)
        .where(and(eq(invoices.subscriptionId, subscriptionId), inArray(invoices.status, [...OPEN_INVOICE])));
    },

    async openInvoiceLines(subscriptionId: string) {
      return db
        .select({ id: invoices.id, lineItems: invoices.lineItems })
        .from(invoices)
        .where(and(eq(invoices.subscriptionId, subscriptionId), inArray(invoices.status, [...OPEN_INVOICE])));
    },

    async openInvoicesNumbered(subscriptionId: string) {
      return db
        .select({ id: invoices.id, number: invoices.number, lineItems: invoices.lineItems })
        .from(invoices)
        .where(and(eq(invoices.subscriptionId, subscriptionId), inArray(invoices.status, [...OPEN_INVOICE])));
    },

    async countOpenInvoices(subscriptionId: string): Promise<number> {
      const [{ n }] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(invoices)
        .where(and(eq(invoices.subscriptionId, subscriptionId), inArray(invoices.status, [...OPEN_INVOICE])));
      return n;
    },

    /** The subscription's installation jobs. */
    async installationIdsOf(subscriptionId: string) {
      return db
        .select({ id: installations.id })
        .from(installations)
        .where(eq(installations.subscriptionId, subscriptionId));
    },

    /** The invoices of these subscriptions, newest first. */
    async invoicesOf(subscriptionIds: string[]): Promise<InvoiceRow[]> {
      return db
        .select()
        .from(invoices)
        .where(inArray(invoices.subscriptionId, subscriptionIds))
        .orderBy(desc(invoices.createdAt), desc(invoices.number), asc(invoices.id));
    },

    /** The payments of these invoices, newest first. */
    async paymentsOf(invoiceIds: string[]): Promise<PaymentRow[]> {
      return db
        .select()
        .from(payments)
        .where(inArray(payments.invoiceId, invoiceIds))
        .orderBy(desc(payments.createdAt), desc(payments.id));
    },
  };
}

export type SubscriptionRepository = ReturnType<typeof createSubscriptionRepository>;
