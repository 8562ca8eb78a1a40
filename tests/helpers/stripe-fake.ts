/**
 * A local fake of the Stripe API for the saved-card (autopay) tests, answering in Stripe's wire format
 * (form-encoded requests with a Bearer secret key, JSON objects and Stripe's error JSON): Customers, Checkout
 * Sessions in setup mode, SetupIntents (retrieve, expand payment_method), off-session PaymentIntents that succeed,
 * are declined or require authentication (402 card_error with the PaymentIntent), Refunds on a PaymentIntent, and
 * Idempotency-Key replays.
 * Webhooks are signed by the tests with Stripe.webhooks.generateTestHeaderString.
 */
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { Response as LightMyRequestResponse } from 'light-my-request';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeStripeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}

/** How a saved test card behaves when charged off-session. */
export type FakeCardBehaviour = 'succeeds' | 'card_declined' | 'expired_card' | 'authentication_required';

const MESSAGES: Record<Exclude<FakeCardBehaviour, 'succeeds'>, string> = {
  card_declined: 'Your card was declined.',
  expired_card: 'Your card has expired.',
  authentication_required: 'Your card was declined. This transaction requires authentication.',
};

export function stripeSetupFake(secretKey: string) {
  const customers = new Map<string, Record<string, unknown>>();
  const sessions = new Map<string, Record<string, unknown>>();
  const setupIntents = new Map<string, Record<string, unknown>>();
  const methods = new Map<string, Record<string, unknown> & { behaviour: FakeCardBehaviour }>();
  const intents = new Map<string, Record<string, unknown>>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const refunds: Array<{ id: string; amount: number; payment_intent: unknown }> = [];
  const requests: FakeStripeRequest[] = [];
  const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
  const now = () => Math.floor(Date.now() / 1000);
  const error = (status: number, body: Record<string, unknown>) => ({ status, body: { error: body } });
  const metadata = (form: URLSearchParams, key = 'metadata') =>
    Object.fromEntries(
      [...form.entries()].filter(([k]) => k.startsWith(`${key}[`)).map(([k, v]) => [k.slice(key.length + 1, -1), v]),
    );

  function handle(req: FakeStripeRequest): { status: number; body: unknown } {
    if (req.headers.authorization !== `Bearer ${secretKey}`)
      return error(401, { type: 'invalid_request_error', message: 'Invalid API Key provided' });
    const f = req.form;
    if (req.method === 'POST' && req.path === '/v1/customers') {
      const customer = {
        id: id('cus'),
        object: 'customer',
        email: f.get('email'),
        name: f.get('name'),
        metadata: metadata(f),
        created: now(),
        livemode: false,
      };
      customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    if (req.method === 'POST' && req.path === '/v1/checkout/sessions') {
      if (f.get('mode') !== 'setup')
        return error(400, { type: 'invalid_request_error', message: 'This fake only knows setup mode' });
      if (!customers.has(f.get('customer') ?? ''))
        return error(400, {
          type: 'invalid_request_error',
          message: `No such customer: '${f.get('customer')}'`,
          param: 'customer',
        });
      const sessionId = id('cs_test');
      const session = {
        id: sessionId,
        object: 'checkout.session',
        mode: 'setup',
        customer: f.get('customer'),
        client_reference_id: f.get('client_reference_id'),
        metadata: metadata(f),
        payment_method_types: [f.get('payment_method_types[0]') ?? f.get('allowed_payment_method_types[0]') ?? 'card'],
        payment_status: 'no_payment_required',
        setup_intent: null as string | null,
        status: 'open',
        success_url: f.get('success_url'),
        cancel_url: f.get('cancel_url'),
        url: `https://checkout.stripe.com/c/setup/${sessionId}`,
        created: now(),
        livemode: false,
      };
      sessions.set(sessionId, session);
      return { status: 200, body: session };
    }
    const seti = /^\/v1\/setup_intents\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && seti) {
      const intent = setupIntents.get(decodeURIComponent(seti[1]));
      if (!intent)
        return error(404, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such setupintent: '${seti[1]}'`,
        });
      const expand = [...f.entries()].filter(([k]) => k.startsWith('expand')).map(([, v]) => v);
      const pm = methods.get(intent.payment_method as string)!;
      const { behaviour: _behaviour, ...wire } = pm;
      return { status: 200, body: { ...intent, payment_method: expand.includes('payment_method') ? wire : pm.id } };
    }
    if (req.method === 'POST' && req.path === '/v1/payment_intents') {
      const pm = methods.get(f.get('payment_method') ?? '');
      if (!pm)
        return error(400, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such PaymentMethod: '${f.get('payment_method')}'`,
          param: 'payment_method',
        });
      const intent: Record<string, unknown> = {
        id: id('pi'),
        object: 'payment_intent',
        amount: Number(f.get('amount')),
        amount_received: 0,
        currency: f.get('currency'),
        customer: f.get('customer'),
        payment_method: pm.id,
        metadata: metadata(f),
        created: now(),
        livemode: false,
        last_payment_error: null,
      };
      intents.set(intent.id as string, intent);
      if (pm.behaviour === 'succeeds') {
        Object.assign(intent, { status: 'succeeded', amount_received: intent.amount });
        return { status: 200, body: intent };
      }
      const code = pm.behaviour;
      const lastError = {
        code,
        ...(code === 'card_declined' ? { decline_code: 'generic_decline' } : {}),
        message: MESSAGES[code],
        type: 'card_error',
      };
      Object.assign(intent, {
        status: code === 'authentication_required' ? 'requires_action' : 'requires_payment_method',
        last_payment_error: lastError,
      });
      return error(402, {
        ...lastError,
        doc_url: `https://docs.stripe.com/error-codes/${code.replace(/_/g, '-')}`,
        request_log_url: 'https://dashboard.stripe.com/test/logs/req_x',
        payment_intent: intent,
        payment_method: { id: pm.id, object: 'payment_method' },
      });
    }
    const detach = /^\/v1\/payment_methods\/([^/]+)\/detach$/.exec(req.path);
    if (req.method === 'POST' && detach) {
      const pm = methods.get(decodeURIComponent(detach[1]));
      if (!pm)
        return error(404, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such PaymentMethod: '${detach[1]}'`,
          param: 'payment_method',
        });
      if (!pm.customer)
        return error(400, {
          type: 'invalid_request_error',
          code: 'payment_method_unexpected_state',
          message: 'The payment method you provided is not attached to a customer so detachment is impossible.',
        });
      pm.customer = null;
      const { behaviour: _b, ...wire } = pm;
      return { status: 200, body: wire };
    }
    if (req.method === 'POST' && req.path === '/v1/refunds') {
      const intent = intents.get(f.get('payment_intent') ?? '');
      if (!intent)
        return error(400, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such payment_intent: '${f.get('payment_intent')}'`,
          param: 'payment_intent',
        });
      if (intent.status !== 'succeeded')
        return error(400, {
          type: 'invalid_request_error',
          code: 'charge_not_refundable',
          message: 'This PaymentIntent has no successful charge to refund.',
        });
      const amount = Number(f.get('amount') ?? intent.amount);
      const refund = {
        id: id('re'),
        object: 'refund',
        amount,
        currency: intent.currency,
        payment_intent: intent.id,
        status: 'succeeded',
        created: now(),
      };
      refunds.push(refund);
      return { status: 200, body: refund };
    }
    return error(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${req.method}: ${req.path})`,
    });
  }

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stripe.fake');
      const body = Buffer.concat(chunks).toString('utf8');
      const req: FakeStripeRequest = {
        method: request.method ?? 'GET',
        path: url.pathname,
        headers: request.headers,
        form: new URLSearchParams(request.method === 'GET' ? url.search : body),
      };
      requests.push(req);
      // Stripe answers a repeated Idempotency-Key with the first answer (errors included).
      const key = request.method === 'POST' ? request.headers['idempotency-key'] : undefined;
      const cacheKey = typeof key === 'string' ? `${req.path} ${key}` : null;
      const answer = (cacheKey && idempotent.get(cacheKey)) || handle(req);
      if (cacheKey) idempotent.set(cacheKey, answer);
      response.writeHead(answer.status, {
        'content-type': 'application/json',
        'request-id': id('req'),
        ...(cacheKey && idempotent.has(cacheKey) ? { 'idempotency-key': String(key) } : {}),
      });
      response.end(JSON.stringify(answer.body));
    });
  });

  return {
    server,
    requests,
    customers,
    sessions,
    intents,
    /** Saved cards by id (customer null once detached). */
    methods,
    /** Refunds made (POST /v1/refunds on a succeeded PaymentIntent). */
    refunds,
    /** The customer entered a card on the set-up page: a succeeded SetupIntent with that card on the session. */
    completeSetup(
      sessionId: string,
      card: {
        brand?: string;
        last4?: string;
        exp_month?: number;
        exp_year?: number;
        behaviour?: FakeCardBehaviour;
      } = {},
    ) {
      const session = sessions.get(sessionId)!;
      const pm = {
        id: id('pm'),
        object: 'payment_method',
        type: 'card',
        customer: session.customer,
        card: {
          brand: card.brand ?? 'visa',
          last4: card.last4 ?? '4242',
          exp_month: card.exp_month ?? 12,
          exp_year: card.exp_year ?? 2030,
          funding: 'credit',
          country: 'US',
        },
        created: now(),
        livemode: false,
        behaviour: card.behaviour ?? 'succeeds',
      };
      methods.set(pm.id, pm);
      const intent = {
        id: id('seti'),
        object: 'setup_intent',
        customer: session.customer,
        payment_method: pm.id,
        status: 'succeeded',
        usage: 'off_session',
        metadata: session.metadata,
        created: now(),
        livemode: false,
      };
      setupIntents.set(intent.id, intent);
      Object.assign(session, { status: 'complete', setup_intent: intent.id });
      return { session, paymentMethodId: pm.id };
    },
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
  };
}

/** A Stripe webhook as Stripe sends it: the event envelope around `object`, signed with the SDK's test header generator. */
export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  secret: string,
  at: Date,
  eventId = `evt_${randomBytes(12).toString('hex')}`,
) {
  const created = Math.floor(at.getTime() / 1000);
  const payload = JSON.stringify({
    id: eventId,
    object: 'event',
    api_version: '2026-10-28.endive',
    created,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: created });
  return { payload, headers: { 'content-type': 'application/json', 'stripe-signature': signature } };
}

/**
 * Stripe's signed webhooks posted to the portal: `webhook(type, object, eventId?)` gives the request to send
 * (a function, so a test can send it several times or race it), signed with `secret` at the clock's time.
 */
export function stripeWebhooks(
  app: () => {
    inject: (options: {
      method: 'POST';
      url: string;
      headers: Record<string, string>;
      payload: string;
    }) => Promise<LightMyRequestResponse>;
  },
  secret: string,
  clock: { now(): Date },
) {
  return (type: string, object: Record<string, unknown>, eventId?: string) => {
    const { payload, headers } = stripeEvent(type, object, secret, clock.now(), eventId);
    return () => app().inject({ method: 'POST', url: '/api/payments/webhooks/stripe', headers, payload });
  };
}
