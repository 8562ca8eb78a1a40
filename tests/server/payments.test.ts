import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../contract/roles';
import { buildSandboxWebhook } from '../../server/integrations/payments/sandbox';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const WEBHOOK_SECRET = 'whsec_payments_test_secret_1234';
const tokens: Record<string, string> = {};
const users: Record<string, string> = {};

describe('payments API', () => {
  let t: TestApp;
  let planId: string;

  beforeAll(async () => {
    t = await createTestApp();
    for (const role of ['admin', 'billing', 'support', 'technician', 'user', 'super_admin'] as Role[]) {
      const u = await t.createUser({ email: `${role}@example.com`, role });
      users[role] = u.id;
      tokens[role] = (await t.login(`${role}@example.com`)).token;
    }
    const other = await t.createUser({ email: 'other@example.com' });
    users.other = other.id;
    tokens.other = (await t.login('other@example.com')).token;
    const gw = await call('POST', '/payments/gateways', 'admin', {
      name: 'Sandbox',
      provider: 'sandbox',
      credentials: { webhook_secret: WEBHOOK_SECRET },
      is_default: true,
    });
    expect(gw.statusCode).toBe(201);
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

  function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who?: string, payload?: unknown) {
    return t.app.inject({
      method,
      url: `/api${url}`,
      headers: who ? bearer(tokens[who]) : {},
      payload: payload as object,
    });
  }
  async function rows<T = Record<string, unknown>>(query: ReturnType<typeof sql>): Promise<T[]> {
    const result = await t.database.db.execute(query);
    return ((result as unknown as { rows?: T[] }).rows ?? (result as unknown as T[])) as T[];
  }
  let customers = 0;
  /**
   * A fresh pending subscription and its unpaid invoice for a new customer, who becomes the 'user' account of the
   * test that called it (a customer may have only one open order at a time, issue 31; earlier tests leave theirs
   * pending, declined or refunded).
   */
  async function subscribe() {
    const email = `customer${++customers}@example.com`;
    users.user = (await t.createUser({ email })).id;
    tokens.user = (await t.login(email)).token;
    const r = await call('POST', '/subscriptions', 'user', { plan_id: planId });
    expect(r.statusCode).toBe(201);
    return r.json().data as {
      subscription: { id: string; status: string };
      invoice: { id: string; total_amount: number; currency: string; number: string };
    };
  }
  async function initiate(invoiceId: string, who = 'user') {
    const r = await call('POST', '/payments/initiate', who, { invoice_id: invoiceId });
    expect(r.statusCode, r.body).toBe(201);
    return r.json().data as { paymentUrl: string; transactionId: string; payment: { id: string } };
  }
  function webhook(
    event: {
      type?: 'payment.succeeded' | 'payment.failed';
      transactionId: string;
      amount?: number;
      currency?: string;
      id?: string;
    },
    secret = WEBHOOK_SECRET,
  ) {
    const w = buildSandboxWebhook(
      { type: event.type ?? 'payment.succeeded', ...event },
      secret,
      Math.floor(t.clock.now().getTime() / 1000),
    );
    return t.app.inject({ method: 'POST', url: '/api/payments/webhooks/sandbox', headers: w.headers, payload: w.body });
  }
  const state = async (invoiceId: string) => {
    const [invoice] = await rows<{ status: string; paid_date: unknown; subscription_id: string }>(
      sql`select status, paid_date, subscription_id from invoices where id = ${invoiceId}`,
    );
    const [sub] = await rows<{ status: string }>(
      sql`select status from subscriptions where id = ${invoice.subscription_id}`,
    );
    const pays = await rows<{ status: string; failure_reason: string | null }>(
      sql`select status, failure_reason from payments where invoice_id = ${invoiceId} order by created_at`,
    );
    return {
      invoice: invoice.status,
      paidDate: invoice.paid_date,
      subscription: sub.status,
      payments: pays,
      paid: pays.filter((p) => p.status === 'paid').length,
    };
  };

  it('initiate: the owner and billing/admin staff may; another customer 403; an unknown invoice 404; visitors 401', async () => {
    const { invoice } = await subscribe();
    const mine = await call('POST', '/payments/initiate', 'user', {
      invoice_id: invoice.id,
      subscription_id: null,
      plan_id: planId,
      payment_method: '',
    });
    expect(mine.statusCode).toBe(201);
    expect(mine.json()).toMatchObject({ success: true, message: 'Payment initiated successfully' });
    const data = mine.json().data;
    expect(data.transactionId).toMatch(/^sbx_/);
    expect(data.paymentUrl).toBe(data.redirectUrl);
    expect(data.paymentUrl).toContain(`http://portal.test/api/payments/sandbox/checkout/${data.transactionId}`);
    expect(data.payment).toMatchObject({
      status: 'pending',
      provider: 'sandbox',
      payment_method: 'sandbox',
      amount: invoice.total_amount,
      currency: invoice.currency,
      invoice_id: invoice.id,
      user_id: users.user,
    });

    for (const role of ['billing', 'admin', 'super_admin'])
      expect((await call('POST', '/payments/initiate', role, { invoice_id: invoice.id })).statusCode).toBe(201);
    const other = await call('POST', '/payments/initiate', 'other', { invoice_id: invoice.id });
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe('You can only pay your own invoices');
    expect((await call('POST', '/payments/initiate', 'support', { invoice_id: invoice.id })).statusCode).toBe(403);
    const missing = await call('POST', '/payments/initiate', 'user', {
      invoice_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Invoice not found');
    expect((await call('POST', '/payments/initiate', undefined, { invoice_id: invoice.id })).statusCode).toBe(401);
    expect((await call('POST', '/payments/initiate', 'user', {})).statusCode).toBe(400);
    expect(
      (await call('POST', '/payments/initiate', 'user', { invoice_id: invoice.id, payment_method: 'stripe' })).json()
        .message,
    ).toBe('This payment method is not available');

    // Status by payment id or transaction id: owner and payment staff; others 404.
    const byId = await call('GET', `/payments/status/${data.payment.id}`, 'user');
    expect(byId.json()).toMatchObject({
      success: true,
      message: 'Payment is pending',
      data: { payment: { id: data.payment.id, status: 'pending' } },
    });
    expect((await call('GET', `/payments/status/${data.transactionId}`, 'billing')).json().data.payment.id).toBe(
      data.payment.id,
    );
    expect((await call('GET', `/payments/status/${data.transactionId}`, 'other')).statusCode).toBe(404);
    expect((await call('GET', `/payments/status/nope`, 'user')).statusCode).toBe(404);
  });

  it('sandbox checkout: the page shows invoice and amount; Approve sends the signed webhook → payment paid, invoice paid, subscription active', async () => {
    const { invoice, subscription } = await subscribe();
    expect(subscription.status).toBe('pending');
    const { transactionId, payment } = await initiate(invoice.id);
    const page = await t.app.inject({ method: 'GET', url: `/api/payments/sandbox/checkout/${transactionId}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(invoice.number);
    expect(page.body).toContain(`$${(invoice.total_amount / 100).toFixed(2)}`); // 4999 + 2500 setup fee, no tax
    expect(invoice.total_amount).toBe(7499);
    expect(page.body).toMatch(/Approve/);
    expect(page.body).toMatch(/Decline/);
    expect(page.body).not.toMatch(/<script|<link|src="http/);
    expect((await t.app.inject({ method: 'GET', url: '/api/payments/sandbox/checkout/sbx_unknown' })).statusCode).toBe(
      404,
    );

    const approve = await t.app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/checkout/${transactionId}/approve`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(approve.statusCode).toBe(303);
    expect(approve.headers.location).toBe(`http://portal.test/invoice/${invoice.id}?payment=paid`);
    const s = await state(invoice.id);
    expect(s).toMatchObject({ invoice: 'paid', subscription: 'active', paid: 1 });
    expect(s.paidDate).toBeTruthy();
    // Activation goes through the subscription lifecycle: the first period starts at payment.
    const period = await call('GET', `/subscriptions/${subscription.id}`, 'user');
    expect(period.json().data).toMatchObject({ status: 'active' });
    expect(period.json().data.current_period_start).toBeTruthy();
    expect(period.json().data.current_period_end).toBeTruthy();
    // Approving again sends nothing new: the payment is no longer pending.
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/checkout/${transactionId}/approve`,
    });
    expect(again.headers.location).toBe(`http://portal.test/invoice/${invoice.id}?payment=paid`);
    expect((await state(invoice.id)).paid).toBe(1);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/payments/sandbox/checkout/${transactionId}` })).body,
    ).toContain('This payment is paid');
    const status = await call('GET', `/payments/status/${payment.id}`, 'user');
    expect(status.json()).toMatchObject({
      message: 'Payment completed successfully',
      data: { payment: { status: 'paid' } },
    });
    expect(status.json().data.payment.payment_date).toBeTruthy();
    const events = await rows(sql`select * from webhook_events where transaction_id = ${transactionId}`);
    expect(events).toHaveLength(1);

    // Paying again is refused up front.
    expect((await call('POST', '/payments/initiate', 'user', { invoice_id: invoice.id })).statusCode).toBe(409);
  });

  it('sandbox decline: the payment fails, the invoice stays unpaid', async () => {
    const { invoice } = await subscribe();
    const { transactionId } = await initiate(invoice.id);
    const decline = await t.app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/checkout/${transactionId}/decline`,
    });
    expect(decline.statusCode).toBe(303);
    expect(decline.headers.location).toBe(`http://portal.test/invoice/${invoice.id}?payment=failed`);
    expect(await state(invoice.id)).toMatchObject({
      invoice: 'unpaid',
      subscription: 'pending',
      paid: 0,
      payments: [{ status: 'failed' }],
    });
  });

  it('a webhook delivered 20 times (also concurrently) counts once: one paid payment, one event', async () => {
    const { invoice } = await subscribe();
    const { transactionId } = await initiate(invoice.id);
    const event = { id: 'evt_replayed_1', transactionId, amount: invoice.total_amount, currency: invoice.currency };
    const first = await webhook(event);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ success: true, message: 'Webhook processed', data: { outcome: 'paid' } });
    const again = await Promise.all(Array.from({ length: 10 }, () => webhook(event)));
    for (let i = 0; i < 9; i++) again.push(await webhook(event));
    for (const r of again) {
      expect(r.statusCode).toBe(200);
      expect(r.json().message).toBe('Event already processed');
    }
    expect(await state(invoice.id)).toMatchObject({ invoice: 'paid', subscription: 'active', paid: 1 });
    expect(await rows(sql`select * from payments where invoice_id = ${invoice.id}`)).toHaveLength(1);
    expect(await rows(sql`select * from webhook_events where event_id = 'evt_replayed_1'`)).toHaveLength(1);
  });

  it('a bad signature answers 400 and changes nothing', async () => {
    const { invoice } = await subscribe();
    const { transactionId } = await initiate(invoice.id);
    const before = await state(invoice.id);
    const forged = await webhook(
      { id: 'evt_forged', transactionId, amount: invoice.total_amount, currency: invoice.currency },
      'whsec_wrong',
    );
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ success: false, message: 'Invalid webhook signature' });
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/sandbox',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ id: 'evt_unsigned', type: 'payment.succeeded', transaction_id: transactionId }),
    });
    expect(unsigned.statusCode).toBe(400);
    // A body altered after signing.
    const w = buildSandboxWebhook(
      { type: 'payment.succeeded', transactionId, amount: 1, id: 'evt_tampered' },
      WEBHOOK_SECRET,
      Math.floor(t.clock.now().getTime() / 1000),
    );
    const tampered = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/sandbox',
      headers: w.headers,
      payload: w.body.replace('"amount":1', `"amount":${invoice.total_amount}`),
    });
    expect(tampered.statusCode).toBe(400);
    expect(await state(invoice.id)).toEqual(before);
    expect(
      await rows(sql`select * from webhook_events where event_id in ('evt_forged', 'evt_unsigned', 'evt_tampered')`),
    ).toHaveLength(0);
    expect((await t.app.inject({ method: 'POST', url: '/api/payments/webhooks/nope', payload: '{}' })).statusCode).toBe(
      404,
    );
  });

  it('a wrong amount or currency is rejected (400): the payment fails and the invoice stays unpaid', async () => {
    const { invoice } = await subscribe();
    const a = await initiate(invoice.id);
    const low = await webhook({
      id: 'evt_low',
      transactionId: a.transactionId,
      amount: invoice.total_amount - 1,
      currency: invoice.currency,
    });
    expect(low.statusCode).toBe(400);
    expect(low.json().message).toBe('Payment amount does not match the invoice');
    const b = await initiate(invoice.id);
    const eur = await webhook({
      id: 'evt_eur',
      transactionId: b.transactionId,
      amount: invoice.total_amount,
      currency: 'EUR',
    });
    expect(eur.statusCode).toBe(400);
    const s = await state(invoice.id);
    expect(s).toMatchObject({ invoice: 'unpaid', subscription: 'pending', paid: 0 });
    expect(s.payments.map((p) => p.status)).toEqual(['failed', 'failed']);
    expect(s.payments[0].failure_reason).toMatch(/does not match/);
  });

  it('20 payments completing at once for one invoice: exactly one is counted, the other 19 are refunded through the provider', async () => {
    const { invoice } = await subscribe();
    const started = [];
    for (let i = 0; i < 20; i++) started.push(await initiate(invoice.id));
    const answers = await Promise.all(
      started.map((p, i) =>
        webhook({
          id: `evt_race_${i}`,
          transactionId: p.transactionId,
          amount: invoice.total_amount,
          currency: invoice.currency,
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(answers.filter((r) => r.json().data.outcome === 'paid')).toHaveLength(1);
    const notCounted = answers.filter((r) => r.json().data.outcome === 'not_counted');
    expect(notCounted).toHaveLength(19);
    expect(notCounted[0].json().message).toBe(
      'The invoice was already paid; this payment was not counted and was refunded',
    );
    const s = await state(invoice.id);
    expect(s).toMatchObject({ invoice: 'paid', subscription: 'active', paid: 1 });
    const refunded = s.payments.filter((p) => p.status === 'refunded');
    expect(refunded).toHaveLength(19);
    expect(
      refunded.every((p) => /already paid.*refunded automatically \(sbx_refund_/.test(p.failure_reason ?? '')),
    ).toBe(true);
    // The same events delivered again change nothing.
    const again = await webhook({
      id: 'evt_race_3',
      transactionId: started[3].transactionId,
      amount: invoice.total_amount,
      currency: invoice.currency,
    });
    expect(again.json().data.outcome).toBe('duplicate');
    expect((await state(invoice.id)).payments.filter((p) => p.status === 'refunded')).toHaveLength(19);
  });

  it('staff refund a paid payment: the payment and the invoice become refunded; twice at once refunds once; unpaid → 409', async () => {
    const { invoice, subscription } = await subscribe();
    const { transactionId, payment } = await initiate(invoice.id);
    // Not paid yet: nothing to refund.
    const early = await call('POST', `/payments/${payment.id}/refund`, 'billing');
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('Only a paid payment, or one taken but not counted, can be refunded');
    await webhook({ id: 'evt_refund_me', transactionId, amount: invoice.total_amount, currency: invoice.currency });
    expect((await state(invoice.id)).invoice).toBe('paid');

    const both = await Promise.all([
      call('POST', `/payments/${payment.id}/refund`, 'billing'),
      call('POST', `/payments/${payment.id}/refund`, 'admin'),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const done = both.find((r) => r.statusCode === 200)!.json();
    expect(done).toMatchObject({
      success: true,
      message: 'Payment refunded successfully',
      data: { id: payment.id, status: 'refunded' },
    });
    expect(both.find((r) => r.statusCode === 409)!.json().message).toMatch(/already in progress|Only a paid payment/);
    const s = await state(invoice.id);
    expect(s.invoice).toBe('refunded');
    expect(s.payments).toEqual([
      { status: 'refunded', failure_reason: expect.stringMatching(/^Refunded by staff \(sbx_refund_/) },
    ]);
    // The service itself is left to staff: the subscription stays as it was.
    const [sub] = await rows<{ status: string }>(sql`select status from subscriptions where id = ${subscription.id}`);
    expect(sub.status).toBe('active');
    expect((await call('POST', `/payments/${payment.id}/refund`, 'admin')).statusCode).toBe(409);
    expect((await call('POST', '/payments/00000000-0000-4000-8000-000000000000/refund', 'admin')).statusCode).toBe(404);
    expect((await call('POST', '/payments/not-a-uuid/refund', 'admin')).statusCode).toBe(400);
    for (const who of ['support', 'technician', 'user'])
      expect((await call('POST', `/payments/${payment.id}/refund`, who)).statusCode).toBe(403);
  });

  it("staff read an invoice's payments newest first, and refund one taken at a wrong amount without touching the paid invoice", async () => {
    const { invoice } = await subscribe();
    const wrong = await initiate(invoice.id);
    expect(
      (
        await webhook({
          id: 'evt_list_wrong',
          transactionId: wrong.transactionId,
          amount: invoice.total_amount - 1,
          currency: invoice.currency,
        })
      ).statusCode,
    ).toBe(400);
    t.clock.advanceMinutes(1); // the second payment is started a minute later
    const right = await initiate(invoice.id);
    await webhook({
      id: 'evt_list_right',
      transactionId: right.transactionId,
      amount: invoice.total_amount,
      currency: invoice.currency,
    });

    for (const who of ['admin', 'billing', 'support']) {
      const listed = await call('GET', `/payments/invoices/${invoice.id}/payments`, who);
      expect(listed.statusCode, listed.body).toBe(200);
      expect(listed.json()).toMatchObject({ success: true, message: 'Payments retrieved successfully' });
      expect(listed.json().data.map((p: { id: string; status: string }) => [p.id, p.status])).toEqual([
        [right.payment.id, 'paid'],
        [wrong.payment.id, 'failed'],
      ]);
      expect(listed.json().data[1].failure_reason).toMatch(/does not match/);
    }
    for (const who of ['user', 'technician'])
      expect((await call('GET', `/payments/invoices/${invoice.id}/payments`, who)).statusCode).toBe(403);
    expect((await call('GET', `/payments/invoices/${invoice.id}/payments`)).statusCode).toBe(401);
    expect(
      (await call('GET', '/payments/invoices/00000000-0000-4000-8000-000000000000/payments', 'billing')).statusCode,
    ).toBe(404);
    expect((await call('GET', '/payments/invoices/not-a-uuid/payments', 'billing')).statusCode).toBe(400);

    // The wrong-amount payment was taken but never counted: staff give it back; the invoice stays paid.
    const refund = await call('POST', `/payments/${wrong.payment.id}/refund`, 'billing');
    expect(refund.statusCode, refund.body).toBe(200);
    expect(refund.json().data).toMatchObject({
      status: 'refunded',
      failure_reason: expect.stringMatching(/does not match.*; refunded by staff \(sbx_refund_/),
    });
    const s = await state(invoice.id);
    expect(s).toMatchObject({ invoice: 'paid', subscription: 'active', paid: 1 });
    expect((await call('POST', `/payments/${wrong.payment.id}/refund`, 'admin')).statusCode).toBe(409);
  });

  it('manual payment: billing/admin record cash or bank transfer through the same path; support and users 403', async () => {
    const { invoice } = await subscribe();
    const body = { amount: invoice.total_amount, payment_method: 'bank_transfer', reference: 'BT-2026-0001' };
    for (const who of ['support', 'technician', 'user'])
      expect((await call('POST', `/payments/invoices/${invoice.id}/manual`, who, body)).statusCode).toBe(403);
    expect((await call('POST', `/payments/invoices/${invoice.id}/manual`, undefined, body)).statusCode).toBe(401);
    const invalid = await call('POST', `/payments/invoices/${invoice.id}/manual`, 'billing', {
      amount: -1,
      payment_method: 'card',
      reference: '',
    });
    expect(invalid.statusCode).toBe(400);
    const wrong = await call('POST', `/payments/invoices/${invoice.id}/manual`, 'billing', { ...body, amount: 100 });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Payment amount does not match the invoice');
    expect((await state(invoice.id)).invoice).toBe('unpaid');

    const ok = await call('POST', `/payments/invoices/${invoice.id}/manual`, 'billing', body);
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({
      success: true,
      message: 'Payment recorded successfully',
      data: {
        status: 'paid',
        provider: 'manual',
        payment_method: 'bank_transfer',
        reference: 'BT-2026-0001',
        amount: invoice.total_amount,
      },
    });
    expect(await state(invoice.id)).toMatchObject({ invoice: 'paid', subscription: 'active', paid: 1 });
    const twice = await call('POST', `/payments/invoices/${invoice.id}/manual`, 'admin', {
      ...body,
      payment_method: 'cash',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('This invoice is already paid');
    expect(
      (await call('POST', `/payments/invoices/00000000-0000-4000-8000-000000000000/manual`, 'admin', body)).statusCode,
    ).toBe(404);

    const { invoice: second } = await subscribe();
    expect(
      (await call('POST', `/payments/invoices/${second.id}/manual`, 'super_admin', { ...body, payment_method: 'cash' }))
        .statusCode,
    ).toBe(201);
  });

  it('a suspended subscription is reactivated when its invoice is paid', async () => {
    const { invoice, subscription } = await subscribe();
    await t.database.db.execute(
      sql`update subscriptions set status = 'suspended', suspension_reason = 'overdue' where id = ${subscription.id}`,
    );
    const { transactionId } = await initiate(invoice.id);
    expect(
      (await webhook({ id: 'evt_reactivate', transactionId, amount: invoice.total_amount, currency: invoice.currency }))
        .statusCode,
    ).toBe(200);
    const [sub] = await rows<{ status: string; suspension_reason: string | null }>(
      sql`select status, suspension_reason from subscriptions where id = ${subscription.id}`,
    );
    expect(sub).toEqual({ status: 'active', suspension_reason: null });
  });
});
