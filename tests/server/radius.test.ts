/**
 * PPPoE access through the portal's RADIUS server, with FreeRADIUS' radclient as the NAS: who gets in (PAP and
 * CHAP) and at what rate, accounting totals with Gigawords, retransmissions, stale sessions, and the cut-off:
 * a suspension sends a real RFC 5176 Disconnect-Request to a UDP listener the test runs as the NAS, which
 * answers ACK or NAK; a NAS that keeps the session up is cleaned through the RouterOS API (the local fake).
 */
import { eq, sql } from 'drizzle-orm';
import radius from 'radius';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { devices, radiusDisconnects, radiusSessions, radiusUsageDaily } from '../../server/db/schema';
import { ManualClock } from '../../server/lib/clock';
import { provisionCredentials, type ServiceCredentials } from '../../server/modules/radius/credentials';
import { activateForPaidInvoice } from '../../server/modules/subscriptions/service';
import { encodePapResponse, parsePapAccessRequest } from '../../server/integrations/radius/pap-fast-path';
import { decodeRequest, encodeResponse, type RadiusAttribute } from '../../server/integrations/radius/codec';
import { rateAttributes } from '../../server/modules/radius/authorize';
import { ensureRadclient, radclient, type RadclientAnswer } from '../helpers/radclient';
import { RouterOsFake } from '../helpers/routeros-fake';
import { radiusTestConfig, TestNas } from '../helpers/test-nas';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const SECRET = 'nas-shared-secret-1';
const GIGA = 2 ** 32;
const START = '2026-03-01T10:00:00.000Z';

describe('RADIUS: PPPoE access, accounting and cut-off', () => {
  let t: TestApp;
  const clock = new ManualClock(START);
  const nas = new TestNas(SECRET);
  const router = new RouterOsFake();
  let admin: string;
  let ports: { authPort: number; acctPort: number };
  let basicPlan: { id: string };
  let fastPlan: { id: string };
  let cappedPlan: { id: string };
  let deviceId: string;
  let n = 0;

  beforeAll(async () => {
    ensureRadclient();
    await Promise.all([nas.start(), router.start()]);
    t = await createTestApp({
      clock,
      config: {
        accessTokenTtlSeconds: 365 * 86_400,
        // The test's NAS answers from this process's event loop, which PGlite also runs on: 3 s to answer.
        ...radiusTestConfig(nas.port),
      },
    });
    ports = t.app.radius.ports()!;
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
    cappedPlan = await plan({
      name: 'Capped',
      price: 1000,
      download_mbps: 20,
      upload_mbps: 5,
      data_cap_gb: 1,
      billing_cycle: 'monthly',
    });
    const [device] = await db()
      .insert(devices)
      .values({
        name: 'core-1',
        vendor: 'mikrotik',
        host: '127.0.0.1',
        radiusSecret: t.app.secretBox.seal(SECRET),
        apiType: 'rest',
        apiPort: router.connection.port,
        apiTls: false,
        apiUsername: router.username,
        apiPassword: t.app.secretBox.seal(router.password),
      })
      .returning();
    deviceId = device.id;
    await t.app.radius.clients.reload();
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([nas.stop(), router.stop()]);
  });

  const db = () => t.database.db;
  function api(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
    return t.app.inject({ method, url: `/api${url}`, headers: bearer(admin), payload: payload as object });
  }

  /** A customer with a subscription on `planId` in the given state, and its PPPoE credentials. */
  async function customer(state: 'active' | 'pending' | 'suspended' | 'expired' | 'cancelled', planId = basicPlan.id) {
    const user = await t.createUser({ email: `customer${++n}@example.com` });
    const created = await api('POST', '/subscriptions', { plan_id: planId, user_id: user.id });
    expect(created.statusCode).toBe(201);
    const { subscription, invoice } = created.json().data as { subscription: { id: string }; invoice: { id: string } };
    const credentials = await provisionCredentials(db(), subscription.id, t.app.secretBox);
    if (state !== 'pending') {
      await db().transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        await tx.execute(
          sql`update invoices set status = 'paid', paid_date = ${clock.now().toISOString()} where id = ${invoice.id}`,
        );
        await activateForPaidInvoice(tx, invoice.id, clock.now());
      });
    }
    if (state === 'suspended') await setStatus(subscription.id, 'suspended');
    if (state === 'cancelled')
      expect((await api('POST', `/subscriptions/${subscription.id}/cancel`, { immediate: true })).statusCode).toBe(200);
    if (state === 'expired')
      await db().execute(sql`update subscriptions set status = 'expired' where id = ${subscription.id}`);
    return { subscriptionId: subscription.id, ...credentials } as ServiceCredentials & {
      subscriptionId: string;
      password: string;
    };
  }

  async function setStatus(id: string, status: string) {
    const res = await api('PATCH', `/subscriptions/${id}/status`, {
      status,
      suspension_reason: status === 'suspended' ? 'Overdue invoice' : undefined,
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.app.radius.idle();
  }

  const login = (username: string, password: string, extra: Record<string, string | number> = {}) =>
    radclient(
      { port: ports.authPort, secret: SECRET, type: 'auth' },
      { 'User-Name': username, 'User-Password': password, 'NAS-Port-Type': 'Ethernet', ...extra },
    );
  const chap = (username: string, password: string) =>
    radclient(
      { port: ports.authPort, secret: SECRET, type: 'auth' },
      { 'User-Name': username, 'CHAP-Password': password },
    );
  const account = (attributes: Record<string, string | number>) =>
    radclient({ port: ports.acctPort, secret: SECRET, type: 'acct' }, attributes);
  const session = async (acctSessionId: string) =>
    (await db().select().from(radiusSessions).where(eq(radiusSessions.acctSessionId, acctSessionId)))[0];
  const disconnectsOf = (sessionId: string) =>
    db()
      .select()
      .from(radiusDisconnects)
      .where(eq(radiusDisconnects.sessionId, sessionId))
      .orderBy(radiusDisconnects.requestedAt);
  const accepted = (a: RadclientAnswer) => expect(a.code, a.output).toBe('Access-Accept');
  const rejected = (a: RadclientAnswer) => expect(a.code, a.output).toBe('Access-Reject');

  it('the PAP fast path reads what the radius package reads and answers byte for byte what it would, Message-Authenticator and Proxy-State included', () => {
    for (const messageAuthenticator of [false, true]) {
      const request = radius.encode({
        code: 'Access-Request',
        secret: SECRET,
        identifier: 42,
        add_message_authenticator: messageAuthenticator,
        attributes: [
          ['User-Name', 'c000042'],
          ['User-Password', 'a-password-over-16-chars'],
          ['NAS-Port', 7],
          ['Proxy-State', Buffer.from('hop-1')],
        ],
      });
      const pap = parsePapAccessRequest(request, SECRET)!;
      expect(pap).toMatchObject({
        identifier: 42,
        username: 'c000042',
        password: 'a-password-over-16-chars',
        messageAuthenticator,
      });
      const attributes = [
        ...rateAttributes(50_000, 10_000),
        ['Session-Timeout', 86_400],
        ['Acct-Interim-Interval', 300],
        ['Framed-Protocol', 'PPP'],
        ['Service-Type', 'Framed-User'],
        ['Reply-Message', 'ok'],
      ] as RadiusAttribute[];
      const fast = encodePapResponse(pap, 'Access-Accept', attributes, SECRET)!;
      const byPackage = encodeResponse(decodeRequest(request, SECRET), 'Access-Accept', SECRET, [...attributes]);
      expect(fast.equals(byPackage)).toBe(true);
      expect(radius.verify_response({ request, response: Buffer.from(fast), secret: SECRET })).toBe(true);
      if (messageAuthenticator)
        expect(() => parsePapAccessRequest(request, 'another-secret')).toThrow(/Message-Authenticator/);
    }
  });

  it('accepts an active customer (PAP) with the plan rate, a generic rate and a Session-Timeout up to the period end', async () => {
    const c = await customer('active');
    expect(c.username).toMatch(/^c\d{6}$/);
    expect(c.password).toMatch(/^[A-Za-z2-9]{14}$/);
    const answer = await login(c.username, c.password);
    accepted(answer);
    expect(answer.attributes['Mikrotik-Rate-Limit']).toBe('10M/50M');
    expect(answer.attributes['WISPr-Bandwidth-Max-Down']).toBe('50000000');
    expect(answer.attributes['WISPr-Bandwidth-Max-Up']).toBe('10000000');
    const sub = (await api('GET', `/subscriptions/${c.subscriptionId}`)).json().data;
    const expected = Math.floor((new Date(sub.current_period_end).getTime() - clock.now().getTime()) / 1000);
    expect(Number(answer.attributes['Session-Timeout'])).toBe(expected);
    expect(answer.attributes['Acct-Interim-Interval']).toBe('300');
    expect(answer.attributes['Framed-Pool']).toBeUndefined();
  });

  it('CHAP: the right password gets in, a wrong one does not', async () => {
    const c = await customer('active');
    const ok = await chap(c.username, c.password);
    accepted(ok);
    expect(ok.attributes['Mikrotik-Rate-Limit']).toBe('10M/50M');
    rejected(await chap(c.username, `${c.password}x`));
  });

  it('rejects a wrong password, an unknown login, and pending, expired and cancelled subscriptions', async () => {
    const active = await customer('active');
    rejected(await login(active.username, 'not-the-password'));
    rejected(await login('c999999', 'whatever-pass'));
    for (const state of ['pending', 'expired', 'cancelled'] as const) {
      const c = await customer(state);
      const answer = await login(c.username, c.password);
      rejected(answer);
      expect(answer.attributes['Mikrotik-Rate-Limit']).toBeUndefined();
    }
  });

  it('suspended: rejected without a walled garden, put in the walled-garden pool with one; reactivation lets the next login in', async () => {
    const c = await customer('active');
    accepted(await login(c.username, c.password));
    await setStatus(c.subscriptionId, 'suspended');
    rejected(await login(c.username, c.password));

    t.config.radiusWalledGardenPool = 'walled-garden';
    try {
      const garden = await login(c.username, c.password);
      accepted(garden);
      expect(garden.attributes['Framed-Pool']).toBe('walled-garden');
      expect(garden.attributes['Mikrotik-Rate-Limit']).toBeUndefined();
      expect(Number(garden.attributes['Session-Timeout'])).toBeLessThanOrEqual(300);
    } finally {
      t.config.radiusWalledGardenPool = null;
    }

    await setStatus(c.subscriptionId, 'active');
    const back = await login(c.username, c.password);
    accepted(back);
    expect(back.attributes['Mikrotik-Rate-Limit']).toBe('10M/50M');
  });

  it('a NAS that is not a registered device gets no answer at all', async () => {
    const c = await customer('active');
    await db().update(devices).set({ host: '192.0.2.77' }).where(eq(devices.id, deviceId));
    await t.app.radius.clients.reload();
    try {
      const answer = await radclient(
        { port: ports.authPort, secret: SECRET, type: 'auth', timeout: 1, retries: 1 },
        { 'User-Name': c.username, 'User-Password': c.password },
      );
      expect(answer.code).toBeNull();
      expect(answer.output).toMatch(/No reply/);
    } finally {
      await db().update(devices).set({ host: '127.0.0.1' }).where(eq(devices.id, deviceId));
      await t.app.radius.clients.reload();
    }
  });

  it('accounting: Start, Interim-Update and Stop with Gigawords; a retransmitted packet changes nothing', async () => {
    const c = await customer('active');
    const base = {
      'User-Name': c.username,
      'Acct-Session-Id': 'acct-gw-1',
      'Framed-IP-Address': '100.64.0.10',
      'Calling-Station-Id': '48:A9:8A:00:00:10',
      'NAS-Port-Id': 'ether2',
    };
    expect((await account({ ...base, 'Acct-Status-Type': 'Start' })).code).toBe('Accounting-Response');
    const started = await session('acct-gw-1');
    expect(started).toMatchObject({
      status: 'open',
      username: c.username,
      subscriptionId: c.subscriptionId,
      framedIp: '100.64.0.10',
      nasDeviceId: deviceId,
      inputOctets: 0,
      outputOctets: 0,
    });

    clock.advanceMinutes(5);
    const interim = {
      ...base,
      'Acct-Status-Type': 'Interim-Update',
      'Acct-Session-Time': 300,
      'Acct-Input-Octets': 1000,
      'Acct-Input-Gigawords': 1,
      'Acct-Output-Octets': 5000,
      'Acct-Output-Gigawords': 2,
    };
    expect((await account(interim)).code).toBe('Accounting-Response');
    const afterInterim = await session('acct-gw-1');
    expect(afterInterim.inputOctets).toBe(GIGA + 1000);
    expect(afterInterim.outputOctets).toBe(2 * GIGA + 5000);
    const daily = async () =>
      (await db().select().from(radiusUsageDaily).where(eq(radiusUsageDaily.subscriptionId, c.subscriptionId)))[0];
    expect(await daily()).toMatchObject({ day: '2026-03-01', inputOctets: GIGA + 1000, outputOctets: 2 * GIGA + 5000 });

    // The NAS did not get our answer and sends the same update again (a new radclient packet, same content).
    clock.advanceMinutes(1);
    expect((await account(interim)).code).toBe('Accounting-Response');
    expect(await session('acct-gw-1')).toEqual(afterInterim);
    expect(await daily()).toMatchObject({ inputOctets: GIGA + 1000, outputOctets: 2 * GIGA + 5000 });

    clock.advanceMinutes(4);
    const stop = {
      ...base,
      'Acct-Status-Type': 'Stop',
      'Acct-Session-Time': 600,
      'Acct-Input-Octets': 3000,
      'Acct-Input-Gigawords': 1,
      'Acct-Output-Octets': 9000,
      'Acct-Output-Gigawords': 3,
      'Acct-Terminate-Cause': 'User-Request',
    };
    expect((await account(stop)).code).toBe('Accounting-Response');
    const stopped = await session('acct-gw-1');
    expect(stopped).toMatchObject({
      status: 'closed',
      terminateCause: 'User-Request',
      sessionTime: 600,
      inputOctets: GIGA + 3000,
      outputOctets: 3 * GIGA + 9000,
    });
    expect(stopped.stoppedAt?.toISOString()).toBe(clock.now().toISOString());
    expect((await account(stop)).code).toBe('Accounting-Response');
    expect(await session('acct-gw-1')).toEqual(stopped);
    expect(await daily()).toMatchObject({ inputOctets: GIGA + 3000, outputOctets: 3 * GIGA + 9000 });
  });

  it('a session whose Stop never comes is closed as stale after twice the interim interval, not before', async () => {
    const c = await customer('active');
    await account({ 'User-Name': c.username, 'Acct-Session-Id': 'acct-stale-1', 'Acct-Status-Type': 'Start' });
    clock.advanceMinutes(9);
    await t.app.radius.sweep();
    expect((await session('acct-stale-1')).status).toBe('open');
    clock.advanceMinutes(2);
    await t.app.radius.sweep();
    expect(await session('acct-stale-1')).toMatchObject({ status: 'stale', terminateCause: 'Stale' });
  });

  it('data cap: reached → rejected, or accepted at the throttled rate when the plan says throttle', async () => {
    const c = await customer('active', cappedPlan.id);
    accepted(await login(c.username, c.password));
    await account({
      'User-Name': c.username,
      'Acct-Session-Id': 'acct-cap-1',
      'Acct-Status-Type': 'Stop',
      'Acct-Session-Time': 60,
      'Acct-Output-Octets': 600_000_000,
      'Acct-Input-Octets': 400_000_000,
    });
    const answer = await login(c.username, c.password);
    rejected(answer);
    expect(answer.attributes['Reply-Message']).toMatch(/cap/i);
    const changed = await api('PUT', `/plans/${cappedPlan.id}`, {
      data_cap_action: 'throttle',
      throttle_download_kbps: 2000,
      throttle_upload_kbps: 512,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({
      data_cap_gb: 1,
      data_cap_action: 'throttle',
      throttle_download_kbps: 2000,
      throttle_upload_kbps: 512,
    });
    await t.app.radius.idle();
    const slow = await login(c.username, c.password);
    accepted(slow);
    expect(slow.attributes['Mikrotik-Rate-Limit']).toBe('512k/2M');
  });

  it('suspension sends a Disconnect-Request for the open session; ACK, then the Stop closes the record', async () => {
    const c = await customer('active');
    await account({
      'User-Name': c.username,
      'Acct-Session-Id': 'acct-cut-ack',
      'Acct-Status-Type': 'Start',
      'Framed-IP-Address': '100.64.0.20',
    });
    nas.answer = 'ack';
    nas.received.length = 0;
    await setStatus(c.subscriptionId, 'suspended');
    expect(nas.received).toHaveLength(1);
    expect(nas.received[0]).toMatchObject({
      code: 'Disconnect-Request',
      attributes: { 'User-Name': c.username, 'Acct-Session-Id': 'acct-cut-ack', 'Framed-IP-Address': '100.64.0.20' },
    });
    const s = await session('acct-cut-ack');
    let [record] = await disconnectsOf(s.id);
    expect(record).toMatchObject({
      kind: 'disconnect',
      reason: 'suspended',
      result: 'ack',
      attempts: 1,
      completedAt: null,
    });

    await account({
      'User-Name': c.username,
      'Acct-Session-Id': 'acct-cut-ack',
      'Acct-Status-Type': 'Stop',
      'Acct-Session-Time': 30,
      'Acct-Terminate-Cause': 'Admin-Reset',
    });
    [record] = await disconnectsOf(s.id);
    expect(record.completedAt).not.toBeNull();
    expect((await session('acct-cut-ack')).status).toBe('closed');
    clock.advanceMinutes(5);
    await t.app.radius.sweep();
    expect(nas.received).toHaveLength(1);
  });

  it('the billing run that suspends an overdue customer cuts their live session too', async () => {
    const c = await customer('active');
    await account({ 'User-Name': c.username, 'Acct-Session-Id': 'acct-cut-billing', 'Acct-Status-Type': 'Start' });
    const renewed = await api('PATCH', `/subscriptions/${c.subscriptionId}/renew`);
    expect(renewed.statusCode, renewed.body).toBe(200);
    await db().execute(
      sql`update invoices set due_date = ${'2026-01-15'} where id = ${renewed.json().data.invoice.id}`,
    );
    nas.answer = 'ack';
    nas.received.length = 0;
    const run = await api('POST', '/billing/run');
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().data.run.counts.suspended).toBeGreaterThanOrEqual(1);
    await t.app.radius.idle();
    expect(nas.received.map((r) => [r.code, r.attributes['Acct-Session-Id']])).toEqual([
      ['Disconnect-Request', 'acct-cut-billing'],
    ]);
    expect((await disconnectsOf((await session('acct-cut-billing')).id))[0]).toMatchObject({
      reason: 'suspended',
      result: 'ack',
    });
    await account({
      'User-Name': c.username,
      'Acct-Session-Id': 'acct-cut-billing',
      'Acct-Status-Type': 'Stop',
      'Acct-Terminate-Cause': 'Admin-Reset',
    });
    expect((await disconnectsOf((await session('acct-cut-billing')).id))[0].completedAt).not.toBeNull();
    rejected(await login(c.username, c.password));
  });

  it('NAK twice: the retry, then the PPP active entry is removed through the RouterOS API (fallback_removed)', async () => {
    const c = await customer('active');
    await account({ 'User-Name': c.username, 'Acct-Session-Id': 'acct-cut-nak', 'Acct-Status-Type': 'Start' });
    router.pppActive.push({
      '.id': '*2A',
      name: c.username,
      service: 'pppoe',
      address: '100.64.0.30',
      uptime: '5m',
      radius: 'true',
    });
    nas.answer = 'nak';
    nas.received.length = 0;
    await setStatus(c.subscriptionId, 'suspended');
    const s = await session('acct-cut-nak');
    expect((await disconnectsOf(s.id))[0]).toMatchObject({
      result: 'nak',
      errorCause: 503,
      attempts: 1,
      completedAt: null,
    });

    clock.advance(31_000);
    await t.app.radius.sweep();
    expect(nas.received.map((r) => r.code)).toEqual(['Disconnect-Request', 'Disconnect-Request']);
    expect((await disconnectsOf(s.id))[0]).toMatchObject({ result: 'nak', attempts: 2, completedAt: null });
    expect(router.pppActive.some((e) => e.name === c.username)).toBe(true);

    clock.advance(31_000);
    await t.app.radius.sweep();
    const [record] = await disconnectsOf(s.id);
    expect(record).toMatchObject({ result: 'fallback_removed', attempts: 2 });
    expect(record.completedAt).not.toBeNull();
    expect(router.pppActive.some((e) => e.name === c.username)).toBe(false);
    expect(router.requests.some((r) => r.method === 'DELETE' && r.path === '/rest/ppp/active/*2A')).toBe(true);
    expect(await session('acct-cut-nak')).toMatchObject({ status: 'closed', terminateCause: 'Admin-Reset' });
    expect(nas.received).toHaveLength(2);
  });

  it('a NAS that does not answer is recorded as timeout; an Interim-Update after it (session alive) brings the retry at once', async () => {
    const c = await customer('active');
    await account({ 'User-Name': c.username, 'Acct-Session-Id': 'acct-cut-silent', 'Acct-Status-Type': 'Start' });
    nas.answer = 'silent';
    nas.received.length = 0;
    await setStatus(c.subscriptionId, 'suspended');
    const s = await session('acct-cut-silent');
    expect((await disconnectsOf(s.id))[0]).toMatchObject({ result: 'timeout', attempts: 1 });
    nas.answer = 'ack';
    await account({
      'User-Name': c.username,
      'Acct-Session-Id': 'acct-cut-silent',
      'Acct-Status-Type': 'Interim-Update',
      'Acct-Session-Time': 60,
      'Acct-Input-Octets': 10,
    });
    await t.app.radius.idle();
    expect(nas.received).toHaveLength(2);
    expect((await disconnectsOf(s.id))[0]).toMatchObject({ result: 'ack', attempts: 2 });
  });

  it('an Interim-Update that takes a capped plan over its cap cuts the live session; deleting a subscription cuts its sessions too', async () => {
    const capped = await customer('active', cappedPlan.id);
    expect((await api('PUT', `/plans/${cappedPlan.id}`, { data_cap_action: 'reject' })).statusCode).toBe(200);
    await t.app.radius.idle();
    await account({ 'User-Name': capped.username, 'Acct-Session-Id': 'acct-cap-live', 'Acct-Status-Type': 'Start' });
    nas.answer = 'ack';
    nas.received.length = 0;
    const interim = (octets: number) =>
      account({
        'User-Name': capped.username,
        'Acct-Session-Id': 'acct-cap-live',
        'Acct-Status-Type': 'Interim-Update',
        'Acct-Session-Time': 300,
        'Acct-Output-Octets': octets,
      });
    await interim(900_000_000);
    await t.app.radius.idle();
    expect(nas.received).toHaveLength(0);
    await interim(1_000_000_001);
    await t.app.radius.idle();
    expect(nas.received.map((r) => [r.code, r.attributes['Acct-Session-Id']])).toEqual([
      ['Disconnect-Request', 'acct-cap-live'],
    ]);
    expect((await disconnectsOf((await session('acct-cap-live')).id))[0]).toMatchObject({
      reason: 'data_cap',
      result: 'ack',
    });

    const gone = await customer('active');
    await account({ 'User-Name': gone.username, 'Acct-Session-Id': 'acct-deleted', 'Acct-Status-Type': 'Start' });
    accepted(await login(gone.username, gone.password));
    nas.received.length = 0;
    expect((await api('DELETE', `/subscriptions/${gone.subscriptionId}`)).statusCode).toBe(200);
    await t.app.radius.idle();
    expect(nas.received.map((r) => [r.code, r.attributes['User-Name']])).toEqual([
      ['Disconnect-Request', gone.username],
    ]);
    rejected(await login(gone.username, gone.password));
  });

  it('a plan change sends a CoA-Request with the new rate to the live session', async () => {
    const c = await customer('active');
    await account({ 'User-Name': c.username, 'Acct-Session-Id': 'acct-coa-1', 'Acct-Status-Type': 'Start' });
    nas.answer = 'ack';
    nas.received.length = 0;
    const res = await api('PATCH', `/subscriptions/${c.subscriptionId}/upgrade`, { plan_id: fastPlan.id });
    expect(res.statusCode, res.body).toBe(200);
    await t.app.radius.idle();
    expect(nas.received).toHaveLength(1);
    expect(nas.received[0].code).toBe('CoA-Request');
    expect(nas.received[0].attributes['Acct-Session-Id']).toBe('acct-coa-1');
    expect(JSON.stringify(nas.received[0].attributes['Vendor-Specific'])).toContain('40M/200M');
    const s = await session('acct-coa-1');
    expect((await disconnectsOf(s.id))[0]).toMatchObject({ kind: 'coa', reason: 'plan_change', result: 'ack' });
    const answer = await login(c.username, c.password);
    expect(answer.attributes['Mikrotik-Rate-Limit']).toBe('40M/200M');
  });
});
