/**
 * The sandbox provider (a skeleton): a fake hosted checkout for development and tests. Its webhooks are
 * signed like this: header `x-sandbox-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`
 * keyed with the gateway's webhook_secret; the body is JSON {id, type, transaction_id, amount?}.
 * The hosted checkout page (GET /api/payments/sandbox/checkout/<id>) is served by the payments module; its
 * Approve/Decline buttons make the server post itself a webhook built by buildSandboxWebhook, verified like
 * any other. Not built: remembered status/refunds (fetchStatus always answers "pending").
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  PAYMENT_EVENT_TYPES,
  WebhookVerificationError,
  type PaymentEvent,
  type PaymentEventType,
  type PaymentProviderAdapter,
} from './provider';
import type { SavedCard } from './saved-methods';

/**
 * Saved methods (autopay): the set-up page (GET /api/payments/sandbox/setup/<sbxset_…>) offers these test cards;
 * the chosen card's method id encodes how it behaves when charged off-session (sbxpm_<kind>_<random>), and the
 * page makes the server post itself a signed `method.saved` webhook carrying the card
 * (`card: {id, customer, brand, last4, exp_month, exp_year}`). An accepted off-session charge makes the sandbox
 * (the server itself, a moment later) deliver a signed `payment.succeeded` webhook with the charge's payment_id.
 */
export const SANDBOX_TEST_CARDS = {
  ok: { brand: 'visa', last4: '4242', label: 'Visa •••• 4242 — always succeeds' },
  declined: { brand: 'visa', last4: '0002', label: 'Visa •••• 0002 — declined' },
  auth: { brand: 'visa', last4: '3155', label: 'Visa •••• 3155 — requires authentication' },
  expiring: { brand: 'mastercard', last4: '4444', label: 'Mastercard •••• 4444 — succeeds, expires this month' },
} as const;
export type SandboxTestCard = keyof typeof SANDBOX_TEST_CARDS;
export const isSandboxTestCard = (v: string): v is SandboxTestCard => Object.hasOwn(SANDBOX_TEST_CARDS, v);

/** The card a sandbox set-up saves for a test card choice; expiry relative to `now` (UTC). */
export function sandboxCard(kind: SandboxTestCard, customer: string, now: Date): SavedCard {
  const { brand, last4 } = SANDBOX_TEST_CARDS[kind];
  const soon = kind === 'expiring';
  return {
    providerMethodId: `sbxpm_${kind}_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
    providerCustomerId: customer,
    brand,
    last4,
    expMonth: now.getUTCMonth() + 1,
    expYear: now.getUTCFullYear() + (soon ? 0 : 3),
  };
}

const DECLINES: Record<string, { code: string; message: string }> = {
  declined: { code: 'card_declined', message: 'Your card was declined.' },
  auth: {
    code: 'authentication_required',
    message: 'Your card was declined. This transaction requires authentication.',
  },
  expired: { code: 'expired_card', message: 'Your card has expired.' },
};

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
/** Signatures older (or newer) than this are refused, against replay. */
export const SANDBOX_TOLERANCE_SECONDS = 300;

export function signSandboxPayload(rawBody: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/** A signed sandbox webhook, exactly as the (pretend) provider would send it: the raw JSON body and headers. */
export function buildSandboxWebhook(
  event: {
    type: PaymentEventType;
    transactionId: string;
    amount?: number;
    currency?: string;
    id?: string;
    paymentId?: string;
    card?: SavedCard;
  },
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    id: event.id ?? `evt_${randomUUID()}`,
    type: event.type,
    transaction_id: event.transactionId,
    ...(event.amount !== undefined ? { amount: event.amount } : {}),
    ...(event.currency !== undefined ? { currency: event.currency } : {}),
    ...(event.paymentId !== undefined ? { payment_id: event.paymentId } : {}),
    ...(event.card
      ? {
          card: {
            id: event.card.providerMethodId,
            customer: event.card.providerCustomerId,
            brand: event.card.brand,
            last4: event.card.last4,
            exp_month: event.card.expMonth,
            exp_year: event.card.expYear,
          },
        }
      : {}),
  });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(body, secret, timestamp),
    },
  };
}

export function createSandboxProvider(options: {
  baseUrl: string;
  now?: () => Date;
  /** Delivers a webhook the sandbox "sends" (an accepted off-session charge); unset: none is sent. */
  deliver?: (webhook: { body: string; headers: Record<string, string> }) => void;
}): PaymentProviderAdapter {
  const now = options.now ?? (() => new Date());
  return {
    id: 'sandbox',
    async createCheckout({ payment, returnUrl, origin }) {
      const transactionId = `sbx_${randomUUID()}`;
      const url = new URL(`/api/payments/sandbox/checkout/${transactionId}`, origin ?? options.baseUrl);
      url.searchParams.set('amount', String(payment.amount));
      url.searchParams.set('return_url', returnUrl);
      return { paymentUrl: url.toString(), transactionId };
    },

    verifyWebhook(rawBody, headers, credentials): PaymentEvent {
      const secret = credentials.webhook_secret;
      if (!secret) throw new WebhookVerificationError('The gateway has no webhook secret');
      const header = headers[SANDBOX_SIGNATURE_HEADER];
      const value = Array.isArray(header) ? header[0] : header;
      if (!value) throw new WebhookVerificationError('Missing signature');
      const parts = Object.fromEntries(value.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
      const t = Number(parts.t);
      if (!Number.isInteger(t) || !parts.v1) throw new WebhookVerificationError('Malformed signature');
      if (Math.abs(now().getTime() / 1000 - t) > SANDBOX_TOLERANCE_SECONDS)
        throw new WebhookVerificationError('Signature expired');
      const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
      const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'), 'hex');
      const given = Buffer.from(parts.v1, 'hex');
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        throw new WebhookVerificationError('Invalid signature');
      let event: {
        id?: unknown;
        type?: unknown;
        transaction_id?: unknown;
        amount?: unknown;
        currency?: unknown;
        payment_id?: unknown;
        card?: Record<string, unknown>;
      };
      try {
        event = JSON.parse(body);
      } catch {
        throw new WebhookVerificationError('Malformed body');
      }
      if (typeof event.id !== 'string' || typeof event.transaction_id !== 'string')
        throw new WebhookVerificationError('Malformed event');
      if (!(PAYMENT_EVENT_TYPES as readonly unknown[]).includes(event.type))
        throw new WebhookVerificationError('Unknown event type');
      return {
        eventId: event.id,
        type: event.type as PaymentEventType,
        transactionId: event.transaction_id,
        amount: Number.isInteger(event.amount) ? (event.amount as number) : undefined,
        currency: typeof event.currency === 'string' ? event.currency : undefined,
        ...(typeof event.payment_id === 'string' ? { paymentId: event.payment_id } : {}),
        ...(event.type === 'method.saved' ? { setup: { card: readCard(event.card) } } : {}),
      };
    },

    async createSetup({ returnUrl, origin }) {
      const transactionId = `sbxset_${randomUUID()}`;
      const url = new URL(`/api/payments/sandbox/setup/${transactionId}`, origin || options.baseUrl);
      url.searchParams.set('return_url', returnUrl);
      return { paymentUrl: url.toString(), transactionId };
    },

    async readSetup() {
      throw new WebhookVerificationError('The sandbox sends the card in its method.saved event');
    },

    async chargeSaved({ paymentId, amount, currency, method, idempotencyKey, credentials }) {
      const kind = /^sbxpm_([a-z]+)_/.exec(method.providerMethodId)?.[1] ?? 'declined';
      const transactionId = `sbx_pi_${createHmac('sha256', 'sandbox').update(idempotencyKey).digest('hex').slice(0, 24)}`;
      const decline = DECLINES[kind];
      if (decline) return { ok: false, transactionId, ...decline };
      const secret = credentials.webhook_secret;
      if (secret && options.deliver) {
        options.deliver(
          buildSandboxWebhook(
            { type: 'payment.succeeded', transactionId, amount, currency, paymentId },
            secret,
            Math.floor(now().getTime() / 1000),
          ),
        );
      }
      return { ok: true, transactionId };
    },

    async fetchStatus() {
      return 'pending';
    },

    async refund(transactionId) {
      return { refundId: `sbx_refund_${transactionId.replace(/^sbx_/, '').slice(0, 8)}_${randomUUID().slice(0, 8)}` };
    },
  };
}

function readCard(card: Record<string, unknown> | undefined): SavedCard {
  const c = card ?? {};
  const month = Number(c.exp_month);
  const year = Number(c.exp_year);
  if (
    typeof c.id !== 'string' ||
    typeof c.brand !== 'string' ||
    typeof c.last4 !== 'string' ||
    !/^\d{4}$/.test(c.last4) ||
    !(month >= 1 && month <= 12) ||
    !Number.isInteger(year)
  ) {
    throw new WebhookVerificationError('Malformed card');
  }
  return {
    providerMethodId: c.id,
    providerCustomerId: typeof c.customer === 'string' ? c.customer : null,
    brand: c.brand,
    last4: c.last4,
    expMonth: month,
    expYear: year,
  };
}
