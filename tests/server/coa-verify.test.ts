/**
 * Issue 36, verified changes: a plan change reaches a live session as a CoA-Request, and is confirmed only when the
 * NAS's next Interim-Update shows the session under the new policy (or the session ended). The NAS is CoaNas
 * (tests/helpers/coa-nas.ts): it answers ACK or NAK, applies the CoA's rate to its session (or, told so, ACKs and
 * keeps the old one) and reports the rate in its accounting through radclient. An unconfirmed change is given up
 * on at verify_by (the clock moved) with a Disconnect-Request; a NAK brings one at once; two nodes sweeping at once
 * send one Disconnect. Every step is in the audit trail and in isp_radius_coa_total.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { Db } from '../../server/db/client';
import { auditEvents, devices, radiusDisconnects, radiusSessions } from '../../server/db/schema';
import { ManualClock } from '../../server/lib/clock';
import { COA_VERIFY_FACTOR } from '../../server/modules/radius/cutoff';
import { provisionCredentials } from '../../server/modules/radius/credentials';
import { activateForPaidInvoice } from '../../server/modules/subscriptions/service';
import {
  CAMBIUM_FAKE,
  CISCO_FAKE,
  CoaNas,
  GENERIC_FAKE,
  HUAWEI_FAKE,
  JUNIPER_FAKE,
  MIKROTIK_FAKE,
  type FakeNasVendor,
} from '../helpers/coa-nas';
import { ensureRadclient, radclient } from '../helpers/radclient';
import { radiusTestConfig } from '../helpers/test-nas';
import { bearer, createTestApp, testConfig, type TestApp } from '../helpers/server';

type DeviceVendorName = 'mikrotik' | 'cisco' | 'juniper' | 'huawei' | 'cambium' | 'generic';
const SECRET = 'coa-verify-nas-secret';
const METRICS_TOKEN = 'coa-metrics-token-0123456789';
const INTERIM = 300;
type App = Awaited<ReturnType<typeof buildApp>>;

describe('verified changes: CoA confirmed by the next Interim-Update', () => {
  let t: TestApp;
  let b: App | null = null;
  const clock = new ManualClock('2026-03-01T10:00:00.000Z');
  let acctPort = 0;
  const nas = new CoaNas({ secret: SECRET, acctPort: () => acctPort });
  let admin: string;
  let basicPlan: { id: string };
  let fastPlan: { id: string };
  let ultraPlan: { id: string };
  let n = 0;

  beforeAll(async () => {
    ensureRadclient();
    await nas.start();
    t = await createTestApp({
      clock,
      config: {
        accessTokenTtlSeconds: 365 * 86_400,
        metricsToken: METRICS_TOKEN,
        radiusInterimInterval: INTERIM,
        ...radiusTestConfig(nas.port),
      },
    });
    acctPort = t.app.radius.ports()!.acctPort;
    await t.createUser({ email: 'admin@example.com', role: 'admin' });
    admin = (await t.login('admin@example.com')).token;
    const plan = async (body: object) => (await api('POST', '/plans', body)).json().data;
    basicPlan = await plan({
      name: 'Basic',
      price: 3000,
      download_mbps: 50,
      upload_mbps: 10,
      billing_cycle: 'monthly',
    });
    fastPlan = await plan({ name: 'Fast', price: 6000, download_mbps: 200, upload_mbps: 40, billing_cycle: 'monthly' });
    ultraPlan = await plan({
      name: 'Ultra',
      price: 9000,
      download_mbps: 500,
      upload_mbps: 100,
      billing_cycle: 'monthly',
    });
    await db()
      .insert(devices)
      .values({ name: 'bng-1', vendor: 'mikrotik', host: '127.0.0.1', radiusSecret: t.app.secretBox.seal(SECRET) });
    await t.app.radius.clients.reload();
  });
  afterAll(async () => {
    await b?.close();
    await t?.close();
    await nas.stopListening();
  });

  const db = () => t.database.db;
  function api(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) {
    return t.app.inject({ method, url: `/api${url}`, headers: bearer(admin), payload: payload as object });
  }

  /** An active customer on the basic plan with a live session at its rate (10M/50M) on the NAS. */
  async function online(acctSessionId: string, policy = '10M/50M') {
    const user = await t.createUser({ email: `coa${++n}@example.com` });
    const created = await api('POST', '/subscriptions', { plan_id: basicPlan.id, user_id: user.id });
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
    await t.app.radius.idle();
    await nas.open(credentials.username, acctSessionId, policy);
    const [session] = await db().select().from(radiusSessions).where(eq(radiusSessions.acctSessionId, acctSessionId));
    expect(session).toMatchObject({ status: 'open', reportedPolicy: policy });
    return { subscriptionId: subscription.id, username: credentials.username, sessionId: session.id };
  }

  /** Moves the subscription to the fast plan and waits for the CoA, its answer and what the NAS sent after it. */
  async function upgrade(subscriptionId: string, planId = fastPlan.id) {
    const res = await api('PATCH', `/subscriptions/${subscriptionId}/upgrade`, { plan_id: planId });
    expect(res.statusCode, res.body).toBe(200);
    await settle();
  }
  async function settle() {
    await t.app.radius.idle();
    await nas.settled();
    await t.app.radius.idle();
  }

  const requestsOf = (sessionId: string) =>
    db()
      .select()
      .from(radiusDisconnects)
      .where(eq(radiusDisconnects.sessionId, sessionId))
      .orderBy(asc(radiusDisconnects.requestedAt), asc(radiusDisconnects.kind));
  const auditOf = async (subscriptionId: string) =>
    (
      await db()
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.targetId, subscriptionId), sql`${auditEvents.action} like 'radius.coa%'`))
        .orderBy(asc(auditEvents.seq))
    ).map((e) => ({ action: e.action, role: e.actorRole, changes: e.changes as Record<string, unknown> }));
  const coaCount = async (app: App, result: string) => {
    const res = await app.inject({ method: 'GET', url: '/metrics', headers: bearer(METRICS_TOKEN) });
    expect(res.statusCode).toBe(200);
    const sample = `isp_radius_coa_total{result="${result}"}`;
    const line = res.body.split('\n').find((l) => l.startsWith(`${sample} `));
    return line ? Number(line.slice(sample.length + 1)) : 0;
  };
  const sent = (code: string) => nas.received.filter((r) => r.code === code);

  it('a plan change: CoA ACK, the next Interim-Update reports the new rate → confirmed, audited and counted', async () => {
    const c = await online('acct-verify-ok');
    const before = await coaCount(t.app, 'confirmed');
    nas.received.length = 0;
    await upgrade(c.subscriptionId);

    expect(nas.received.map((r) => r.code)).toEqual(['CoA-Request']);
    expect(nas.sessions.get('acct-verify-ok')!.policy).toBe('40M/200M');
    const [session] = await db().select().from(radiusSessions).where(eq(radiusSessions.id, c.sessionId));
    expect(session.reportedPolicy).toBe('40M/200M');
    const [coa] = await requestsOf(c.sessionId);
    expect(coa).toMatchObject({
      kind: 'coa',
      reason: 'plan_change',
      result: 'confirmed',
      expectedPolicy: '40M/200M',
      attempts: 1,
    });
    expect(coa.completedAt).not.toBeNull();
    expect(coa.verifyBy!.getTime() - coa.requestedAt.getTime()).toBe(INTERIM * COA_VERIFY_FACTOR * 1000);
    expect(await auditOf(c.subscriptionId)).toEqual([
      {
        action: 'radius.coa_sent',
        role: 'system',
        changes: expect.objectContaining({
          coa_id: coa.id,
          session_id: c.sessionId,
          acct_session_id: 'acct-verify-ok',
          expected_policy: '40M/200M',
          result: 'ack',
          next_step: 'await_interim',
        }),
      },
      {
        action: 'radius.coa_confirmed',
        role: 'system',
        changes: expect.objectContaining({ coa_id: coa.id, how: 'policy_reported', expected_policy: '40M/200M' }),
      },
    ]);
    expect(await coaCount(t.app, 'confirmed')).toBe(before + 1);

    // Nothing more happens to it: the sweep after its deadline leaves it confirmed and sends nothing.
    clock.advance(INTERIM * COA_VERIFY_FACTOR * 1000 + 1000);
    await nas.interim('acct-verify-ok');
    await t.app.radius.sweep();
    await settle();
    expect(nas.received.map((r) => r.code)).toEqual(['CoA-Request']);
    expect((await requestsOf(c.sessionId)).map((r) => r.result)).toEqual(['confirmed']);
    await nas.stop('acct-verify-ok');
  });

  it('a NAS that ACKs and keeps the old rate: still waiting after an Interim-Update with it; at verify_by unconfirmed, then a Disconnect-Request', async () => {
    const c = await online('acct-verify-stuck');
    const before = await coaCount(t.app, 'unconfirmed');
    nas.applyCoa = false;
    nas.received.length = 0;
    try {
      await upgrade(c.subscriptionId);
      await nas.interim('acct-verify-stuck');
    } finally {
      nas.applyCoa = true;
    }
    let [coa] = await requestsOf(c.sessionId);
    expect(coa).toMatchObject({ kind: 'coa', result: 'ack', expectedPolicy: '40M/200M', completedAt: null });
    const [session] = await db().select().from(radiusSessions).where(eq(radiusSessions.id, c.sessionId));
    expect(session.reportedPolicy).toBe('10M/50M');

    // Not before its deadline.
    clock.advance(INTERIM * COA_VERIFY_FACTOR * 1000 - 5000);
    await t.app.radius.sweep();
    expect(nas.received.map((r) => r.code)).toEqual(['CoA-Request']);
    clock.advance(10_000);
    expect((await t.app.radius.sweep()).unconfirmed).toBe(1);
    await settle();
    expect(nas.received.map((r) => [r.code, r.attributes['Acct-Session-Id']])).toEqual([
      ['CoA-Request', 'acct-verify-stuck'],
      ['Disconnect-Request', 'acct-verify-stuck'],
    ]);
    const rows = await requestsOf(c.sessionId);
    [coa] = rows;
    expect(coa).toMatchObject({ kind: 'coa', result: 'unconfirmed' });
    expect(coa.completedAt).not.toBeNull();
    const cut = rows.find((r) => r.kind === 'disconnect')!;
    expect(cut).toMatchObject({ reason: 'coa_unconfirmed', result: 'ack', attempts: 1 });
    // The NAS ended the session (its Stop): the disconnect is done, the customer's next login gets the new rate.
    expect(cut.completedAt).not.toBeNull();
    const [closed] = await db().select().from(radiusSessions).where(eq(radiusSessions.id, c.sessionId));
    expect(closed.status).toBe('closed');
    expect((await auditOf(c.subscriptionId)).map((e) => e.action)).toEqual([
      'radius.coa_sent',
      'radius.coa_unconfirmed',
    ]);
    expect((await auditOf(c.subscriptionId))[1].changes).toMatchObject({
      coa_id: coa.id,
      expected_policy: '40M/200M',
      reported_policy: '10M/50M',
      next_step: 'disconnect',
    });
    expect(await coaCount(t.app, 'unconfirmed')).toBe(before + 1);
  });

  it('a NAK: the CoA is recorded as such and a Disconnect-Request goes out at once', async () => {
    const c = await online('acct-verify-nak');
    const before = await coaCount(t.app, 'nak');
    nas.coaAnswer = 'nak';
    nas.received.length = 0;
    try {
      await upgrade(c.subscriptionId);
    } finally {
      nas.coaAnswer = 'ack';
    }
    expect(nas.received.map((r) => r.code)).toEqual(['CoA-Request', 'Disconnect-Request']);
    const rows = await requestsOf(c.sessionId);
    expect(rows.find((r) => r.kind === 'coa')).toMatchObject({ result: 'nak', errorCause: 503 });
    expect(rows.find((r) => r.kind === 'coa')!.completedAt).not.toBeNull();
    expect(rows.find((r) => r.kind === 'disconnect')).toMatchObject({ reason: 'coa_nak', result: 'ack' });
    expect((await auditOf(c.subscriptionId))[0]).toMatchObject({
      action: 'radius.coa_sent',
      changes: { result: 'nak', error_cause: 503, next_step: 'disconnect' },
    });
    expect(await coaCount(t.app, 'nak')).toBe(before + 1);
  });

  it('no answer: the CoA is recorded as timeout and a Disconnect-Request follows', async () => {
    const c = await online('acct-verify-silent');
    const before = await coaCount(t.app, 'timeout');
    nas.coaAnswer = 'silent';
    nas.received.length = 0;
    try {
      await upgrade(c.subscriptionId);
    } finally {
      nas.coaAnswer = 'ack';
    }
    expect(nas.received.map((r) => r.code)).toEqual(['CoA-Request', 'Disconnect-Request']);
    const rows = await requestsOf(c.sessionId);
    expect(rows.find((r) => r.kind === 'coa')).toMatchObject({ result: 'timeout', expectedPolicy: '40M/200M' });
    expect(rows.find((r) => r.kind === 'disconnect')).toMatchObject({ reason: 'coa_timeout', result: 'ack' });
    expect(await coaCount(t.app, 'timeout')).toBe(before + 1);
  });

  it('a late Interim-Update sent before the change (lower counters, old rate) does not take the reported policy back', async () => {
    const c = await online('acct-verify-late');
    await upgrade(c.subscriptionId);
    expect((await requestsOf(c.sessionId))[0]).toMatchObject({ result: 'confirmed' });
    const late = await radclient(
      { port: acctPort, secret: SECRET, type: 'acct' },
      {
        'User-Name': c.username,
        'Acct-Session-Id': 'acct-verify-late',
        'Acct-Status-Type': 'Interim-Update',
        'Acct-Session-Time': 1,
        'Acct-Output-Octets': 10,
        'Mikrotik-Rate-Limit': '10M/50M',
      },
    );
    expect(late.code).toBe('Accounting-Response');
    const [session] = await db().select().from(radiusSessions).where(eq(radiusSessions.id, c.sessionId));
    expect(session.reportedPolicy).toBe('40M/200M');
    await nas.stop('acct-verify-late');
  });

  it('a second change before the first was confirmed replaces it: only the newest policy is waited for', async () => {
    const c = await online('acct-verify-twice');
    nas.applyCoa = false;
    nas.interimAfterCoa = false;
    try {
      await upgrade(c.subscriptionId);
    } finally {
      nas.applyCoa = true;
      nas.interimAfterCoa = true;
    }
    await upgrade(c.subscriptionId, ultraPlan.id);
    const [first, second] = (await requestsOf(c.sessionId)).filter((r) => r.kind === 'coa');
    expect(first).toMatchObject({ expectedPolicy: '40M/200M', result: 'ack' });
    expect(first.completedAt).not.toBeNull();
    expect(first.detail).toMatch(/^Superseded by a later change/);
    expect(second).toMatchObject({ expectedPolicy: '100M/500M', result: 'confirmed' });
    nas.received.length = 0;
    clock.advance(INTERIM * COA_VERIFY_FACTOR * 1000 + 1000);
    await nas.interim('acct-verify-twice');
    expect((await t.app.radius.sweep()).unconfirmed).toBe(0);
    expect(sent('Disconnect-Request')).toEqual([]);
    await nas.stop('acct-verify-twice');
  });

  it('a Stop before any Interim-Update: the change is confirmed, "session ended"', async () => {
    const c = await online('acct-verify-stop');
    const before = await coaCount(t.app, 'confirmed');
    nas.interimAfterCoa = false;
    try {
      await upgrade(c.subscriptionId);
    } finally {
      nas.interimAfterCoa = true;
    }
    expect((await requestsOf(c.sessionId))[0]).toMatchObject({ result: 'ack', completedAt: null });
    await nas.stop('acct-verify-stop');
    const [coa] = await requestsOf(c.sessionId);
    expect(coa).toMatchObject({ result: 'confirmed', detail: 'session ended' });
    expect((await auditOf(c.subscriptionId))[1]).toMatchObject({
      action: 'radius.coa_confirmed',
      changes: { how: 'session_ended' },
    });
    expect(await coaCount(t.app, 'confirmed')).toBe(before + 1);
  });

  it('unconfirmed on a NAS whose profile has no fallback: the Disconnect-Request is retried, then the record says the session ends at its Session-Timeout', async () => {
    const setVendor = async (vendor: 'mikrotik' | 'cisco') => {
      await db().update(devices).set({ vendor }).where(eq(devices.name, 'bng-1'));
      await t.app.radius.clients.reload();
    };
    await setVendor('cisco');
    nas.vendorOverride = CISCO_FAKE;
    try {
      const c = await online('acct-verify-cisco', 'PORTAL-IN-10M/PORTAL-OUT-50M');
      nas.applyCoa = false;
      nas.disconnectAnswer = 'nak';
      nas.received.length = 0;
      await upgrade(c.subscriptionId);
      clock.advance(INTERIM * COA_VERIFY_FACTOR * 1000 + 1000);
      await t.app.radius.sweep();
      for (let i = 0; i < 2; i++) {
        clock.advance(31_000);
        await t.app.radius.sweep();
      }
      expect(nas.received.map((r) => r.code)).toEqual(['CoA-Request', 'Disconnect-Request', 'Disconnect-Request']);
      const cut = (await requestsOf(c.sessionId)).find((r) => r.kind === 'disconnect')!;
      expect(cut).toMatchObject({ reason: 'coa_unconfirmed', result: 'failed', attempts: 2 });
      expect(cut.detail).toMatch(/Cisco .* NAS has no API fallback/);
      nas.disconnectAnswer = 'ack';
      await nas.stop('acct-verify-cisco');
    } finally {
      nas.applyCoa = true;
      nas.disconnectAnswer = 'ack';
      nas.vendorOverride = null;
      await setVendor('mikrotik');
    }
  });

  // One NAS fake per vendor profile (tests/helpers/coa-nas.ts: each reads the CoA and writes its accounting with the
  // attribute names and numbers of the FreeRADIUS dictionaries): the change is confirmed by that vendor's report.
  const VENDORS: Array<[DeviceVendorName, FakeNasVendor, string, string]> = [
    ['mikrotik', MIKROTIK_FAKE, '10M/50M', '40M/200M'],
    ['cisco', CISCO_FAKE, 'PORTAL-IN-10M/PORTAL-OUT-50M', 'PORTAL-IN-40M/PORTAL-OUT-200M'],
    ['juniper', JUNIPER_FAKE, 'PORTAL-IN-10M/PORTAL-OUT-50M', 'PORTAL-IN-40M/PORTAL-OUT-200M'],
    ['huawei', HUAWEI_FAKE, '10M/50M', '40M/200M'],
    ['cambium', CAMBIUM_FAKE, '10M/50M', '40M/200M'],
    ['generic', GENERIC_FAKE, 'portal-50000k-10000k', 'portal-200000k-40000k'],
  ];
  it.each(VENDORS)(
    'a %s NAS: the CoA in its attributes, its next Interim-Update reports the new policy → confirmed',
    async (vendor, fake, before, after) => {
      await db().update(devices).set({ vendor }).where(eq(devices.name, 'bng-1'));
      await t.app.radius.clients.reload();
      nas.vendorOverride = fake;
      try {
        const c = await online(`acct-vendor-${vendor}`, before);
        nas.received.length = 0;
        await upgrade(c.subscriptionId);
        expect(nas.received.map((r) => r.code)).toEqual(['CoA-Request']);
        // What the fake understood from the CoA (its own reading of the vendor's attributes) is the new policy.
        expect(nas.sessions.get(`acct-vendor-${vendor}`)!.policy).toBe(after);
        const [coa] = await requestsOf(c.sessionId);
        expect(coa).toMatchObject({ kind: 'coa', result: 'confirmed', expectedPolicy: after });
        await nas.stop(`acct-vendor-${vendor}`);
      } finally {
        nas.vendorOverride = null;
        await db().update(devices).set({ vendor: 'mikrotik' }).where(eq(devices.name, 'bng-1'));
        await t.app.radius.clients.reload();
      }
    },
  );

  it('two nodes on one database sweeping at once: one of them gives the change up, one Disconnect-Request', async () => {
    b = await buildApp({
      config: testConfig({ ...t.config, radiusAuthPort: 0, radiusAcctPort: 0 }),
      database: t.database,
      clock,
      logger: false,
      mailer: null,
    });
    const c = await online('acct-verify-two');
    const before = (await coaCount(t.app, 'unconfirmed')) + (await coaCount(b, 'unconfirmed'));
    nas.applyCoa = false;
    nas.received.length = 0;
    try {
      await upgrade(c.subscriptionId);
    } finally {
      nas.applyCoa = true;
    }
    clock.advance(INTERIM * COA_VERIFY_FACTOR * 1000 + 1000);
    const [one, two] = await Promise.all([t.app.radius.sweep(), b.radius.sweep()]);
    expect(one.unconfirmed + two.unconfirmed).toBe(1);
    await settle();
    await b.radius.idle();
    expect(sent('Disconnect-Request').map((r) => r.attributes['Acct-Session-Id'])).toEqual(['acct-verify-two']);
    const rows = await requestsOf(c.sessionId);
    expect(rows.map((r) => [r.kind, r.result])).toEqual([
      ['coa', 'unconfirmed'],
      ['disconnect', 'ack'],
    ]);
    expect((await auditOf(c.subscriptionId)).map((e) => e.action)).toEqual([
      'radius.coa_sent',
      'radius.coa_unconfirmed',
    ]);
    expect((await coaCount(t.app, 'unconfirmed')) + (await coaCount(b, 'unconfirmed'))).toBe(before + 1);
  });
});
