/**
 * Issue 32: voucher guessing at a hotspot. Over RADIUS (FreeRADIUS' radclient as the MikroTik hotspot), failed
 * voucher logins are limited per NAS and device (Calling-Station-Id, the MAC the hotspot sends): after 5 in 15
 * minutes even a right code is refused from that device, while other devices log in as usual. Every refusal —
 * unknown, wrong password, used up, expired, revoked, redeemed, limited — carries the same Reply-Message, so a
 * guesser learns nothing about which codes exist.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voucherCheckCharacter } from '../../contract/schemas/vouchers';
import { devices } from '../../server/db/schema';
import { ManualClock } from '../../server/lib/clock';
import { VOUCHER_ATTEMPTS, VOUCHER_REFUSED } from '../../server/modules/vouchers/hotspot';
import { ensureRadclient, radclient } from '../helpers/radclient';
import { createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

const SECRET = 'hotspot-limit-secret';

describe('voucher logins at a hotspot (RADIUS)', () => {
  let t: TestApp;
  let as: CallAs;
  const clock = new ManualClock('2026-06-01T09:00:00.000Z');
  let planId: string;
  let ports: { authPort: number; acctPort: number };

  beforeAll(async () => {
    ensureRadclient();
    t = await createTestApp({
      clock,
      config: {
        accessTokenTtlSeconds: 365 * 86_400,
        radiusEnabled: true,
        radiusHost: '127.0.0.1',
        radiusAuthPort: 0,
        radiusAcctPort: 0,
      },
    });
    ports = t.app.radius.ports()!;
    as = await signInEveryRole(t, ['admin', 'user']);
    planId = (
      await as('POST', '/plans', 'admin', {
        name: 'Wi-Fi day',
        price: 300,
        download_mbps: 20,
        upload_mbps: 5,
        billing_cycle: 'monthly',
      })
    ).json().data.id;
    await t.database.db.insert(devices).values({
      name: 'hotspot-limit',
      vendor: 'mikrotik',
      host: '127.0.0.1',
      radiusSecret: t.app.secretBox.seal(SECRET),
    });
    await t.app.radius.clients.reload();
  });
  afterAll(() => t?.close());

  const codes = async (count: number, body: Record<string, unknown> = { validity_minutes: 60 }) => {
    const res = await as('POST', '/vouchers/batches', 'admin', { plan_id: planId, price: 300, count, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; codes: string[] };
  };
  const pap = (code: string, mac: string, password = code) =>
    radclient(
      { port: ports.authPort, secret: SECRET, type: 'auth' },
      { 'User-Name': code, 'User-Password': password, 'Calling-Station-Id': mac },
    );
  const chap = (code: string, mac: string) =>
    radclient(
      { port: ports.authPort, secret: SECRET, type: 'auth' },
      { 'User-Name': code, 'CHAP-Password': code, 'Calling-Station-Id': mac },
    );
  const unknownCode = (n: number) => {
    const payload = `ZZZZZZZZ${'23456789A'[n]}`;
    return payload + voucherCheckCharacter(payload);
  };
  const stateOf = async (code: string) =>
    (
      await t.rows<{ state: string }>(
        sql`select state from vouchers where code_hash = ${t.app.secretBox.mac('voucher-code', code)}`,
      )
    )[0]!.state;

  it('after 5 failed codes from one device even a right code is refused there, other devices still log in, and the window ends', async () => {
    const [right, other, later] = (await codes(3)).codes as [string, string, string];
    const guesser = '48:A9:8A:11:22:33';
    for (let i = 0; i < VOUCHER_ATTEMPTS.max; i++) {
      const answer = await pap(unknownCode(i), guesser);
      expect([answer.code, answer.attributes['Reply-Message']], answer.output).toEqual([
        'Access-Reject',
        VOUCHER_REFUSED,
      ]);
    }
    // The right code from the guessing device: refused (PAP through the fast path, and CHAP), the voucher unused.
    for (const login of [pap, chap]) {
      const blocked = await login(right, '48-a9-8a-11-22-33');
      expect([blocked.code, blocked.attributes['Reply-Message']], blocked.output).toEqual([
        'Access-Reject',
        VOUCHER_REFUSED,
      ]);
    }
    expect(await stateOf(right)).toBe('unused');
    // Another phone at the same hotspot is not held up by the guesser.
    const neighbour = await pap(other, '48:A9:8A:44:55:66');
    expect(neighbour.code, neighbour.output).toBe('Access-Accept');
    // 15 minutes later the guessing device may try again, and a right code logs in.
    clock.advanceMinutes(VOUCHER_ATTEMPTS.windowMs / 60_000 + 1);
    const after = await chap(later, guesser);
    expect(after.code, after.output).toBe('Access-Accept');
  });

  it('unknown, wrong password, used up, expired, revoked and redeemed codes all get the same Reply-Message', async () => {
    const timed = await codes(4, { validity_minutes: 30 });
    const [expiring, revoked, redeemed, used] = timed.codes as [string, string, string, string];
    const data = await codes(1, { data_allowance_mb: 1 });
    const [usedUp] = data.codes as [string];
    let phone = 0;
    const device = () => `02:00:00:00:00:${String(++phone).padStart(2, '0')}`;

    // Expired: logged in once, then its 30 minutes pass.
    expect((await pap(expiring, device())).code).toBe('Access-Accept');
    // Used up: its megabyte counted through accounting.
    expect((await pap(usedUp, device())).code).toBe('Access-Accept');
    const session = {
      'User-Name': usedUp,
      'Acct-Session-Id': 'limit-1',
      'Framed-IP-Address': '10.5.50.9',
      'Calling-Station-Id': '02:00:00:00:00:99',
    };
    await radclient(
      { port: ports.acctPort, secret: SECRET, type: 'acct' },
      { ...session, 'Acct-Status-Type': 'Start' },
    );
    await radclient(
      { port: ports.acctPort, secret: SECRET, type: 'acct' },
      { ...session, 'Acct-Status-Type': 'Stop', 'Acct-Input-Octets': 900_000, 'Acct-Output-Octets': 200_000 },
    );
    await t.app.radius.idle();
    // Revoked, and redeemed to a customer account (a time voucher, redeemed in the portal).
    const [{ id }] = await t.rows<{ id: string }>(
      sql`select id from vouchers where code_hash = ${t.app.secretBox.mac('voucher-code', revoked)}`,
    );
    expect((await as('POST', `/vouchers/${id}/revoke`, 'admin')).statusCode).toBe(200);
    expect((await as('POST', '/vouchers/redeem', 'user', { code: redeemed })).statusCode).toBe(201);
    clock.advanceMinutes(31);

    const answers = {
      unknown: await pap(unknownCode(7), device()),
      wrongPassword: await pap(used, device(), 'not-the-code'),
      usedUp: await chap(usedUp, device()),
      expired: await pap(expiring, device()),
      revoked: await pap(revoked, device()),
      redeemed: await chap(redeemed, device()),
    };
    for (const [why, answer] of Object.entries(answers)) {
      expect([why, answer.code, answer.attributes['Reply-Message']], answer.output).toEqual([
        why,
        'Access-Reject',
        VOUCHER_REFUSED,
      ]);
    }
    // The states still follow what happened (the reason is kept in the portal, not told to the guesser).
    expect([await stateOf(usedUp), await stateOf(expiring), await stateOf(revoked)]).toEqual([
      'used_up',
      'expired',
      'revoked',
    ]);
  });
});
