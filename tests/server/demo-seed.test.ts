/**
 * The living demo (issue 16, demo data): seedDemoData then seedLivingDemo on a fresh database, ending on a fixed
 * day, then the portal's API on it. What a visitor would notice: subscriptions in every state, money that adds up
 * (every paid invoice has its payment, invoice numbers without gaps, an upgrade's pro-rata credit), usage pages
 * that agree with the RADIUS sessions, something on every role's dashboard cards, the technician's coming
 * installations, the devices' traffic, and nothing done twice on a database that already has data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, count, eq, sql } from 'drizzle-orm';
import type { Role } from '../../contract/roles';
import { seedLivingDemo, type LivingDemoSummary } from '../../server/db/demo/living';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from '../../server/db/seed';
import {
  invoices,
  payments,
  radiusSessions,
  radiusUsageDaily,
  settings,
  subscriptions,
  ticketAttachments,
  tickets,
  users,
} from '../../server/db/schema';
import { ManualClock } from '../../server/lib/clock';
import { createTestApp, type TestApp } from '../helpers/server';

/** "Today" of the demo: mid-month, so the month's dashboard range holds two weeks of payments. */
const END = new Date('2025-06-17T15:00:00.000Z');

// The demo is made on the embedded database (what `npm start` uses); the PostgreSQL run, which repeats the API suite,
// leaves out this minute of seeding (the same services write the same rows on both).
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('living demo seed', () => {
  let t: TestApp;
  let dataDir: string;
  let summary: LivingDemoSummary | null;
  const tokens = new Map<Role, string>();

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'isp-demo-seed-'));
    t = await createTestApp({ clock: new ManualClock(END), config: { dataDir } });
    const box = t.app.secretBox;
    expect(await seedDemoData(t.app.db, { clock: t.clock, box })).toHaveLength(DEMO_ACCOUNTS.length);
    summary = await seedLivingDemo(t.app.db, {
      clock: t.clock,
      box,
      storage: t.app.storage,
      dataDir,
      appUrl: t.config.appUrl,
    });
    t.clock.set(END.getTime() + 60_000);
    // The app cached the settings (invoice counter) before the seed wrote them.
    t.app.settings.invalidate();
    for (const a of DEMO_ACCOUNTS) tokens.set(a.role, (await t.login(a.email, DEMO_PASSWORD)).token);
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const get = async (role: Role, url: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api${url}`,
      headers: { authorization: `Bearer ${tokens.get(role)}` },
    });
    expect(res.statusCode, `${role} GET ${url}: ${res.body}`).toBe(200);
    return res.json().data;
  };

  it('makes about sixty customers with subscriptions in every state', async () => {
    expect(summary).not.toBeNull();
    const [{ n: customers }] = await t.app.db.select({ n: count() }).from(users).where(eq(users.role, 'user'));
    expect(Number(customers)).toBe(60);
    const rows = await t.app.db
      .select({ status: subscriptions.status, n: count() })
      .from(subscriptions)
      .groupBy(subscriptions.status);
    const by = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    expect(by.active).toBeGreaterThanOrEqual(30);
    expect(by.pending).toBeGreaterThanOrEqual(5);
    expect(by.suspended).toBeGreaterThanOrEqual(2);
    expect(by.cancelled).toBeGreaterThanOrEqual(3);
    expect(by.expired).toBeGreaterThanOrEqual(5);
    expect(summary!.subscriptions).toEqual({
      pending: by.pending,
      active: by.active,
      suspended: by.suspended,
      cancelled: by.cancelled,
      expired: by.expired,
    });
    // Suspended by the billing run for an unpaid invoice, not by hand.
    const suspended = await t.app.db
      .select({ reason: subscriptions.suspensionReason })
      .from(subscriptions)
      .where(eq(subscriptions.status, 'suspended'));
    for (const s of suspended) expect(s.reason).toMatch(/^Overdue invoice INV-\d{6}$/);
    // Sign-ups are spread over the year.
    const [span] = await t.app.db
      .select({ first: sql<string>`min(${users.createdAt})::text`, last: sql<string>`max(${users.createdAt})::text` })
      .from(users)
      .where(eq(users.role, 'user'));
    expect(Date.parse(span.first!)).toBeLessThan(END.getTime() - 300 * 86_400_000);
    expect(Date.parse(span.last!)).toBeGreaterThan(END.getTime() - 10 * 86_400_000);
  });

  it('pays every paid invoice with one payment of its amount, refunds a few and leaves some overdue', async () => {
    const all = await t.app.db.select().from(invoices);
    const pays = await t.app.db.select().from(payments);
    const paid = all.filter((i) => i.status === 'paid');
    expect(paid.length).toBeGreaterThan(200);
    for (const invoice of paid) {
      const mine = pays.filter((p) => p.invoiceId === invoice.id && p.status === 'paid');
      expect(mine, invoice.number).toHaveLength(1);
      expect(mine[0].amount).toBe(invoice.totalAmount);
      expect(invoice.paidDate).not.toBeNull();
    }
    const refunded = all.filter((i) => i.status === 'refunded');
    expect(refunded.length).toBeGreaterThanOrEqual(2);
    for (const invoice of refunded)
      expect(pays.some((p) => p.invoiceId === invoice.id && p.status === 'refunded')).toBe(true);
    expect(all.filter((i) => i.status === 'overdue').length).toBeGreaterThanOrEqual(3);
    expect(all.some((i) => i.status === 'unpaid')).toBe(true);
    // Totals are the service's: subtotal = sum of the lines, total = subtotal + tax.
    for (const invoice of all) {
      expect(invoice.subtotal).toBe(invoice.lineItems.reduce((n, l) => n + l.amount, 0));
      expect(invoice.totalAmount).toBe(invoice.subtotal + invoice.tax);
    }
    // Both ways of paying: online (sandbox) and recorded by billing staff.
    expect(new Set(pays.map((p) => p.provider))).toEqual(new Set(['sandbox', 'manual']));
  });

  it('numbers the invoices without gaps and leaves the counter after the last one', async () => {
    const numbers = (
      await t.app.db.select({ number: invoices.number }).from(invoices).orderBy(asc(invoices.number))
    ).map((r) => r.number);
    expect(numbers).toEqual(numbers.map((_, i) => `INV-${String(i + 1).padStart(6, '0')}`));
    const [billing] = await t.app.db
      .select({ value: settings.value })
      .from(settings)
      .where(eq(settings.key, 'billing'));
    expect((billing.value as { invoice_next_number: number }).invoice_next_number).toBe(numbers.length + 1);
  });

  it("credits the unused days of the old plan on the demo customer's upgrade", async () => {
    const casey = (await t.app.db.select({ id: users.id }).from(users).where(eq(users.email, 'customer@isp.local')))[0];
    const mine = await t.app.db.select().from(invoices).where(eq(invoices.userId, casey.id));
    const upgrade = mine.find((i) => i.lineItems.some((l) => l.kind === 'upgrade'));
    expect(upgrade).toBeDefined();
    const credit = upgrade!.lineItems.find((l) => l.kind === 'credit');
    expect(credit?.amount).toBeLessThan(0);
    expect(upgrade!.status).toBe('paid');
    const active = await get('user', '/subscriptions/active-plan');
    expect(active.plan.name).toBe('Home 100');
    expect(active.subscription.status).toBe('active');
  });

  it('books usage that equals the RADIUS sessions, for every active customer', async () => {
    const sessions = await t.app.db
      .select({
        id: radiusSessions.subscriptionId,
        input: sql<string>`sum(${radiusSessions.inputOctets})`,
        output: sql<string>`sum(${radiusSessions.outputOctets})`,
      })
      .from(radiusSessions)
      .groupBy(radiusSessions.subscriptionId);
    const usage = await t.app.db
      .select({
        id: radiusUsageDaily.subscriptionId,
        input: sql<string>`sum(${radiusUsageDaily.inputOctets})`,
        output: sql<string>`sum(${radiusUsageDaily.outputOctets})`,
      })
      .from(radiusUsageDaily)
      .groupBy(radiusUsageDaily.subscriptionId);
    expect(sessions.length).toBeGreaterThan(0);
    const usageBy = new Map(usage.map((u) => [u.id, u]));
    for (const s of sessions) {
      expect(Number(usageBy.get(s.id!)?.input)).toBe(Number(s.input));
      expect(Number(usageBy.get(s.id!)?.output)).toBe(Number(s.output));
    }
    const active = await t.app.db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(eq(subscriptions.status, 'active'));
    for (const a of active) expect(Number(usageBy.get(a.id)?.output ?? 0), a.id).toBeGreaterThan(0);
    // The customer's usage page: this period has days with traffic, and a session is open now.
    const mine = await get('user', '/usage');
    expect(mine.days.filter((d: { download: number }) => d.download > 0).length).toBeGreaterThan(3);
    expect(mine.session).not.toBeNull();
  });

  it("shows every role's dashboard cards with something in them", async () => {
    const nonZero = (text: string) => !/^\D*0(\.0+)?\s?\D*$/.test(text);
    for (const role of ['admin', 'super_admin', 'support', 'technician', 'billing', 'user'] as Role[]) {
      const data = await get(role, '/dashboard/stats?timeFrame=month');
      const stats = data.stats;
      expect(data.unavailable, role).toEqual([]);
      expect(nonZero(stats.bandwidth.totalDownload), `${role} download ${stats.bandwidth.totalDownload}`).toBe(true);
      expect(
        stats.tickets.openTickets + stats.tickets.newTickets + stats.tickets.resolvedTickets,
        role,
      ).toBeGreaterThan(0);
      if (stats.users) expect(stats.users.totalUsers).toBeGreaterThanOrEqual(60);
      if (stats.users) expect(stats.users.newUsers).toBeGreaterThan(0);
      if (stats.subscriptions) expect(stats.subscriptions.activeSubscriptions).toBeGreaterThanOrEqual(30);
      if (stats.revenue) {
        expect(nonZero(stats.revenue.totalRevenue), stats.revenue.totalRevenue).toBe(true);
        expect(nonZero(stats.revenue.overduePayments), stats.revenue.overduePayments).toBe(true);
        expect(data.series.revenue.some((p: { amount: number }) => p.amount > 0)).toBe(true);
      }
      if (stats.networkDevices !== undefined) expect(stats.networkDevices).toBe(2);
      if (stats.activeConnections !== undefined) expect(stats.activeConnections).toBeGreaterThanOrEqual(30);
    }
    // A year: the revenue chart has a bar in every month.
    const year = await get('admin', '/dashboard/stats?timeFrame=year');
    expect(year.series.revenue.filter((p: { amount: number }) => p.amount > 0).length).toBeGreaterThanOrEqual(11);
  });

  it('gives the technician installations today and in the coming days, and tickets in every status with an attachment', async () => {
    const list = await get('technician', '/installations?limit=100');
    const items: Array<{ status: string; scheduled_start: string | null }> = list.items ?? list;
    const upcoming = items.filter(
      (i) => i.scheduled_start && Date.parse(i.scheduled_start) >= Date.parse(END.toISOString().slice(0, 10)),
    );
    expect(upcoming.length).toBeGreaterThanOrEqual(4);
    expect(upcoming.some((i) => i.scheduled_start!.slice(0, 10) === END.toISOString().slice(0, 10))).toBe(true);
    expect(items.filter((i) => i.status === 'completed').length).toBeGreaterThan(40);

    const statuses = await t.app.db
      .select({ status: tickets.status, n: count() })
      .from(tickets)
      .groupBy(tickets.status);
    expect(statuses.map((s) => s.status).sort()).toEqual([
      'closed',
      'in_progress',
      'open',
      'resolved',
      'waiting_customer',
    ]);
    const [{ n: attachments }] = await t.app.db.select({ n: count() }).from(ticketAttachments);
    expect(Number(attachments)).toBe(1);
  });

  it('gives the IP address screens their networks: static addresses (one in quarantine), a pool in use, and an address history', async () => {
    type Net = { id: string; purpose: string; counts: { static: number; dynamic: number; quarantined: number } };
    const nets = (await get('technician', '/ipam/networks')).items as Net[];
    expect(nets.map((n) => n.purpose).sort()).toEqual(['ipv6_delegation', 'pool', 'static', 'walled_garden']);
    const statics = nets.find((n) => n.purpose === 'static')!;
    expect(statics.counts).toMatchObject({ static: 6, quarantined: 1 });
    expect(nets.find((n) => n.purpose === 'pool')!.counts.dynamic).toBeGreaterThan(10);
    const held = (
      (await get('support', `/ipam/networks/${statics.id}/addresses`)).items as Array<{
        address: string;
        state: string;
        subscription_id: string;
      }>
    ).find((i) => i.state === 'static')!;
    const history = (await get('support', `/ipam/history?address=${held.address}`)).items as Array<{
      subscription_id: string;
    }>;
    expect(history.length).toBeGreaterThan(0);
    expect(history[0].subscription_id).toBe(held.subscription_id);
  });

  it('registers two NAS devices with a week of traffic history', async () => {
    const devices = await get('admin', '/devices');
    const rows: Array<{ id: string; name: string }> = devices.items ?? devices;
    // The first is the one the network simulator plays (same name, loopback): every open session is on it.
    expect(rows.map((d) => d.name).sort()).toEqual(['NAS North', 'Simulated NAS']);
    const { items: interfaces } = await get('admin', `/devices/${rows[0].id}/interfaces`);
    const uplink = interfaces.find((i: { name: string }) => i.name === 'sfp-sfpplus1');
    const traffic = await get('admin', `/devices/${rows[0].id}/interfaces/${uplink.id}/traffic?range=week`);
    const points: Array<{ in_bps: number | null }> = traffic.points;
    expect(points.filter((p) => (p.in_bps ?? 0) > 0).length).toBeGreaterThan(100);
  });

  it('does nothing on a database that already has data', async () => {
    const before = await Promise.all(
      [invoices, payments, subscriptions, tickets, users].map(async (table) =>
        Number((await t.app.db.select({ n: count() }).from(table))[0].n),
      ),
    );
    expect(await seedDemoData(t.app.db, { clock: t.clock, box: t.app.secretBox })).toEqual([]);
    expect(
      await seedLivingDemo(t.app.db, {
        clock: t.clock,
        box: t.app.secretBox,
        storage: t.app.storage,
        dataDir,
        appUrl: t.config.appUrl,
      }),
    ).toBeNull();
    const after = await Promise.all(
      [invoices, payments, subscriptions, tickets, users].map(async (table) =>
        Number((await t.app.db.select({ n: count() }).from(table))[0].n),
      ),
    );
    expect(after).toEqual(before);
  });
});
