import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../contract/roles';
import type { PublicUser } from '../../contract/schemas/user';
import type { Db } from '../../server/db/client';
import { issueInvoice } from '../../server/modules/invoices/service';
import { createSubscriptionRepository } from '../../server/modules/subscriptions/repository';
import { SubscriptionService } from '../../server/modules/subscriptions/service';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const tokens: Partial<Record<Role | 'other', string>> = {};
const people: Partial<Record<Role | 'other', PublicUser>> = {};
type Who = Role | 'other';

describe('subscriptions API (core)', () => {
  let t: TestApp;
  let plan: { id: string; price: number; setup_fee: number };
  let inactivePlan: { id: string };

  beforeAll(async () => {
    t = await createTestApp();
    for (const role of ['admin', 'billing', 'support', 'technician', 'user', 'super_admin'] as Role[]) {
      people[role] = await t.createUser({ email: `${role}@example.com`, role, name: `${role} person` });
      tokens[role] = (await t.login(`${role}@example.com`)).token;
    }
    people.other = await t.createUser({ email: 'other@example.com', role: 'user', name: 'Olga Other' });
    tokens.other = (await t.login('other@example.com')).token;
    // 10% tax.
    await call('PUT', '/settings', 'admin', { tax_rate_bp: 1000 });
    plan = (
      await call('POST', '/plans', 'admin', {
        name: 'Fiber 200',
        download_mbps: 200,
        upload_mbps: 50,
        price: 4999,
        setup_fee: 2500,
        billing_cycle: 'monthly',
      })
    ).json().data;
    inactivePlan = (
      await call('POST', '/plans', 'admin', {
        name: 'Old 5',
        download_mbps: 5,
        upload_mbps: 1,
        price: 999,
        billing_cycle: 'monthly',
        status: 'inactive',
      })
    ).json().data;
  });
  afterAll(() => t.close());

  function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who?: Who, payload?: unknown) {
    return t.app.inject({
      method,
      url: `/api${url}`,
      headers: who ? bearer(tokens[who]!) : {},
      payload: payload as object,
    });
  }
  const count = async (table: 'subscriptions' | 'invoices') => {
    const r = (await t.database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as {
      rows: Array<{ n: number }>;
    };
    return Number(r.rows[0].n);
  };
  /** Calls the API with a customer's own token (the customers made by newCustomer). */
  function callWith(token: string, method: 'GET' | 'POST', url: string, payload?: unknown) {
    return t.app.inject({ method, url: `/api${url}`, headers: bearer(token), payload: payload as object });
  }
  let customers = 0;
  /** A new signed-in customer: a customer may have only one open order at a time (issue 31). */
  async function newCustomer(name = 'Nina New', email = `customer${++customers}@example.com`) {
    const user = await t.createUser({ email, role: 'user', name });
    return { id: user.id, token: (await t.login(email)).token };
  }
  const nextNumber = async () => {
    const r = (await t.database.db.execute(sql`select value from settings where key = 'billing'`)) as unknown as {
      rows: Array<{ value: { invoice_next_number: number } }>;
    };
    return r.rows[0]?.value.invoice_next_number ?? 1;
  };

  it('a customer subscribes: a pending subscription and its first invoice (price + setup fee + tax), returned together', async () => {
    const res = await call('POST', '/subscriptions', 'user', {
      plan_id: plan.id,
      location: '12 Elm Street',
      note: 'Ring twice',
      id: 'ignored',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ success: true, message: 'Subscription created successfully!' });
    const { subscription, invoice } = res.json().data;
    expect(subscription).toMatchObject({
      user_id: people.user!.id,
      plan_id: plan.id,
      status: 'pending',
      location: '12 Elm Street',
      note: 'Ring twice',
      suspension_reason: null,
      plan_name: 'Fiber 200',
      user_email: 'user@example.com',
    });
    expect(invoice).toMatchObject({
      user_id: people.user!.id,
      subscription_id: subscription.id,
      status: 'unpaid',
      currency: 'USD',
      subtotal: 7499,
      tax_rate_bp: 1000,
      tax: 750,
      total_amount: 8249,
      paid_date: null,
      line_items: [
        { description: 'Fiber 200 (monthly)', quantity: 1, unit_amount: 4999, amount: 4999 },
        { description: 'Setup fee', quantity: 1, unit_amount: 2500, amount: 2500 },
      ],
    });
    expect(invoice.number).toMatch(/^INV-\d{6}$/);
    expect(invoice.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(invoice.issue_date).toBe(t.clock.now().toISOString().slice(0, 10));
    expect(invoice.due_date > invoice.issue_date).toBe(true);
  });

  it('customers subscribe only themselves; admin, billing and support for anyone; technician 403; visitors 401', async () => {
    const forOther = await call('POST', '/subscriptions', 'user', { user_id: people.other!.id, plan_id: plan.id });
    expect(forOther.statusCode).toBe(403);
    expect(forOther.json().message).toBe('You can only subscribe for yourself');
    // 'user' has the order of the test above waiting: a new customer subscribes themselves, naming their own id.
    const self = await newCustomer('Sam Self');
    const own = await callWith(self.token, 'POST', '/subscriptions', { user_id: self.id, plan_id: plan.id });
    expect(own.statusCode).toBe(201);
    for (const role of ['admin', 'billing', 'support', 'super_admin'] as Role[]) {
      const customer = await newCustomer(`${role} customer`);
      const res = await call('POST', '/subscriptions', role, { user_id: customer.id, plan_id: plan.id });
      expect(res.statusCode).toBe(201);
      expect(res.json().data.subscription.user_id).toBe(customer.id);
    }
    // One open order per customer (issue 31), also when staff order for them: the second names the first.
    const again = await call('POST', '/subscriptions', 'billing', { user_id: self.id, plan_id: plan.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      `You already have an order waiting: Fiber 200 (invoice ${own.json().data.invoice.number}). Pay or cancel it before ordering again`,
    );
    expect((await call('POST', '/subscriptions', 'technician', { plan_id: plan.id })).statusCode).toBe(403);
    expect((await call('POST', '/subscriptions', undefined, { plan_id: plan.id })).statusCode).toBe(401);
  });

  it('validates the body and refuses unknown users, unknown and inactive plans, creating nothing', async () => {
    const before = [await count('subscriptions'), await count('invoices'), await nextNumber()];
    const empty = await call('POST', '/subscriptions', 'user', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual([{ field: 'plan_id', message: 'plan_id is required' }]);
    const bad = await call('POST', '/subscriptions', 'admin', {
      plan_id: 'x',
      user_id: 'y',
      location: 'z'.repeat(301),
    });
    expect((bad.json().errors as Array<{ field: string }>).map((e) => e.field).sort()).toEqual([
      'location',
      'plan_id',
      'user_id',
    ]);
    const unknownPlan = await call('POST', '/subscriptions', 'user', {
      plan_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknownPlan.statusCode).toBe(404);
    expect(unknownPlan.json().message).toBe('Plan not found');
    const unknownUser = await call('POST', '/subscriptions', 'admin', {
      user_id: '00000000-0000-4000-8000-000000000000',
      plan_id: plan.id,
    });
    expect(unknownUser.statusCode).toBe(404);
    expect(unknownUser.json().message).toBe('User not found');
    const inactive = await call('POST', '/subscriptions', 'user', { plan_id: inactivePlan.id });
    expect(inactive.statusCode).toBe(409);
    expect([await count('subscriptions'), await count('invoices'), await nextNumber()]).toEqual(before);
  });

  it('rolls the whole creation back when issuing the invoice fails: no subscription, no invoice, no number used', async () => {
    const before = [await count('subscriptions'), await count('invoices'), await nextNumber()];
    const failing = new SubscriptionService({
      db: t.database.db,
      repository: createSubscriptionRepository(t.database.db),
      clock: t.clock,
      taxRateBp: async () => 0,
      issueInvoice: async (tx: Db, input) => {
        await issueInvoice(tx, input);
        throw new Error('disk on fire');
      },
    });
    const customer = await newCustomer();
    await expect(
      failing.create({ id: customer.id, role: 'user' }, { plan_id: plan.id, location: null, note: null }),
    ).rejects.toThrow('disk on fire');
    expect([await count('subscriptions'), await count('invoices'), await nextNumber()]).toEqual(before);
    // The next invoice takes the number the failed one would have had (the failed order left nothing waiting).
    const ok = (await callWith(customer.token, 'POST', '/subscriptions', { plan_id: plan.id })).json().data.invoice;
    expect(ok.number).toBe(`INV-${String(before[2]).padStart(6, '0')}`);
  });

  it('50 concurrent subscriptions get 50 distinct, consecutive invoice numbers', async () => {
    // 50 customers ordering at once (one open order per customer, issue 31), all through billing.
    const crowd: string[] = [];
    for (let i = 0; i < 50; i++)
      crowd.push((await t.createUser({ email: `crowd${i}@example.com`, role: 'user', name: `Crowd ${i}` })).id);
    const first = await nextNumber();
    const responses = await Promise.all(
      crowd.map((userId) => call('POST', '/subscriptions', 'billing', { user_id: userId, plan_id: plan.id })),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(50).fill(201));
    const numbers = responses.map((r) => r.json().data.invoice.number as string).sort();
    expect(new Set(numbers).size).toBe(50);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `INV-${String(first + i).padStart(6, '0')}`));
    expect(await nextNumber()).toBe(first + 50);
    // The admin's settings show the advanced counter straight away.
    expect((await call('GET', '/settings', 'admin')).json().data.billing.invoice_next_number).toBe(first + 50);
  });

  it('lists subscriptions for admin, billing and support with filters, as {items, pagination} paged by page or offset; 403 for others', async () => {
    for (const role of ['admin', 'billing', 'support', 'super_admin'] as Role[]) {
      const res = await call('GET', '/subscriptions', role);
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe('Subscriptions retrieved successfully');
      expect(res.json().data.pagination).toMatchObject({ page: 1, hasPrev: false, hasNext: true });
      expect(res.json().data.pagination.total).toBeGreaterThan(50);
      expect(res.json().data.items).toHaveLength(50);
    }
    for (const role of ['user', 'technician'] as Role[])
      expect((await call('GET', '/subscriptions', role)).statusCode).toBe(403);
    expect((await call('GET', '/subscriptions')).statusCode).toBe(401);

    // A customer has one pending order (issue 31): the filters together find the one of 'user'; paging runs over all pending ones.
    const mine = await call(
      'GET',
      `/subscriptions?user_id=${people.user!.id}&status=pending&plan_id=${plan.id}&search=&limit=2&offset=0`,
      'billing',
    );
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data.pagination).toEqual({ page: 1, totalPages: 1, total: 1, hasNext: false, hasPrev: false });
    expect(mine.json().data.items.map((s: { user_id: string }) => s.user_id)).toEqual([people.user!.id]);
    const pending = await call(
      'GET',
      `/subscriptions?status=pending&plan_id=${plan.id}&search=&limit=2&offset=1`,
      'billing',
    );
    const pendingTotal = await count('subscriptions');
    expect(pending.json().data.pagination).toMatchObject({
      page: 1,
      totalPages: Math.ceil(pendingTotal / 2),
      total: pendingTotal,
    });
    expect(pending.json().data.items).toHaveLength(2);
    // page/limit as every list: page 2 of 2 is the rows from offset 2.
    const byPage = (
      await call('GET', `/subscriptions?status=pending&plan_id=${plan.id}&limit=2&page=2`, 'billing')
    ).json().data;
    const byOffset = (
      await call('GET', `/subscriptions?status=pending&plan_id=${plan.id}&limit=2&offset=2`, 'billing')
    ).json().data;
    expect(byPage.pagination).toMatchObject({ page: 2, total: pendingTotal, hasPrev: true });
    expect(byPage.items.map((s: { id: string }) => s.id)).toEqual(byOffset.items.map((s: { id: string }) => s.id));
    expect(byOffset.pagination).toEqual(byPage.pagination);
    const searched = await call('GET', '/subscriptions?search=elm%20street', 'support');
    expect(searched.json().data.pagination.total).toBe(1);
    expect((await call('GET', '/subscriptions?search=crowd', 'admin')).json().data.pagination.total).toBe(50);
    expect((await call('GET', '/subscriptions?status=active', 'admin')).json()).toMatchObject({
      data: { items: [], pagination: { total: 0, page: 1, totalPages: 1 } },
    });
    const invalid = await call('GET', '/subscriptions?status=bogus&limit=0', 'admin');
    expect(invalid.statusCode).toBe(400);
    expect((invalid.json().errors as Array<{ field: string }>).map((e) => e.field).sort()).toEqual(['limit', 'status']);
  });

  it('filters the list by creation date range (inclusive days) and refuses malformed dates', async () => {
    // Creation dates set directly (advancing the clock by days would expire the signed-in tokens).
    const first = (await call('POST', '/subscriptions', 'other', { plan_id: plan.id })).json().data.subscription;
    // One open order per customer (issue 31): Olga cancels the first before ordering the second.
    expect((await call('POST', `/subscriptions/${first.id}/cancel`, 'other')).statusCode).toBe(200);
    const second = (await call('POST', '/subscriptions', 'other', { plan_id: plan.id })).json().data.subscription;
    await t.database.db.execute(
      sql`update subscriptions set created_at = '2031-01-10T23:59:00Z' where id = ${first.id}`,
    );
    await t.database.db.execute(
      sql`update subscriptions set created_at = '2031-01-13T00:00:00Z' where id = ${second.id}`,
    );
    const [firstDay, secondDay] = ['2031-01-10', '2031-01-13'];
    const ids = async (q: string) =>
      (
        (await call('GET', `/subscriptions?user_id=${people.other!.id}&${q}`, 'billing')).json().data.items as Array<{
          id: string;
        }>
      ).map((s) => s.id);
    expect(await ids(`from=${firstDay}&to=${firstDay}`)).toEqual([first.id]);
    expect(await ids(`from=${secondDay}`)).toEqual([second.id]);
    expect(await ids(`from=${firstDay}&to=${secondDay}`)).toEqual([second.id, first.id]);
    expect(await ids(`from=2031-01-11&to=2031-01-12`)).toEqual([]);
    const bad = await call('GET', '/subscriptions?from=yesterday', 'admin');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatchObject({ field: 'from', message: 'Dates must be YYYY-MM-DD' });
  });

  it('shows a subscription to its owner and subscription staff; 404 to other customers, 403 to technicians', async () => {
    const owner = await newCustomer();
    const s = (await callWith(owner.token, 'POST', '/subscriptions', { plan_id: plan.id })).json().data.subscription;
    const own = await callWith(owner.token, 'GET', `/subscriptions/${s.id}`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ message: 'Subscription retrieved successfully', data: { id: s.id } });
    for (const who of ['admin', 'billing', 'support', 'super_admin'] as Who[]) {
      const res = await call('GET', `/subscriptions/${s.id}`, who);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ message: 'Subscription retrieved successfully', data: { id: s.id } });
    }
    const other = await call('GET', `/subscriptions/${s.id}`, 'other');
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('Subscription not found');
    expect((await call('GET', '/subscriptions/not-a-uuid', 'admin')).statusCode).toBe(404);
    expect((await call('GET', `/subscriptions/${s.id}`, 'technician')).statusCode).toBe(403);
  });

  it("answers the caller's active plan, or 404 'No active plan'", async () => {
    // A new customer ('user' has an order waiting from above, and one open order at a time is the rule, issue 31).
    const customer = await newCustomer();
    const none = await callWith(customer.token, 'GET', '/subscriptions/active-plan');
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ success: false, message: 'No active plan' });
    const s = (await callWith(customer.token, 'POST', '/subscriptions', { plan_id: plan.id })).json().data.subscription;
    // Activation comes with payments (not built yet): set it directly.
    await t.database.db.execute(
      sql`update subscriptions set status = 'active', current_period_start = now() where id = ${s.id}`,
    );
    const active = await callWith(customer.token, 'GET', '/subscriptions/active-plan');
    expect(active.statusCode).toBe(200);
    expect(active.json().data).toMatchObject({
      subscription: { id: s.id, status: 'active' },
      plan: { id: plan.id, name: 'Fiber 200', price: 4999 },
    });
    expect((await call('GET', '/subscriptions/active-plan', 'other')).statusCode).toBe(404);
    expect((await call('GET', '/subscriptions/active-plan', 'technician')).statusCode).toBe(404);
    expect((await call('GET', '/subscriptions/active-plan')).statusCode).toBe(401);
  });
  it('a settings change does not set the invoice counter back from a stale cache', async () => {
    await t.app.settings.stored(); // warm the cache
    const before = await nextNumber();
    // Invoices issued without the settings cache being told (as another server process would).
    await t.database.db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++) {
        await issueInvoice(tx as unknown as Db, {
          userId: people.other!.id,
          subscriptionId: null,
          currency: 'USD',
          lineItems: [{ description: 'Extra', quantity: 1, unit_amount: 100, amount: 100 }],
          taxRateBp: 0,
          now: t.clock.now(),
        });
      }
    });
    const res = await call('PUT', '/settings', 'admin', { billing: { grace_days: 5 } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.billing).toMatchObject({ grace_days: 5, invoice_next_number: before + 3 });
    expect(await nextNumber()).toBe(before + 3);
  });

  it('refuses with 409 (creating nothing) when the counter was set back to a number already issued', async () => {
    const current = await nextNumber();
    await call('PUT', '/settings', 'admin', { billing: { invoice_next_number: 1 } });
    const before = [await count('subscriptions'), await count('invoices')];
    // A customer with no order waiting (one open order per customer, issue 31: 'user' has one).
    const customer = await newCustomer();
    const res = await callWith(customer.token, 'POST', '/subscriptions', { plan_id: plan.id });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/invoice number is already used/);
    expect([await count('subscriptions'), await count('invoices'), await nextNumber()]).toEqual([...before, 1]);
    await call('PUT', '/settings', 'admin', { billing: { invoice_next_number: current } });
    expect((await callWith(customer.token, 'POST', '/subscriptions', { plan_id: plan.id })).statusCode).toBe(201);
  });
});
