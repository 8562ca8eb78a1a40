/**
 * Fair use (issue 36) through the portal's RADIUS server with radclient as the NAS: a plan with two usage tiers;
 * a session whose Interim-Updates (Gigawords: past 4 GiB) cross tier 1 then tier 2 gets CoA-Requests with the
 * slower rates and Access-Accepts say the same; 80 % / 100 % notices are mailed once (a retransmission, a second
 * RADIUS node on the same database add none); a top-up bought and paid brings full speed back; a new billing
 * period starts a new counter at zero. Plus the pure decision as a property test.
 */
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { devices } from '../../server/db/schema';
import { topUpPackages, usageCycleCounters, usageNotices } from '../../server/db/schema/fair-use';
import { RadiusUdpServer } from '../../server/integrations/radius/server';
import { ManualClock } from '../../server/lib/clock';
import { createRadiusCore, type RadiusCore } from '../../server/modules/radius/core';
import { provisionCredentials } from '../../server/modules/radius/credentials';
import { fairUse, GB, type FairUsePlan } from '../../server/modules/radius/fair-use';
import { activateForPaidInvoice } from '../../server/modules/subscriptions/service';
import type { NasClient } from '../../server/modules/radius/clients';
import { ensureRadclient, radclient, type RadclientAnswer } from '../helpers/radclient';
import { radiusTestConfig, TestNas } from '../helpers/test-nas';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const SECRET = 'nas-fair-use-secret';
const GIGA = 2 ** 32;
const START = '2026-03-01T10:00:00.000Z';

describe('fair use: usage tiers, notices, top-ups and cycles', () => {
  let t: TestApp;
  const clock = new ManualClock(START);
  const nas = new TestNas(SECRET);
  let admin: string;
  let ports: { authPort: number; acctPort: number };
  let tiered: { id: string };
  let nodeB: RadiusCore;
  let serverB: RadiusUdpServer<NasClient>;
  let n = 0;
  let nasDevice: { id: string };

  beforeAll(async () => {
    ensureRadclient();
    await nas.start();
    t = await createTestApp({ clock, config: { accessTokenTtlSeconds: 365 * 86_400, ...radiusTestConfig(nas.port) } });
    ports = t.app.radius.ports()!;
    await t.createUser({ email: 'admin@example.com', role: 'admin' });
    admin = (await t.login('admin@example.com')).token;
    const created = await api('POST', '/plans', {
      name: 'Fair',
      price: 3000,
      download_mbps: 50,
      upload_mbps: 10,
      billing_cycle: 'monthly',
      usage_tiers: [
        { after_gb: 5, download_kbps: 10_000, upload_kbps: 2_000 },
        { after_gb: 8, download_kbps: 2_000, upload_kbps: 1_000 },
      ],
    });
    expect(created.statusCode, created.body).toBe(201);
    tiered = created.json().data;
    [nasDevice] = await t.database.db
      .insert(devices)
      .values({
        name: 'core-fair',
        vendor: 'mikrotik',
        host: '127.0.0.1',
        radiusSecret: t.app.secretBox.seal(SECRET),
      })
      .returning();
    await t.app.radius.clients.reload();
    // A second RADIUS node on the same database: its own directory, caches and UDP server.
    nodeB = createRadiusCore({
      db: t.database.db,
      clock,
      box: t.app.secretBox,
      config: t.config,
      log: t.app.log.child({ node: 'b' }) as never,
    });
    nodeB.service.usageNotice = t.app.radius.service.usageNotice;
    // What the change bus does between two apps: a tier moved on one node drops the other's cached usage.
    nodeB.service.onFairUseTier = (id) => t.app.radius.usage.forget(id);
    await Promise.all([nodeB.subscribers.reloadAll(), nodeB.clients.reload()]);
    serverB = new RadiusUdpServer<NasClient>(nodeB.service);
    await serverB.listen({ host: '127.0.0.1', authPort: 0, acctPort: 0 });
  });
  afterAll(async () => {
    await serverB?.close();
    await nodeB?.cutoff.idle();
    await t?.close();
    await nas.stop();
  });

  const db = () => t.database.db;
  function api(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown, token = admin) {
    return t.app.inject({ method, url: `/api${url}`, headers: bearer(token), payload: payload as object });
  }
  const login = (username: string, password: string) =>
    radclient(
      { port: ports.authPort, secret: SECRET, type: 'auth' },
      { 'User-Name': username, 'User-Password': password },
    );
  const account = (attributes: Record<string, string | number>, port = ports.acctPort) =>
    radclient({ port, secret: SECRET, type: 'acct' }, attributes);
  const accepted = (a: RadclientAnswer) => expect(a.code, a.output).toBe('Access-Accept');
  const settle = async () => {
    await t.app.radius.idle();
    await nodeB.cutoff.idle();
  };
  const counters = (subscriptionId: string) =>
    db().select().from(usageCycleCounters).where(eq(usageCycleCounters.subscriptionId, subscriptionId));
  const notices = (subscriptionId: string) =>
    db()
      .select({ tier: usageNotices.tier, threshold: usageNotices.threshold })
      .from(usageNotices)
      .where(eq(usageNotices.subscriptionId, subscriptionId))
      .orderBy(usageNotices.tier, usageNotices.threshold);
  const usageMails = async (to: string) =>
    (await t.sentMail()).filter((m) => m.to === to && /this cycle/.test(m.subject));
  /** An interim with `bytes` downloaded so far (Gigawords past 4 GiB). */
  const interim = (username: string, sessionId: string, bytes: number, port?: number) =>
    account(
      {
        'User-Name': username,
        'Acct-Session-Id': sessionId,
        'Acct-Status-Type': 'Interim-Update',
        'Acct-Session-Time': 600,
        'Acct-Output-Octets': bytes % GIGA,
        'Acct-Output-Gigawords': Math.floor(bytes / GIGA),
      },
      port,
    );

  async function customer() {
    const email = `fair${++n}@example.com`;
    const user = await t.createUser({ email });
    const created = await api('POST', '/subscriptions', { plan_id: tiered.id, user_id: user.id });
    expect(created.statusCode, created.body).toBe(201);
    const { subscription, invoice } = created.json().data as { subscription: { id: string }; invoice: { id: string } };
    const credentials = await provisionCredentials(db(), subscription.id, t.app.secretBox);
    await db().transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      await tx.execute(
        sql`update invoices set status = 'paid', paid_date = ${clock.now().toISOString()} where id = ${invoice.id}`,
      );
      await activateForPaidInvoice(tx, invoice.id, clock.now());
    });
    t.app.radius.accessChanged(subscription.id, 'status');
    await settle();
    await nodeB.subscribers.reload(subscription.id);
    return {
      email,
      subscriptionId: subscription.id,
      token: (await t.login(email)).token,
      username: credentials.username,
      password: credentials.password!,
    };
  }

  it('plans validate their tiers: ascending, no faster than the one before, below the cap, at most 8', async () => {
    const base = { name: 'Bad', price: 100, download_mbps: 10, upload_mbps: 5, billing_cycle: 'monthly' };
    const tier = (after_gb: number, down = 1000, up = 500) => ({ after_gb, download_kbps: down, upload_kbps: up });
    for (const usage_tiers of [
      [tier(10), tier(10)],
      [tier(10), tier(5)],
      [tier(10, 1000), tier(20, 2000)],
      [tier(0)],
      Array.from({ length: 9 }, (_, i) => tier(i + 1)),
    ])
      expect((await api('POST', '/plans', { ...base, usage_tiers })).statusCode).toBe(400);
    expect((await api('POST', '/plans', { ...base, data_cap_gb: 10, usage_tiers: [tier(10)] })).statusCode).toBe(400);
    const ok = await api('POST', '/plans', { ...base, data_cap_gb: 10, usage_tiers: [tier(5)] });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data.usage_tiers).toEqual([tier(5)]);
    // The cap moved below a tier through an update: refused.
    expect((await api('PUT', `/plans/${ok.json().data.id}`, { data_cap_gb: 4 })).statusCode).toBe(400);
  });

  it('a session crosses tier 1 then tier 2 (Gigawords): CoA and Access-Accept follow; notices once; a top-up brings full speed; a new cycle starts at zero', async () => {
    const c = await customer();
    accepted(await login(c.username, c.password));
    expect((await login(c.username, c.password)).attributes['Mikrotik-Rate-Limit']).toBe('10M/50M');
    await account({ 'User-Name': c.username, 'Acct-Session-Id': 'fair-1', 'Acct-Status-Type': 'Start' });
    nas.answer = 'ack';
    nas.received.length = 0;

    // 4.5 GB (past 4 GiB: one Gigaword): 80 % of tier 1, still full speed.
    clock.advanceMinutes(10);
    await interim(c.username, 'fair-1', 4_500_000_000);
    await settle();
    expect(nas.received).toHaveLength(0);
    expect((await counters(c.subscriptionId))[0]).toMatchObject({ outputOctets: 4_500_000_000, tier: 0 });
    const early = (await api('GET', '/me/home', undefined, c.token)).json().data.usage.fair_use;
    expect(early).toMatchObject({
      tier: 0,
      rate: { download_kbps: 50_000 },
      next: { after_bytes: 5 * GB, stop: false },
    });
    expect(early.next.rate).toEqual({ download_kbps: 10_000, upload_kbps: 2_000 });
    expect(await notices(c.subscriptionId)).toEqual([{ tier: 1, threshold: 80 }]);

    // 5.5 GB: tier 1 → CoA 10/2 Mbit/s; the retransmission (here: to node B as well) adds nothing.
    clock.advanceMinutes(10);
    await interim(c.username, 'fair-1', 5_500_000_000);
    await interim(c.username, 'fair-1', 5_500_000_000);
    await interim(c.username, 'fair-1', 5_500_000_000, serverB.ports()!.acctPort);
    await settle();
    expect(nas.received.map((r) => r.code)).toEqual(['CoA-Request']);
    expect(JSON.stringify(nas.received[0].attributes['Vendor-Specific'])).toContain('2M/10M');
    expect((await counters(c.subscriptionId))[0]).toMatchObject({ outputOctets: 5_500_000_000, tier: 1 });
    expect((await login(c.username, c.password)).attributes['Mikrotik-Rate-Limit']).toBe('2M/10M');

    // 8.5 GB, to node B first (node A's cached usage is then behind: B's tier move drops it), then the same packet
    // to both nodes at once: tier 2 → one CoA 2/1 Mbit/s, one set of notices.
    clock.advanceMinutes(10);
    await interim(c.username, 'fair-1', 8_500_000_000, serverB.ports()!.acctPort);
    await settle();
    await Promise.all([
      interim(c.username, 'fair-1', 8_500_000_000),
      interim(c.username, 'fair-1', 8_500_000_000, serverB.ports()!.acctPort),
    ]);
    await settle();
    expect(nas.received.map((r) => r.code)).toEqual(['CoA-Request', 'CoA-Request']);
    expect(JSON.stringify(nas.received[1].attributes['Vendor-Specific'])).toContain('1M/2M');
    expect((await counters(c.subscriptionId))[0]).toMatchObject({ outputOctets: 8_500_000_000, tier: 2 });
    expect(await notices(c.subscriptionId)).toEqual([
      { tier: 1, threshold: 80 },
      { tier: 1, threshold: 100 },
      { tier: 2, threshold: 80 },
      { tier: 2, threshold: 100 },
    ]);
    // One e-mail per packet that reached something new: 80 % of tier 1, tier 1, tier 2 (its 80 % jumped over).
    const mails = await usageMails(c.email);
    expect(mails.map((m) => m.subject)).toEqual([
      'You have used 80 % of 5 GB this cycle',
      'You have used 5 GB this cycle: fair-use speed applies',
      'You have used 8 GB this cycle: fair-use speed applies',
    ]);
    expect(mails[2].text).toContain('your speed drops to 2/1 Mbit/s');
    expect((await login(c.username, c.password)).attributes['Mikrotik-Rate-Limit']).toBe('1M/2M');

    // What the customer's home shows: tier 2 at 2/1 Mbit/s, nothing further ahead, this cycle's bytes.
    const pkgBefore = await db()
      .insert(topUpPackages)
      .values({ name: '+100 GB', kind: 'extra_data', dataGb: 100, price: 900, currency: 'USD', sortOrder: 1 })
      .returning();
    const home = await api('GET', '/me/home', undefined, c.token);
    expect(home.statusCode, home.body).toBe(200);
    expect(home.json().data.usage.fair_use).toMatchObject({
      tier: 2,
      cycle_bytes: 8_500_000_000,
      rate: { download_kbps: 2_000, upload_kbps: 1_000 },
      next: null,
      full_speed: false,
      top_ups: [{ id: pkgBefore[0].id, kind: 'extra_data', data_gb: 100 }],
    });
    await db().update(topUpPackages).set({ status: 'inactive' }).where(eq(topUpPackages.id, pkgBefore[0].id));

    // A full-speed top-up bought in the portal and paid: CoA back to the plan's rate, and logins get it.
    const [pkg] = await db()
      .insert(topUpPackages)
      .values({ name: 'Full speed', kind: 'full_speed', price: 500, currency: 'USD' })
      .returning();
    expect((await api('GET', '/me/top-up-packages', undefined, c.token)).json().data).toHaveLength(1);
    const bought = await api('POST', `/me/subscriptions/${c.subscriptionId}/top-ups`, { package_id: pkg.id }, c.token);
    expect(bought.statusCode, bought.body).toBe(201);
    const { top_up, invoice } = bought.json().data;
    expect(top_up).toMatchObject({ status: 'pending', kind: 'full_speed' });
    // Asked again (a double click): the same pending top-up and invoice.
    const again = await api('POST', `/me/subscriptions/${c.subscriptionId}/top-ups`, { package_id: pkg.id }, c.token);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.top_up.id).toBe(top_up.id);
    expect(again.json().data.invoice.id).toBe(invoice.id);
    // Its invoice cancelled (staff): buying again makes a new top-up and invoice.
    await db().execute(sql`update invoices set status = 'cancelled' where id = ${invoice.id}`);
    const renewed = await api('POST', `/me/subscriptions/${c.subscriptionId}/top-ups`, { package_id: pkg.id }, c.token);
    expect(renewed.statusCode, renewed.body).toBe(201);
    expect(renewed.json().data.invoice.id).not.toBe(invoice.id);
    const { top_up: topUpNow, invoice: invoiceNow } = renewed.json().data;
    expect(topUpNow.id).not.toBe(top_up.id);
    const paid = await api('POST', `/payments/invoices/${invoiceNow.id}/manual`, {
      amount: invoiceNow.total_amount,
      payment_method: 'cash',
      reference: 'top-up',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    await settle();
    expect(nas.received.map((r) => r.code)).toEqual(['CoA-Request', 'CoA-Request', 'CoA-Request']);
    expect(JSON.stringify(nas.received[2].attributes['Vendor-Specific'])).toContain('10M/50M');
    expect((await login(c.username, c.password)).attributes['Mikrotik-Rate-Limit']).toBe('10M/50M');
    expect((await counters(c.subscriptionId))[0]).toMatchObject({ tier: 0 });
    // More traffic in the same cycle stays at full speed.
    await interim(c.username, 'fair-1', 9_000_000_000);
    await settle();
    expect(nas.received).toHaveLength(3);

    // The next billing period: a new counter at zero, full speed without the old cycle's top-up.
    clock.advanceDays(31);
    const next = new Date(clock.now().getTime() - 86_400_000);
    await db().execute(
      sql`update subscriptions set current_period_start = ${next.toISOString()}, current_period_end = ${new Date(next.getTime() + 30 * 86_400_000).toISOString()} where id = ${c.subscriptionId}`,
    );
    t.app.radius.accessChanged(c.subscriptionId, 'plan');
    await settle();
    await nodeB.subscribers.reload(c.subscriptionId);
    await interim(c.username, 'fair-1', 9_100_000_000);
    await settle();
    const rows = await counters(c.subscriptionId);
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.cycleStart.getTime() === next.getTime())).toMatchObject({
      outputOctets: 100_000_000,
      tier: 0,
    });
    expect((await login(c.username, c.password)).attributes['Mikrotik-Rate-Limit']).toBe('10M/50M');
  });

  it('top-up packages: admin and billing manage them, customers see the active ones and cannot change them', async () => {
    const customerToken = (await t.login((await t.createUser({ email: 'pkg-viewer@example.com' })).email)).token;
    const created = await api('POST', '/top-up-packages', {
      name: '+50 GB',
      kind: 'extra_data',
      data_gb: 50,
      price: 700,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ kind: 'extra_data', data_gb: 50, currency: 'USD', status: 'active' });
    expect((await api('POST', '/top-up-packages', { name: 'No GB', kind: 'extra_data', price: 700 })).statusCode).toBe(
      400,
    );
    const hidden = await api('POST', '/top-up-packages', {
      name: 'Hidden',
      kind: 'full_speed',
      price: 100,
      status: 'inactive',
    });
    expect(hidden.statusCode, hidden.body).toBe(201);
    expect(
      (await api('POST', '/top-up-packages', { name: 'Mine', kind: 'full_speed', price: 1 }, customerToken)).statusCode,
    ).toBe(403);
    const seen = (await api('GET', '/top-up-packages', undefined, customerToken)).json().data.items as {
      id: string;
    }[];
    expect(seen.some((p) => p.id === created.json().data.id)).toBe(true);
    expect(seen.some((p) => p.id === hidden.json().data.id)).toBe(false);
    await db().update(topUpPackages).set({ status: 'inactive' });
  });

  it('an extra-data top-up paid with credit moves every threshold at once; the hard stop is mailed as such', async () => {
    const c = await customer();
    const plan = await api('PUT', `/plans/${tiered.id}`, { data_cap_gb: 10 });
    expect(plan.statusCode, plan.body).toBe(200);
    await settle();
    await nodeB.subscribers.reloadAll();
    await account({ 'User-Name': c.username, 'Acct-Session-Id': 'fair-2', 'Acct-Status-Type': 'Start' });
    nas.received.length = 0;
    await interim(c.username, 'fair-2', 10_200_000_000);
    await settle();
    // Past the hard stop: the session is cut, logins refused, the stop mailed.
    expect(nas.received.map((r) => r.code)).toEqual(['Disconnect-Request']);
    expect((await login(c.username, c.password)).code).toBe('Access-Reject');
    const [stopMail] = (await usageMails(c.email)).slice(-1);
    expect(stopMail.subject).toBe('You have used 10 GB this cycle: data limit reached');
    // 3 GB more, paid from the customer's credit: thresholds at 8, 11 and 13 GB → tier 1 (10/2 Mbit/s) at 10.2 GB.
    const [pkg] = await db()
      .insert(topUpPackages)
      .values({ name: '+3 GB', kind: 'extra_data', dataGb: 3, price: 300, currency: 'USD' })
      .returning();
    const user = (
      await t.rows<{ user_id: string }>(sql`select user_id from subscriptions where id = ${c.subscriptionId}`)
    )[0];
    const credited = await api('POST', `/users/${user.user_id}/credit`, { amount: 1000, reason: 'Goodwill' });
    expect(credited.statusCode, credited.body).toBe(201);
    const bought = await api('POST', `/me/subscriptions/${c.subscriptionId}/top-ups`, { package_id: pkg.id }, c.token);
    expect(bought.statusCode, bought.body).toBe(201);
    expect(bought.json().data).toMatchObject({ top_up: { status: 'active' }, invoice: { status: 'paid' } });
    await settle();
    expect((await login(c.username, c.password)).attributes['Mikrotik-Rate-Limit']).toBe('2M/10M');
    expect((await counters(c.subscriptionId))[0]).toMatchObject({ tier: 1 });
    await api('PUT', `/plans/${tiered.id}`, { data_cap_gb: null });
    await settle();
  });

  it('property: accounting packets (retransmitted, past 4 GiB) add exactly their deltas to the cycle counter, and its tier only rises', async () => {
    const c = await customer();
    const [sub] = await t.rows<{ start: Date | string }>(
      sql`select current_period_start as start from subscriptions where id = ${c.subscriptionId}`,
    );
    const cycleStart = new Date(sub.start);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 * GIGA }), fc.integer({ min: 0, max: 2 * GIGA }), fc.boolean()), {
          minLength: 1,
          maxLength: 8,
        }),
        async (steps) => {
          const sessionId = `prop-${++run}`;
          const current = async () =>
            (await counters(c.subscriptionId)).find((r) => r.cycleStart.getTime() === cycleStart.getTime());
          const start = await current();
          const before = (start?.inputOctets ?? 0) + (start?.outputOctets ?? 0);
          let output = 0;
          let input = 0;
          let lastTier = 0;
          for (const [down, up, again] of steps) {
            output += down;
            input += up;
            const rec = {
              statusType: 3,
              acctSessionId: sessionId,
              username: c.username,
              inputOctets: input,
              outputOctets: output,
              sessionTime: 60,
              delaySeconds: 0,
            };
            const times = again ? 2 : 1;
            for (let i = 0; i < times; i++) {
              const outcome = await t.app.radius.accounting.record({ deviceId: nasDevice.id, ip: '127.0.0.1' }, rec);
              if (i > 0) expect(outcome.added).toEqual({ input: 0, output: 0 });
            }
            const tier = fairUse(t.app.radius.subscribers.bySubscription(c.subscriptionId)!, {
              bytes: before + input + output,
              extraBytes: 0,
              fullSpeed: false,
            }).tier;
            expect(tier).toBeGreaterThanOrEqual(lastTier);
            lastTier = tier;
          }
          const row = await current();
          expect((row?.inputOctets ?? 0) + (row?.outputOctets ?? 0)).toBe(before + input + output);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('property: without top-ups the tier never goes down within a cycle, and the counter is the sum of the deltas', () => {
    const plan: FairUsePlan = {
      downloadMbps: 100,
      uploadMbps: 20,
      dataCapBytes: 900 * GB,
      dataCapAction: 'reject',
      throttleDownloadKbps: 1024,
      throttleUploadKbps: 1024,
      usageTiers: [
        { afterGb: 100, downloadKbps: 20_000, uploadKbps: 5_000 },
        { afterGb: 500, downloadKbps: 10_000, uploadKbps: 2_000 },
        { afterGb: 800, downloadKbps: 2_000, uploadKbps: 1_000 },
      ],
    };
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 200 * GB }), { maxLength: 40 }),
        fc.integer({ min: 0, max: 300 }),
        (deltas, extraGb) => {
          let bytes = 0;
          let last = 0;
          let lastWithExtra = 0;
          for (const d of deltas) {
            bytes += d;
            const tier = fairUse(plan, { bytes, extraBytes: 0, fullSpeed: false }).tier;
            expect(tier).toBeGreaterThanOrEqual(last);
            last = tier;
            // An extra-data top-up never puts anyone in a slower tier than without it.
            const withExtra = fairUse(plan, { bytes, extraBytes: extraGb * GB, fullSpeed: false }).tier;
            expect(withExtra).toBeLessThanOrEqual(tier);
            expect(withExtra).toBeGreaterThanOrEqual(lastWithExtra);
            lastWithExtra = withExtra;
          }
          expect(bytes).toBe(deltas.reduce((a, b) => a + b, 0));
          expect(fairUse(plan, { bytes, extraBytes: 0, fullSpeed: true })).toMatchObject({ tier: 0, stop: false });
        },
      ),
    );
  });
});
