/**
 * GET /api/dashboard/stats (issue 6; spec §3, §5, §6): the groups each role is sent, the numbers of a known
 * fixture for every time frame, custom range validation, the fallback to month, a customer's own tickets and
 * the chart series. The clock stands at Thursday 2026-05-14 12:00 UTC.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Role } from '../../contract/roles';
import { invoices, payments, plans, subscriptions, tickets, users } from '../../server/db/schema';
import { ManualClock } from '../../server/lib/clock';
import { createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

const NOW = '2026-05-14T12:00:00.000Z';
const LONG_TOKENS = { accessTokenTtlSeconds: 5 * 365 * 86_400 };
const d = (iso: string) => new Date(iso.length === 10 ? `${iso}T10:00:00.000Z` : iso);

let t: TestApp;
let call: CallAs;
const ids: Record<string, string> = {};

async function customer(key: string, created: string, status: 'active' | 'suspended' = 'active') {
  const u = await t.createUser({ email: `${key}@example.com`, status });
  await t.database.db
    .update(users)
    .set({ createdAt: d(created) })
    .where(inArray(users.id, [u.id]));
  ids[key] = u.id;
}

let invoiceNo = 0;
async function invoice(
  user: string,
  status: 'unpaid' | 'paid' | 'overdue',
  issue: string,
  due: string,
  total: number,
  currency = 'USD',
) {
  const [row] = await t.database.db
    .insert(invoices)
    .values({
      number: `INV-T${++invoiceNo}`,
      userId: ids[user],
      status,
      currency,
      lineItems: [],
      subtotal: total,
      tax: 0,
      totalAmount: total,
      issueDate: issue,
      dueDate: due,
    })
    .returning();
  return row.id;
}

let paymentNo = 0;
async function payment(user: string, status: 'paid' | 'failed', at: string, amount: number, currency = 'USD') {
  const invoiceId = await invoice(
    user,
    status === 'paid' ? 'paid' : 'unpaid',
    at.slice(0, 10),
    at.slice(0, 10),
    amount,
    currency,
  );
  // A failed attempt leaves its invoice unpaid: keep it out of the open-invoice sums by dating it in 2025.
  if (status !== 'paid')
    await t.database.db
      .update(invoices)
      .set({ issueDate: '2025-01-01', dueDate: '2025-01-08' })
      .where(inArray(invoices.id, [invoiceId]));
  await t.database.db.insert(payments).values({
    invoiceId,
    userId: ids[user],
    provider: 'manual',
    transactionId: `tx-${++paymentNo}`,
    status,
    amount,
    currency,
    paymentMethod: 'cash',
    paymentDate: d(at),
  });
}

async function subscription(user: string, status: string, created: string, updated = created) {
  await t.database.db
    .insert(subscriptions)
    .values({ userId: ids[user], planId: ids.plan, status, createdAt: d(created), updatedAt: d(updated) });
}

let ticketNo = 0;
async function ticket(
  user: string,
  status: 'open' | 'in_progress' | 'resolved' | 'closed',
  created: string,
  resolved?: string,
  category: 'technical' | 'other' = 'other',
) {
  await t.database.db.insert(tickets).values({
    number: `T-9${String(++ticketNo).padStart(5, '0')}`,
    subject: `Ticket ${ticketNo}`,
    description: 'Fixture',
    category,
    status,
    createdBy: ids[user],
    createdAt: d(created),
    updatedAt: d(resolved ?? created),
    resolvedAt: resolved ? d(resolved) : null,
  });
}

beforeAll(async () => {
  t = await createTestApp({ clock: new ManualClock(NOW), config: LONG_TOKENS });
  call = await signInEveryRole(t);
  // The signed-in accounts existed long before; the customer among them ("user") is c0.
  await t.database.db.update(users).set({ createdAt: d('2025-01-01') });
  ids.c0 = (
    await t.database.db
      .select()
      .from(users)
      .where(inArray(users.email, ['user@example.com']))
  )[0].id;

  await customer('c1', '2025-12-20');
  await customer('c2', '2026-02-10');
  await customer('c3', '2026-04-20');
  await customer('c4', '2026-05-03');
  await customer('c5', '2026-05-12', 'suspended');
  await customer('c6', '2026-05-14T08:00:00.000Z');

  const [plan] = await t.database.db
    .insert(plans)
    .values({
      name: 'Fixture',
      slug: 'fixture',
      downloadMbps: 100,
      uploadMbps: 20,
      price: 1000,
      currency: 'USD',
      billingCycle: 'monthly',
    })
    .returning();
  ids.plan = plan.id;
  await subscription('c1', 'active', '2026-01-15');
  await subscription('c2', 'cancelled', '2026-04-10', '2026-05-12');
  await subscription('c3', 'active', '2026-05-05');
  await subscription('c4', 'pending', '2026-05-14T09:00:00.000Z');
  await subscription('c6', 'cancelled', '2026-05-13', '2026-05-14T10:00:00.000Z');

  await payment('c1', 'paid', '2026-02-01', 10000);
  await payment('c2', 'paid', '2026-04-15', 2000);
  await payment('c3', 'paid', '2026-05-02', 3000);
  await payment('c4', 'paid', '2026-05-12', 500);
  await payment('c6', 'paid', '2026-05-14T07:00:00.000Z', 150);
  await payment('c6', 'failed', '2026-05-14T07:30:00.000Z', 9999);
  await payment('c1', 'paid', '2026-05-10', 7777, 'EUR');
  await invoice('c3', 'unpaid', '2026-05-13', '2026-05-20', 1000);
  await invoice('c4', 'unpaid', '2026-05-01', '2026-05-08', 2500);
  await invoice('c2', 'overdue', '2026-03-01', '2026-03-08', 4000);
  await invoice('c6', 'unpaid', '2026-05-14', '2026-05-21', 300);

  await ticket('c1', 'open', '2026-05-14T09:00:00.000Z');
  await ticket('c1', 'resolved', '2026-05-02', '2026-05-12');
  await ticket('c2', 'in_progress', '2026-03-10');
  await ticket('c0', 'open', '2026-05-13', undefined, 'technical');
  await ticket('c0', 'closed', '2026-01-05', '2026-05-14T11:00:00.000Z');
});

afterAll(async () => {
  await t?.close();
});

async function stats(role: Role, query: string) {
  const res = await call('GET', `/dashboard/stats${query}`, role);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expect(body.success).toBe(true);
  return body.data;
}

describe('who gets which statistics (spec §6)', () => {
  const expected: Record<Role, string[]> = {
    admin: ['users', 'subscriptions', 'revenue', 'tickets', 'bandwidth', 'networkDevices', 'activeConnections'],
    super_admin: ['users', 'subscriptions', 'revenue', 'tickets', 'bandwidth', 'networkDevices', 'activeConnections'],
    technician: ['bandwidth', 'tickets', 'networkDevices', 'activeConnections'],
    billing: ['bandwidth', 'tickets', 'revenue', 'subscriptions'],
    support: ['bandwidth', 'tickets'],
    user: ['bandwidth', 'tickets'],
  };

  for (const [role, keys] of Object.entries(expected) as Array<[Role, string[]]>) {
    it(`${role}: exactly ${keys.join(', ')}`, async () => {
      const data = await stats(role, '?timeFrame=month');
      expect(Object.keys(data.stats).sort()).toEqual([...keys].sort());
      // Each group has exactly the spec's fields.
      if (data.stats.users)
        expect(Object.keys(data.stats.users).sort()).toEqual(['activeUsers', 'newUsers', 'totalUsers']);
      if (data.stats.subscriptions)
        expect(Object.keys(data.stats.subscriptions).sort()).toEqual([
          'activeSubscriptions',
          'cancelledSubscriptions',
          'newSubscriptions',
        ]);
      if (data.stats.revenue) {
        expect(Object.keys(data.stats.revenue).sort()).toEqual(['overduePayments', 'pendingPayments', 'totalRevenue']);
        for (const v of Object.values(data.stats.revenue)) expect(typeof v).toBe('string');
      }
      expect(Object.keys(data.stats.tickets).sort()).toEqual(['newTickets', 'openTickets', 'resolvedTickets']);
      expect(data.stats.bandwidth).toEqual({ totalDownload: '0 B', totalUpload: '0 B' });
      // bandwidth and activeConnections come from RADIUS accounting (issue 8; tests/server/usage.test.ts), the
      // device count from the devices inventory: nothing is flagged unavailable any more.
      expect(data.unavailable).toEqual([]);
      // Chart series follow the same groups.
      const seriesGroups = Object.keys(data.series).filter((k) => !['interval', 'currency'].includes(k));
      expect(seriesGroups.sort()).toEqual(
        keys.filter((k) => ['users', 'subscriptions', 'revenue', 'tickets'].includes(k)).sort(),
      );
    });
  }

  it('refuses anonymous callers', async () => {
    const res = await call('GET', '/dashboard/stats?timeFrame=month');
    expect(res.statusCode).toBe(401);
    expect(res.json().success).toBe(false);
  });
});

describe('numbers on a known fixture, per time frame', () => {
  const cases = [
    {
      timeFrame: 'today',
      range: ['2026-05-14', '2026-05-14'],
      users: { totalUsers: 7, newUsers: 1, activeUsers: 6 },
      subscriptions: { activeSubscriptions: 2, newSubscriptions: 1, cancelledSubscriptions: 1 },
      revenue: { totalRevenue: '$1.50', pendingPayments: '$3.00', overduePayments: '$0.00' },
      tickets: { openTickets: 3, newTickets: 1, resolvedTickets: 1 },
    },
    {
      timeFrame: 'tomorrow',
      range: ['2026-05-15', '2026-05-15'],
      users: { totalUsers: 7, newUsers: 0, activeUsers: 6 },
      subscriptions: { activeSubscriptions: 2, newSubscriptions: 0, cancelledSubscriptions: 0 },
      revenue: { totalRevenue: '$0.00', pendingPayments: '$0.00', overduePayments: '$0.00' },
      tickets: { openTickets: 3, newTickets: 0, resolvedTickets: 0 },
    },
    {
      timeFrame: 'week',
      range: ['2026-05-11', '2026-05-17'],
      users: { totalUsers: 7, newUsers: 2, activeUsers: 6 },
      subscriptions: { activeSubscriptions: 2, newSubscriptions: 2, cancelledSubscriptions: 2 },
      revenue: { totalRevenue: '$6.50', pendingPayments: '$13.00', overduePayments: '$0.00' },
      tickets: { openTickets: 3, newTickets: 2, resolvedTickets: 2 },
    },
    {
      timeFrame: 'month',
      range: ['2026-05-01', '2026-05-31'],
      users: { totalUsers: 7, newUsers: 3, activeUsers: 6 },
      subscriptions: { activeSubscriptions: 2, newSubscriptions: 3, cancelledSubscriptions: 2 },
      revenue: { totalRevenue: '$36.50', pendingPayments: '$13.00', overduePayments: '$25.00' },
      tickets: { openTickets: 3, newTickets: 3, resolvedTickets: 2 },
    },
    {
      timeFrame: 'quarter',
      range: ['2026-04-01', '2026-06-30'],
      users: { totalUsers: 7, newUsers: 4, activeUsers: 6 },
      subscriptions: { activeSubscriptions: 2, newSubscriptions: 4, cancelledSubscriptions: 2 },
      revenue: { totalRevenue: '$56.50', pendingPayments: '$13.00', overduePayments: '$25.00' },
      tickets: { openTickets: 3, newTickets: 3, resolvedTickets: 2 },
    },
    {
      timeFrame: 'year',
      range: ['2026-01-01', '2026-12-31'],
      users: { totalUsers: 7, newUsers: 5, activeUsers: 6 },
      subscriptions: { activeSubscriptions: 2, newSubscriptions: 5, cancelledSubscriptions: 2 },
      revenue: { totalRevenue: '$156.50', pendingPayments: '$13.00', overduePayments: '$65.00' },
      tickets: { openTickets: 3, newTickets: 5, resolvedTickets: 2 },
    },
    {
      timeFrame: 'custom&startDate=2026-01-01&endDate=2026-03-31',
      range: ['2026-01-01', '2026-03-31'],
      // Counted as they stood at the end of the range: c0, c1, c2 existed; one subscription was active.
      users: { totalUsers: 3, newUsers: 1, activeUsers: 3 },
      subscriptions: { activeSubscriptions: 1, newSubscriptions: 1, cancelledSubscriptions: 0 },
      revenue: { totalRevenue: '$100.00', pendingPayments: '$0.00', overduePayments: '$40.00' },
      tickets: { openTickets: 1, newTickets: 2, resolvedTickets: 0 },
    },
  ];

  for (const c of cases) {
    it(`${c.timeFrame}: admin's numbers and date range`, async () => {
      const data = await stats('admin', `?timeFrame=${c.timeFrame}`);
      expect(data.dateRange).toEqual({ startDate: c.range[0], endDate: c.range[1] });
      expect(data.stats.users).toEqual(c.users);
      expect(data.stats.subscriptions).toEqual(c.subscriptions);
      expect(data.stats.revenue).toEqual(c.revenue);
      expect(data.stats.tickets).toEqual(c.tickets);
      expect(data.stats.networkDevices).toBe(0);
      expect(data.stats.activeConnections).toBe(0);
    });
  }

  it('billing gets the same revenue and subscriptions as admin', async () => {
    const [admin, billing] = await Promise.all([
      stats('admin', '?timeFrame=year'),
      stats('billing', '?timeFrame=year'),
    ]);
    expect(billing.stats.revenue).toEqual(admin.stats.revenue);
    expect(billing.stats.subscriptions).toEqual(admin.stats.subscriptions);
  });
});

describe("tickets are the caller's own for a customer", () => {
  it("counts only the customer's tickets", async () => {
    const year = await stats('user', '?timeFrame=year');
    expect(year.stats.tickets).toEqual({ openTickets: 1, newTickets: 2, resolvedTickets: 1 });
    const week = await stats('user', '?timeFrame=week');
    expect(week.stats.tickets).toEqual({ openTickets: 1, newTickets: 1, resolvedTickets: 1 });
    expect(week.series.tickets.map((p: { opened: number }) => p.opened)).toEqual([0, 0, 1, 0]);
  });

  it('a technician counts their queue (technical tickets), not every ticket', async () => {
    const year = await stats('technician', '?timeFrame=year');
    expect(year.stats.tickets).toEqual({ openTickets: 1, newTickets: 1, resolvedTickets: 0 });
  });
});

describe('time frames and custom ranges (spec §5)', () => {
  it('a missing time frame is this month; an unknown one is refused (400, as the OpenAPI enum says)', async () => {
    const unknown = await call('GET', '/dashboard/stats?timeFrame=fortnight', 'admin');
    expect([unknown.statusCode, unknown.json().errors?.[0]?.field]).toEqual([400, 'timeFrame']);
    for (const q of ['', '?timeFrame=']) {
      const data = await stats('admin', q);
      expect(data.timeFrame).toBe('month');
      expect(data.dateRange).toEqual({ startDate: '2026-05-01', endDate: '2026-05-31' });
      expect(data.stats.users.newUsers).toBe(3);
    }
  });

  it.each([
    ['a date that does not exist', 'startDate=2026-02-30&endDate=2026-03-01', 'startDate'],
    ['a malformed date', 'startDate=01/02/2026&endDate=2026-03-01', 'startDate'],
    ['a bad end date', 'startDate=2026-01-01&endDate=tomorrow', 'endDate'],
    ['no end date', 'startDate=2026-01-01', 'endDate'],
    ['no dates at all', '', 'startDate'],
  ])('custom with %s → 400', async (_name, query, field) => {
    const res = await call('GET', `/dashboard/stats?timeFrame=custom&${query}`, 'admin');
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('custom with the end before the start → 400', async () => {
    const res = await call('GET', '/dashboard/stats?timeFrame=custom&startDate=2026-05-10&endDate=2026-05-09', 'admin');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message: 'End date cannot be before the start date' });
  });

  it('custom longer than 10 years → 400', async () => {
    const res = await call('GET', '/dashboard/stats?timeFrame=custom&startDate=0001-01-01&endDate=2026-05-09', 'admin');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The date range cannot be longer than 10 years');
    const tenYears = await call(
      'GET',
      '/dashboard/stats?timeFrame=custom&startDate=2016-05-15&endDate=2026-05-14',
      'admin',
    );
    expect(tenYears.statusCode).toBe(200);
  });

  it('a one-day custom range is allowed', async () => {
    const data = await stats('admin', '?timeFrame=custom&startDate=2026-05-12&endDate=2026-05-12');
    expect(data.dateRange).toEqual({ startDate: '2026-05-12', endDate: '2026-05-12' });
    expect(data.stats.users.newUsers).toBe(1);
    expect(data.stats.revenue.totalRevenue).toBe('$5.00');
  });
});

describe('chart series', () => {
  it("week: one point per day up to today, with the fixture's values", async () => {
    const data = await stats('admin', '?timeFrame=week');
    expect(data.series.interval).toBe('day');
    expect(data.series.currency).toBe('USD');
    const dates = ['2026-05-11', '2026-05-12', '2026-05-13', '2026-05-14'];
    expect(data.series.revenue).toEqual([0, 500, 0, 150].map((amount, i) => ({ date: dates[i], amount })));
    expect(data.series.subscriptions).toEqual([0, 0, 1, 1].map((count, i) => ({ date: dates[i], count })));
    expect(data.series.users).toEqual([0, 1, 0, 1].map((count, i) => ({ date: dates[i], count })));
    expect(data.series.tickets).toEqual([
      { date: dates[0], opened: 0, resolved: 0 },
      { date: dates[1], opened: 0, resolved: 1 },
      { date: dates[2], opened: 1, resolved: 0 },
      { date: dates[3], opened: 1, resolved: 1 },
    ]);
  });

  it('the year is charted per day up to today; the series add up to the period totals', async () => {
    const data = await stats('admin', '?timeFrame=year');
    expect(data.series.revenue).toHaveLength(134); // 1 January … 14 May
    expect(data.series.revenue.reduce((s: number, p: { amount: number }) => s + p.amount, 0)).toBe(15650);
    expect(data.series.tickets.reduce((s: number, p: { opened: number }) => s + p.opened, 0)).toBe(5);
  });

  it('a custom range over a year long is charted per month', async () => {
    const data = await stats('admin', '?timeFrame=custom&startDate=2025-01-01&endDate=2026-05-31');
    expect(data.series.interval).toBe('month');
    expect(data.series.revenue).toHaveLength(17);
    expect(data.series.revenue.find((p: { date: string }) => p.date === '2026-05')).toEqual({
      date: '2026-05',
      amount: 3650,
    });
  });

  it('billing gets revenue and subscription series only', async () => {
    const data = await stats('billing', '?timeFrame=month');
    expect(data.series.users).toBeUndefined();
    expect(data.series.revenue).toHaveLength(14);
  });
});

/**
 * The statistics come from per-day roll-ups kept by triggers (migration 0015): every kind of change to the
 * source rows must show in the numbers at once, and the roll-ups must stay equal to counting the tables. Runs
 * last: it changes the fixture.
 */
describe('roll-ups follow every change to the rows', () => {
  const db = () => t.database.db;
  const revenue = async (timeFrame: string) => (await stats('admin', `?timeFrame=${timeFrame}`)).stats.revenue;

  it('a payment refunded, re-priced or deleted changes the revenue', async () => {
    expect((await revenue('week')).totalRevenue).toBe('$6.50');
    await db().update(payments).set({ status: 'refunded' }).where(eq(payments.transactionId, 'tx-4'));
    expect((await revenue('week')).totalRevenue).toBe('$1.50');
    await db().update(payments).set({ amount: 250 }).where(eq(payments.transactionId, 'tx-5'));
    expect((await revenue('today')).totalRevenue).toBe('$2.50');
    // Moved to yesterday: gone from today, still in the week.
    await db()
      .update(payments)
      .set({ paymentDate: d('2026-05-13') })
      .where(eq(payments.transactionId, 'tx-5'));
    expect((await revenue('today')).totalRevenue).toBe('$0.00');
    expect((await revenue('month')).totalRevenue).toBe('$32.50');
    await db().delete(payments).where(eq(payments.transactionId, 'tx-3'));
    expect((await revenue('month')).totalRevenue).toBe('$2.50');
    const week = await stats('admin', '?timeFrame=week');
    expect(week.series.revenue.map((p: { amount: number }) => p.amount)).toEqual([0, 0, 250, 0]);
  });

  it('an invoice paid, marked overdue or given a later due date moves between pending and overdue', async () => {
    expect(await revenue('month')).toMatchObject({ pendingPayments: '$13.00', overduePayments: '$25.00' });
    await db()
      .update(invoices)
      .set({ status: 'paid' })
      .where(and(eq(invoices.userId, ids.c3), eq(invoices.status, 'unpaid')));
    expect(await revenue('month')).toMatchObject({ pendingPayments: '$3.00', overduePayments: '$25.00' });
    const [late] = await db()
      .update(invoices)
      .set({ status: 'overdue' })
      .where(and(eq(invoices.userId, ids.c4), eq(invoices.status, 'unpaid')))
      .returning();
    expect(await revenue('month')).toMatchObject({ pendingPayments: '$3.00', overduePayments: '$25.00' });
    await db().update(invoices).set({ status: 'unpaid', dueDate: '2026-05-30' }).where(eq(invoices.id, late.id));
    expect(await revenue('month')).toMatchObject({ pendingPayments: '$28.00', overduePayments: '$0.00' });
    await db().update(invoices).set({ status: 'cancelled' }).where(eq(invoices.id, late.id));
    expect(await revenue('month')).toMatchObject({ pendingPayments: '$3.00', overduePayments: '$0.00' });
  });

  it('customers re-activated, promoted to staff or deleted change the user counts', async () => {
    expect((await stats('admin', '?timeFrame=today')).stats.users).toEqual({
      totalUsers: 7,
      newUsers: 1,
      activeUsers: 6,
    });
    await db().update(users).set({ status: 'active' }).where(eq(users.id, ids.c5));
    expect((await stats('admin', '?timeFrame=today')).stats.users).toEqual({
      totalUsers: 7,
      newUsers: 1,
      activeUsers: 7,
    });
    await db().update(users).set({ role: 'support' }).where(eq(users.id, ids.c6));
    expect((await stats('admin', '?timeFrame=today')).stats.users).toEqual({
      totalUsers: 6,
      newUsers: 0,
      activeUsers: 6,
    });
    const extra = await t.createUser({ email: 'rollup-extra@example.com' });
    await db()
      .update(users)
      .set({ createdAt: d('2026-05-14T11:00:00.000Z') })
      .where(eq(users.id, extra.id));
    expect((await stats('admin', '?timeFrame=today')).stats.users).toEqual({
      totalUsers: 7,
      newUsers: 1,
      activeUsers: 7,
    });
    await db().delete(users).where(eq(users.id, extra.id));
    expect((await stats('admin', '?timeFrame=today')).stats.users).toEqual({
      totalUsers: 6,
      newUsers: 0,
      activeUsers: 6,
    });
  });

  it('a subscription activated or deleted changes the subscription counts', async () => {
    expect((await stats('admin', '?timeFrame=week')).stats.subscriptions).toEqual({
      activeSubscriptions: 2,
      newSubscriptions: 2,
      cancelledSubscriptions: 2,
    });
    await db().update(subscriptions).set({ status: 'active' }).where(eq(subscriptions.userId, ids.c4));
    await db().delete(subscriptions).where(eq(subscriptions.userId, ids.c6));
    expect((await stats('admin', '?timeFrame=week')).stats.subscriptions).toEqual({
      activeSubscriptions: 3,
      newSubscriptions: 1,
      cancelledSubscriptions: 1,
    });
  });

  it('a ticket resolved or deleted changes the ticket counts', async () => {
    expect((await stats('admin', '?timeFrame=today')).stats.tickets).toEqual({
      openTickets: 3,
      newTickets: 1,
      resolvedTickets: 1,
    });
    await db()
      .update(tickets)
      .set({ status: 'resolved', resolvedAt: new Date(NOW) })
      .where(and(eq(tickets.createdBy, ids.c1), eq(tickets.status, 'open')));
    expect((await stats('admin', '?timeFrame=today')).stats.tickets).toEqual({
      openTickets: 2,
      newTickets: 1,
      resolvedTickets: 2,
    });
    await db().delete(tickets).where(eq(tickets.createdBy, ids.c2));
    const year = await stats('admin', '?timeFrame=year');
    expect(year.stats.tickets).toEqual({ openTickets: 1, newTickets: 4, resolvedTickets: 3 });
    // Re-opened: the resolution day is taken away again.
    await db().update(tickets).set({ status: 'open', resolvedAt: null }).where(eq(tickets.createdBy, ids.c1));
    expect((await stats('admin', '?timeFrame=year')).stats.tickets).toEqual({
      openTickets: 3,
      newTickets: 4,
      resolvedTickets: 1,
    });
  });

  it('after all that, every roll-up equals counting the tables again', async () => {
    const rows = async (query: ReturnType<typeof sql>) =>
      ((await db().execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows.map((r) =>
        JSON.stringify(Object.values(r).map(String)),
      );
    const same = async (rollup: ReturnType<typeof sql>, recount: ReturnType<typeof sql>) =>
      expect((await rows(rollup)).sort()).toEqual((await rows(recount)).sort());
    await same(
      sql`select day::text, status, n from dashboard_daily_users where n <> 0`,
      sql`select (created_at at time zone 'UTC')::date::text, status, count(*) from users where role = 'user' group by 1, 2`,
    );
    await same(
      sql`select day::text, status, n from dashboard_daily_subscriptions where n <> 0`,
      sql`select (created_at at time zone 'UTC')::date::text, status, count(*) from subscriptions group by 1, 2`,
    );
    await same(
      sql`select day::text, currency, amount, n from dashboard_daily_revenue where n <> 0`,
      sql`select (payment_date at time zone 'UTC')::date::text, currency, sum(amount), count(*) from payments where status = 'paid' group by 1, 2`,
    );
    await same(
      sql`select issue_date::text, due_date::text, status, currency, amount, n from dashboard_daily_open_invoices where n <> 0`,
      sql`select issue_date::text, due_date::text, status, currency, sum(total_amount), count(*) from invoices where status in ('unpaid', 'overdue') group by 1, 2, 3, 4`,
    );
    await same(
      sql`select day::text, status, n from dashboard_daily_tickets where n <> 0`,
      sql`select (created_at at time zone 'UTC')::date::text, status, count(*) from tickets group by 1, 2`,
    );
    await same(
      sql`select day::text, n from dashboard_daily_resolved_tickets where n <> 0`,
      sql`select (resolved_at at time zone 'UTC')::date::text, count(*) from tickets where resolved_at is not null group by 1`,
    );
  });

  it('emptying the tickets table empties its roll-ups', async () => {
    await db().execute(sql`truncate tickets cascade`);
    expect((await stats('admin', '?timeFrame=year')).stats.tickets).toEqual({
      openTickets: 0,
      newTickets: 0,
      resolvedTickets: 0,
    });
  });
});
