/**
 * Issue 39: an ISP on phpnuxbill moves to the portal. Its MariaDB database (tests/server/fixtures/phpnuxbill-source.ts)
 * is imported dry, for real and again; then the router is pointed at the portal (a RADIUS secret, as the migration
 * guide says), and budi's PPPoE login works with his old password at his plan's rate, his payments are his invoices
 * and his usage is on his page.
 */
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  devices,
  importMappings,
  invoices,
  payments,
  plans,
  subscriptions,
  users,
  vouchers,
} from '../../server/db/schema';
import { serviceCredentials } from '../../server/db/schema/radius';
import type { ImportReport } from '../../server/import/run';
import { ManualClock } from '../../server/lib/clock';
import { createPhpnuxbillDatabase, PHPNUXBILL_NOW } from './fixtures/phpnuxbill-source';
import { useImportPortal } from '../helpers/import-portal';
import { bearer, type TestApp } from '../helpers/server';

describe('import from phpnuxbill', () => {
  const clock = new ManualClock(PHPNUXBILL_NOW);
  const portal = useImportPortal(clock, 'phpnuxbill', createPhpnuxbillDatabase);
  let t: TestApp;
  let admin: string;
  let first: ImportReport;

  beforeAll(async () => {
    t = portal.app();
    admin = portal.admin();
    const currency = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: bearer(admin),
      payload: { currency: 'IDR' },
    });
    expect(currency.statusCode, currency.body).toBe(200);
  });
  const { db, run, count } = portal;
  const tally = async () => ({
    users: await count(users),
    plans: await count(plans),
    subscriptions: await count(subscriptions),
    invoices: await count(invoices),
    payments: await count(payments),
    vouchers: await count(vouchers),
    devices: await count(devices),
  });

  it('a dry run says what would come in and what not, and writes nothing', async () => {
    const before = await tally();
    const dry = await run(true);
    expect(dry.counts.customer.created).toBe(4);
    expect(dry.counts.plan.created).toBe(3); // not the Balance "plan"
    expect(dry.counts.subscription.created).toBe(4); // budi, siti, andi, rina (expired)
    expect(dry.counts.invoice).toMatchObject({ created: 4, skipped: 1 }); // joko is gone
    // Its unused cards come in (their codes as they are); HEMAT#10 could not be typed here, and the used card is skipped.
    expect(dry.counts.voucher).toMatchObject({ created: 3, skipped: 2 });
    const text = dry.findings.map((f) => `${f.level} ${f.kind} ${f.key}: ${f.reason}`).join('\n');
    expect(text).toMatch(/skipped plan 3: .*Balance/);
    expect(text).toMatch(/skipped invoice 4: INV-0004: its customer joko no longer exists/);
    expect(text).toMatch(/skipped voucher 4: The code HEMAT#10 is not one this portal can take/);
    expect(text).not.toMatch(/abc123xyz|kartu2024/);
    expect(text).toMatch(/no RADIUS secret in the source/);
    expect(text).toMatch(/balance of 15000/);
    expect(await tally()).toEqual(before);
  });

  it('the import brings the ISP in; a second run changes nothing', async () => {
    first = await run(false);
    expect(first.counts.customer.created).toBe(4);
    expect(first.counts.subscription.created).toBe(4);
    const afterFirst = await tally();
    const again = await run(false);
    for (const kind of ['device', 'plan', 'pool', 'customer', 'subscription', 'invoice', 'voucher', 'usage'] as const)
      expect(again.counts[kind].created, kind).toBe(0);
    expect(again.counts.customer.existing).toBe(4);
    expect(await tally()).toEqual(afterFirst);

    const [budi] = await db().select().from(users).where(eq(users.email, 'budi@example.co.id'));
    expect(budi).toMatchObject({ name: 'Budi Santoso', phone: '081234567890', status: 'active' });
    const [andi] = await db().select().from(users).where(eq(users.email, 'andi@example.co.id'));
    expect(andi!.status).toBe('suspended');
    const [home] = await db().select().from(plans).where(eq(plans.name, 'Home 20M'));
    expect(home).toMatchObject({
      downloadMbps: 20,
      uploadMbps: 10,
      price: 25_000_000,
      currency: 'IDR',
      status: 'inactive',
    });
    // His two payments are paid invoices of his, with the old invoice numbers as their references.
    const paid = await db()
      .select({ total: invoices.totalAmount, status: invoices.status, reference: payments.reference })
      .from(invoices)
      .innerJoin(payments, eq(payments.invoiceId, invoices.id))
      .where(eq(invoices.userId, budi!.id));
    expect(paid.map((p) => p.reference).sort()).toEqual(['INV-0001', 'INV-0002']);
    expect(paid.every((p) => p.status === 'paid' && p.total === 25_000_000)).toBe(true);
    const [budiSub] = await db()
      .select({ end: subscriptions.currentPeriodEnd, status: subscriptions.status })
      .from(subscriptions)
      .innerJoin(serviceCredentials, eq(serviceCredentials.subscriptionId, subscriptions.id))
      .where(eq(serviceCredentials.username, 'budi'));
    expect(budiSub).toMatchObject({ status: 'active', end: new Date('2026-12-01T10:00:00Z') });
  });

  it("after the router is pointed at the portal, budi's PPPoE login works at his plan's rate", async () => {
    // The guide's cut-over: the router gets a RADIUS secret (phpnuxbill had none: it used the RouterOS API).
    const [mapped] = await db()
      .select({ id: importMappings.targetId })
      .from(importMappings)
      .where(
        sql`${importMappings.source} = 'phpnuxbill' and ${importMappings.kind} = 'device' and ${importMappings.sourceKey} = '1'`,
      );
    const patched = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${mapped!.id}`,
      headers: bearer(admin),
      payload: { host: '127.0.0.1', radius_secret: 'nux-radius-secret' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    await t.app.radius.clients.reload();
    const login = (username: string, password: string) => portal.accessRequest('nux-radius-secret', username, password);
    const budi = await login('budi', 'rahasia123');
    expect(budi.code, budi.output).toBe('Access-Accept');
    expect(budi.attributes['Mikrotik-Rate-Limit']).toBe('10M/20M'); // phpnuxbill's queue: upload/download
    expect(budi.attributes['Framed-Pool']).toBe('pool-home');
    expect((await login('budi', 'budi-portal')).code).toBe('Access-Reject'); // the portal password is not the PPPoE one
    expect((await login('rina', 'rina-pass')).code).toBe('Access-Reject'); // expired in phpnuxbill
  });

  it('a card sold in phpnuxbill still works: at the hotspot as it was printed, and in the redeem form', async () => {
    const login = (username: string, password: string) => portal.accessRequest('nux-radius-secret', username, password);
    const wrong = await login('abc123xyz', 'ABC123XYZ');
    expect(wrong.code, wrong.output).toBe('Access-Reject'); // the hotspot checks the code as phpnuxbill did
    const card = await login('abc123xyz', 'abc123xyz');
    expect(card.code, card.output).toBe('Access-Accept');
    expect(card.attributes['Session-Timeout']).toBe('86400'); // "Hotspot 1 Hari": a day from the first login

    const budi = (await t.login('budi@example.co.id', 'budi-portal')).token;
    const redeem = (code: string) =>
      t.app.inject({ method: 'POST', url: '/api/vouchers/redeem', headers: bearer(budi), payload: { code } });
    // A code that is not there is looked up (a miss, counted as a guess), not refused as mistyped.
    const miss = await redeem('zzzz9999');
    expect(miss.statusCode, miss.body).toBe(404);
    const redeemed = await redeem('Kartu-2024');
    expect(redeemed.statusCode, redeemed.body).toBe(201);
    const again = await redeem('kartu2024');
    expect(again.statusCode, again.body).toBe(409);
    const states = await db().select({ state: vouchers.state }).from(vouchers);
    expect(states.map((v) => v.state).sort()).toEqual(['active', 'unused', 'used_up']);
  });

  it("budi's usage history is on his page", async () => {
    const [budi] = await db().select().from(users).where(eq(users.email, 'budi@example.co.id'));
    const usage = await t.app.inject({ method: 'GET', url: `/api/usage?user_id=${budi!.id}`, headers: bearer(admin) });
    expect(usage.statusCode, usage.body).toBe(200);
    const days = (usage.json().data as { days: { date: string; download: number; upload: number }[] }).days;
    expect(days.find((d) => d.date === '2026-11-29')).toMatchObject({ download: 52_000_000, upload: 1_500_000 });
  });
});
