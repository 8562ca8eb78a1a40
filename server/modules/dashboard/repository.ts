/**
 * The dashboard's aggregate queries. Counts and sums come from the per-day roll-ups (server/db/schema/dashboard.ts,
 * kept by triggers in the same transaction as every change, so they equal a count over the big tables): a year
 * is a few hundred small rows instead of ~400 000 payments. Totals that describe "now" (active users, open
 * tickets) are the roll-up rows created before the end of the range; per-bucket counts or sums over the chosen
 * range are handed to the service, which adds them up for the period totals and the charts. The ranges are
 * whole UTC days (range.ts), the roll-ups' unit. Cancelled subscriptions (by last change) and the tickets of a
 * scoped caller (a customer's own, a queue) are counted on the tables themselves, through their indexes.
 */
import { and, count, eq, gte, inArray, lt, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  dashboardDailyOpenInvoices as openInvoices,
  dashboardDailyResolvedTickets as resolvedDaily,
  dashboardDailyRevenue as revenueDaily,
  dashboardDailySubscriptions as subscriptionsDaily,
  dashboardDailyTickets as ticketsDaily,
  dashboardDailyUsers as usersDaily,
  subscriptions,
  tickets,
} from '../../db/schema';

export interface Bucketed {
  key: string;
  n: number;
}

export interface StatsWindow {
  from: Date;
  to: Date;
  startDate: string;
  endDate: string;
  interval: 'day' | 'month';
  /** Today (UTC), YYYY-MM-DD: invoices due before it are overdue. */
  today: string;
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
/**
 * The UTC day of a timestamp column, as the day's first instant. date_bin is plain arithmetic (to_char per row
 * was 4x slower on a million rows); the text key is made once per bucket in keyOf.
 */
const bucket = (column: SQLWrapper) => sql<unknown>`date_bin('1 day', ${column}, '2000-01-01T00:00:00Z'::timestamptz)`;
/** A roll-up's day as text (YYYY-MM-DD): drivers would turn a date into a local-midnight Date. */
const dayText = (column: SQLWrapper) => sql<string>`${column}::text`;
/** Roll-up rows of the window: day >= first day and day < the day after the last. */
const inWindow = (column: SQLWrapper, w: StatsWindow) => and(gte(column, isoDay(w.from)), lt(column, isoDay(w.to)));
/**
 * A bucket's key: YYYY-MM-DD, or YYYY-MM for monthly charts — days are rolled up to months here, as
 * date_trunc('month', …, 'UTC') converts time zones per row and was 10x slower (drivers hand timestamptz back as
 * a Date or as text; roll-up days come as YYYY-MM-DD text).
 */
const keyOf = (value: unknown, interval: 'day' | 'month') => {
  const iso =
    typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
      ? value
      : new Date(value instanceof Date ? value : String(value)).toISOString();
  return interval === 'day' ? iso.slice(0, 10) : iso.slice(0, 7);
};
const num = (v: unknown) => Number(v ?? 0);

/** Per-day rows as per-bucket totals (several days fall in one month). */
function collect(rows: Array<{ key: unknown; n: unknown }>, interval: 'day' | 'month'): Bucketed[] {
  const totals = new Map<string, number>();
  for (const r of rows) {
    const key = keyOf(r.key, interval);
    totals.set(key, (totals.get(key) ?? 0) + num(r.n));
  }
  return [...totals].map(([key, n]) => ({ key, n }));
}

const OPEN_TICKET_STATUSES = ['open', 'in_progress', 'waiting_customer'] as const;

const total = (column: SQLWrapper) => sql<number>`coalesce(sum(${column}), 0)`.mapWith(Number);

export function createDashboardRepository(db: Db) {
  return {
    /** Customer accounts (role user): existing at the end of the range, active among them, new per bucket. */
    async users(w: StatsWindow) {
      const [[totals], perBucket] = await Promise.all([
        db
          .select({
            total: total(usersDaily.n),
            active:
              sql<number>`coalesce(sum(${usersDaily.n}) filter (where ${usersDaily.status} = 'active'), 0)`.mapWith(
                Number,
              ),
          })
          .from(usersDaily)
          .where(lt(usersDaily.day, isoDay(w.to))),
        db
          .select({ key: dayText(usersDaily.day), n: total(usersDaily.n) })
          .from(usersDaily)
          .where(inWindow(usersDaily.day, w))
          .groupBy(usersDaily.day),
      ]);
      return { total: num(totals?.total), active: num(totals?.active), created: collect(perBucket, w.interval) };
    },

    /** Active now (created by the end of the range), cancelled in the range (last change), new per bucket. */
    async subscriptions(w: StatsWindow) {
      const [[active], [cancelled], perBucket] = await Promise.all([
        db
          .select({ n: total(subscriptionsDaily.n) })
          .from(subscriptionsDaily)
          .where(and(eq(subscriptionsDaily.status, 'active'), lt(subscriptionsDaily.day, isoDay(w.to)))),
        db
          .select({ n: count() })
          .from(subscriptions)
          .where(
            and(
              eq(subscriptions.status, 'cancelled'),
              gte(subscriptions.updatedAt, ts(w.from)),
              lt(subscriptions.updatedAt, ts(w.to)),
            ),
          ),
        db
          .select({ key: dayText(subscriptionsDaily.day), n: total(subscriptionsDaily.n) })
          .from(subscriptionsDaily)
          .where(inWindow(subscriptionsDaily.day, w))
          .groupBy(subscriptionsDaily.day),
      ]);
      return { active: num(active?.n), cancelled: num(cancelled?.n), created: collect(perBucket, w.interval) };
    },

    /**
     * Paid payments in the currency per bucket (by payment date); invoices issued in the range that are still
     * open: pending (unpaid, not yet due) and overdue (marked overdue, or unpaid past the due date).
     */
    async revenue(w: StatsWindow, currency: string) {
      const [paid, [open]] = await Promise.all([
        db
          .select({ key: dayText(revenueDaily.day), n: revenueDaily.amount })
          .from(revenueDaily)
          .where(and(inWindow(revenueDaily.day, w), eq(revenueDaily.currency, currency))),
        db
          .select({
            pending:
              sql<number>`coalesce(sum(${openInvoices.amount}) filter (where ${openInvoices.status} = 'unpaid' and ${openInvoices.dueDate} >= ${w.today}::date), 0)`.mapWith(
                Number,
              ),
            overdue:
              sql<number>`coalesce(sum(${openInvoices.amount}) filter (where ${openInvoices.status} = 'overdue' or (${openInvoices.status} = 'unpaid' and ${openInvoices.dueDate} < ${w.today}::date)), 0)`.mapWith(
                Number,
              ),
          })
          .from(openInvoices)
          .where(
            and(
              sql`${openInvoices.issueDate} >= ${w.startDate}::date`,
              sql`${openInvoices.issueDate} <= ${w.endDate}::date`,
              eq(openInvoices.currency, currency),
            ),
          ),
      ]);
      return { paid: collect(paid, w.interval), pending: num(open?.pending), overdue: num(open?.overdue) };
    },

    /**
     * Within the caller's ticket scope: open now, opened per bucket, resolved per bucket. Every ticket (no
     * scope) comes from the roll-ups; a scoped caller's tickets from the table.
     */
    async tickets(w: StatsWindow, scope: SQL | undefined) {
      if (!scope) {
        const [[open], opened, resolved] = await Promise.all([
          db
            .select({ n: total(ticketsDaily.n) })
            .from(ticketsDaily)
            .where(and(inArray(ticketsDaily.status, [...OPEN_TICKET_STATUSES]), lt(ticketsDaily.day, isoDay(w.to)))),
          db
            .select({ key: dayText(ticketsDaily.day), n: total(ticketsDaily.n) })
            .from(ticketsDaily)
            .where(inWindow(ticketsDaily.day, w))
            .groupBy(ticketsDaily.day),
          db
            .select({ key: dayText(resolvedDaily.day), n: resolvedDaily.n })
            .from(resolvedDaily)
            .where(inWindow(resolvedDaily.day, w)),
        ]);
        return { open: num(open?.n), opened: collect(opened, w.interval), resolved: collect(resolved, w.interval) };
      }
      const createdKey = bucket(tickets.createdAt);
      const resolvedKey = bucket(tickets.resolvedAt);
      const [[open], opened, resolved] = await Promise.all([
        db
          .select({ n: count() })
          .from(tickets)
          .where(and(scope, inArray(tickets.status, [...OPEN_TICKET_STATUSES]), lt(tickets.createdAt, ts(w.to)))),
        db
          .select({ key: createdKey, n: count() })
          .from(tickets)
          .where(and(scope, gte(tickets.createdAt, ts(w.from)), lt(tickets.createdAt, ts(w.to))))
          .groupBy(createdKey),
        db
          .select({ key: resolvedKey, n: count() })
          .from(tickets)
          .where(and(scope, gte(tickets.resolvedAt, ts(w.from)), lt(tickets.resolvedAt, ts(w.to))))
          .groupBy(resolvedKey),
      ]);
      return { open: num(open?.n), opened: collect(opened, w.interval), resolved: collect(resolved, w.interval) };
    },
  };
}

export type DashboardRepository = ReturnType<typeof createDashboardRepository>;
