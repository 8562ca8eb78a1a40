/**
 * The parts of a PaymentService every user of it shares: this module's routes and the suspended customer's Pay
 * button (server/modules/suspended, issue 38), which starts a checkout the same way.
 */
import type { FastifyInstance } from 'fastify';
import { createPaymentProviders, parseStripeApiBase, type StripeApiAddress } from '../../integrations/payments';
import { createGatewayRepository } from '../gateways/repository';
import { GatewayService } from '../gateways/service';
import { createPaymentRepository } from './repository';

export function paymentServiceDeps(app: FastifyInstance, stripeApi?: StripeApiAddress) {
  const appUrl = app.config.appUrl.replace(/\/+$/, '');
  const stripe = stripeApi ?? (app.config.stripeApiBase ? parseStripeApiBase(app.config.stripeApiBase) : undefined);
  return {
    db: app.db,
    repository: createPaymentRepository(app.db),
    gateways: new GatewayService({ box: app.secretBox }),
    gatewayRepository: createGatewayRepository(app.db),
    providers: createPaymentProviders({ baseUrl: appUrl, now: () => app.clock.now(), stripe }),
    clock: app.clock,
    appUrl,
    sandboxAllowed: app.config.sandboxPaymentsAllowed,
    log: app.log,
  };
}
