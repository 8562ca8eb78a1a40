/**
 * Issue 39: an ISP on daloRADIUS moves to the portal. A MariaDB database with FreeRADIUS's and daloRADIUS's tables
 * (tests/server/fixtures/daloradius-source.ts) is imported: first dry (nothing written, everything reported), then
 * for real, then again (nothing doubles). Afterwards the imported NAS's secret and the customers' own logins work
 * against the portal's RADIUS (radclient), at the rate they had, and their usage history is on their page's API.
 */
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  devices,
  importRuns,
  ipAssignments,
  ipNetworks,
  plans,
  subscriptions,
  users,
} from '../../server/db/schema';
import { radiusUsageDaily, serviceCredentials } from '../../server/db/schema/radius';
import { subscriptionAddressing } from '../../server/db/schema/ipam';
import type { ImportReport } from '../../server/import/run';
import { ManualClock } from '../../server/lib/clock';
import { createDaloradiusDatabase, GiB } from './fixtures/daloradius-source';
import { useImportPortal } from '../helpers/import-portal';
import { bearer, type TestApp } from '../helpers/server';

describe('import from daloRADIUS', () => {
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  const clock = new ManualClock(now);
  const portal = useImportPortal(clock, 'daloradius', () => createDaloradiusDatabase(now));
  let t: TestApp;
  let admin: string;
  let first: ImportReport;

  beforeAll(async () => {
    t = portal.app();
    admin = portal.admin();
    // The ISP already set up its static range in the portal; gina's address is in it.
    const network = await t.app.inject({
      method: 'POST',
      url: '/api/ipam/networks',
      headers: bearer(admin),
      payload: { name: 'Static customers', cidr: '198.51.100.0/24', purpose: 'static' },
    });
    expect(network.statusCode, network.body).toBe(201);
  });
  const { db, run, count } = portal;
  const reasons = (report: ImportReport) => report.findings.map((f) => `${f.level} ${f.kind} ${f.key}: ${f.reason}`);

  it('a dry run reports what would be created and skipped, and why, and writes nothing', async () => {
    const before = { users: await count(users), plans: await count(plans), devices: await count(devices) };
    const dry = await run(true);
    expect(dry.dryRun).toBe(true);
    expect(dry.runId).toBeNull();
    // alice and alice2 share an address: one customer; carol, dave (no usable address), bob, erin, frank, gina, hank.
    expect(dry.counts.customer).toMatchObject({ created: 8, linked: 0, skipped: 0 });
    // Every login with a password and a rate: not frank (no rate).
    expect(dry.counts.subscription).toMatchObject({ created: 8, skipped: 1 });
    expect(dry.counts.plan.created).toBe(3); // home-20, biz-100, and dave's own 8M/5M
    expect(dry.counts.device.created).toBe(1);
    expect(dry.counts.pool.created).toBe(1);
    // s1, s2, s3 and s6; skipped: ghost's session, and the open ones (s4) as one line.
    expect(dry.counts.usage).toMatchObject({ created: 4, skipped: 2 });
    const text = reasons(dry).join('\n');
    expect(text).toContain('MD5-Password cannot be read back');
    expect(text).toMatch(/skipped subscription frank: login frank has no rate/);
    expect(text).toMatch(/burst\/priority settings "60M\/120M 40M\/80M 16\/16 8" not carried over/);
    expect(text).toMatch(/Mikrotik-Address-List := business has no equivalent/);
    expect(text).toMatch(/gina: check Simultaneous-Use := 1 is not carried over/);
    expect(text).toMatch(
      /e-mail "not-an-address" is not an address: the account has the placeholder login-dave@no-email\.invalid/,
    );
    expect(text).toMatch(/1 session\(s\) still open in radacct are left out/);
    expect(text).toMatch(/login ghost: no subscription here has that login/);
    expect(text).toContain('pool "biz-pool" becomes the pool network 100.64.10.0/27');
    expect({ users: await count(users), plans: await count(plans), devices: await count(devices) }).toEqual(before);
    expect(await count(importRuns)).toBe(0);
  });

  it('the import brings in customers, plans, logins, the NAS, the pool and the usage, audited', async () => {
    first = await run(false);
    expect(first.runId).toBeTruthy();
    expect(first.counts.customer).toMatchObject({ created: 8, existing: 0 });
    expect(first.counts.subscription).toMatchObject({ created: 8, existing: 0 });
    expect(first.counts.usage).toMatchObject({ created: 4, existing: 0 });

    const alice = (await db().select().from(users).where(eq(users.email, 'alice@example.net')))[0]!;
    expect(alice).toMatchObject({ name: 'Alice Moreau', role: 'user', phone: '+33 6 12 34 56 78' });
    expect(alice.address).toBe('4 Rue des Lilas, Lyon');
    // Her old portal password is her password here.
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'alice@example.net', password: 'Portal-Pass-77', rememberMe: false },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    const aliceSubs = await db().select().from(subscriptions).where(eq(subscriptions.userId, alice.id));
    expect(aliceSubs).toHaveLength(2);
    expect(aliceSubs.every((s) => s.status === 'active')).toBe(true);

    const [home] = await db().select().from(plans).where(eq(plans.name, 'home-20'));
    expect(home).toMatchObject({
      downloadMbps: 20,
      uploadMbps: 10,
      price: 2500,
      status: 'inactive',
      billingCycle: 'monthly',
    });
    const [biz] = await db().select().from(plans).where(eq(plans.name, 'biz-100'));
    expect(biz).toMatchObject({ downloadMbps: 100, uploadMbps: 50, price: 12050 });

    const [bng] = await db().select().from(devices).where(eq(devices.host, '127.0.0.1'));
    expect(bng).toMatchObject({ name: 'core-bng', vendor: 'mikrotik' });
    expect(bng!.radiusSecret).not.toContain('dalo-nas-secret');
    expect(t.app.secretBox.open(bng!.radiusSecret!)).toBe('dalo-nas-secret');

    const login = async (username: string) =>
      (await db().select().from(serviceCredentials).where(eq(serviceCredentials.username, username)))[0]!;
    expect(t.app.secretBox.open((await login('bob')).passwordSealed)).toBe('bob-pass-2');
    const carolPassword = t.app.secretBox.open((await login('carol')).passwordSealed);
    expect(carolPassword).toBeTruthy();
    expect(carolPassword).not.toBe('5f4dcc3b5aa765d61d8327deb882cf99');

    const status = async (username: string) =>
      (
        await db()
          .select()
          .from(subscriptions)
          .where(eq(subscriptions.id, (await login(username)).subscriptionId))
      )[0]!;
    expect((await status('erin')).status).toBe('suspended');
    expect((await status('hank')).status).toBe('expired');
    // Bob logs in to his pool; gina keeps her static address.
    const [pool] = await db().select().from(ipNetworks).where(eq(ipNetworks.poolName, 'biz-pool'));
    expect(pool).toMatchObject({ cidr: '100.64.10.0/27', purpose: 'pool' });
    const [bobAddressing] = await db()
      .select()
      .from(subscriptionAddressing)
      .where(eq(subscriptionAddressing.subscriptionId, (await login('bob')).subscriptionId));
    expect(bobAddressing?.poolNetworkId).toBe(pool!.id);
    const [ginaIp] = await db()
      .select()
      .from(ipAssignments)
      .where(eq(ipAssignments.subscriptionId, (await login('gina')).subscriptionId));
    expect(ginaIp).toMatchObject({ address: '198.51.100.77', state: 'static' });

    const trail = await db()
      .select({ action: auditEvents.action, n: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(sql`${auditEvents.action} like 'import.%'`)
      .groupBy(auditEvents.action);
    const actions = Object.fromEntries(trail.map((r) => [r.action, r.n]));
    expect(actions).toMatchObject({
      'import.started': 1,
      'import.finished': 1,
      'import.customer_created': 8,
      'import.subscription_created': 8,
      'import.device_created': 1,
    });
  });

  it('running it again changes nothing', async () => {
    const usageBefore = await db()
      .select()
      .from(radiusUsageDaily)
      .orderBy(radiusUsageDaily.subscriptionId, radiusUsageDaily.day);
    const counts = { users: await count(users), subs: await count(subscriptions), plans: await count(plans) };
    const again = await run(false);
    for (const kind of ['device', 'plan', 'pool', 'customer', 'subscription', 'usage'] as const) {
      expect(again.counts[kind].created, kind).toBe(0);
      expect(again.counts[kind].existing, kind).toBe(first.counts[kind].created + first.counts[kind].linked);
    }
    expect({ users: await count(users), subs: await count(subscriptions), plans: await count(plans) }).toEqual(counts);
    expect(
      await db().select().from(radiusUsageDaily).orderBy(radiusUsageDaily.subscriptionId, radiusUsageDaily.day),
    ).toEqual(usageBefore);
  });

  it("the imported NAS and logins work against the portal's RADIUS, at the rates they had", async () => {
    await t.app.radius.clients.reload();
    const accessRequest = (username: string, password: string) =>
      portal.accessRequest('dalo-nas-secret', username, password);
    const alice = await accessRequest('alice', 'alice-pass-1');
    expect(alice.code, alice.output).toBe('Access-Accept');
    expect(alice.attributes['Mikrotik-Rate-Limit']).toBe('10M/20M'); // as daloRADIUS's group sent it
    const dave = await accessRequest('dave', 'dave-pass-4');
    expect(dave.code, dave.output).toBe('Access-Accept');
    expect(dave.attributes['Mikrotik-Rate-Limit']).toBe('5M/8M'); // his own rate, not his group's
    const bob = await accessRequest('bob', 'bob-pass-2');
    expect(bob.attributes['Framed-Pool']).toBe('biz-pool');
    expect((await accessRequest('alice', 'wrong-password')).code).toBe('Access-Reject');
    expect((await accessRequest('erin', 'erin-pass-5')).code).toBe('Access-Reject'); // disabled in daloRADIUS
  });

  it("the usage history is on the customer's page", async () => {
    const [alice] = await db().select().from(users).where(eq(users.email, 'alice@example.net'));
    const [aliceLogin] = await db().select().from(serviceCredentials).where(eq(serviceCredentials.username, 'alice'));
    const usage = await t.app.inject({
      method: 'GET',
      url: `/api/usage?user_id=${alice!.id}&subscription_id=${aliceLogin!.subscriptionId}`,
      headers: bearer(admin),
    });
    expect(usage.statusCode, usage.body).toBe(200);
    const data = usage.json().data as { days: { date: string; download: number; upload: number }[] };
    const day = (offset: number) => new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    const byDay = Object.fromEntries(data.days.map((d) => [d.date, d]));
    // Two sessions on one day add up; the session still open is not there.
    expect(byDay[day(-5)]).toMatchObject({ download: 5 * GiB, upload: 1.5 * GiB });
    expect(byDay[day(-3)]).toMatchObject({ download: 6 * GiB, upload: 2 * GiB });
    expect(byDay[day(-1)]?.download ?? 0).toBe(0);
    const rows = await db()
      .select()
      .from(radiusUsageDaily)
      .where(and(eq(radiusUsageDaily.subscriptionId, aliceLogin!.subscriptionId), eq(radiusUsageDaily.day, day(-5))));
    expect(rows).toHaveLength(1);
  });
});
