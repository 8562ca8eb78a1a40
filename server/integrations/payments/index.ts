import { manualProvider } from './manual';
import { PaymentProviderRegistry } from './provider';
import { createSandboxProvider } from './sandbox';
import { createStripeProvider, type StripeApiAddress } from './stripe';

export * from './provider';
export { WebhookEventIgnored, parseStripeApiBase, type StripeApiAddress } from './stripe';

/**
 * The adapters the portal ships with: manual, sandbox and stripe. `stripe` changes where the Stripe SDK sends
 * its requests (STRIPE_API_BASE; tests point it at a local fake).
 */
export function createPaymentProviders(options: {
  baseUrl: string;
  now?: () => Date;
  stripe?: StripeApiAddress;
}): PaymentProviderRegistry {
  return new PaymentProviderRegistry([
    manualProvider,
    createSandboxProvider(options),
    createStripeProvider({ api: options.stripe, now: options.now }),
  ]);
}
