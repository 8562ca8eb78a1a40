import { manualProvider } from './manual';
import { PaymentProviderRegistry } from './provider';
import { createSandboxProvider } from './sandbox';

export * from './provider';

/** The adapters the portal ships with. stripe has no adapter yet: its gateways can be configured, not used. */
export function createPaymentProviders(options: { baseUrl: string; now?: () => Date }): PaymentProviderRegistry {
  return new PaymentProviderRegistry([manualProvider, createSandboxProvider(options)]);
}
