/**
 * Saved payment methods and off-session charges (autopay, issue 21): the optional part of a provider adapter.
 * A provider that offers them (stripe, sandbox) implements createSetup (a hosted page where the customer saves
 * a card; the provider's webhook then says "method saved"), readSetup (the saved card, when the webhook only
 * names the set-up) and chargeSaved (an off-session charge of a saved card). THE WEBHOOK, NOT chargeSaved's
 * answer, marks an invoice paid: chargeSaved only says whether the provider accepted the charge (submitted) or
 * refused it (declined, expired card, authentication required).
 */

/** A card as the portal keeps it: the provider's ids and what the customer recognises it by. */
export interface SavedCard {
  providerMethodId: string;
  providerCustomerId: string | null;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface SetupRequest {
  /** The local set-up's id (payment_method_setups.id): idempotency and metadata. */
  setupId: string;
  customer: { id: string; email: string; name: string; providerCustomerId: string | null };
  subscriptionId: string;
  /** Where the customer returns to (the portal's subscription page); the adapter adds ?autopay=saved|cancelled. */
  returnUrl: string;
  /** The portal origin the customer is on (pages the portal hosts for the sandbox). */
  origin: string;
  credentials: Record<string, string>;
}

export interface SetupResult {
  paymentUrl: string;
  /** The provider's reference for the set-up (Stripe: cs_…). */
  transactionId: string;
}

export interface OffSessionCharge {
  invoiceId: string;
  paymentId: string;
  /** Minor units: the invoice's amount due. */
  amount: number;
  currency: string;
  method: { providerMethodId: string; providerCustomerId: string | null };
  /** autopay_<invoice id>_<attempt>: a repeated call (a crashed run picked up again) charges once. */
  idempotencyKey: string;
  credentials: Record<string, string>;
}

export type OffSessionResult =
  | { ok: true; transactionId: string }
  | { ok: false; transactionId: string | null; code: string; message: string };

export interface SavedMethodOperations {
  createSetup(request: SetupRequest): Promise<SetupResult>;
  /** The card saved by a completed set-up (Stripe: the SetupIntent's payment_method). */
  readSetup(reference: { setupIntentId: string }, credentials: Record<string, string>): Promise<SavedCard>;
  chargeSaved(charge: OffSessionCharge): Promise<OffSessionResult>;
  /** Detaches a card the customer removed (or replaced) from the provider's customer, so it can never be charged again. */
  forgetSaved?(method: { providerMethodId: string }, credentials: Record<string, string>): Promise<void>;
}
