/**
 * The portal's own services, wired for the demo seed as the routes wire them (server/modules/x/routes.ts), but
 * on the demo's moving clock and without e-mail: the demo's history must not fill the outbox with a year of
 * invoices and reminders nobody will read.
 */
import type { Db } from '../client';
import type { Clock } from '../../lib/clock';
import type { SecretBox } from '../../lib/secret-box';
import type { FileStore } from '../../lib/storage';
import { createPaymentProviders } from '../../integrations/payments';
import { BillingJob } from '../../modules/billing/service';
import { createDeviceRepository } from '../../modules/devices/repository';
import { DeviceService } from '../../modules/devices/service';
import { createGatewayRepository } from '../../modules/gateways/repository';
import { GatewayService } from '../../modules/gateways/service';
import { createInstallationRepository } from '../../modules/installations/repository';
import { InstallationService } from '../../modules/installations/service';
import { createPaymentRepository } from '../../modules/payments/repository';
import { PaymentService } from '../../modules/payments/service';
import { createSettingsRepository } from '../../modules/settings/repository';
import { createSubscriptionRepository } from '../../modules/subscriptions/repository';
import { SubscriptionService } from '../../modules/subscriptions/service';
import { createTicketRepository } from '../../modules/tickets/repository';
import { TicketService } from '../../modules/tickets/service';
import { defaultSettings } from '../../modules/settings/defaults';

export interface DemoServiceDeps {
  db: Db;
  clock: Clock;
  box: SecretBox;
  store: FileStore;
  dataDir: string;
  appUrl: string;
}

export type DemoServices = ReturnType<typeof demoServices>;

export function demoServices({ db, clock, box, store, dataDir, appUrl }: DemoServiceDeps) {
  const settings = createSettingsRepository(db);
  const stored = async <K extends 'tax_rate_bp' | 'company' | 'languages'>(key: K) => {
    const row = (await settings.all()).find((r) => r.key === key);
    return (row?.value ?? defaultSettings()[key]) as ReturnType<typeof defaultSettings>[K];
  };
  const noMail = () => {};
  const gatewayRepository = createGatewayRepository(db);
  return {
    subscriptions: new SubscriptionService({
      db,
      repository: createSubscriptionRepository(db),
      clock,
      taxRateBp: () => stored('tax_rate_bp'),
    }),
    billing: new BillingJob({ db, clock, appUrl, send: noMail }),
    payments: new PaymentService({
      db,
      repository: createPaymentRepository(db),
      gateways: new GatewayService({ box }),
      gatewayRepository,
      providers: createPaymentProviders({ baseUrl: appUrl, now: () => clock.now() }),
      clock,
      appUrl,
    }),
    installations: new InstallationService({
      db,
      repository: createInstallationRepository(db),
      clock,
      dataDir,
      store,
      appUrl,
      box,
      company: async () => {
        const company = await stored('company');
        return {
          name: company.name,
          supportEmail: company.support_email,
          language: (await stored('languages')).default,
        };
      },
      send: noMail,
    }),
    tickets: new TicketService({
      db,
      repository: createTicketRepository(db),
      clock,
      dataDir,
      store,
      appUrl,
      companyName: async () => (await stored('company')).name,
      defaultLanguage: async () => (await stored('languages')).default,
      send: noMail,
    }),
    devices: new DeviceService({ db, repository: createDeviceRepository(db), clock, box }),
  };
}
