/**
 * A hotspot voucher that runs out during a session is cut off (issue 22): radclient plays the MikroTik hotspot
 * (login and accounting), and a UDP listener the test runs plays the hotspot's dynamic-authorization port,
 * answering the portal's RFC 5176 Disconnect-Request with an ACK. An Interim-Update that takes the voucher over its
 * data allowance, or one that arrives after its validity ended, makes the portal disconnect the session; before
 * that, nothing is sent.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, radiusDisconnects, radiusSessions } from '../../server/db/schema';
import { ManualClock } from '../../server/lib/clock';
import { VOUCHER_REFUSED } from '../../server/modules/vouchers/hotspot';
import { ensureRadclient, radclient } from '../helpers/radclient';
import { createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';
import { radiusTestConfig, TestNas } from '../helpers/test-nas';
import { RouterOsFake } from '../helpers/routeros-fake';

const SECRET = 'hotspot-coa-secret';

describe('hotspot vouchers: a live session is cut off when the voucher runs out', () => {
  let t: TestApp;
  let as: CallAs;
  const clock = new ManualClock('2026-06-01T09:00:00.000Z');
  /** The hotspot's Disconnect/CoA port: records each request and answers ACK. */
  const coa = new TestNas(SECRET);
  /** The hotspot's RouterOS REST API, for the last resort when it never acknowledges. */
  const router = new RouterOsFake();
  let ports: { authPort: number; acctPort: number };
  let planId: string;

  beforeAll(async () => {
    ensureRadclient();
    await Promise.all([coa.start(), router.start()]);
    t = await createTestApp({
      clock,
      config: {
        accessTokenTtlSeconds: 365 * 86_400,
        ...radiusTestConfig(coa.port),
      },
    });
    ports = t.app.radius.ports()!;
    as = await signInEveryRole(t, ['admin', 'user']);
    planId = (
      await as('POST', '/plans', 'admin', {
        name: 'Day pass',
        price: 300,
        download_mbps: 20,
        upload_mbps: 5,
        billing_cycle: 'monthly',
      })
    ).json().data.id;
    await t.database.db.insert(devices).values({
      name: 'hotspot-cafe',
      vendor: 'mikrotik',
      host: '127.0.0.1',
      radiusSecret: t.app.secretBox.seal(SECRET),
      apiType: 'rest',
      apiPort: router.connection.port,
      apiTls: false,
      apiUsername: router.username,
      apiPassword: t.app.secretBox.seal(router.password),
    });
    await t.app.radius.clients.reload();
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([coa.stop(), router.stop()]);
  });

  const code = async (body: Record<string, unknown>) => {
    const res = await as('POST', '/vouchers/batches', 'admin', { plan_id: planId, price: 300, count: 1, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json().data.codes as string[])[0]!;
  };
  const chapLogin = (username: string) =>
    radclient(
      { port: ports.authPort, secret: SECRET, type: 'auth' },
      { 'User-Name': username, 'CHAP-Password': username },
    );
  const account = async (attributes: Record<string, string | number>) => {
    expect((await radclient({ port: ports.acctPort, secret: SECRET, type: 'acct' }, attributes)).code).toBe(
      'Accounting-Response',
    );
    await t.app.radius.idle();
  };
  const disconnectsOf = async (acctSessionId: string) => {
    const [session] = await t.database.db
      .select()
      .from(radiusSessions)
      .where(eq(radiusSessions.acctSessionId, acctSessionId));
    return t.database.db.select().from(radiusDisconnects).where(eq(radiusDisconnects.sessionId, session!.id));
  };
  const voucherState = async (c: string) =>
    (
      await t.rows<{ state: string }>(
        sql`select state from vouchers where code_hash = ${t.app.secretBox.mac('voucher-code', c)}`,
      )
    )[0]!.state;

  it('data allowance: the Interim-Update that crosses it sends a Disconnect-Request for that session; the Stop completes it', async () => {
    const c = await code({ data_allowance_mb: 1 });
    expect((await chapLogin(c)).code).toBe('Access-Accept');
    const base = {
      'User-Name': c,
      'Acct-Session-Id': 'hs-data-1',
      'Framed-IP-Address': '10.5.50.7',
      'Calling-Station-Id': '48:A9:8A:00:00:07',
    };
    await account({ ...base, 'Acct-Status-Type': 'Start' });
    await account({
      ...base,
      'Acct-Status-Type': 'Interim-Update',
      'Acct-Session-Time': 60,
      'Acct-Input-Octets': 300_000,
      'Acct-Output-Octets': 400_000,
    });
    expect(coa.received).toEqual([]);
    expect(await voucherState(c)).toBe('active');

    await account({
      ...base,
      'Acct-Status-Type': 'Interim-Update',
      'Acct-Session-Time': 120,
      'Acct-Input-Octets': 450_000,
      'Acct-Output-Octets': 600_000,
    });
    expect(
      coa.received.map((r) => [
        r.code,
        r.attributes['User-Name'],
        r.attributes['Acct-Session-Id'],
        r.attributes['Framed-IP-Address'],
      ]),
    ).toEqual([['Disconnect-Request', c, 'hs-data-1', '10.5.50.7']]);
    expect(await disconnectsOf('hs-data-1')).toMatchObject([
      { kind: 'disconnect', reason: 'voucher_used_up', result: 'ack', attempts: 1, completedAt: null },
    ]);
    expect(await voucherState(c)).toBe('used_up');

    // The hotspot's Stop ends the session: the disconnect is complete, and nothing more is sent.
    await account({
      ...base,
      'Acct-Status-Type': 'Stop',
      'Acct-Session-Time': 125,
      'Acct-Input-Octets': 450_000,
      'Acct-Output-Octets': 610_000,
      'Acct-Terminate-Cause': 'Admin-Reset',
    });
    const [record] = await disconnectsOf('hs-data-1');
    expect(record!.completedAt).not.toBeNull();
    expect(coa.received).toHaveLength(1);
    expect((await chapLogin(c)).attributes['Reply-Message']).toBe(VOUCHER_REFUSED);
  });

  it('validity: an Interim-Update after the voucher expired sends a Disconnect-Request; one still within it sends nothing', async () => {
    coa.received.length = 0;
    const c = await code({ validity_minutes: 30 });
    expect((await chapLogin(c)).code).toBe('Access-Accept');
    const base = { 'User-Name': c, 'Acct-Session-Id': 'hs-time-1', 'Framed-IP-Address': '10.5.50.8' };
    await account({ ...base, 'Acct-Status-Type': 'Start' });
    clock.advanceMinutes(29);
    await account({
      ...base,
      'Acct-Status-Type': 'Interim-Update',
      'Acct-Session-Time': 29 * 60,
      'Acct-Input-Octets': 1_000,
      'Acct-Output-Octets': 5_000,
    });
    expect(coa.received).toEqual([]);
    clock.advanceMinutes(2);
    await account({
      ...base,
      'Acct-Status-Type': 'Interim-Update',
      'Acct-Session-Time': 31 * 60,
      'Acct-Input-Octets': 2_000,
      'Acct-Output-Octets': 9_000,
    });
    expect(coa.received.map((r) => [r.code, r.attributes['Acct-Session-Id']])).toEqual([
      ['Disconnect-Request', 'hs-time-1'],
    ]);
    expect(await disconnectsOf('hs-time-1')).toMatchObject([{ reason: 'voucher_expired', result: 'ack' }]);
    expect(await voucherState(c)).toBe('expired');
  });

  it("a hotspot that never acknowledges: after the retry the voucher's hotspot active entry is removed through the RouterOS API, not a PPP one", async () => {
    coa.received.length = 0;
    coa.answer = 'nak';
    try {
      const c = await code({ data_allowance_mb: 1 });
      expect((await chapLogin(c)).code).toBe('Access-Accept');
      router.hotspotActive.push({
        '.id': '*3C',
        user: c,
        address: '10.5.50.9',
        'mac-address': '48:A9:8A:00:00:09',
        uptime: '4m',
        radius: 'true',
      });
      const pppBefore = router.pppActive.length;
      const base = { 'User-Name': c, 'Acct-Session-Id': 'hs-nak-1', 'Framed-IP-Address': '10.5.50.9' };
      await account({ ...base, 'Acct-Status-Type': 'Start' });
      await account({
        ...base,
        'Acct-Status-Type': 'Interim-Update',
        'Acct-Session-Time': 60,
        'Acct-Input-Octets': 600_000,
        'Acct-Output-Octets': 600_000,
      });
      expect(await disconnectsOf('hs-nak-1')).toMatchObject([
        { reason: 'voucher_used_up', result: 'nak', attempts: 1 },
      ]);

      clock.advance(31_000);
      await t.app.radius.sweep();
      expect(await disconnectsOf('hs-nak-1')).toMatchObject([{ result: 'nak', attempts: 2, completedAt: null }]);
      expect(router.hotspotActive.some((e) => e.user === c)).toBe(true);

      clock.advance(31_000);
      await t.app.radius.sweep();
      const [record] = await disconnectsOf('hs-nak-1');
      expect(record).toMatchObject({
        result: 'fallback_removed',
        detail: expect.stringContaining('hotspot active entry'),
      });
      expect(router.hotspotActive.some((e) => e.user === c)).toBe(false);
      expect(router.requests.some((r) => r.method === 'DELETE' && r.path === '/rest/ip/hotspot/active/*3C')).toBe(true);
      expect(router.pppActive).toHaveLength(pppBefore);
    } finally {
      coa.answer = 'ack';
    }
  });

  it('a data voucher redeemed in the portal (issue 31): a line with its allowance and a login; the Interim-Update that uses the data ends the line and disconnects it; its login is refused after', async () => {
    coa.received.length = 0;
    const c = await code({ data_allowance_mb: 1 });
    const redeemed = await as('POST', '/vouchers/redeem', 'user', { code: c });
    expect(redeemed.statusCode, redeemed.body).toBe(201);
    expect(redeemed.json().data).toMatchObject({
      extended: false,
      period_end: null,
      data_allowance_bytes: 1_000_000,
      data_used_bytes: 0,
    });
    const id: string = redeemed.json().data.subscription_id;
    // The voucher is the customer's now: the hotspot no longer takes it.
    expect((await chapLogin(c)).attributes['Reply-Message']).toBe(VOUCHER_REFUSED);
    const access = await as('GET', `/subscriptions/${id}/credentials`, 'user');
    expect(access.statusCode, access.body).toBe(200);
    const { username, password } = access.json().data.credentials as { username: string; password: string };
    const login = () =>
      radclient(
        { port: ports.authPort, secret: SECRET, type: 'auth' },
        { 'User-Name': username, 'User-Password': password },
      );
    expect((await login()).code).toBe('Access-Accept');

    const base = { 'User-Name': username, 'Acct-Session-Id': 'ppp-bundle-1', 'Framed-IP-Address': '10.9.0.7' };
    await account({ ...base, 'Acct-Status-Type': 'Start' });
    await account({
      ...base,
      'Acct-Status-Type': 'Interim-Update',
      'Acct-Session-Time': 60,
      'Acct-Input-Octets': 300_000,
      'Acct-Output-Octets': 400_000,
    });
    // A replayed Interim-Update adds nothing.
    await account({
      ...base,
      'Acct-Status-Type': 'Interim-Update',
      'Acct-Session-Time': 60,
      'Acct-Input-Octets': 300_000,
      'Acct-Output-Octets': 400_000,
    });
    expect(coa.received).toEqual([]);
    const line = async () =>
      (await as('GET', '/subscriptions/orders', 'user')).json().data.find((o: { id: string }) => o.id === id);
    expect(await line()).toMatchObject({ status: 'active', data_allowance_bytes: 1_000_000, data_used_bytes: 700_000 });

    await account({
      ...base,
      'Acct-Status-Type': 'Interim-Update',
      'Acct-Session-Time': 120,
      'Acct-Input-Octets': 450_000,
      'Acct-Output-Octets': 600_000,
    });
    expect(coa.received.map((r) => [r.code, r.attributes['User-Name'], r.attributes['Acct-Session-Id']])).toEqual([
      ['Disconnect-Request', username, 'ppp-bundle-1'],
    ]);
    expect(await disconnectsOf('ppp-bundle-1')).toMatchObject([
      { kind: 'disconnect', reason: 'data_allowance_used', result: 'ack' },
    ]);
    expect(await line()).toMatchObject({
      status: 'expired',
      data_used_bytes: 1_050_000,
      current_period_end: clock.now().toISOString(),
    });
    const refused = await login();
    expect(refused.code).toBe('Access-Reject');
    // Another voucher starts a new line rather than reviving the one that ended.
    const next = await as('POST', '/vouchers/redeem', 'user', {
      code: await code({ data_allowance_mb: 2, validity_minutes: 60 }),
    });
    expect(next.json().data).toMatchObject({
      extended: false,
      data_allowance_bytes: 2_000_000,
      period_end: new Date(clock.now().getTime() + 3_600_000).toISOString(),
    });
    expect(next.json().data.subscription_id).not.toBe(id);
  });
});
