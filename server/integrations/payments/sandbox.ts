/**
 * The sandbox provider (a skeleton): a fake hosted checkout for development and tests. Its webhooks are
 * signed like this: header `x-sandbox-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`
 * keyed with the gateway's webhook_secret; the body is JSON {id, type, transaction_id, amount?}.
 * The hosted checkout page (GET /api/payments/sandbox/checkout/<id>) is served by the payments module; its
 * Approve/Decline buttons make the server post itself a webhook built by buildSandboxWebhook, verified like
 * any other. Not built: remembered status/refunds (fetchStatus always answers "pending").
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { PAYMENT_EVENT_TYPES, WebhookVerificationError, type PaymentEvent, type PaymentEventType, type PaymentProviderAdapter } from './provider';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
/** Signatures older (or newer) than this are refused, against replay. */
export const SANDBOX_TOLERANCE_SECONDS = 300;

export function signSandboxPayload(rawBody: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/** A signed sandbox webhook, exactly as the (pretend) provider would send it: the raw JSON body and headers. */
export function buildSandboxWebhook(
  event: { type: PaymentEventType; transactionId: string; amount?: number; currency?: string; id?: string },
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    id: event.id ?? `evt_${randomUUID()}`,
    type: event.type,
    transaction_id: event.transactionId,
    ...(event.amount !== undefined ? { amount: event.amount } : {}),
    ...(event.currency !== undefined ? { currency: event.currency } : {}),
  });
  return { body, headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(body, secret, timestamp) } };
}

export function createSandboxProvider(options: { baseUrl: string; now?: () => Date }): PaymentProviderAdapter {
  const now = options.now ?? (() => new Date());
  return {
    id: 'sandbox',
    async createCheckout({ payment, returnUrl }) {
      const transactionId = `sbx_${randomUUID()}`;
      const url = new URL(`/api/payments/sandbox/checkout/${transactionId}`, options.baseUrl);
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
      if (Math.abs(now().getTime() / 1000 - t) > SANDBOX_TOLERANCE_SECONDS) throw new WebhookVerificationError('Signature expired');
      const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
      const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'), 'hex');
      const given = Buffer.from(parts.v1, 'hex');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new WebhookVerificationError('Invalid signature');
      let event: { id?: unknown; type?: unknown; transaction_id?: unknown; amount?: unknown; currency?: unknown };
      try {
        event = JSON.parse(body);
      } catch {
        throw new WebhookVerificationError('Malformed body');
      }
      if (typeof event.id !== 'string' || typeof event.transaction_id !== 'string') throw new WebhookVerificationError('Malformed event');
      if (!(PAYMENT_EVENT_TYPES as readonly unknown[]).includes(event.type)) throw new WebhookVerificationError('Unknown event type');
      return {
        eventId: event.id,
        type: event.type as PaymentEventType,
        transactionId: event.transaction_id,
        amount: Number.isInteger(event.amount) ? (event.amount as number) : undefined,
        currency: typeof event.currency === 'string' ? event.currency : undefined,
      };
    },

    async fetchStatus() {
      return 'pending';
    },

    async refund(transactionId) {
      return { refundId: `sbx_refund_${transactionId.replace(/^sbx_/, '').slice(0, 8)}_${randomUUID().slice(0, 8)}` };
    },
  };
}
