/**
 * Dashboard roll-ups (issue 6): per-UTC-day counts and sums that the dashboard reads instead of scanning the
 * big tables (a year of payments is ~400 000 rows; its roll-up ~700). They are kept by triggers in the same
 * transaction as the change (migration 0015_dashboard_rollup_triggers: insert, update, delete and truncate of
 * the source table) and were backfilled by that migration, so they always equal the queries they replace:
 * - dashboard_daily_users: customer accounts (role user) by creation day and current status;
 * - dashboard_daily_subscriptions: subscriptions by creation day and current status;
 * - dashboard_daily_revenue: paid payments by payment day and currency (sum of amounts, count);
 * - dashboard_daily_open_invoices: unpaid and overdue invoices by issue date, due date, status and currency;
 * - dashboard_daily_tickets: tickets by creation day and current status;
 * - dashboard_daily_resolved_tickets: tickets by resolution day.
 * A row whose count went back to zero stays (harmless: it adds nothing). Never written by the application.
 */
import { bigint, date, integer, pgTable, primaryKey, varchar } from 'drizzle-orm/pg-core';

const day = () => date('day', { mode: 'string' }).notNull();
const n = () => integer('n').notNull().default(0);
const amount = () => bigint('amount', { mode: 'number' }).notNull().default(0);

export const dashboardDailyUsers = pgTable(
  'dashboard_daily_users',
  { day: day(), status: varchar('status', { length: 16 }).notNull(), n: n() },
  (t) => [primaryKey({ columns: [t.day, t.status] })],
);

export const dashboardDailySubscriptions = pgTable(
  'dashboard_daily_subscriptions',
  { day: day(), status: varchar('status', { length: 32 }).notNull(), n: n() },
  (t) => [primaryKey({ columns: [t.day, t.status] })],
);

export const dashboardDailyRevenue = pgTable(
  'dashboard_daily_revenue',
  { day: day(), currency: varchar('currency', { length: 3 }).notNull(), amount: amount(), n: n() },
  (t) => [primaryKey({ columns: [t.day, t.currency] })],
);

export const dashboardDailyOpenInvoices = pgTable(
  'dashboard_daily_open_invoices',
  {
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    status: varchar('status', { length: 16 }).notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    amount: amount(),
    n: n(),
  },
  (t) => [primaryKey({ columns: [t.issueDate, t.dueDate, t.status, t.currency] })],
);

export const dashboardDailyTickets = pgTable(
  'dashboard_daily_tickets',
  { day: day(), status: varchar('status', { length: 20 }).notNull(), n: n() },
  (t) => [primaryKey({ columns: [t.day, t.status] })],
);

export const dashboardDailyResolvedTickets = pgTable('dashboard_daily_resolved_tickets', {
  day: day().primaryKey(),
  n: n(),
});
