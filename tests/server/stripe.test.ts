/**
 * The Stripe adapter end to end: the portal's Stripe SDK talks to a local fake of the Stripe API (real request
 * and response formats: form-encoded bodies, Bearer secret key, checkout.session / refund JSON objects), and
 * webhooks are signed with the SDK's own test header generator.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { createPaymentProviders, parseStripeApiBase } from '../../server/integrations/payments';
import { bearer, createTestApp, testConfig, type TestApp } from '../helpers/server';

const SECRET_KEY = 'sk_test_51FakeKeyForThePortalTests0000';
const WEBHOOK_SECRET = 'whsec_portal_stripe_test_secret_0123';
const baseEnv = {
  NODE_ENV: 'test',
  JWT_SECRET: 'test-jwt-secret-0123456789abcdefghijklmnop',
  COOKIE_SECRET: 'test-cookie-secret-0123456789abcdefghijklmn',
  SECRETS_KEY: 'test-secrets-key-0123456789abcdefghijklmnopq',
} as const;

interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}

/** A minimal Stripe API: Checkout Sessions (create, retrieve) and Refunds, answering like Stripe does. */
function fakeStripe() {
  const sessions = new Map<string, Record<string, unknown>>();
  const requests: FakeRequest[] = [];
  let failNext: { status: number; type: string; message: string } | null = null;
  const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
  const stripeError = (status: number, type: string, message: string) => ({
    status,
    body: { error: { type, message } },
  });

  function handle(req: FakeRequest): { status: number; body: unknown } {
    if (req.headers.authorization !== `Bearer ${SECRET_KEY}`)
      return stripeError(401, 'invalid_request_error', 'Invalid API Key provided');
    if (failNext) {
      const f = failNext;
      failNext = null;
      return stripeError(f.status, f.type, f.message);
    }
    if (req.method === 'POST' && req.path === '/v1/checkout/sessions') {
      const f = req.form;
      const sessionId = id('cs_test');
      const session = {
        id: sessionId,
        object: 'checkout.session',
        amount_subtotal:
          Number(f.get('line_items[0][price_data][unit_amount]')) * Number(f.get('line_items[0][quantity]')),
        amount_total:
          Number(f.get('line_items[0][price_data][unit_amount]')) * Number(f.get('line_items[0][quantity]')),
        cancel_url: f.get('cancel_url'),
        client_reference_id: f.get('client_reference_id'),
        created: Math.floor(Date.now() / 1000),
        currency: f.get('line_items[0][price_data][currency]'),
        customer: null,
        expires_at: Math.floor(Date.now() / 1000) + 86_400,
        livemode: false,
        metadata: { invoice_id: f.get('metadata[invoice_id]'), payment_id: f.get('metadata[payment_id]') },
        mode: f.get('mode'),
        payment_intent: null,
        payment_status: 'unpaid',
        status: 'open',
        success_url: f.get('success_url'),
        url: `https://checkout.stripe.com/c/pay/${sessionId}#fidkdWxOYHwnPyd1blpxYHZxWjA0`,
      };
      sessions.set(sessionId, session);
      return { status: 200, body: session };
    }
    const m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && m) {
      const session = sessions.get(decodeURIComponent(m[1]));
      return session
        ? { status: 200, body: session }
        : stripeError(404, 'invalid_request_error', `No such checkout.session: '${m[1]}'`);
    }
    if (req.method === 'POST' && req.path === '/v1/refunds') {
      const intent = req.form.get('payment_intent');
      const session = [...sessions.values()].find((s) => s.payment_intent === intent);
      if (!session) return stripeError(404, 'invalid_request_error', `No such payment_intent: '${intent}'`);
      const amount = req.form.has('amount') ? Number(req.form.get('amount')) : (session.amount_total as number);
      return {
        status: 200,
        body: {
          id: id('re'),
          object: 'refund',
          amount,
          currency: session.currency,
          payment_intent: intent,
          status: 'succeeded',
          created: Math.floor(Date.now() / 1000),
        },
      };
    }
    return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${req.path})`);
  }

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stripe.fake');
      const body = Buffer.concat(chunks).toString('utf8');
      const req: FakeRequest = {
        method: request.method ?? 'GET',
        path: url.pathname,
        headers: request.headers,
        form: new URLSearchParams(request.method === 'GET' ? url.search : body),
      };
      requests.push(req);
      const answer = handle(req);
      response.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': id('req') });
      response.end(JSON.stringify(answer.body));
    });
  });

  return {
    server,
    sessions,
    requests,
    failNextWith(status: number, type: string, message: string) {
      failNext = { status, type, message };
    },
    /** The payer finished paying: Stripe marks the session complete and paid and attaches the PaymentIntent. */
    pay(sessionId: string, paymentStatus: 'paid' | 'unpaid' = 'paid') {
      const s = sessions.get(sessionId)!;
      Object.assign(s, { status: 'complete', payment_status: paymentStatus, payment_intent: id('pi') });
      return s;
    },
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
  };
}

describe('Stripe provider', () => {
  const fake = fakeStripe();
  let base: string;
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let planId: string;

  beforeAll(async () => {
    base = await fake.listen();
    t = await createTestApp({ config: { stripeApiBase: base } });
    for (const role of ['admin', 'user'] as const) {
      await t.createUser({ email: `${role}@example.com`, role, name: role === 'user' ? 'Ada Customer' : 'Admin' });
      tokens[role] = (await t.login(`${role}@example.com`)).token;
    }
    const gateway = await call('POST', '/payments/gateways', 'admin', {
      name: 'Stripe',
      provider: 'stripe',
      mode: 'test',
      credentials: { secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET },
      is_active: true,
    });
    expect(gateway.statusCode, gateway.body).toBe(201);
    const plan = await call('POST', '/plans', 'admin', {
      name: 'Fiber 300',
      download_mbps: 300,
      upload_mbps: 100,
      price: 5999,
      setup_fee: 1000,
      billing_cycle: 'monthly',
    });
    expect(plan.statusCode, plan.body).toBe(201);
    planId = plan.json().data.id;
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => fake.server.close(resolve));
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });

  function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who?: string, payload?: unknown) {
    return t.app.inject({
      method,
      url: `/api${url}`,
      headers: who ? bearer(tokens[who]) : {},
      payload: payload as object,
    });
  }
  const rows = <T = Record<string, unknown>>(query: ReturnType<typeof sql>) => t.rows<T>(query);
  let customers = 0;
  /**
   * A pending order for a new customer, who becomes the 'user' account of the test that called it: a customer may
   * have only one open order at a time (issue 31), and several tests leave theirs unpaid.
   */
  async function subscribe() {
    const email = `customer${++customers}@example.com`;
    await t.createUser({ email, name: 'Ada Customer' });
    tokens.user = (await t.login(email)).token;
    const r = await call('POST', '/subscriptions', 'user', { plan_id: planId });
    expect(r.statusCode, r.body).toBe(201);
    return r.json().data as {
      subscription: { id: string };
      invoice: { id: string; number: string; total_amount: number; currency: string };
    };
  }
  async function payWithStripe(invoiceId: string) {
    const r = await call('POST', '/payments/initiate', 'user', { invoice_id: invoiceId, payment_method: 'stripe' });
    expect(r.statusCode, r.body).toBe(201);
    return r.json().data as {
      paymentUrl: string;
      transactionId: string;
      payment: { id: string; provider: string; status: string };
    };
  }
  /** A Stripe event for a session, signed with the SDK's test header generator at the portal's time. */
  function webhook(type: string, object: Record<string, unknown>, options: { secret?: string; eventId?: string } = {}) {
    const payload = JSON.stringify({
      id: options.eventId ?? `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(t.clock.now().getTime() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? WEBHOOK_SECRET,
      timestamp: Math.floor(t.clock.now().getTime() / 1000),
    });
    return {
      payload,
      send: () =>
        t.app.inject({
          method: 'POST',
          url: '/api/payments/webhooks/stripe',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          payload,
        }),
    };
  }
  const state = async (invoiceId: string) => {
    const invoice = (await call('GET', `/payments/invoices/${invoiceId}`)).json().data;
    const subscription = (await call('GET', `/subscriptions/${invoice.subscription_id}`, 'user')).json().data;
    const payments = await rows<{ status: string; failure_reason: string | null }>(
      sql`select status, failure_reason from payments where invoice_id = ${invoiceId} order by created_at`,
    );
    return { invoice: invoice.status as string, subscription: subscription.status as string, payments };
  };

  it('initiate creates a Checkout Session with the invoice total, currency, metadata and return URLs; the payer is sent to its url', async () => {
    const { invoice } = await subscribe();
    expect(invoice.total_amount).toBe(6999);
    const data = await payWithStripe(invoice.id);
    expect(data.transactionId).toMatch(/^cs_test_/);
    expect(data.paymentUrl).toBe(fake.sessions.get(data.transactionId)!.url);
    expect(data.payment).toMatchObject({ provider: 'stripe', status: 'pending' });

    const [request] = fake.requests;
    expect(fake.requests).toHaveLength(1);
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/checkout/sessions');
    expect(request.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(request.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(request.headers['idempotency-key']).toBe(`checkout_${data.payment.id}`);
    const f = request.form;
    expect(f.get('mode')).toBe('payment');
    expect(f.get('line_items[0][quantity]')).toBe('1');
    expect(f.get('line_items[0][price_data][unit_amount]')).toBe('6999');
    expect(f.get('line_items[0][price_data][currency]')).toBe('usd');
    expect(f.get('line_items[0][price_data][product_data][name]')).toContain(invoice.number);
    expect(f.get('client_reference_id')).toBe(invoice.id);
    expect(f.get('metadata[invoice_id]')).toBe(invoice.id);
    expect(f.get('metadata[payment_id]')).toBe(data.payment.id);
    expect(f.get('success_url')).toBe(`http://portal.test/invoice/${invoice.id}?payment=success`);
    expect(f.get('cancel_url')).toBe(`http://portal.test/invoice/${invoice.id}?payment=cancelled`);
  });

  it('checkout.session.completed (paid) → invoice paid, subscription active; a replay changes nothing', async () => {
    const { invoice, subscription } = await subscribe();
    const { transactionId } = await payWithStripe(invoice.id);
    expect(await state(invoice.id)).toMatchObject({ invoice: 'unpaid', subscription: 'pending' });

    const event = webhook('checkout.session.completed', fake.pay(transactionId));
    const first = await event.send();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      success: true,
      data: { received: true, outcome: 'paid', payment: { status: 'paid', amount: 6999, currency: 'USD' } },
    });
    expect(await state(invoice.id)).toMatchObject({
      invoice: 'paid',
      subscription: 'active',
      payments: [{ status: 'paid' }],
    });
    expect(
      (await call('GET', `/subscriptions/${subscription.id}`, 'user')).json().data.current_period_end,
    ).toBeTruthy();

    const replay = await event.send();
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toMatchObject({ message: 'Event already processed', data: { outcome: 'duplicate' } });
    expect((await state(invoice.id)).payments).toEqual([{ status: 'paid', failure_reason: null }]);
    expect(await rows(sql`select * from webhook_events where transaction_id = ${transactionId}`)).toHaveLength(1);
  });

  it('a bad signature is refused with 400 and changes nothing', async () => {
    const { invoice } = await subscribe();
    const { transactionId } = await payWithStripe(invoice.id);
    const session = fake.pay(transactionId);
    const forged = await webhook('checkout.session.completed', session, { secret: 'whsec_somebody_else' }).send();
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ success: false, message: 'Invalid webhook signature' });
    // A body changed after signing fails too.
    const genuine = webhook('checkout.session.completed', session);
    const tampered = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/stripe',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({
          payload: genuine.payload,
          secret: WEBHOOK_SECRET,
          timestamp: Math.floor(t.clock.now().getTime() / 1000),
        }),
      },
      payload: genuine.payload.replace('"amount_total":6999', '"amount_total":6990'),
    });
    expect(tampered.statusCode).toBe(400);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/stripe',
      headers: { 'content-type': 'application/json' },
      payload: genuine.payload,
    });
    expect(unsigned.statusCode).toBe(400);
    // A genuine signature from 10 minutes ago (a captured request replayed) is outside Stripe's 5-minute tolerance.
    const stale = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/stripe',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({
          payload: genuine.payload,
          secret: WEBHOOK_SECRET,
          timestamp: Math.floor(t.clock.now().getTime() / 1000) - 600,
        }),
      },
      payload: genuine.payload,
    });
    expect(stale.statusCode).toBe(400);
    expect(await state(invoice.id)).toMatchObject({
      invoice: 'unpaid',
      subscription: 'pending',
      payments: [{ status: 'pending' }],
    });
    expect(await rows(sql`select * from webhook_events where transaction_id = ${transactionId}`)).toHaveLength(0);

    // The genuine event still goes through afterwards.
    expect((await genuine.send()).json().data.outcome).toBe('paid');
  });

  it('a signed event whose amount or currency differs from the invoice is rejected: the payment fails, the invoice stays unpaid', async () => {
    const { invoice } = await subscribe();
    const { transactionId } = await payWithStripe(invoice.id);
    const session = { ...fake.pay(transactionId), amount_total: 100 };
    const answer = await webhook('checkout.session.completed', session).send();
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ success: false, message: 'Payment amount does not match the invoice' });
    expect(await state(invoice.id)).toMatchObject({
      invoice: 'unpaid',
      subscription: 'pending',
      payments: [{ status: 'failed', failure_reason: 'Amount or currency does not match the invoice' }],
    });

    const { transactionId: second } = await payWithStripe(invoice.id);
    const euros = await webhook('checkout.session.completed', { ...fake.pay(second), currency: 'eur' }).send();
    expect(euros.statusCode).toBe(400);
    expect((await state(invoice.id)).invoice).toBe('unpaid');
  });

  it('an unhandled but validly signed event type answers 200 "ignored" and records nothing; an unpaid completion waits for the async result', async () => {
    const { invoice } = await subscribe();
    const { transactionId } = await payWithStripe(invoice.id);
    const other = await webhook('payment_intent.created', {
      id: 'pi_123',
      object: 'payment_intent',
      amount: 6999,
      currency: 'usd',
    }).send();
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json()).toMatchObject({ success: true, data: { received: true, outcome: 'ignored', payment: null } });

    // Bank debits: completed while still unpaid (ignored), then async_payment_succeeded completes the payment.
    const pending = await webhook('checkout.session.completed', fake.pay(transactionId, 'unpaid')).send();
    expect(pending.statusCode).toBe(200);
    expect(pending.json().data.outcome).toBe('ignored');
    expect(await state(invoice.id)).toMatchObject({ invoice: 'unpaid', payments: [{ status: 'pending' }] });
    expect(await rows(sql`select * from webhook_events where transaction_id = ${transactionId}`)).toHaveLength(0);

    const session = fake.pay(transactionId, 'paid');
    const succeeded = await webhook('checkout.session.async_payment_succeeded', session).send();
    expect(succeeded.json().data.outcome).toBe('paid');
    expect(await state(invoice.id)).toMatchObject({ invoice: 'paid', subscription: 'active' });
  });

  it('checkout.session.expired marks the pending payment expired, async_payment_failed fails it; the invoice stays payable', async () => {
    const { invoice } = await subscribe();
    const { transactionId } = await payWithStripe(invoice.id);
    const expired = await webhook('checkout.session.expired', {
      ...fake.sessions.get(transactionId)!,
      status: 'expired',
    }).send();
    expect(expired.statusCode).toBe(200);
    // An abandoned checkout is "Expired" (issue 31), not a declined payment.
    expect(await state(invoice.id)).toMatchObject({
      invoice: 'unpaid',
      payments: [{ status: 'expired', failure_reason: null }],
    });

    const { transactionId: second } = await payWithStripe(invoice.id);
    const failed = await webhook('checkout.session.async_payment_failed', fake.pay(second, 'unpaid')).send();
    expect(failed.statusCode).toBe(200);
    expect((await state(invoice.id)).payments.map((p) => p.status).sort()).toEqual(['expired', 'failed']);
    expect((await state(invoice.id)).invoice).toBe('unpaid');
  });

  it('a second payment of a paid invoice whose automatic refund Stripe refuses stays owed; staff refund it later, the invoice stays paid', async () => {
    const { invoice } = await subscribe();
    const first = await payWithStripe(invoice.id);
    t.clock.advanceMinutes(1); // a second tab, a minute later
    const second = await payWithStripe(invoice.id);
    expect(
      (await webhook('checkout.session.completed', fake.pay(first.transactionId)).send()).json().data.outcome,
    ).toBe('paid');

    fake.failNextWith(400, 'invalid_request_error', 'Refunds are temporarily disabled on this account.');
    const late = await webhook('checkout.session.completed', fake.pay(second.transactionId)).send();
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json()).toMatchObject({
      message: 'The invoice was already paid; this payment was not counted and needs a refund',
      data: { outcome: 'not_counted' },
    });
    expect((await state(invoice.id)).payments).toEqual([
      { status: 'paid', failure_reason: null },
      { status: 'failed', failure_reason: 'Invoice already paid: not counted, refund needed' },
    ]);

    const listed = (await call('GET', `/payments/invoices/${invoice.id}/payments`, 'admin')).json().data;
    expect(listed.map((p: { id: string; status: string }) => [p.id, p.status])).toEqual([
      [second.payment.id, 'failed'],
      [first.payment.id, 'paid'],
    ]);
    fake.requests.length = 0;
    const refund = await call('POST', `/payments/${second.payment.id}/refund`, 'admin');
    expect(refund.statusCode, refund.body).toBe(200);
    expect(refund.json().data).toMatchObject({
      status: 'refunded',
      failure_reason: expect.stringMatching(
        /^Invoice already paid: not counted, refund needed; refunded by staff \(re_/,
      ),
    });
    expect(fake.requests.filter((r) => r.path === '/v1/refunds')).toHaveLength(1);
    expect(await state(invoice.id)).toMatchObject({ invoice: 'paid', subscription: 'active' });
    expect((await call('POST', `/payments/${second.payment.id}/refund`, 'admin')).statusCode).toBe(409);
  });

  it('a Stripe API error answers 502 and leaves no payment behind', async () => {
    const { invoice } = await subscribe();
    fake.failNextWith(400, 'invalid_request_error', 'Amount must convert to at least 50 cents.');
    const r = await call('POST', '/payments/initiate', 'user', { invoice_id: invoice.id, payment_method: 'stripe' });
    expect(r.statusCode).toBe(502);
    expect(r.json()).toMatchObject({
      success: false,
      message: 'The payment provider is unavailable, please try again later',
    });
    expect((await state(invoice.id)).payments).toEqual([]);
  });

  it('STRIPE_API_BASE must be an http(s) URL and becomes the SDK address', () => {
    expect(testConfig().stripeApiBase).toBeNull();
    expect(loadConfig({ ...baseEnv, STRIPE_API_BASE: 'http://127.0.0.1:12111' }).stripeApiBase).toBe(
      'http://127.0.0.1:12111',
    );
    expect(() => loadConfig({ ...baseEnv, STRIPE_API_BASE: 'api.stripe.com' })).toThrow(
      /STRIPE_API_BASE must be an http:\/\/ or https:\/\/ URL/,
    );
    expect(parseStripeApiBase('http://127.0.0.1:12111')).toEqual({ protocol: 'http', host: '127.0.0.1', port: 12111 });
    expect(parseStripeApiBase('https://stripe-mock.internal')).toEqual({
      protocol: 'https',
      host: 'stripe-mock.internal',
      port: 443,
    });
  });

  it('fetchStatus reads the session; refund refunds its PaymentIntent', async () => {
    const address = new URL(base);
    const stripe = createPaymentProviders({
      baseUrl: 'http://portal.test',
      stripe: { protocol: 'http', host: address.hostname, port: Number(address.port) },
    }).get('stripe')!;
    const credentials = { secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET };
    const { transactionId } = await stripe.createCheckout({
      invoice: {
        id: '11111111-1111-4111-8111-111111111111',
        number: 'INV-900001',
        total_amount: 2500,
        currency: 'EUR',
      },
      payment: { id: '22222222-2222-4222-8222-222222222222', amount: 2500 },
      returnUrl: 'http://portal.test/invoice/11111111-1111-4111-8111-111111111111',
      credentials,
      mode: 'test',
    });
    expect(await stripe.fetchStatus(transactionId, credentials)).toBe('pending');
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v1/checkout/sessions/${transactionId}` });
    const session = fake.pay(transactionId);
    expect(await stripe.fetchStatus(transactionId, credentials)).toBe('succeeded');

    const { refundId } = await stripe.refund(transactionId, 1000, credentials);
    expect(refundId).toMatch(/^re_/);
    const refundRequest = fake.requests.at(-1)!;
    expect(refundRequest).toMatchObject({ method: 'POST', path: '/v1/refunds' });
    expect(refundRequest.form.get('payment_intent')).toBe(session.payment_intent);
    expect(refundRequest.form.get('amount')).toBe('1000');

    fake.sessions.get(transactionId)!.status = 'expired';
    fake.sessions.get(transactionId)!.payment_status = 'unpaid';
    expect(await stripe.fetchStatus(transactionId, credentials)).toBe('failed');
    await expect(stripe.fetchStatus(transactionId, { secret_key: 'sk_test_wrong' })).rejects.toMatchObject({
      statusCode: 502,
    });
  });
});
