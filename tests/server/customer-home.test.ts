/**
 * The customer's home (issue 34): GET /me/home answers the signed-in customer's open order and its next step,
 * their line (plan, speed, online since and address from RADIUS accounting), this cycle's usage against the
 * plan's cap with the days left, the oldest unpaid invoice (with autopay's card when on), the credit balance and
 * the open tickets; nothing of another customer's; 401 signed out, 403 for staff.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BYTES_PER_GB } from '../../contract/schemas/usage';
import type { Db } from '../../server/db/client';
import { invoices, paymentMethods, subscriptions } from '../../server/db/schema';
import { devices } from '../../server/db/schema/devices';
import { radiusSessions } from '../../server/db/schema/radius';
import { ACCT_STATUS } from '../../server/integrations/radius/codec';
import { ManualClock } from '../../server/lib/clock';
import { AccountingStore, type AccountingRecord } from '../../server/modules/radius/accounting';
import { provisionCredentials } from '../../server/modules/radius/credentials';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

describe('GET /me/home', () => {
  let t: TestApp;
  let db: Db;
  const tokens: Record<string, string> = {};
  const call = (who: string | null) =>
    t.app.inject({ method: 'GET', url: '/api/me/home', headers: who ? bearer(tokens[who]) : {} });
  const as = (who: string, method: 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api${url}`, headers: bearer(tokens[who]), payload });

  let dana: { id: string };
  let eve: { id: string };
  let danaLine: string;
  let danaOrder: string;
  let orderInvoice: { id: string; number: string; total_amount: number };
  let renewal: { id: string; number: string; total_amount: number; due_date: string };
  let eveInvoice: { id: string; number: string };
  let eveLine: string;

  // What the NAS reported for Dana's open session this period (bytes).
  const ONLINE = { input: 2_000_000_000, output: 9_000_000_000 };

  beforeAll(async () => {
    t = await createTestApp();
    db = t.database.db as Db;
    for (const role of ['admin', 'support', 'billing', 'technician'] as const)
      await t.createUser({ email: `${role}@example.com`, role });
    dana = await t.createUser({ email: 'dana@example.com', name: 'Dana Doe' });
    eve = await t.createUser({ email: 'eve@example.com', name: 'Eve Other' });
    t.clock.set('2026-11-10T09:00:00Z');
    for (const who of ['admin', 'support', 'billing', 'technician', 'dana', 'eve'])
      tokens[who] = (await t.login(`${who}@example.com`)).token;

    const plan = async (name: string, down: number, up: number, cap: number | null) => {
      const r = await as('admin', 'POST', '/plans', {
        name,
        download_mbps: down,
        upload_mbps: up,
        price: 3000,
        setup_fee: 0,
        billing_cycle: 'monthly',
        data_cap_gb: cap,
      });
      expect(r.statusCode, r.body).toBe(201);
      return r.json().data.id as string;
    };
    const capped = await plan('Capped 50', 50, 10, 50);
    const fibre = await plan('Fibre 500', 500, 100, null);

    // A line that runs: its first invoice paid, in its November period, renewed (the renewal unpaid).
    const subscribe = async (userId: string, planId: string) => {
      const r = await as('admin', 'POST', '/subscriptions', { plan_id: planId, user_id: userId });
      expect(r.statusCode, r.body).toBe(201);
      return r.json().data as {
        subscription: { id: string };
        invoice: { id: string; number: string; total_amount: number };
      };
    };
    const activate = async (sub: { subscription: { id: string }; invoice: { id: string } }) => {
      await db
        .update(invoices)
        .set({ status: 'paid', paidDate: new Date('2026-11-01T12:00:00Z') })
        .where(eq(invoices.id, sub.invoice.id));
      await db
        .update(subscriptions)
        .set({
          status: 'active',
          currentPeriodStart: new Date('2026-11-01T12:00:00Z'),
          currentPeriodEnd: new Date('2026-12-01T12:00:00Z'),
        })
        .where(eq(subscriptions.id, sub.subscription.id));
    };
    const line = await subscribe(dana.id, capped);
    await activate(line);
    danaLine = line.subscription.id;
    const renewed = await as('admin', 'PATCH', `/subscriptions/${danaLine}/renew`);
    expect(renewed.statusCode, renewed.body).toBeLessThan(300);
    const [open] = await db
      .select()
      .from(invoices)
      .where(eq(invoices.subscriptionId, danaLine))
      .then((rows) => rows.filter((i) => i.status === 'unpaid'));
    renewal = { id: open.id, number: open.number, total_amount: open.totalAmount, due_date: open.dueDate };

    // Dana's order for a second line: pending, its first invoice unpaid, the installation visit scheduled.
    const order = await subscribe(dana.id, fibre);
    danaOrder = order.subscription.id;
    orderInvoice = order.invoice;
    const visit = await as('admin', 'POST', '/installations', {
      subscription_id: danaOrder,
      address: '1 Main St',
      scheduled_start: '2026-11-12T09:00:00.000Z',
      scheduled_end: '2026-11-12T11:00:00.000Z',
    });
    expect(visit.statusCode, visit.body).toBe(201);

    // Dana is online: a session opened on 9 November with an Interim-Update.
    const username = (
      await db.transaction(async (tx) => provisionCredentials(tx as unknown as Db, danaLine, t.app.secretBox))
    ).username;
    const [nas] = await db.insert(devices).values({ name: 'nas-1', host: '127.0.0.1' }).returning();
    const clock = new ManualClock(new Date('2026-11-09T08:00:00Z'));
    const store = new AccountingStore({
      db,
      clock,
      interimInterval: 300,
      subscriptionOf: async (u) => (u === username ? danaLine : null),
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
    await send('2026-11-09T08:00:00Z', { statusType: ACCT_STATUS.START, acctSessionId: 'S1', framedIp: '100.64.0.9' });
    await send('2026-11-09T20:00:00Z', {
      statusType: ACCT_STATUS.INTERIM,
      acctSessionId: 'S1',
      inputOctets: ONLINE.input,
      outputOctets: ONLINE.output,
      sessionTime: 43_200,
    });

    // Credit from billing staff, and a ticket (plus a resolved one, which is not open).
    expect(
      (await as('billing', 'POST', `/users/${dana.id}/credit`, { amount: 750, reason: 'Goodwill' })).statusCode,
    ).toBe(201);
    expect(
      (await as('dana', 'POST', '/tickets', { subject: 'Slow in the evening', description: 'Speed drops after 8 pm.' }))
        .statusCode,
    ).toBe(201);

    // Eve: her own line, unpaid invoice and ticket, which Dana must never see.
    const eveSub = await subscribe(eve.id, capped);
    eveLine = eveSub.subscription.id;
    eveInvoice = eveSub.invoice;
    await db
      .update(subscriptions)
      .set({
        status: 'active',
        currentPeriodStart: new Date('2026-11-01T12:00:00Z'),
        currentPeriodEnd: new Date('2026-12-01T12:00:00Z'),
      })
      .where(eq(subscriptions.id, eveLine));
    expect(
      (await as('eve', 'POST', '/tickets', { subject: 'Eve’s router', description: 'Blinking red.' })).statusCode,
    ).toBe(201);
    expect(
      (await as('billing', 'POST', `/users/${eve.id}/credit`, { amount: 9_999, reason: 'Eve only' })).statusCode,
    ).toBe(201);

    t.clock.set('2026-11-10T09:00:00Z');
  });
  afterAll(() => t.close());

  it('a customer with an order, a line online and an unpaid renewal gets each figure', async () => {
    const res = await call('dana');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const home = res.json().data;
    expect(home.name).toBe('Dana Doe');

    // 1. The order: waiting for the payment of its invoice; the visit is booked.
    expect(home.order).toEqual({
      subscription_id: danaOrder,
      plan_name: 'Fibre 500',
      next_step: 'payment',
      invoice: expect.objectContaining({
        id: orderInvoice.id,
        number: orderInvoice.number,
        amount_due: orderInvoice.total_amount,
        status: 'unpaid',
      }),
      installation: { status: 'requested', scheduled_start: '2026-11-12T09:00:00.000Z' },
    });

    // 2. The line, online since the session's start with its address.
    expect(home.service).toEqual({
      subscription_id: danaLine,
      plan_name: 'Capped 50',
      status: 'active',
      suspension_reason: null,
      download_mbps: 50,
      upload_mbps: 10,
      online: { since: '2026-11-09T08:00:00.000Z', ip: '100.64.0.9' },
      last_seen: null,
    });

    // 3. This cycle: both directions against the 50 GB cap; 21 whole days before 1 December 12:00.
    const used = ONLINE.input + ONLINE.output;
    expect(home.usage).toEqual({
      period_start: '2026-11-01',
      period_end: '2026-12-01',
      days_left: 21,
      used_bytes: used,
      cap_bytes: 50 * BYTES_PER_GB,
      percent: 22,
      // Fair use (issue 36): the cap alone is one threshold, the hard stop, with full speed until it.
      fair_use: {
        tier: 0,
        cycle_bytes: used,
        rate: { download_kbps: 50_000, upload_kbps: 10_000 },
        next: { after_bytes: 50 * BYTES_PER_GB, stop: true, rate: null },
        extra_bytes: 0,
        full_speed: false,
        top_ups: [],
      },
    });

    // 4. The next bill is the line's renewal (the order's own invoice is the order's step), autopay off.
    expect(renewal.number).not.toBe(orderInvoice.number);
    expect(home.bill).toEqual({
      invoice: {
        id: renewal.id,
        number: renewal.number,
        status: 'unpaid',
        amount_due: renewal.total_amount,
        currency: 'USD',
        due_date: renewal.due_date,
        subscription_id: danaLine,
      },
      more_unpaid: 0,
      autopay_card: null,
    });

    // 5. Credit; 6. the one open ticket.
    expect(home.credit).toEqual([{ currency: 'USD', amount: 750 }]);
    expect(home.tickets.open).toBe(1);
    expect(home.tickets.latest).toEqual([expect.objectContaining({ subject: 'Slow in the evening', status: 'open' })]);
  });

  it('never carries another customer’s data', async () => {
    const body = (await call('dana')).body;
    for (const theirs of [eveLine, eveInvoice.id, eveInvoice.number, 'Eve’s router', '9999', eve.id])
      expect(body).not.toContain(theirs);
    const evesHome = (await call('eve')).json().data;
    expect(evesHome.order).toBeNull();
    expect(evesHome.service).toMatchObject({ subscription_id: eveLine, online: null, last_seen: null });
    expect(evesHome.bill.invoice).toMatchObject({ id: eveInvoice.id });
    expect(JSON.stringify(evesHome)).not.toContain(danaLine);
    expect(JSON.stringify(evesHome)).not.toContain('Slow in the evening');
  });

  it('autopay on: the bill names the card it will be charged to', async () => {
    const [card] = await db
      .insert(paymentMethods)
      .values({
        userId: dana.id,
        provider: 'sandbox',
        providerCustomerId: 'cus_1',
        providerMethodId: 'pm_1',
        brand: 'visa',
        last4: '4242',
        expMonth: 12,
        expYear: 2030,
      })
      .returning();
    await db.update(subscriptions).set({ autopayMethodId: card.id }).where(eq(subscriptions.id, danaLine));
    try {
      expect((await call('dana')).json().data.bill.autopay_card).toEqual({ brand: 'visa', last4: '4242' });
    } finally {
      await db.update(subscriptions).set({ autopayMethodId: null }).where(eq(subscriptions.id, danaLine));
    }
  });

  it('offline: the line shows when it was last seen', async () => {
    await db.insert(radiusSessions).values({
      acctSessionId: 'E1',
      nasIp: '127.0.0.1',
      username: 'eve-login',
      subscriptionId: eveLine,
      framedIp: '100.64.0.20',
      startedAt: new Date('2026-11-08T07:00:00Z'),
      updatedAt: new Date('2026-11-08T18:30:00Z'),
      stoppedAt: new Date('2026-11-08T18:30:00Z'),
      status: 'closed',
    });
    expect((await call('eve')).json().data.service).toMatchObject({
      online: null,
      last_seen: '2026-11-08T18:30:00.000Z',
    });
  });

  it('a customer without anything gets empty answers', async () => {
    const fresh = await t.createUser({ email: 'new@example.com', name: 'New Person' });
    tokens.fresh = (await t.login('new@example.com')).token;
    const home = (await call('fresh')).json().data;
    expect(home).toEqual({
      name: 'New Person',
      order: null,
      service: null,
      usage: null,
      bill: { invoice: null, more_unpaid: 0, autopay_card: null },
      credit: [],
      incidents: [],
      tickets: { open: 0, latest: [] },
    });
    expect(fresh.id).toBeTruthy();
  });

  it('signed out: 401; staff: 403 (their dashboard is elsewhere)', async () => {
    expect((await call(null)).statusCode).toBe(401);
    for (const staff of ['admin', 'support', 'billing', 'technician']) {
      const res = await call(staff);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ success: false });
    }
  });
});
