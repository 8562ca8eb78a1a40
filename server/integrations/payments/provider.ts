/**
 * Payment provider adapters. The payments module (POST /payments/initiate, webhooks, status checks, refunds)
 * talks to a provider only through this interface, looked up by the gateway's provider id. Adapters are
 * stateless: the gateway's opened credentials are passed in on each call.
 */
import type { PaymentProvider } from '../../../contract/schemas/gateway';
import type { SavedCard, SavedMethodOperations } from './saved-methods';

/** What an adapter needs to know of the invoice being paid (amounts in minor units). */
export interface CheckoutInvoice {
  id: string;
  number: string;
  total_amount: number;
  currency: string;
}

/** The local payment record created before the checkout (status pending). */
export interface CheckoutPayment {
  id: string;
  amount: number;
}

export interface CheckoutRequest {
  invoice: CheckoutInvoice;
  payment: CheckoutPayment;
  /** Where the provider sends the customer back after paying. */
  returnUrl: string;
  /**
   * The portal's origin the customer is using (server/lib/return-origin.ts); pages the portal hosts for a provider
   * (the sandbox's checkout) are addressed on it. Unset: the adapter's configured base URL.
   */
  origin?: string;
  /** The gateway's credentials in plain text (opened from the secret box). */
  credentials: Record<string, string>;
  mode: 'test' | 'live';
}

export interface CheckoutResult {
  /** The page the customer is sent to; null when the provider has no hosted checkout (manual). */
  paymentUrl: string | null;
  /** The provider's reference for this payment, stored as payments.transaction_id. */
  transactionId: string;
}

/**
 * method.saved: a saved-method set-up (autopay) completed; the card is in the event or read with readSetup.
 * payment.expired: the provider closed a checkout nobody finished (Stripe's checkout.session.expired).
 */
export const PAYMENT_EVENT_TYPES = [
  'payment.succeeded',
  'payment.failed',
  'payment.expired',
  'payment.refunded',
  'method.saved',
] as const;
export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number];

/** A verified webhook event, normalised. eventId makes processing idempotent. */
export interface PaymentEvent {
  eventId: string;
  type: PaymentEventType;
  transactionId: string;
  /** Minor units, when the provider states it. */
  amount?: number;
  /** ISO 4217 code, when the provider states it. */
  currency?: string;
  /** The local payment id the provider carries back (an autopay charge's metadata.payment_id). */
  paymentId?: string;
  /** method.saved: the card (sandbox), or the SetupIntent to read it from (Stripe). */
  setup?: { card?: SavedCard; setupIntentId?: string };
}

export type ProviderPaymentStatus = 'pending' | 'succeeded' | 'failed' | 'refunded';

/** Raised when a webhook's signature or body is not acceptable (the route answers 400 and records nothing). */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** Raised when an operation is not offered by a provider (e.g. a hosted checkout for manual payments). */
export class UnsupportedOperationError extends Error {
  constructor(provider: string, operation: string) {
    super(`${provider} does not support ${operation}`);
    this.name = 'UnsupportedOperationError';
  }
}

export interface PaymentProviderAdapter extends Partial<SavedMethodOperations> {
  id: PaymentProvider;
  createCheckout(request: CheckoutRequest): Promise<CheckoutResult>;
  /** Checks the signature over the raw body and returns the event, or throws WebhookVerificationError. */
  verifyWebhook(
    rawBody: Buffer | string,
    headers: Record<string, string | string[] | undefined>,
    credentials: Record<string, string>,
  ): PaymentEvent;
  fetchStatus(transactionId: string, credentials: Record<string, string>): Promise<ProviderPaymentStatus>;
  refund(transactionId: string, amount: number, credentials: Record<string, string>): Promise<{ refundId: string }>;
}

/**
 * Adapters by provider id (manual, sandbox, stripe). A provider without an adapter here cannot take payments.
 * An adapter's verifyWebhook may also throw WebhookEventIgnored (stripe.ts) for a validly signed event it does
 * not act on: the webhook route answers 200 and records nothing.
 */
export class PaymentProviderRegistry {
  private readonly adapters = new Map<string, PaymentProviderAdapter>();

  constructor(adapters: PaymentProviderAdapter[] = []) {
    for (const a of adapters) this.register(a);
  }

  register(adapter: PaymentProviderAdapter): void {
    this.adapters.set(adapter.id, adapter);
  }

  get(id: string): PaymentProviderAdapter | undefined {
    return this.adapters.get(id);
  }

  has(id: string): boolean {
    return this.adapters.has(id);
  }

  ids(): string[] {
    return [...this.adapters.keys()];
  }
}
