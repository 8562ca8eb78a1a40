/**
 * Prepaid vouchers (issue 22): batches (unique codes at 100 000 made by a job in chunks — issue 33 —, never stored in plain text, the check character),
 * role checks, redemption in the portal (the race: exactly one of 20 wins; the rate limit), and the hotspot login
 * through the RADIUS server with FreeRADIUS' radclient as the MikroTik hotspot (PAP and CHAP).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWellFormedVoucherCode, VOUCHER_ALPHABET, voucherCheckCharacter } from '../../contract/schemas/vouchers';
import { devices } from '../../server/db/schema';
import { ManualClock } from '../../server/lib/clock';
import { generateVoucherCodes } from '../../server/modules/vouchers/codes';
import { VOUCHER_REFUSED } from '../../server/modules/vouchers/hotspot';
import { REDEEM_FAILURES, VOUCHER_BATCH_JOB } from '../../server/modules/vouchers/routes';
import { VoucherService } from '../../server/modules/vouchers/service';
import { ensureRadclient, radclient, type RadclientAnswer } from '../helpers/radclient';
import { bearer, createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

const SECRET = 'hotspot-secret-1';
const START = '2026-05-01T08:00:00.000Z';

describe('prepaid vouchers', () => {
  let t: TestApp;
  let as: CallAs;
  const clock = new ManualClock(START);
  let plan: { id: string };
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
    as = await signInEveryRole(t);
    plan = (
      await as('POST', '/plans', 'admin', {
        name: 'Hotspot',
        price: 500,
        download_mbps: 50,
        upload_mbps: 10,
        billing_cycle: 'monthly',
      })
    ).json().data;
    await t.database.db
      .insert(devices)
      .values({ name: 'hotspot-1', vendor: 'mikrotik', host: '127.0.0.1', radiusSecret: t.app.secretBox.seal(SECRET) });
    await t.app.radius.clients.reload();
  });
  afterAll(async () => {
    await t?.close();
  });

  const batch = async (body: Record<string, unknown>, role: 'admin' | 'billing' = 'admin') => {
    const res = await as('POST', '/vouchers/batches', role, { plan_id: plan.id, price: 500, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; codes: string[]; count: number; states: Record<string, number> };
  };

  it('codes: the alphabet has no look-alikes and the check character refuses every single-character typo', () => {
    expect(VOUCHER_ALPHABET).not.toMatch(/[01OIL]/);
    const [code] = generateVoucherCodes(1, 10);
    expect(code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{10}$/);
    expect(isWellFormedVoucherCode(code!)).toBe(true);
    expect(voucherCheckCharacter(code!.slice(0, -1))).toBe(code!.slice(-1));
    for (let i = 0; i < code!.length; i++) {
      for (const c of VOUCHER_ALPHABET) {
        if (c === code![i]) continue;
        expect(isWellFormedVoucherCode(code!.slice(0, i) + c + code!.slice(i + 1))).toBe(false);
      }
    }
    // Neighbours swapped (when they differ) are refused too.
    let caught = 0;
    let swaps = 0;
    for (const c of generateVoucherCodes(200, 10)) {
      for (let i = 0; i < c.length - 1; i++) {
        if (c[i] === c[i + 1]) continue;
        swaps++;
        if (!isWellFormedVoucherCode(c.slice(0, i) + c[i + 1] + c[i] + c.slice(i + 2))) caught++;
      }
    }
    expect(swaps).toBeGreaterThan(1000);
    expect(caught).toBe(swaps);
  });

  it('roles: admin and billing manage batches; support, technician and customers are refused; validation answers 400', async () => {
    for (const role of ['support', 'technician', 'user'] as const) {
      expect(
        (await as('POST', '/vouchers/batches', role, { plan_id: plan.id, price: 0, count: 1, validity_minutes: 60 }))
          .statusCode,
      ).toBe(403);
      expect((await as('GET', '/vouchers/batches', role)).statusCode).toBe(403);
    }
    expect((await as('GET', '/vouchers/batches')).statusCode).toBe(401);
    expect((await as('POST', '/vouchers/redeem', 'admin', { code: 'X' })).statusCode).toBe(403);
    const b = await batch({ count: 2, validity_minutes: 60 }, 'billing');
    expect(b.codes).toHaveLength(2);
    const noLimit = await as('POST', '/vouchers/batches', 'admin', { plan_id: plan.id, price: 0, count: 1 });
    expect(noLimit.statusCode).toBe(400);
    expect(noLimit.json()).toMatchObject({
      success: false,
      message: expect.any(String),
      errors: [{ field: 'validity_minutes', message: 'A validity or a data allowance is required' }],
    });
    for (const bad of [{ count: 0 }, { count: 100_001 }, { code_length: 7 }, { code_length: 17 }]) {
      expect(
        (
          await as('POST', '/vouchers/batches', 'admin', {
            plan_id: plan.id,
            price: 0,
            count: 1,
            validity_minutes: 5,
            ...bad,
          })
        ).statusCode,
      ).toBe(400);
    }
    expect(
      (
        await as('POST', '/vouchers/batches', 'admin', {
          plan_id: '00000000-0000-4000-8000-000000000000',
          price: 0,
          count: 1,
          validity_minutes: 5,
        })
      ).statusCode,
    ).toBe(404);
  });

  /** The CSV's codes (the export of a ready batch). */
  const csvCodes = async (id: string) => {
    const res = await as('GET', `/vouchers/batches/${id}/codes.csv`, 'billing');
    expect(res.statusCode, res.body).toBe(200);
    return res.body
      .trim()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(',')[0]!);
  };

  it('a batch of 100 000 codes is made by a job (202, progress on GET) while the server answers; all distinct, none stored in plain text', async () => {
    const res = await as('POST', '/vouchers/batches', 'admin', {
      plan_id: plan.id,
      price: 500,
      count: 100_000,
      validity_minutes: 60,
      code_length: 8,
    });
    expect(res.statusCode, res.body).toBe(202);
    const accepted = res.json();
    expect(accepted).toMatchObject({
      success: true,
      message: 'Voucher batch accepted: its codes are being generated',
      data: { count: 100_000, status: 'generating', codes: [], export_until: null },
    });
    const id = accepted.data.id as string;
    expect(res.headers.location).toBe(`/api/vouchers/batches/${id}`);
    // While the job runs: the server answers, the progress grows, and the codes cannot be exported yet.
    const seen: number[] = [];
    let refusedExport = false;
    for (;;) {
      const b = (await as('GET', `/vouchers/batches/${id}`, 'billing')).json().data;
      if (b.status === 'ready') break;
      seen.push(b.generated);
      if (!refusedExport) {
        const early = await as('GET', `/vouchers/batches/${id}/codes.csv`, 'billing');
        expect(early.statusCode).toBe(409);
        expect(early.json().message).toBe(
          'The codes of this batch are still being generated: export them once it is ready',
        );
        refusedExport = true;
      }
      expect((await t.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(refusedExport).toBe(true);
    expect(seen.some((n) => n > 0 && n < 100_000)).toBe(true);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const codes = await csvCodes(id);
    expect(codes).toHaveLength(100_000);
    expect(new Set(codes).size).toBe(100_000);
    expect(codes.every(isWellFormedVoucherCode)).toBe(true);
    const [counts] = await t.rows<{ n: number; hashes: number }>(
      sql`select count(*)::int as n, count(distinct code_hash)::int as hashes from vouchers where batch_id = ${id}`,
    );
    expect(counts).toEqual({ n: 100_000, hashes: 100_000 });
    // Nothing stored for a code contains it: every stored value of the batch, searched for 500 of its codes.
    const stored = (
      await t.rows<{ text: string }>(
        sql`select id::text || code_hash || code_sealed || code_hint as text from vouchers where batch_id = ${id}`,
      )
    )
      .map((r) => r.text)
      .join('|');
    expect(stored.length).toBeGreaterThan(100_000 * 64);
    for (const code of codes.slice(0, 500)) expect(stored.includes(code)).toBe(false);
    // The list shows the batch with its states; a batch's vouchers page by state.
    const list = (await as('GET', '/vouchers/batches?limit=5', 'billing')).json().data;
    expect(list.pagination).toMatchObject({ page: 1, total: 2 });
    expect(list.items.find((i: { id: string }) => i.id === id)).toMatchObject({
      id,
      count: 100_000,
      generated: 100_000,
      status: 'ready',
      states: { unused: 100_000 },
      plan_name: 'Hotspot',
    });
    const page = (await as('GET', `/vouchers/batches/${id}/vouchers?state=unused&limit=10&page=3`, 'admin')).json()
      .data;
    expect(page.items).toHaveLength(10);
    expect(page.pagination).toMatchObject({ page: 3, total: 100_000, hasNext: true });
    expect(page.items[0].code_hint).toHaveLength(3);
  }, 240_000);

  it('a batch job run twice at once, or again after it finished, makes exactly the count; a batch revoked while being made stops and nothing of it works', async () => {
    const service = new VoucherService({ db: t.database.db, clock, box: t.app.secretBox });
    const res = await as('POST', '/vouchers/batches', 'admin', {
      plan_id: plan.id,
      price: 100,
      count: 2_600,
      validity_minutes: 60,
    });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().data.id as string;
    // The queued job and two more runs race; a fourth after all of them finds nothing to do.
    await Promise.all([
      service.generatePending(id),
      service.generatePending(id),
      t.app.jobs.idle([VOUCHER_BATCH_JOB], 60_000),
    ]);
    await service.generatePending(id);
    const [made] = await t.rows<{ n: number; generated: number }>(
      sql`select (select count(*)::int from vouchers where batch_id = ${id}) as n, generated from voucher_batches where id = ${id}`,
    );
    expect(made).toEqual({ n: 2_600, generated: 2_600 });
    expect((await as('GET', `/vouchers/batches/${id}`, 'billing')).json().data).toMatchObject({
      status: 'ready',
      generated: 2_600,
      states: { unused: 2_600 },
    });

    const big = await as('POST', '/vouchers/batches', 'admin', {
      plan_id: plan.id,
      price: 100,
      count: 50_000,
      validity_minutes: 60,
    });
    const bigId = big.json().data.id as string;
    await expect
      .poll(async () => (await as('GET', `/vouchers/batches/${bigId}`, 'billing')).json().data.generated, {
        timeout: 60_000,
        interval: 50,
      })
      .toBeGreaterThan(0);
    expect((await as('POST', `/vouchers/batches/${bigId}/revoke`, 'admin')).statusCode).toBe(200);
    await t.app.jobs.idle([VOUCHER_BATCH_JOB], 120_000);
    const after = (await as('GET', `/vouchers/batches/${bigId}`, 'billing')).json().data;
    expect(after).toMatchObject({ status: 'ready', revoked_at: expect.any(String), export_until: null });
    expect(after.generated).toBeLessThan(50_000);
    expect(after.states).toEqual({ revoked: after.generated });
    expect((await as('GET', `/vouchers/batches/${bigId}/codes.csv`, 'billing')).statusCode).toBe(409);
  }, 240_000);

  it('CSV export: the unused codes of a new batch, only during the export window', async () => {
    const b = await batch({ count: 3, validity_minutes: 30, data_allowance_mb: 500 });
    const csv = await as('GET', `/vouchers/batches/${b.id}/codes.csv`, 'billing');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('code,plan,validity_minutes,data_allowance_mb,price,currency');
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual([...b.codes].sort());
    expect(lines[1]).toMatch(/,Hotspot,30,500,500,[A-Z]{3}$/);
    clock.advanceMinutes(61);
    const late = await as('GET', `/vouchers/batches/${b.id}/codes.csv`, 'admin');
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/first 60 minutes/);
  });

  it('redemption race: 20 at once for one code, exactly one wins and starts the subscription; the others are told it was used', async () => {
    const b = await batch({ count: 1, validity_minutes: 7 * 24 * 60 });
    const code = b.codes[0]!;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => as('POST', '/vouchers/redeem', 'user', { code: code.toLowerCase() })),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    expect(answers.find((a) => a.statusCode === 409)!.json()).toMatchObject({
      success: false,
      message: 'This voucher has already been used',
    });
    const won = answers.find((a) => a.statusCode === 201)!.json().data;
    expect(won).toMatchObject({ plan_id: plan.id, extended: false });
    expect(new Date(won.period_end).getTime() - clock.now().getTime()).toBe(7 * 86_400_000);
    const subs = await t.rows<{ status: string; n: number }>(
      sql`select status, count(*)::int as n from subscriptions where plan_id = ${plan.id} group by status`,
    );
    expect(subs).toEqual([{ status: 'active', n: 1 }]);
    const [v] = await t.rows<{ state: string }>(sql`select state from vouchers where batch_id = ${b.id}`);
    expect(v!.state).toBe('used_up');
    // A second voucher of the plan extends the same subscription by its validity.
    const again = await batch({ count: 1, validity_minutes: 24 * 60 });
    const extended = await as('POST', '/vouchers/redeem', 'user', { code: again.codes[0] });
    expect(extended.statusCode).toBe(201);
    expect(extended.json().data).toMatchObject({ subscription_id: won.subscription_id, extended: true });
    expect(new Date(extended.json().data.period_end).getTime() - new Date(won.period_end).getTime()).toBe(86_400_000);
    // A redeemed code no longer logs in at the hotspot.
    const hotspot = await pap(code);
    expect(hotspot.code).toBe('Access-Reject');
    expect(hotspot.attributes['Reply-Message']).toBe(VOUCHER_REFUSED);
  }, 60_000);

  it('a typo is refused before any look-up (400), an unknown code is 404, and after the limit every attempt waits (429)', async () => {
    await t.createUser({ email: 'guesser@example.com' });
    const guesser = (await t.login('guesser@example.com')).token;
    const redeem = (code: string) =>
      t.app.inject({ method: 'POST', url: '/api/vouchers/redeem', headers: bearer(guesser), payload: { code } });
    const [real] = (await batch({ count: 1, validity_minutes: 60 })).codes;
    const typo = real!.slice(0, -2) + (real![real!.length - 2] === 'A' ? 'B' : 'A') + real!.slice(-1);
    const first = await redeem(typo);
    expect(first.statusCode).toBe(400);
    expect(first.json()).toMatchObject({
      success: false,
      message: 'This is not a valid voucher code: please check it and try again',
      errors: [{ field: 'code' }],
    });
    const payload = 'ABCDEFGHJ';
    const unknown = await redeem(payload + voucherCheckCharacter(payload));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Voucher code not found: please check it and try again');
    for (let i = 2; i < REDEEM_FAILURES; i++) expect((await redeem('WRONG')).statusCode).toBe(400);
    const blocked = await redeem(real!);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    clock.advanceMinutes(16);
    expect((await redeem(real!)).statusCode).toBe(201);
  });

  // ---- hotspot: radclient as the MikroTik hotspot ----
  // Each login from its own device (Calling-Station-Id), so the per-device limit on failures (tested in
  // hotspot-voucher-limit.test.ts) does not stand in for the reason each test means.
  let devicesSeen = 0;
  const mac = () =>
    `48:A9:8A:00:${String(Math.floor(++devicesSeen / 100)).padStart(2, '0')}:${String(devicesSeen % 100).padStart(2, '0')}`;
  const pap = (code: string, password = code) =>
    radclient(
      { port: ports.authPort, secret: SECRET, type: 'auth' },
      { 'User-Name': code, 'User-Password': password, 'Calling-Station-Id': mac() },
    );
  const chap = (code: string, password = code) =>
    radclient(
      { port: ports.authPort, secret: SECRET, type: 'auth' },
      { 'User-Name': code, 'CHAP-Password': password, 'Calling-Station-Id': mac() },
    );
  const account = (attributes: Record<string, string | number>) =>
    radclient({ port: ports.acctPort, secret: SECRET, type: 'acct' }, attributes);
  const rejectedWith = (a: RadclientAnswer, message: string) => {
    expect(a.code, a.output).toBe('Access-Reject');
    expect(a.attributes['Reply-Message']).toBe(message);
  };
  const state = async (code: string) =>
    (
      await t.rows<{ state: string; first_used_at: Date | null; expires_at: Date | null; used_bytes: string | number }>(
        sql`select state, first_used_at, expires_at, used_bytes from vouchers where code_hash = ${t.app.secretBox.mac('voucher-code', code)}`,
      )
    )[0]!;

  it('hotspot: a fresh voucher is accepted (PAP and CHAP) with the time left and the plan rate; the first login starts its clock', async () => {
    const b = await batch({ count: 2, validity_minutes: 60 });
    const [p, c] = b.codes as [string, string];
    const a = await pap(p);
    expect(a.code, a.output).toBe('Access-Accept');
    expect(a.attributes['Session-Timeout']).toBe('3600');
    expect(a.attributes['Mikrotik-Rate-Limit']).toBe('10M/50M');
    const s = await state(p);
    expect(s.state).toBe('active');
    expect(new Date(s.first_used_at!).toISOString()).toBe(clock.now().toISOString());
    expect(new Date(s.expires_at!).getTime() - clock.now().getTime()).toBe(3_600_000);
    const b2 = await chap(c);
    expect(b2.code, b2.output).toBe('Access-Accept');
    expect(b2.attributes['Session-Timeout']).toBe('3600');
    // Wrong password and unknown but well-formed code: the one voucher refusal (issue 32); a PPPoE-looking name that
    // is no one: PPPoE's.
    rejectedWith(await pap(p, 'not-the-code'), VOUCHER_REFUSED);
    rejectedWith(await chap(p, 'not-the-code'), VOUCHER_REFUSED);
    const payload = 'ZZZZZZZZZ';
    rejectedWith(await pap(payload + voucherCheckCharacter(payload)), VOUCHER_REFUSED);
    rejectedWith(await pap('nobody'), 'Login incorrect');

    // Active, 25 minutes later: accepted with the 35 minutes left, PAP and CHAP; then expired.
    clock.advanceMinutes(25);
    for (const login of [pap, chap]) {
      const again = await login(p);
      expect(again.code, again.output).toBe('Access-Accept');
      expect(again.attributes['Session-Timeout']).toBe(String(35 * 60));
    }
    clock.advanceMinutes(36);
    rejectedWith(await pap(p), VOUCHER_REFUSED);
    rejectedWith(await chap(p), VOUCHER_REFUSED);
    expect((await state(p)).state).toBe('expired');
  });

  it('hotspot: accounting counts a voucher session; once its data is used up it is rejected; revoked vouchers are rejected', async () => {
    const b = await batch({ count: 1, data_allowance_mb: 1 });
    const code = b.codes[0]!;
    const a = await chap(code);
    expect(a.code, a.output).toBe('Access-Accept');
    expect(a.attributes['Session-Timeout']).toBe('86400');
    const base = {
      'User-Name': code,
      'Acct-Session-Id': 'hs-1',
      'Framed-IP-Address': '10.5.50.2',
      'Calling-Station-Id': '48:A9:8A:00:00:99',
    };
    expect((await account({ ...base, 'Acct-Status-Type': 'Start' })).code).toBe('Accounting-Response');
    expect(
      (
        await account({
          ...base,
          'Acct-Status-Type': 'Interim-Update',
          'Acct-Session-Time': 60,
          'Acct-Input-Octets': 400_000,
          'Acct-Output-Octets': 300_000,
        })
      ).code,
    ).toBe('Accounting-Response');
    expect(Number((await state(code)).used_bytes)).toBe(700_000);
    expect((await pap(code)).code).toBe('Access-Accept');
    expect(
      (
        await account({
          ...base,
          'Acct-Status-Type': 'Stop',
          'Acct-Session-Time': 120,
          'Acct-Input-Octets': 600_000,
          'Acct-Output-Octets': 500_000,
        })
      ).code,
    ).toBe('Accounting-Response');
    expect(Number((await state(code)).used_bytes)).toBe(1_100_000);
    rejectedWith(await pap(code), VOUCHER_REFUSED);
    rejectedWith(await chap(code), VOUCHER_REFUSED);
    expect((await state(code)).state).toBe('used_up');

    // Revoked: one voucher, then a whole batch (an unused and an active one).
    const r = await batch({ count: 3, validity_minutes: 60 });
    const [one, unused, active] = r.codes as [string, string, string];
    expect((await pap(active)).code).toBe('Access-Accept');
    const [{ id }] = await t.rows<{ id: string }>(
      sql`select id from vouchers where code_hash = ${t.app.secretBox.mac('voucher-code', one)}`,
    );
    const revoked = await as('POST', `/vouchers/${id}/revoke`, 'billing');
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data.state).toBe('revoked');
    expect((await as('POST', `/vouchers/${id}/revoke`, 'billing')).statusCode).toBe(409);
    rejectedWith(await pap(one), VOUCHER_REFUSED);
    rejectedWith(await chap(one), VOUCHER_REFUSED);
    const whole = await as('POST', `/vouchers/batches/${r.id}/revoke`, 'admin');
    expect(whole.statusCode).toBe(200);
    expect(whole.json().data.states).toEqual({ revoked: 3 });
    for (const code2 of [unused, active]) {
      rejectedWith(await pap(code2), VOUCHER_REFUSED);
      rejectedWith(await chap(code2), VOUCHER_REFUSED);
    }
    const redeemRevoked = await as('POST', '/vouchers/redeem', 'user', { code: unused });
    expect(redeemRevoked.statusCode).toBe(409);
    expect(redeemRevoked.json().message).toBe('This voucher has been revoked');
    const audit = await t.rows<{ action: string }>(
      sql`select action from audit_events where action like 'voucher%' order by at`,
    );
    expect(audit.map((r2) => r2.action)).toEqual(
      expect.arrayContaining([
        'voucher_batch.created',
        'voucher_batch.exported',
        'voucher.redeemed',
        'voucher.revoked',
        'voucher_batch.revoked',
      ]),
    );
  });
});
