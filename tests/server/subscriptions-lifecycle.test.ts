import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../contract/schemas/subscription';
import type { Role } from '../../contract/roles';
import type { PublicUser } from '../../contract/schemas/user';
import type { Db } from '../../server/db/client';
import { ManualClock } from '../../server/lib/clock';
import {
  activateForPaidInvoice,
  addBillingCycle,
  canTransition,
  proRataCredit,
} from '../../server/modules/subscriptions/service';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

type Who = Role | 'other';
const tokens: Partial<Record<Who, string>> = {};
const people: Partial<Record<Who, PublicUser>> = {};
const START = '2026-01-10T00:00:00.000Z';

describe('subscription lifecycle', () => {
  let t: TestApp;
  const clock = new ManualClock(START);
  let basic: { id: string };
  let premium: { id: string };
  let inactive: { id: string };

  beforeAll(async () => {
    // Tokens outlive the clock moves of these tests (months of billing periods).
    t = await createTestApp({ clock, config: { accessTokenTtlSeconds: 5 * 365 * 86_400 } });
    for (const role of ['admin', 'billing', 'support', 'technician', 'user', 'super_admin'] as Role[]) {
      people[role] = await t.createUser({ email: `${role}@example.com`, role, name: `${role} person` });
      tokens[role] = (await t.login(`${role}@example.com`)).token;
    }
    people.other = await t.createUser({ email: 'other@example.com', role: 'user', name: 'Olga Other' });
    tokens.other = (await t.login('other@example.com')).token;
    await call('PUT', '/settings', 'admin', { tax_rate_bp: 1000 });
    const plan = async (body: object) =>
      (
        await call('POST', '/plans', 'admin', { download_mbps: 10, upload_mbps: 5, billing_cycle: 'monthly', ...body })
      ).json().data;
    basic = await plan({ name: 'Basic', price: 3000 });
    premium = await plan({ name: 'Premium', price: 6000 });
    inactive = await plan({ name: 'Gone', price: 100, status: 'inactive' });
  });
  afterAll(() => t.close());

  function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, who?: Who, payload?: unknown) {
    return t.app.inject({
      method,
      url: `/api${url}`,
      headers: who ? bearer(tokens[who]!) : {},
      payload: payload as object,
    });
  }
  const db = () => t.database.db;
  let customers = 0;
  /**
   * An order by `who`. For 'user' (the default) a new customer orders and becomes 'user' from then on: a customer
   * may have only one open order at a time (issue 31), and the tests here leave theirs in every state.
   */
  async function subscribe(who: Who = 'user', planId = basic.id) {
    if (who === 'user') {
      const email = `user${++customers}@example.com`;
      people.user = await t.createUser({ email, role: 'user', name: 'user person' });
      tokens.user = (await t.login(email)).token;
    }
    const res = await call('POST', '/subscriptions', who, { plan_id: planId });
    expect(res.statusCode).toBe(201);
    return res.json().data as { subscription: { id: string }; invoice: { id: string } };
  }
  /** What the payments work does: mark the invoice paid and activate, in one transaction. */
  async function pay(invoiceId: string) {
    return db().transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      await tx.execute(
        sql`update invoices set status = 'paid', paid_date = ${clock.now().toISOString()} where id = ${invoiceId}`,
      );
      return activateForPaidInvoice(tx, invoiceId, clock.now());
    });
  }
  async function activeSubscription(who: Who = 'user', planId = basic.id) {
    const { subscription, invoice } = await subscribe(who, planId);
    await pay(invoice.id);
    return subscription.id;
  }
  const get = async (id: string) => (await call('GET', `/subscriptions/${id}`, 'admin')).json().data;
  const setStatus = async (id: string, status: SubscriptionStatus) =>
    db().execute(sql`update subscriptions set status = ${status} where id = ${id}`);
  const invoiceStatus = async (id: string) =>
    (
      (await db().execute(sql`select status from invoices where id = ${id}`)) as unknown as {
        rows: Array<{ status: string }>;
      }
    ).rows[0].status;

  it('the table allows exactly the listed transitions for staff; expired only by the job, pending → active only by payment', () => {
    const staff = SUBSCRIPTION_STATUSES.flatMap((from) =>
      SUBSCRIPTION_STATUSES.filter((to) => canTransition(from, to, 'staff')).map((to) => `${from}>${to}`),
    );
    expect(staff.sort()).toEqual([
      'active>cancelled',
      'active>suspended',
      'pending>cancelled',
      'suspended>active',
      'suspended>cancelled',
    ]);
    expect(canTransition('pending', 'active', 'payment')).toBe(true);
    expect(canTransition('suspended', 'active', 'payment')).toBe(true);
    expect(canTransition('cancelled', 'active', 'payment')).toBe(false);
    for (const from of ['cancelled', 'active', 'suspended'] as const)
      expect(canTransition(from, 'expired', 'job')).toBe(true);
    expect(canTransition('pending', 'expired', 'job')).toBe(false);
    for (const via of ['staff', 'cancel', 'payment'] as const)
      for (const from of SUBSCRIPTION_STATUSES) expect(canTransition(from, 'expired', via)).toBe(false);
  });

  it('billing cycles add calendar months (day clamped); pro-rata credit counts whole unused days, rounded half up', () => {
    expect(addBillingCycle(new Date('2026-01-31T08:00:00Z'), 'monthly').toISOString()).toBe('2026-02-28T08:00:00.000Z');
    expect(addBillingCycle(new Date('2026-01-10T00:00:00Z'), 'quarterly').toISOString()).toBe(
      '2026-04-10T00:00:00.000Z',
    );
    expect(addBillingCycle(new Date('2026-03-15T00:00:00Z'), 'half_yearly').toISOString()).toBe(
      '2026-09-15T00:00:00.000Z',
    );
    expect(addBillingCycle(new Date('2024-02-29T00:00:00Z'), 'yearly').toISOString()).toBe('2025-02-28T00:00:00.000Z');
    const s = new Date('2026-01-10T00:00:00Z');
    const e = new Date('2026-02-10T00:00:00Z'); // 31 days
    expect(proRataCredit(3000, s, e, new Date('2026-01-20T12:00:00Z'))).toBe(1935); // 20 whole days: 3000×20/31 = 1935.48
    expect(proRataCredit(3100, s, e, new Date('2026-01-10T00:00:00Z'))).toBe(3100); // nothing used
    expect(proRataCredit(3000, s, e, new Date('2026-02-09T23:00:00Z'))).toBe(0); // less than a day left
    expect(proRataCredit(3000, s, e, new Date('2026-03-01T00:00:00Z'))).toBe(0); // past the end
    expect(proRataCredit(62, s, e, new Date('2026-01-25T00:00:00Z'))).toBe(32); // 62×16/31 = 32 exactly
    expect(proRataCredit(1, s, e, new Date('2026-01-25T00:00:00Z'))).toBe(1); // 0.516 → 1 (half up)
  });

  it('paying the first invoice activates: period = paid date + billing cycle; calling again changes nothing; an unpaid invoice is refused', async () => {
    clock.set(START);
    const { subscription, invoice } = await subscribe();
    await expect(
      db().transaction(async (tx) => activateForPaidInvoice(tx as unknown as Db, invoice.id, clock.now())),
    ).rejects.toMatchObject({ statusCode: 409 });
    clock.set('2026-01-11T09:30:00.000Z');
    await pay(invoice.id);
    const after = await get(subscription.id);
    expect(after).toMatchObject({
      status: 'active',
      current_period_start: '2026-01-11T09:30:00.000Z',
      current_period_end: '2026-02-11T09:30:00.000Z',
    });
    clock.advanceDays(3);
    await db().transaction(async (tx) => activateForPaidInvoice(tx as unknown as Db, invoice.id, clock.now()));
    expect(await get(subscription.id)).toMatchObject({
      status: 'active',
      current_period_start: '2026-01-11T09:30:00.000Z',
      updated_at: after.updated_at,
    });
    clock.set(START);
  });

  it('PATCH status: admin, billing, support, super_admin suspend (reason required) and reactivate; the owner, technician 403; visitor 401', async () => {
    const id = await activeSubscription();
    expect(
      (await call('PATCH', `/subscriptions/${id}/status`, 'user', { status: 'suspended', suspension_reason: 'x' }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await call('PATCH', `/subscriptions/${id}/status`, 'technician', {
          status: 'suspended',
          suspension_reason: 'x',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await call('PATCH', `/subscriptions/${id}/status`, undefined, { status: 'suspended', suspension_reason: 'x' }))
        .statusCode,
    ).toBe(401);
    const noReason = await call('PATCH', `/subscriptions/${id}/status`, 'admin', { status: 'suspended' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe('A suspension reason is required');
    expect((await call('PATCH', `/subscriptions/${id}/status`, 'admin', { status: 'bogus' })).statusCode).toBe(400);
    for (const who of ['admin', 'billing', 'support', 'super_admin'] as const) {
      const s = await call('PATCH', `/subscriptions/${id}/status`, who, {
        status: 'suspended',
        suspension_reason: `Overdue (${who})`,
      });
      expect(s.statusCode).toBe(200);
      expect(s.json()).toMatchObject({
        success: true,
        message: 'Subscription suspended successfully!',
        data: { status: 'suspended', suspension_reason: `Overdue (${who})` },
      });
      const a = await call('PATCH', `/subscriptions/${id}/status`, who, { status: 'active' });
      expect(a.statusCode).toBe(200);
      expect(a.json()).toMatchObject({
        message: 'Subscription active successfully!',
        data: { status: 'active', suspension_reason: null },
      });
    }
    expect(
      (await call('PATCH', '/subscriptions/00000000-0000-4000-8000-000000000000/status', 'admin', { status: 'active' }))
        .statusCode,
    ).toBe(404);
    const c = await call('PATCH', `/subscriptions/${id}/status`, 'billing', {
      status: 'cancelled',
      suspension_reason: 'Moved away',
    });
    expect(c.json()).toMatchObject({
      message: 'Subscription cancelled successfully!',
      data: { status: 'cancelled', suspension_reason: 'Moved away' },
    });
  });

  it('every forbidden transition through PATCH status answers 409 naming both states and changes nothing', async () => {
    const allowed = new Set([
      'active>cancelled',
      'active>suspended',
      'pending>cancelled',
      'suspended>active',
      'suspended>cancelled',
    ]);
    const { subscription } = await subscribe();
    const id = subscription.id;
    let checked = 0;
    for (const from of SUBSCRIPTION_STATUSES) {
      for (const to of SUBSCRIPTION_STATUSES) {
        if (allowed.has(`${from}>${to}`)) continue;
        await setStatus(id, from);
        const res = await call('PATCH', `/subscriptions/${id}/status`, 'admin', {
          status: to,
          suspension_reason: 'because',
        });
        expect(res.statusCode, `${from} → ${to}`).toBe(409);
        expect(res.json()).toEqual({ success: false, message: `Cannot change a subscription from ${from} to ${to}` });
        expect((await get(id)).status).toBe(from);
        checked++;
      }
    }
    expect(checked).toBe(20);
  });

  it('cancel: the owner at period end (period kept), staff immediately (period ends now); other customers 404, technician 403, twice → 409', async () => {
    clock.set(START);
    const id = await activeSubscription();
    clock.advanceDays(5);
    expect((await call('POST', `/subscriptions/${id}/cancel`, 'other', {})).statusCode).toBe(404);
    expect((await call('POST', `/subscriptions/${id}/cancel`, 'technician', {})).statusCode).toBe(403);
    expect((await call('POST', `/subscriptions/${id}/cancel`, undefined, {})).statusCode).toBe(401);
    const res = await call('POST', `/subscriptions/${id}/cancel`, 'user', {
      suspension_reason: 'Moving',
      immediate: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Subscription cancelled successfully!',
      data: { status: 'cancelled', suspension_reason: 'Moving', current_period_end: '2026-02-10T00:00:00.000Z' },
    });
    const again = await call('POST', `/subscriptions/${id}/cancel`, 'user', {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Cannot change a subscription from cancelled to cancelled');

    for (const who of ['admin', 'billing', 'support', 'super_admin'] as const) {
      clock.set(START);
      const other = await activeSubscription();
      clock.advanceDays(2);
      const now = await call('POST', `/subscriptions/${other}/cancel`, who, { immediate: true });
      expect(now.statusCode).toBe(200);
      expect(now.json().data).toMatchObject({ status: 'cancelled', current_period_end: '2026-01-12T00:00:00.000Z' });
    }
    clock.set(START);
  });

  it('cancelling a pending subscription cancels its unpaid first invoice; expired cannot be cancelled', async () => {
    const { subscription, invoice } = await subscribe();
    const res = await call('POST', `/subscriptions/${subscription.id}/cancel`, 'user');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('cancelled');
    expect(await invoiceStatus(invoice.id)).toBe('cancelled');
    const { subscription: s2 } = await subscribe();
    await setStatus(s2.id, 'expired');
    const r2 = await call('POST', `/subscriptions/${s2.id}/cancel`, 'admin', { immediate: true });
    expect(r2.statusCode).toBe(409);
    expect(r2.json().message).toBe('Cannot change a subscription from expired to cancelled');
  });

  it("renew issues the next period's invoice once; a second renew → 409; paying it moves the period; then the following period can be renewed", async () => {
    clock.set(START);
    const id = await activeSubscription();
    expect((await call('PATCH', `/subscriptions/${id}/renew`, 'other')).statusCode).toBe(404);
    expect((await call('PATCH', `/subscriptions/${id}/renew`, 'technician')).statusCode).toBe(403);
    expect((await call('PATCH', `/subscriptions/${id}/renew`)).statusCode).toBe(401);
    clock.advanceDays(25);
    const res = await call('PATCH', `/subscriptions/${id}/renew`, 'user');
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Subscription renewed successfully!');
    const { invoice, subscription } = res.json().data;
    expect(subscription.current_period_end).toBe('2026-02-10T00:00:00.000Z');
    expect(invoice).toMatchObject({
      status: 'unpaid',
      subtotal: 3000,
      tax: 300,
      total_amount: 3300,
      issue_date: '2026-02-04',
      line_items: [
        {
          description: 'Basic (monthly) 2026-02-10 – 2026-03-10',
          amount: 3000,
          kind: 'renewal',
          period_start: '2026-02-10T00:00:00.000Z',
          period_end: '2026-03-10T00:00:00.000Z',
        },
      ],
    });
    for (const who of ['user', 'admin', 'billing', 'support'] as const) {
      const dup = await call('PATCH', `/subscriptions/${id}/renew`, who);
      expect(dup.statusCode).toBe(409);
      expect(dup.json().message).toBe('An unpaid renewal invoice for the next period already exists');
    }
    const concurrent = await Promise.all(
      [1, 2, 3, 4, 5].map(() => call('PATCH', `/subscriptions/${id}/renew`, 'user')),
    );
    expect(concurrent.every((r) => r.statusCode === 409)).toBe(true);
    await pay(invoice.id);
    expect(await get(id)).toMatchObject({
      status: 'active',
      current_period_start: '2026-02-10T00:00:00.000Z',
      current_period_end: '2026-03-10T00:00:00.000Z',
    });
    const next = await call('PATCH', `/subscriptions/${id}/renew`, 'billing');
    expect(next.statusCode).toBe(200);
    expect(next.json().data.invoice.line_items[0]).toMatchObject({
      period_start: '2026-03-10T00:00:00.000Z',
      period_end: '2026-04-10T00:00:00.000Z',
    });
    clock.set(START);
  });

  it('concurrent renewals of one period issue exactly one invoice', async () => {
    const id = await activeSubscription();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => call('PATCH', `/subscriptions/${id}/renew`, 'user')),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(7);
  });

  it('a suspended subscription can be renewed and paying reactivates it; pending, cancelled and expired cannot be renewed', async () => {
    const id = await activeSubscription();
    await call('PATCH', `/subscriptions/${id}/status`, 'admin', { status: 'suspended', suspension_reason: 'Overdue' });
    const res = await call('PATCH', `/subscriptions/${id}/renew`, 'user');
    expect(res.statusCode).toBe(200);
    await pay(res.json().data.invoice.id);
    expect(await get(id)).toMatchObject({
      status: 'active',
      suspension_reason: null,
      current_period_start: '2026-02-10T00:00:00.000Z',
    });
    const { subscription } = await subscribe();
    for (const status of ['pending', 'cancelled', 'expired'] as const) {
      await setStatus(subscription.id, status);
      const r = await call('PATCH', `/subscriptions/${subscription.id}/renew`, 'admin');
      expect(r.statusCode).toBe(409);
      expect(r.json().message).toBe('Only an active or suspended subscription can be renewed');
    }
  });

  it('upgrade on a fixed clock: plan changes now, the invoice credits the unused days of the old plan pro rata', async () => {
    clock.set(START);
    const id = await activeSubscription(); // 2026-01-10 → 2026-02-10, 31 days, Basic 3000
    const renewal = (await call('PATCH', `/subscriptions/${id}/renew`, 'user')).json().data.invoice;
    clock.set('2026-01-20T12:00:00.000Z'); // 20 whole days unused
    expect((await call('PATCH', `/subscriptions/${id}/upgrade`, 'other', { plan_id: premium.id })).statusCode).toBe(
      404,
    );
    expect(
      (await call('PATCH', `/subscriptions/${id}/upgrade`, 'technician', { plan_id: premium.id })).statusCode,
    ).toBe(403);
    expect((await call('PATCH', `/subscriptions/${id}/upgrade`, 'user', { plan_id: 'nope' })).statusCode).toBe(400);
    expect((await call('PATCH', `/subscriptions/${id}/upgrade`, 'user', { plan_id: basic.id })).json()).toMatchObject({
      message: 'The subscription is already on this plan',
    });
    expect((await call('PATCH', `/subscriptions/${id}/upgrade`, 'user', { plan_id: inactive.id })).statusCode).toBe(
      409,
    );
    expect(
      (await call('PATCH', `/subscriptions/${id}/upgrade`, 'user', { plan_id: '00000000-0000-4000-8000-000000000000' }))
        .statusCode,
    ).toBe(404);
    const res = await call('PATCH', `/subscriptions/${id}/upgrade`, 'user', { plan_id: premium.id });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Subscription upgraded successfully!');
    const { subscription, invoice } = res.json().data;
    expect(subscription).toMatchObject({
      plan_id: premium.id,
      plan_name: 'Premium',
      status: 'active',
      current_period_start: '2026-01-20T12:00:00.000Z',
      current_period_end: '2026-02-20T12:00:00.000Z',
    });
    expect(invoice).toMatchObject({
      status: 'unpaid',
      line_items: [
        { description: 'Upgrade to Premium (monthly) 2026-01-20 – 2026-02-20', amount: 6000, kind: 'upgrade' },
        {
          description: 'Credit for unused days of Basic until 2026-02-10',
          quantity: 1,
          unit_amount: -1935,
          amount: -1935,
          kind: 'credit',
        },
      ],
      subtotal: 4065,
      tax: 407, // 406.5 rounded half up
      total_amount: 4472,
    });
    // The old period's renewal invoice no longer applies.
    expect(await invoiceStatus(renewal.id)).toBe('cancelled');
    // Paying the upgrade invoice keeps the subscription as it is.
    await pay(invoice.id);
    expect(await get(id)).toMatchObject({
      status: 'active',
      plan_id: premium.id,
      current_period_end: '2026-02-20T12:00:00.000Z',
    });
    // Staff may upgrade too (here a downgrade: the credit never exceeds the new price).
    clock.set('2026-01-21T12:00:00.000Z');
    const down = await call('PATCH', `/subscriptions/${id}/upgrade`, 'billing', { plan_id: basic.id });
    expect(down.statusCode).toBe(200);
    expect(down.json().data.invoice).toMatchObject({ subtotal: 0, tax: 0, total_amount: 0 });
    expect(down.json().data.invoice.line_items[1]).toMatchObject({ amount: -3000 });
    clock.set(START);
  });

  it('only an active subscription can be upgraded', async () => {
    const { subscription } = await subscribe();
    for (const status of ['pending', 'suspended', 'cancelled', 'expired'] as const) {
      await setStatus(subscription.id, status);
      const r = await call('PATCH', `/subscriptions/${subscription.id}/upgrade`, 'admin', { plan_id: premium.id });
      expect(r.statusCode).toBe(409);
      expect(r.json().message).toBe('Only an active subscription can be upgraded');
    }
  });

  it('delete: admin and super_admin only; 409 while an invoice is unpaid; then deleted (invoices stay)', async () => {
    const { subscription, invoice } = await subscribe();
    for (const who of ['billing', 'support', 'technician', 'user'] as const) {
      expect((await call('DELETE', `/subscriptions/${subscription.id}`, who)).statusCode).toBe(403);
    }
    expect((await call('DELETE', `/subscriptions/${subscription.id}`)).statusCode).toBe(401);
    const refused = await call('DELETE', `/subscriptions/${subscription.id}`, 'admin');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This subscription has unpaid invoices and cannot be deleted');
    await pay(invoice.id);
    const res = await call('DELETE', `/subscriptions/${subscription.id}`, 'admin');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Subscription deleted successfully!', data: null });
    expect((await call('GET', `/subscriptions/${subscription.id}`, 'admin')).statusCode).toBe(404);
    expect(await invoiceStatus(invoice.id)).toBe('paid');
    expect((await call('DELETE', `/subscriptions/${subscription.id}`, 'admin')).statusCode).toBe(404);
    const other = await subscribe();
    await call('POST', `/subscriptions/${other.subscription.id}/cancel`, 'user'); // cancels the open invoice
    expect((await call('DELETE', `/subscriptions/${other.subscription.id}`, 'super_admin')).statusCode).toBe(200);
  });

  it("orders: the caller's own subscriptions with their invoices and payments, newest first; visitors 401", async () => {
    clock.set('2026-05-01T00:00:00.000Z');
    const first = await subscribe('other');
    // One open order at a time (issue 31): Olga cancels the first order before the second; it stays in her history.
    expect((await call('POST', `/subscriptions/${first.subscription.id}/cancel`, 'other')).statusCode).toBe(200);
    clock.set('2026-05-02T00:00:00.000Z');
    const second = await subscribe('other');
    await pay(second.invoice.id);
    const renewed = (await call('PATCH', `/subscriptions/${second.subscription.id}/renew`, 'other')).json().data
      .invoice;
    await db().execute(
      sql`insert into payments (invoice_id, user_id, provider, transaction_id, status, amount, currency, payment_method, payment_date)
          values (${second.invoice.id}, ${people.other!.id}, 'manual', 'CASH-1', 'paid', 3000, 'USD', 'cash', now())`,
    );
    const res = await call('GET', '/subscriptions/orders', 'other');
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Order history retrieved successfully');
    const orders = res.json().data;
    expect(orders.map((o: { id: string }) => o.id)).toEqual([second.subscription.id, first.subscription.id]);
    expect(orders[0].invoices.map((i: { id: string }) => i.id)).toEqual([renewed.id, second.invoice.id]);
    expect(orders[1].invoices.map((i: { id: string }) => i.id)).toEqual([first.invoice.id]);
    expect(orders[0].payments).toMatchObject([
      { invoice_id: second.invoice.id, transaction_id: 'CASH-1', status: 'paid', amount: 3000, payment_method: 'cash' },
    ]);
    expect(orders[1].payments).toEqual([]);
    for (const who of ['technician', 'support'] as const) {
      const mine = await call('GET', '/subscriptions/orders', who);
      expect(mine.statusCode).toBe(200);
      expect(mine.json().data).toEqual([]);
    }
    expect((await call('GET', '/subscriptions/orders')).statusCode).toBe(401);
    clock.set(START);
  });
});
