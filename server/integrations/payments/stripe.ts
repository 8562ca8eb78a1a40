/**
 * Stripe, through the official SDK: a hosted Checkout Session per payment (mode "payment", one line item: the
 * invoice number and its total in minor units), webhooks verified with the SDK's constructEvent over the raw
 * body (header `stripe-signature`, the gateway's webhook_secret), status read from the session, refunds made on
 * the session's PaymentIntent. The gateway's credentials are secret_key (sk_test_… / sk_live_…) and
 * webhook_secret (whsec_…). The payment's transaction id is the Checkout Session id (cs_…).
 *
 * Events: checkout.session.completed with payment_status "paid" and checkout.session.async_payment_succeeded
 * complete the payment (amount_total and currency are checked against the invoice by the shared completion
 * path); checkout.session.async_payment_failed fails it and checkout.session.expired expires it. Any other validly signed
 * event (including checkout.session.completed still "unpaid", which an async_payment_* event follows) throws
 * WebhookEventIgnored: the webhook route answers 200 so Stripe does not retry it, and nothing is recorded.
 *
 * The API address can be changed (STRIPE_API_BASE) so tests and local development talk to a fake Stripe.
 */
import Stripe from 'stripe';
import { AppError } from '../../lib/errors';
import {
  WebhookVerificationError,
  type PaymentEvent,
  type PaymentProviderAdapter,
  type ProviderPaymentStatus,
} from './provider';

export const STRIPE_SIGNATURE_HEADER = 'stripe-signature';

/** Where the SDK sends its requests; unset fields keep Stripe's own (https://api.stripe.com:443). */
export interface StripeApiAddress {
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

/** "http://127.0.0.1:12111" → {protocol, host, port} for the SDK. */
export function parseStripeApiBase(base: string): StripeApiAddress {
  const url = new URL(base);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { protocol, host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443 };
}

/**
 * A validly signed webhook whose event type the portal does not act on. The webhook route answers 200 with
 * outcome "ignored" (a provider retries any other status) and records nothing.
 */
export class WebhookEventIgnored extends Error {
  constructor(
    readonly eventId: string,
    readonly eventType: string,
  ) {
    super(`Event ${eventType} ignored`);
    this.name = 'WebhookEventIgnored';
  }
}

export const STRIPE_UNAVAILABLE = 'The payment provider is unavailable, please try again later';

function withQuery(url: string, key: string, value: string): string {
  const u = new URL(url);
  u.searchParams.set(key, value);
  return u.toString();
}

const headerValue = (h: string | string[] | undefined) => (Array.isArray(h) ? h[0] : h);

type Session = Stripe.Checkout.Session;

export function createStripeProvider(
  options: { api?: StripeApiAddress; now?: () => Date } = {},
): PaymentProviderAdapter {
  const now = options.now ?? (() => new Date());
  const client = (credentials: Record<string, string>): Stripe => {
    const key = credentials.secret_key;
    if (!key) throw new AppError(502, 'The Stripe gateway has no secret key');
    return new Stripe(key, { ...options.api, maxNetworkRetries: 1, timeout: 20_000, telemetry: false });
  };
  /** Stripe API failures reach the payer as 502 with a generic message; the cause is logged by the error handler. */
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof AppError) throw error;
      const wrapped = new AppError(502, STRIPE_UNAVAILABLE);
      wrapped.cause = error;
      throw wrapped;
    }
  };

  return {
    id: 'stripe',

    async createCheckout({ invoice, payment, returnUrl, credentials }) {
      const stripe = client(credentials);
      const metadata = { invoice_id: invoice.id, payment_id: payment.id };
      const session = await call(() =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: invoice.currency.toLowerCase(),
                  unit_amount: invoice.total_amount,
                  product_data: { name: `Invoice ${invoice.number}` },
                },
              },
            ],
            success_url: withQuery(returnUrl, 'payment', 'success'),
            cancel_url: withQuery(returnUrl, 'payment', 'cancelled'),
            client_reference_id: invoice.id,
            metadata,
            payment_intent_data: { metadata },
          },
          // A retried request for the same local payment never opens a second session.
          { idempotencyKey: `checkout_${payment.id}` },
        ),
      );
      if (!session.url) throw new AppError(502, STRIPE_UNAVAILABLE);
      return { paymentUrl: session.url, transactionId: session.id };
    },

    verifyWebhook(rawBody, headers, credentials): PaymentEvent {
      const secret = credentials.webhook_secret;
      if (!secret) throw new WebhookVerificationError('The gateway has no webhook secret');
      const signature = headerValue(headers[STRIPE_SIGNATURE_HEADER]);
      if (!signature) throw new WebhookVerificationError('Missing signature');
      let event: Stripe.Event;
      try {
        // The tolerance window (5 minutes) is measured from the portal's clock.
        event = Stripe.webhooks.constructEvent(rawBody, signature, secret, undefined, undefined, now().getTime());
      } catch (error) {
        throw new WebhookVerificationError(error instanceof Error ? error.message : 'Invalid signature');
      }
      const object = (event.data?.object ?? {}) as Partial<Session>;
      const base = { eventId: event.id, transactionId: String(object.id ?? '') };
      const paid = (): PaymentEvent => ({
        ...base,
        type: 'payment.succeeded',
        amount: typeof object.amount_total === 'number' ? object.amount_total : undefined,
        currency: typeof object.currency === 'string' ? object.currency.toUpperCase() : undefined,
      });
      // Autopay (issue 21): a set-up session saved a card; an off-session PaymentIntent (metadata.autopay) settled.
      // PaymentIntent events without that metadata stay ignored: checkout payments complete through the session.
      if (event.type === 'checkout.session.completed' && object.mode === 'setup') {
        const intent = typeof object.setup_intent === 'string' ? object.setup_intent : object.setup_intent?.id;
        if (!intent) throw new WebhookEventIgnored(event.id, event.type);
        return { ...base, type: 'method.saved', setup: { setupIntentId: intent } };
      }
      if (event.type === 'payment_intent.succeeded' || event.type === 'payment_intent.payment_failed') {
        const pi = (event.data?.object ?? {}) as Partial<Stripe.PaymentIntent>;
        if (pi.metadata?.autopay !== '1') throw new WebhookEventIgnored(event.id, event.type);
        const ref = {
          eventId: event.id,
          transactionId: String(pi.id ?? ''),
          ...(pi.metadata?.payment_id ? { paymentId: pi.metadata.payment_id } : {}),
        };
        if (event.type === 'payment_intent.payment_failed') return { ...ref, type: 'payment.failed' };
        return {
          ...ref,
          type: 'payment.succeeded',
          amount: typeof pi.amount_received === 'number' ? pi.amount_received : pi.amount,
          currency: typeof pi.currency === 'string' ? pi.currency.toUpperCase() : undefined,
        };
      }
      switch (event.type) {
        case 'checkout.session.completed':
          if (object.payment_status === 'paid') return paid();
          break;
        case 'checkout.session.async_payment_succeeded':
          return paid();
        case 'checkout.session.async_payment_failed':
          return { ...base, type: 'payment.failed' };
        // Nobody paid before the session's end (24 hours by default at Stripe): the checkout shows as Expired,
        // as the portal's own sweep marks it (issue 31), not as a declined payment.
        case 'checkout.session.expired':
          return { ...base, type: 'payment.expired' };
      }
      throw new WebhookEventIgnored(event.id, event.type);
    },

    // Saved cards (autopay): a Stripe Customer per portal customer, a Checkout Session in setup mode to save a
    // card on it, off-session PaymentIntents to charge it.
    async createSetup({ setupId, customer, subscriptionId, returnUrl, credentials }) {
      const stripe = client(credentials);
      const customerId =
        customer.providerCustomerId ??
        (
          await call(() =>
            stripe.customers.create(
              { email: customer.email, name: customer.name, metadata: { user_id: customer.id } },
              { idempotencyKey: `customer_${customer.id}` },
            ),
          )
        ).id;
      const metadata = { setup_id: setupId, user_id: customer.id, subscription_id: subscriptionId };
      const session = await call(() =>
        stripe.checkout.sessions.create(
          {
            mode: 'setup',
            customer: customerId,
            allowed_payment_method_types: ['card'],
            success_url: withQuery(returnUrl, 'autopay', 'saved'),
            cancel_url: withQuery(returnUrl, 'autopay', 'cancelled'),
            client_reference_id: subscriptionId,
            metadata,
            setup_intent_data: { metadata },
          },
          { idempotencyKey: `setup_${setupId}` },
        ),
      );
      if (!session.url) throw new AppError(502, STRIPE_UNAVAILABLE);
      return { paymentUrl: session.url, transactionId: session.id };
    },

    async readSetup({ setupIntentId }, credentials) {
      const stripe = client(credentials);
      const intent = await call(() => stripe.setupIntents.retrieve(setupIntentId, { expand: ['payment_method'] }));
      const pm = intent.payment_method;
      if (!pm || typeof pm === 'string' || !pm.card) throw new AppError(502, 'The saved payment method is not a card');
      const customer =
        typeof intent.customer === 'string'
          ? intent.customer
          : (intent.customer?.id ?? (typeof pm.customer === 'string' ? pm.customer : null));
      return {
        providerMethodId: pm.id,
        providerCustomerId: customer,
        brand: pm.card.brand,
        last4: pm.card.last4,
        expMonth: pm.card.exp_month,
        expYear: pm.card.exp_year,
      };
    },

    async forgetSaved({ providerMethodId }, credentials) {
      const stripe = client(credentials);
      await call(() => stripe.paymentMethods.detach(providerMethodId));
    },

    async chargeSaved({ invoiceId, paymentId, amount, currency, method, idempotencyKey, credentials }) {
      const stripe = client(credentials);
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount,
            currency: currency.toLowerCase(),
            ...(method.providerCustomerId ? { customer: method.providerCustomerId } : {}),
            payment_method: method.providerMethodId,
            off_session: true,
            confirm: true,
            metadata: { invoice_id: invoiceId, payment_id: paymentId, autopay: '1' },
          },
          { idempotencyKey },
        );
        if (intent.status === 'succeeded' || intent.status === 'processing')
          return { ok: true, transactionId: intent.id };
        return {
          ok: false,
          transactionId: intent.id,
          code: intent.last_payment_error?.code ?? intent.status,
          message: intent.last_payment_error?.message ?? `Payment ${intent.status}`,
        };
      } catch (error) {
        // A refused card is Stripe's 402 card error carrying the PaymentIntent; anything else is the provider's trouble.
        if (
          error instanceof Stripe.errors.StripeCardError ||
          (error instanceof Stripe.errors.StripeError && error.statusCode === 402)
        ) {
          const e = error as Stripe.errors.StripeError & { payment_intent?: { id?: string } };
          const raw = (e.raw ?? {}) as { payment_intent?: { id?: string } };
          return {
            ok: false,
            transactionId: e.payment_intent?.id ?? raw.payment_intent?.id ?? null,
            code: e.code ?? e.decline_code ?? 'card_declined',
            message: e.message,
          };
        }
        const wrapped = new AppError(502, STRIPE_UNAVAILABLE);
        wrapped.cause = error;
        throw wrapped;
      }
    },

    async fetchStatus(transactionId, credentials): Promise<ProviderPaymentStatus> {
      const stripe = client(credentials);
      const session = await call(() => stripe.checkout.sessions.retrieve(transactionId));
      if (session.payment_status === 'paid') return 'succeeded';
      if (session.status === 'expired') return 'failed';
      return 'pending';
    },

    async refund(transactionId, amount, credentials) {
      const stripe = client(credentials);
      // An autopay payment's transaction id is its PaymentIntent (pi_…); a checkout payment's is the session (cs_…).
      const session = transactionId.startsWith('pi_')
        ? null
        : await call(() => stripe.checkout.sessions.retrieve(transactionId));
      const intent = !session
        ? transactionId
        : typeof session.payment_intent === 'string'
          ? session.payment_intent
          : session.payment_intent?.id;
      if (!intent) throw new AppError(409, 'This Stripe payment has nothing to refund');
      const refund = await call(() => stripe.refunds.create({ payment_intent: intent, amount }));
      return { refundId: refund.id };
    },
  };
}
