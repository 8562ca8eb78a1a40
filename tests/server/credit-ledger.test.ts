/**
 * The customer credit ledger (issue 21): the balance is the sum of the entries; invoices use credit first
 * (partly or wholly); payments charge the amount due; a manual overpayment and a refund to credit add credit;
 * staff adjustments need a reason, are audited and never take the balance below zero; customers read only
 * their own credit; concurrent invoices never spend more credit than there is.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../contract/roles';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const WEBHOOK_SECRET = 'whsec_credit_test_secret_1234';
const tokens: Record<string, string> = {};
const users: Record<string, string> = {};

describe('customer credit ledger', () => {
  let t: TestApp;
  let planId: string;

  beforeAll(async () => {
    t = await createTestApp();
    for (const role of ['admin', 'billing', 'support', 'user'] as Role[]) {
      const u = await t.createUser({ email: `${role}@example.com`, role });
      users[role] = u.id;
      tokens[role] = (await t.login(`${role}@example.com`)).token;
    }
    for (const name of ['other', 'full', 'busy', 'mixed']) {
      users[name] = (await t.createUser({ email: `${name}@example.com` })).id;
      tokens[name] = (await t.login(`${name}@example.com`)).token;
    }
    const gw = await call('POST', '/payments/gateways', 'admin', {
      name: 'Sandbox',
      provider: 'sandbox',
      credentials: { webhook_secret: WEBHOOK_SECRET },
      is_default: true,
    });
    expect(gw.statusCode).toBe(201);
    // 4999 + 2500 setup fee, no tax: every first invoice is 7499 USD.
    planId = (
      await call('POST', '/plans', 'admin', {
        name: 'Fiber 200',
        download_mbps: 200,
        upload_mbps: 50,
        price: 4999,
        setup_fee: 2500,
        billing_cycle: 'monthly',
      })
    ).json().data.id;
  });
  afterAll(() => t.close());

  function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, who?: string, payload?: unknown) {
    return t.app.inject({
      method,
      url: `/api${url}`,
      headers: who ? bearer(tokens[who]) : {},
      payload: payload as object,
    });
  }
  const rows = <T = Record<string, unknown>>(query: ReturnType<typeof sql>) => t.rows<T>(query);
  /** The balance as SQL sees it: the sum of the entries. */
  async function ledgerSum(userId: string, currency = 'USD'): Promise<number> {
    const [r] = await rows<{ total: string | number }>(
      sql`select coalesce(sum(amount), 0) as total from credit_entries where user_id = ${userId} and currency = ${currency}`,
    );
    return Number(r.total);
  }
  async function apiBalance(who: string, userId?: string): Promise<number> {
    const r = await call('GET', userId ? `/users/${userId}/credit` : '/credit', who);
    expect(r.statusCode, r.body).toBe(200);
    return (
      (r.json().data.balances as Array<{ currency: string; amount: number }>).find((b) => b.currency === 'USD')
        ?.amount ?? 0
    );
  }
  async function adjust(userId: string, amount: number, reason = 'Goodwill for the outage', who = 'admin') {
    return call('POST', `/users/${userId}/credit`, who, { amount, reason });
  }
  async function subscribe(who: string) {
    const r = await call('POST', '/subscriptions', who, { plan_id: planId });
    expect(r.statusCode, r.body).toBe(201);
    return r.json().data as {
      subscription: { id: string; status: string };
      invoice: {
        id: string;
        number: string;
        status: string;
        total_amount: number;
        credit_applied: number;
        amount_due: number;
        paid_date: string | null;
      };
    };
  }

  it('an invoice issued with partial credit: credit_applied and amount_due; the sandbox checkout charges the rest → paid', async () => {
    expect((await adjust(users.user, 2000)).statusCode).toBe(201);
    const { invoice, subscription } = await subscribe('user');
    expect(invoice).toMatchObject({ status: 'unpaid', total_amount: 7499, credit_applied: 2000, amount_due: 5499 });
    expect(subscription.status).toBe('pending');
    expect(await ledgerSum(users.user)).toBe(0);
    // The public invoice shows both figures.
    expect((await call('GET', `/payments/invoices/${invoice.id}`)).json().data).toMatchObject({
      credit_applied: 2000,
      amount_due: 5499,
    });

    const init = await call('POST', '/payments/initiate', 'user', { invoice_id: invoice.id });
    expect(init.statusCode, init.body).toBe(201);
    const { transactionId, payment } = init.json().data;
    expect(payment.amount).toBe(5499);
    const page = await t.app.inject({ method: 'GET', url: `/api/payments/sandbox/checkout/${transactionId}` });
    expect(page.body).toContain('$54.99');
    const approve = await t.app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/checkout/${transactionId}/approve`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(approve.headers.location).toContain('payment=paid');
    const [row] = await rows<{ status: string }>(sql`select status from invoices where id = ${invoice.id}`);
    expect(row.status).toBe('paid');
    const [sub] = await rows<{ status: string }>(sql`select status from subscriptions where id = ${subscription.id}`);
    expect(sub.status).toBe('active');
  });

  it('an invoice fully covered by credit is paid at issue, its subscription active, and cannot be charged (409)', async () => {
    expect((await adjust(users.full, 10_000)).statusCode).toBe(201);
    const { invoice, subscription } = await subscribe('full');
    expect(invoice).toMatchObject({ status: 'paid', total_amount: 7499, credit_applied: 7499, amount_due: 0 });
    expect(invoice.paid_date).toBeTruthy();
    expect(subscription.status).toBe('active');
    expect(await apiBalance('full')).toBe(2501);
    const init = await call('POST', '/payments/initiate', 'full', { invoice_id: invoice.id });
    expect(init.statusCode).toBe(409);
    const [{ n }] = await rows<{ n: string | number }>(
      sql`select count(*) as n from payments where invoice_id = ${invoice.id}`,
    );
    expect(Number(n)).toBe(0);
    // The "invoice issued" e-mail says there is nothing to pay.
    const mail = await t.lastMailTo('full@example.com');
    expect(mail?.text).toContain('paid in full with your account credit');
    expect(mail?.text).toContain('Amount due: $0.00');
  });

  it('a manual payment larger than the amount due pays the invoice and keeps the excess as credit; smaller is refused', async () => {
    const { invoice } = await subscribe('other');
    const less = await call('POST', `/payments/invoices/${invoice.id}/manual`, 'billing', {
      amount: 7000,
      payment_method: 'cash',
      reference: 'R-1',
    });
    expect(less.statusCode).toBe(400);
    const more = await call('POST', `/payments/invoices/${invoice.id}/manual`, 'billing', {
      amount: 10_000,
      payment_method: 'cash',
      reference: 'R-2',
    });
    expect(more.statusCode, more.body).toBe(201);
    const paymentId = more.json().data.id;
    const entries = await rows<{ kind: string; amount: number; payment_id: string }>(
      sql`select kind, amount, payment_id from credit_entries where user_id = ${users.other}`,
    );
    expect(entries).toEqual([{ kind: 'overpayment', amount: 2501, payment_id: paymentId }]);
    expect(await apiBalance('other')).toBe(2501);
    const [row] = await rows<{ status: string }>(sql`select status from invoices where id = ${invoice.id}`);
    expect(row.status).toBe('paid');
  });

  it('refund to credit: payment and invoice refunded, a refund_to_credit entry, audited; a second click → 409', async () => {
    const { invoice } = await subscribe('mixed');
    const paid = await call('POST', `/payments/invoices/${invoice.id}/manual`, 'admin', {
      amount: 7499,
      payment_method: 'bank_transfer',
      reference: 'BT-9',
    });
    expect(paid.statusCode).toBe(201);
    const paymentId = paid.json().data.id;
    expect((await call('POST', `/payments/${paymentId}/refund`, 'user', { to: 'credit' })).statusCode).toBe(403);
    const r = await call('POST', `/payments/${paymentId}/refund`, 'billing', { to: 'credit' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data.status).toBe('refunded');
    const [inv] = await rows<{ status: string }>(sql`select status from invoices where id = ${invoice.id}`);
    expect(inv.status).toBe('refunded');
    expect(await apiBalance('mixed')).toBe(7499);
    const again = await call('POST', `/payments/${paymentId}/refund`, 'billing', { to: 'credit' });
    expect(again.statusCode).toBe(409);
    expect(await ledgerSum(users.mixed)).toBe(7499);
    const audits = await rows<{ action: string; changes: Record<string, { to: unknown }> }>(
      sql`select action, changes from audit_events where target_id = ${paymentId} and action = 'payment.refunded'`,
    );
    expect(audits).toHaveLength(1);
    expect(audits[0].changes.refunded_to.to).toBe('credit');
  });

  it('adjustments: reason required (400), below zero refused (409), audited with balance before and after; customers cannot adjust', async () => {
    const noReason = await call('POST', `/users/${users.busy}/credit`, 'admin', { amount: 500 });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().success).toBe(false);
    expect(
      (await call('POST', `/users/${users.busy}/credit`, 'admin', { amount: 500, reason: '  x ' })).statusCode,
    ).toBe(400);
    expect(
      (await call('POST', `/users/${users.busy}/credit`, 'admin', { amount: 0, reason: 'Nothing at all' })).statusCode,
    ).toBe(400);
    expect(
      (await call('POST', `/users/${users.busy}/credit`, 'admin', { amount: 1.5, reason: 'Half a cent' })).statusCode,
    ).toBe(400);
    const added = await adjust(users.busy, 1500, '  Outage on 3 March  ', 'billing');
    expect(added.statusCode).toBe(201);
    expect(added.json().data.balance).toEqual({ currency: 'USD', amount: 1500 });
    const tooMuch = await adjust(users.busy, -1501, 'Correction');
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().message).toContain('more credit than the customer has');
    expect(await ledgerSum(users.busy)).toBe(1500);
    const [audit] = await rows<{ actor_role: string; changes: Record<string, { from: unknown; to: unknown }> }>(
      sql`select actor_role, changes from audit_events where action = 'credit.adjusted' and target_id = ${users.busy}`,
    );
    expect(audit.actor_role).toBe('billing');
    expect(audit.changes.amount.to).toBe(1500);
    expect(audit.changes.currency.to).toBe('USD');
    expect(audit.changes.reason.to).toBe('Outage on 3 March');
    expect(audit.changes.balance).toEqual({ from: 0, to: 1500 });
    for (const who of ['user', 'support'])
      expect((await adjust(users.busy, 100, 'Let me have it', who)).statusCode).toBe(403);
    expect((await adjust('00000000-0000-4000-8000-000000000000', 100)).statusCode).toBe(404);
  });

  it('customers read only their own credit; support reads any (read-only)', async () => {
    expect((await call('GET', `/users/${users.busy}/credit`, 'user')).statusCode).toBe(403);
    expect((await call('GET', `/users/${users.busy}/credit`, 'support')).statusCode).toBe(200);
    const own = await call('GET', '/credit', 'busy');
    expect(own.json().data.balances).toEqual([{ currency: 'USD', amount: 1500 }]);
    expect(
      (await call('GET', '/credit', 'user')).json().data.entries.every((e: { amount: number }) => e.amount !== 1500),
    ).toBe(true);
    expect((await call('GET', '/credit')).statusCode).toBe(401);
  });

  it('after a mixed series the balance the API reports equals SUM of the entries; history is paginated newest first', async () => {
    const id = users.mixed; // 7499 from the refund to credit
    const tick = () => t.clock.advance(1000);
    tick();
    expect((await adjust(id, 1000)).statusCode).toBe(201);
    tick();
    expect((await adjust(id, -300, 'Fee correction')).statusCode).toBe(201);
    tick();
    await subscribe('mixed'); // 7499 invoice uses 7499 of 8199
    tick();
    expect((await adjust(id, 50)).statusCode).toBe(201);
    const expected = 7499 + 1000 - 300 - 7499 + 50;
    expect(await ledgerSum(id)).toBe(expected);
    expect(await apiBalance('mixed')).toBe(expected);
    expect(await apiBalance('admin', id)).toBe(expected);
    const page1 = (await call('GET', `/users/${id}/credit?limit=2&page=1`, 'admin')).json().data;
    expect(page1.pagination).toMatchObject({ page: 1, total: 5, totalPages: 3, hasNext: true });
    expect(page1.entries.map((e: { kind: string; amount: number }) => [e.kind, e.amount])).toEqual([
      ['adjustment', 50],
      ['applied_to_invoice', -7499],
    ]);
    expect(page1.entries[1].invoice_number).toBeTruthy();
    const page3 = (await call('GET', `/users/${id}/credit?limit=2&page=3`, 'admin')).json().data;
    expect(page3.entries.map((e: { kind: string }) => e.kind)).toEqual(['refund_to_credit']);
  });

  it('20 concurrent invoices for one customer with limited credit never spend more than the balance', async () => {
    const id = users.busy; // 1500 so far
    // A customer may have only one open order at a time (issue 31), so the 20 concurrent invoices are renewals of 20
    // active subscriptions of this customer, each made active by paying its first invoice (the first uses the 1500).
    const subscriptionIds: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { invoice, subscription } = await subscribe('busy');
      const paid = await call('POST', `/payments/invoices/${invoice.id}/manual`, 'billing', {
        amount: invoice.amount_due,
        payment_method: 'cash',
        reference: `BUSY-${i}`,
      });
      expect(paid.statusCode, paid.body).toBe(201);
      subscriptionIds.push(subscription.id);
    }
    expect(await ledgerSum(id)).toBe(0);
    expect((await adjust(id, 12_000)).statusCode).toBe(201); // renewals of 4999: two covered, one partly
    const results = await Promise.all(
      subscriptionIds.map((subId) => call('PATCH', `/subscriptions/${subId}/renew`, 'busy')),
    );
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    const invoices = results.map(
      (r) =>
        r.json().data.invoice as {
          id: string;
          credit_applied: number;
          amount_due: number;
          status: string;
          total_amount: number;
        },
    );
    expect(invoices.every((i) => i.total_amount === 4999)).toBe(true);
    const applied = invoices.reduce((s, i) => s + i.credit_applied, 0);
    expect(applied).toBe(12_000);
    expect(invoices.filter((i) => i.status === 'paid')).toHaveLength(2);
    expect(invoices.filter((i) => i.credit_applied > 0 && i.amount_due > 0)).toHaveLength(1);
    expect(await ledgerSum(id)).toBe(0);
    const [{ applied: sqlApplied }] = await rows<{ applied: string | number }>(
      sql`select coalesce(sum(credit_applied), 0) as applied from invoices where user_id = ${id} and line_items::text like '%renewal%'`,
    );
    expect(Number(sqlApplied)).toBe(12_000);
  });
});

// Its own app: the billing run moves the clock a month on, which the tests above must not see.
describe("customer credit ledger: the billing run's renewals", () => {
  let t: TestApp;
  let planId: string;
  const tok: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    await t.createUser({ email: 'admin@example.com', role: 'admin' });
    tok.admin = (await t.login('admin@example.com')).token;
    const customer = await t.createUser({ email: 'renewing@example.com' });
    tok.customer = (await t.login('renewing@example.com')).token;
    tok.customerId = customer.id;
    planId = (
      await t.app.inject({
        method: 'POST',
        url: '/api/plans',
        headers: bearer(tok.admin),
        payload: {
          name: 'Fiber 100',
          download_mbps: 100,
          upload_mbps: 20,
          price: 4999,
          setup_fee: 0,
          billing_cycle: 'monthly',
        },
      })
    ).json().data.id;
  });
  afterAll(() => t.close());

  const rows = <T = Record<string, unknown>>(query: ReturnType<typeof sql>) => t.rows<T>(query);

  it('a renewal invoice covered in full by credit is paid at once and the period moves on', async () => {
    const credit = await t.app.inject({
      method: 'POST',
      url: `/api/users/${tok.customerId}/credit`,
      headers: bearer(tok.admin),
      payload: { amount: 12_000, reason: 'Prepaid two months' },
    });
    expect(credit.statusCode, credit.body).toBe(201);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/subscriptions',
      headers: bearer(tok.customer),
      payload: { plan_id: planId },
    });
    expect(created.json().data).toMatchObject({
      subscription: { status: 'active' },
      invoice: { status: 'paid', credit_applied: 4999, amount_due: 0 },
    });
    const sub = created.json().data.subscription as { id: string; current_period_end: string };
    const end = new Date(sub.current_period_end);
    t.clock.set(new Date(end.getTime() - 3 * 86_400_000));
    tok.admin = (await t.login('admin@example.com')).token; // the first token expired on the way
    const run = await t.app.inject({ method: 'POST', url: '/api/billing/run', headers: bearer(tok.admin) });
    expect(run.statusCode, run.body).toBe(200);
    const renewals = await rows<{ status: string; credit_applied: number; total_amount: number }>(
      sql`select status, credit_applied, total_amount from invoices where subscription_id = ${sub.id} and line_items::text like '%renewal%'`,
    );
    expect(renewals).toEqual([{ status: 'paid', credit_applied: 4999, total_amount: 4999 }]);
    const [after] = await rows<{ status: string; current_period_end: string | Date }>(
      sql`select status, current_period_end from subscriptions where id = ${sub.id}`,
    );
    expect(after.status).toBe('active');
    expect(new Date(after.current_period_end).getTime()).toBeGreaterThan(end.getTime());
    const [sum] = await rows<{ total: string | number }>(
      sql`select coalesce(sum(amount), 0) as total from credit_entries where user_id = ${tok.customerId}`,
    );
    expect(Number(sum.total)).toBe(12_000 - 4999 - 4999);
  });
});
