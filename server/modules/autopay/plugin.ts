/**
 * app.autopay: saved cards and off-session charges (issue 21). Its own provider registry, whose sandbox
 * "sends" the webhook of an accepted off-session charge a moment later (the server posts itself the signed
 * webhook, as the sandbox's checkout page does); `settled()` waits for those deliveries (tests, shutdown).
 */
import fp from 'fastify-plugin';
import {
  createPaymentProviders,
  parseStripeApiBase,
  PaymentProviderRegistry,
  type StripeApiAddress,
} from '../../integrations/payments';
import { createSandboxProvider } from '../../integrations/payments/sandbox';
import { createGatewayRepository } from '../gateways/repository';
import { GatewayService } from '../gateways/service';
import { AutopayService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    autopay: AutopayService & { settled(): Promise<void> };
  }
}

export default fp<{ stripeApi?: StripeApiAddress }>(
  async (app, opts) => {
    const appUrl = app.config.appUrl.replace(/\/+$/, '');
    const log = app.log.child({ module: 'autopay' });
    const deliveries = new Set<Promise<unknown>>();
    const deliver = (webhook: { body: string; headers: Record<string, string> }) => {
      const delivery = new Promise((resolve) => setImmediate(resolve))
        .then(() =>
          app.inject({
            method: 'POST',
            url: '/api/payments/webhooks/sandbox',
            headers: webhook.headers,
            payload: webhook.body,
          }),
        )
        .then((answer) => {
          if (answer.statusCode >= 400)
            log.error({ status: answer.statusCode, body: answer.body }, 'sandbox autopay webhook refused');
        })
        .catch((error) => log.error({ err: error }, 'sandbox autopay webhook failed'))
        .finally(() => deliveries.delete(delivery));
      deliveries.add(delivery);
    };
    const stripe =
      opts.stripeApi ?? (app.config.stripeApiBase ? parseStripeApiBase(app.config.stripeApiBase) : undefined);
    const base = createPaymentProviders({ baseUrl: appUrl, now: () => app.clock.now(), stripe });
    const providers = new PaymentProviderRegistry(base.ids().map((id) => base.get(id)!));
    providers.register(createSandboxProvider({ baseUrl: appUrl, now: () => app.clock.now(), deliver }));
    const service = new AutopayService({
      db: app.db,
      clock: app.clock,
      providers,
      gateways: new GatewayService({ box: app.secretBox }),
      gatewayRepository: createGatewayRepository(app.db),
      appUrl,
      sandboxAllowed: app.config.sandboxPaymentsAllowed !== false,
      send: (message) => app.mail.send(message),
      log,
    });
    const settled = async () => {
      while (deliveries.size) await Promise.allSettled([...deliveries]);
    };
    app.decorate('autopay', Object.assign(service, { settled }));
    app.addHook('onClose', settled);
  },
  { name: 'autopay', dependencies: ['db', 'settings', 'mail'] },
);
