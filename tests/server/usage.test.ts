/**
 * Customer usage (issue 8): GET /usage answers per-day download/upload for a billing period, the totals against
 * the plan's data cap and the open session, and the numbers equal the accounting totals of a known fixture
 * (sessions recorded through the accounting store, counters beyond 2^32 as Gigawords make them).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BYTES_PER_GB } from '../../contract/schemas/usage';
import type { Db } from '../../server/db/client';
import { subscriptions } from '../../server/db/schema';
import { devices } from '../../server/db/schema/devices';
import { radiusSessions } from '../../server/db/schema/radius';
import { ACCT_STATUS } from '../../server/integrations/radius/codec';
import { ManualClock } from '../../server/lib/clock';
import { AccountingStore, type AccountingRecord } from '../../server/modules/radius/accounting';
import { provisionCredentials } from '../../server/modules/radius/credentials';
import { formatBytes } from '../../server/modules/dashboard/service';
import { usagePeriods } from '../../server/modules/usage/service';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const G = 2 ** 32; // one Gigaword
const GiB = 1024 ** 3;

describe('usage', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let customerId: string;
  let subscriptionId: string;
  let username: string;
  const call = (url: string, who: string) =>
    t.app.inject({ method: 'GET', url: `/api${url}`, headers: bearer(tokens[who]) });

  // The fixture: what the NAS reported, session by session (64-bit totals: Gigawords × 2^32 + Octets).
  const A = {
    interim: { input: 1 * G + 5_000, output: 3 * G + 123_456 },
    stop: { input: 1 * G + 900_000_000, output: 5 * G + 7 },
  };
  const B = { interim: { input: 250_000_000, output: 2 * G + 1 } };
  const OLD = { stop: { input: 10_000, output: 3 * GiB } };

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db as Db;
    for (const role of ['admin', 'support', 'technician', 'billing'] as const) {
      await t.createUser({ email: `${role}@example.com`, role });
    }
    const customer = await t.createUser({ email: 'dana@example.com', name: 'Dana Doe' });
    await t.createUser({ email: 'eve@example.com', name: 'Eve Other' });
    customerId = customer.id;
    const adminToken = (await t.login('admin@example.com')).token;
    const plan = await t.app.inject({
      method: 'POST',
      url: '/api/plans',
      headers: bearer(adminToken),
      payload: {
        name: 'Capped 50',
        download_mbps: 50,
        upload_mbps: 10,
        price: 3000,
        setup_fee: 0,
        billing_cycle: 'monthly',
        data_cap_gb: 50,
      },
    });
    expect(plan.statusCode, plan.body).toBe(201);
    const sub = await t.app.inject({
      method: 'POST',
      url: '/api/subscriptions',
      headers: bearer(adminToken),
      payload: { plan_id: plan.json().data.id, user_id: customerId },
    });
    subscriptionId = sub.json().data.subscription.id;
    // The subscription was created in September and is in its November period.
    await db
      .update(subscriptions)
      .set({
        status: 'active',
        createdAt: new Date('2026-09-15T10:00:00Z'),
        currentPeriodStart: new Date('2026-11-01T12:00:00Z'),
        currentPeriodEnd: new Date('2026-12-01T12:00:00Z'),
      })
      .where(eq(subscriptions.id, subscriptionId));
    username = (
      await db.transaction(async (tx) => provisionCredentials(tx as unknown as Db, subscriptionId, t.app.secretBox))
    ).username;
    const [nas] = await db.insert(devices).values({ name: 'nas-1', host: '127.0.0.1' }).returning();

    const clock = new ManualClock(new Date('2026-10-20T08:00:00Z'));
    const store = new AccountingStore({
      db,
      clock,
      interimInterval: 300,
      subscriptionOf: async (u) => (u === username ? subscriptionId : null),
    });
    const send = (
      at: string,
      rec: Partial<AccountingRecord> & Pick<AccountingRecord, 'statusType' | 'acctSessionId'>,
    ) => {
      clock.set(at);
      return store.record(
        { deviceId: nas.id, ip: '127.0.0.1' },
        { username, inputOctets: 0, outputOctets: 0, sessionTime: 0, delaySeconds: 0, ...rec },
      );
    };
    // The previous period: one session on 20 October.
    await send('2026-10-20T08:00:00Z', { statusType: ACCT_STATUS.START, acctSessionId: 'old' });
    await send('2026-10-20T20:00:00Z', {
      statusType: ACCT_STATUS.STOP,
      acctSessionId: 'old',
      inputOctets: OLD.stop.input,
      outputOctets: OLD.stop.output,
      sessionTime: 43_200,
    });
    // A: 5 November 22:00 → 6 November 01:00, an interim update just before midnight.
    await send('2026-11-05T22:00:00Z', { statusType: ACCT_STATUS.START, acctSessionId: 'A', framedIp: '100.64.0.7' });
    await send('2026-11-05T23:55:00Z', {
      statusType: ACCT_STATUS.INTERIM,
      acctSessionId: 'A',
      inputOctets: A.interim.input,
      outputOctets: A.interim.output,
      sessionTime: 6_900,
    });
    // The NAS retransmits the same interim: nothing more is counted.
    await send('2026-11-05T23:55:03Z', {
      statusType: ACCT_STATUS.INTERIM,
      acctSessionId: 'A',
      inputOctets: A.interim.input,
      outputOctets: A.interim.output,
      sessionTime: 6_900,
    });
    await send('2026-11-06T01:00:00Z', {
      statusType: ACCT_STATUS.STOP,
      acctSessionId: 'A',
      inputOctets: A.stop.input,
      outputOctets: A.stop.output,
      sessionTime: 10_800,
    });
    // B: online since 7 November 08:00, still open.
    await send('2026-11-07T08:00:00Z', { statusType: ACCT_STATUS.START, acctSessionId: 'B', framedIp: '100.64.0.9' });
    await send('2026-11-07T09:00:00Z', {
      statusType: ACCT_STATUS.INTERIM,
      acctSessionId: 'B',
      inputOctets: B.interim.input,
      outputOctets: B.interim.output,
      sessionTime: 3_600,
    });

    t.clock.set('2026-11-07T10:00:00Z');
    for (const who of ['admin', 'support', 'technician', 'billing', 'dana', 'eve'])
      tokens[who] = (await t.login(`${who}@example.com`)).token;
  });
  afterAll(() => t.close());

  it('the customer’s current period: per-day numbers that add up to the sessions’ accounting totals, the cap and the open session', async () => {
    const res = await call('/usage', 'dana');
    expect(res.statusCode, res.body).toBe(200);
    const u = res.json().data;
    expect(u.subscription).toMatchObject({
      id: subscriptionId,
      status: 'active',
      plan_name: 'Capped 50',
      data_cap_gb: 50,
    });
    expect(u.period).toEqual({ index: 0, start: '2026-11-01', end: '2026-12-01' });
    // Every day from the period's first to today, no holes.
    expect(u.days.map((d: { date: string }) => d.date)).toEqual([
      '2026-11-01',
      '2026-11-02',
      '2026-11-03',
      '2026-11-04',
      '2026-11-05',
      '2026-11-06',
      '2026-11-07',
    ]);
    const day = (date: string) => u.days.find((d: { date: string }) => d.date === date);
    // Split by interim deltas: what A moved by 23:55 on the 5th, the rest on the 6th.
    expect(day('2026-11-05')).toEqual({ date: '2026-11-05', download: A.interim.output, upload: A.interim.input });
    expect(day('2026-11-06')).toEqual({
      date: '2026-11-06',
      download: A.stop.output - A.interim.output,
      upload: A.stop.input - A.interim.input,
    });
    expect(day('2026-11-07')).toEqual({ date: '2026-11-07', download: B.interim.output, upload: B.interim.input });
    expect(day('2026-11-02')).toEqual({ date: '2026-11-02', download: 0, upload: 0 });

    // The totals equal the accounting table's sessions of this period.
    const sessions = await t.database.db
      .select()
      .from(radiusSessions)
      .where(eq(radiusSessions.subscriptionId, subscriptionId));
    const inPeriod = sessions.filter((s) => s.startedAt >= new Date('2026-11-01T00:00:00Z'));
    const download = inPeriod.reduce((n, s) => n + s.outputOctets, 0);
    const upload = inPeriod.reduce((n, s) => n + s.inputOctets, 0);
    expect(download).toBe(A.stop.output + B.interim.output);
    expect(upload).toBe(A.stop.input + B.interim.input);
    expect(u.totals).toEqual({ download, upload, total: download + upload });
    expect(u.cap).toEqual({
      limit: 50 * BYTES_PER_GB,
      used: download + upload,
      remaining: 50 * BYTES_PER_GB - download - upload,
      percent: Math.round(((download + upload) / (50 * BYTES_PER_GB)) * 1000) / 10,
    });
    expect(u.session).toEqual({
      username,
      online_since: '2026-11-07T08:00:00.000Z',
      framed_ip: '100.64.0.9',
      download: B.interim.output,
      upload: B.interim.input,
      last_update: '2026-11-07T09:00:00.000Z',
    });
  });

  it('past periods step back by the billing cycle, none before the subscription existed', async () => {
    const u = (await call('/usage?period=1', 'dana')).json().data;
    expect(u.periods).toEqual([
      { index: 0, start: '2026-11-01', end: '2026-12-01' },
      { index: 1, start: '2026-10-01', end: '2026-11-01' },
      { index: 2, start: '2026-09-01', end: '2026-10-01' },
    ]);
    expect(u.period).toEqual({ index: 1, start: '2026-10-01', end: '2026-11-01' });
    expect(u.days).toHaveLength(31);
    expect(u.totals).toEqual({
      download: OLD.stop.output,
      upload: OLD.stop.input,
      total: OLD.stop.output + OLD.stop.input,
    });
    expect(u.days.find((d: { date: string }) => d.date === '2026-10-20')).toEqual({
      date: '2026-10-20',
      download: OLD.stop.output,
      upload: OLD.stop.input,
    });
  });

  it('staff read a customer’s usage with ?user_id=; a customer only their own (403); billing 403', async () => {
    const own = (await call('/usage', 'dana')).json().data;
    for (const who of ['admin', 'support', 'technician']) {
      const res = await call(`/usage?user_id=${customerId}`, who);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual(own);
    }
    for (const who of ['eve', 'billing']) {
      const res = await call(`/usage?user_id=${customerId}`, who);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ success: false, message: 'You can only see your own usage' });
    }
    expect((await call('/usage?user_id=nope', 'admin')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/usage' })).statusCode).toBe(401);
  });

  it('a customer without a subscription gets an empty calendar month', async () => {
    const u = (await call('/usage', 'eve')).json().data;
    expect(u.subscription).toBeNull();
    expect(u.period).toEqual({ index: 0, start: '2026-11-01', end: '2026-12-01' });
    expect(u.totals).toEqual({ download: 0, upload: 0, total: 0 });
    expect(u.cap).toEqual({ limit: null, used: 0, remaining: null, percent: null });
    expect(u.session).toBeNull();
  });

  it('feeds the dashboard: bandwidth of the time frame from accounting (a customer their own) and the sessions open now', async () => {
    const stats = async (who: string) => (await call('/dashboard/stats?timeFrame=month', who)).json().data;
    const november = { download: A.stop.output + B.interim.output, upload: A.stop.input + B.interim.input };
    const admin = await stats('admin');
    expect(admin.stats.bandwidth).toEqual({
      totalDownload: formatBytes(november.download),
      totalUpload: formatBytes(november.upload),
    });
    expect(admin.stats.activeConnections).toBe(1);
    expect(admin.unavailable).toEqual([]);
    // networkDevices: the registered NAS devices (one here), for staff only.
    expect(admin.stats.networkDevices).toBe(1);
    expect((await stats('technician')).stats.networkDevices).toBe(1);
    expect((await stats('dana')).stats).not.toHaveProperty('networkDevices');
    expect((await stats('technician')).stats.activeConnections).toBe(1);
    expect((await stats('dana')).stats.bandwidth).toEqual({
      totalDownload: formatBytes(november.download),
      totalUpload: formatBytes(november.upload),
    });
    expect((await stats('eve')).stats.bandwidth).toEqual({ totalDownload: '0 B', totalUpload: '0 B' });
  });

  it('period arithmetic: quarterly steps, month ends clamped without drift', () => {
    const p = usagePeriods({
      periodStart: new Date('2026-08-31T00:00:00Z'),
      periodEnd: new Date('2026-11-30T00:00:00Z'),
      cycle: 'quarterly',
      createdAt: new Date('2026-01-01T00:00:00Z'),
      now: new Date('2026-09-10T00:00:00Z'),
    });
    expect(p.slice(0, 3)).toEqual([
      { index: 0, start: '2026-08-31', end: '2026-11-30' },
      { index: 1, start: '2026-05-31', end: '2026-08-31' },
      { index: 2, start: '2026-02-28', end: '2026-05-31' },
    ]);
    expect(p).toHaveLength(4); // 2025-11-30 → 2026-02-28 still overlaps January's creation
  });
  it('lists the customer’s lines so another can be picked, and shows the picked one (issue 34)', async () => {
    const u = (await call('/usage', 'dana')).json().data;
    expect(u.lines).toEqual([
      { id: subscriptionId, status: 'active', plan_name: 'Capped 50', created_at: '2026-09-15T10:00:00.000Z' },
    ]);
    expect((await call(`/usage?subscription_id=${subscriptionId}`, 'dana')).json().data.subscription.id).toBe(
      subscriptionId,
    );
    // Someone else's line is not found for a customer.
    expect((await call(`/usage?subscription_id=${subscriptionId}`, 'eve')).statusCode).toBe(404);
    expect((await call('/usage', 'eve')).json().data.lines).toEqual([]);
  });

  describe('staff overview GET /usage/customers (issue 34)', () => {
    const november = () => ({ download: A.stop.output + B.interim.output, upload: A.stop.input + B.interim.input });
    let fayId: string;

    beforeAll(async () => {
      // A second customer with a line and no traffic yet, so there is something to page through.
      const fay = await t.createUser({ email: 'fay@example.com', name: 'Fay Newline' });
      fayId = fay.id;
      const plans = await t.app.inject({ method: 'GET', url: '/api/plans', headers: bearer(tokens.admin) });
      const planId = plans.json().data.items[0].id;
      const sub = await t.app.inject({
        method: 'POST',
        url: '/api/subscriptions',
        headers: bearer(tokens.admin),
        payload: { plan_id: planId, user_id: fayId },
      });
      expect(sub.statusCode, sub.body).toBe(201);
    });

    it('admin, support and technicians get the customers with a line, the heaviest first, with this month’s network totals', async () => {
      for (const who of ['admin', 'support', 'technician']) {
        const res = await call('/usage/customers', who);
        expect(res.statusCode, `${who}: ${res.body}`).toBe(200);
        const d = res.json().data;
        const { download, upload } = november();
        expect(d.period).toEqual({ start: '2026-11-01', end: '2026-11-08' });
        expect(d.totals).toEqual({ download, upload, total: download + upload, customers: 2, online: 1 });
        // Eve has no line: not listed. Dana used data this month: first.
        expect(d.items).toEqual([
          {
            user_id: customerId,
            name: 'Dana Doe',
            email: 'dana@example.com',
            lines: 1,
            online: 1,
            download,
            upload,
            total: download + upload,
          },
          {
            user_id: fayId,
            name: 'Fay Newline',
            email: 'fay@example.com',
            lines: 1,
            online: 0,
            download: 0,
            upload: 0,
            total: 0,
          },
        ]);
        expect(d.pagination).toEqual({ page: 1, totalPages: 1, total: 2, hasNext: false, hasPrev: false });
      }
    });

    it('pages and searches by name or e-mail; the network totals stay the whole network’s', async () => {
      const second = (await call('/usage/customers?limit=1&page=2', 'admin')).json().data;
      expect(second.items.map((i: { name: string }) => i.name)).toEqual(['Fay Newline']);
      expect(second.pagination).toEqual({ page: 2, totalPages: 2, total: 2, hasNext: false, hasPrev: true });
      const found = (await call('/usage/customers?search=FAY%40example', 'support')).json().data;
      expect(found.items.map((i: { user_id: string }) => i.user_id)).toEqual([fayId]);
      expect(found.totals.customers).toBe(2);
      // A LIKE wildcard is a literal character, not "anything".
      expect((await call('/usage/customers?search=%25', 'admin')).json().data.items).toEqual([]);
    });

    it('billing and customers are refused (403), a signed-out caller 401', async () => {
      for (const who of ['billing', 'dana']) {
        const res = await call('/usage/customers', who);
        expect(res.statusCode, who).toBe(403);
        expect(res.json().success).toBe(false);
      }
      expect((await t.app.inject({ method: 'GET', url: '/api/usage/customers' })).statusCode).toBe(401);
    });

    it('refuses a page below 1, a limit above 100 and a search over 100 characters (400, naming the field)', async () => {
      for (const query of ['page=0', 'limit=101', 'limit=abc', `search=${'x'.repeat(101)}`]) {
        const res = await call(`/usage/customers?${query}`, 'admin');
        expect(res.statusCode, query).toBe(400);
        const body = res.json();
        expect(body.success).toBe(false);
        expect(body.errors.length, query).toBeGreaterThan(0);
        expect(body.errors[0].field).toBe(query.split('=')[0]);
      }
    });
  });
});
