/**
 * The RADIUS parts wired together, for the app (plugin.ts) and for the extra worker processes (worker.ts):
 * subscriber and NAS directories, usage meter, accounting store, dynamic-authorization client, cut-off and
 * the request handlers.
 */
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { DynAuthClient } from '../../integrations/radius/dynauth';
import { createRouterOsClient, type RouterOsClient } from '../../integrations/routeros/client';
import type { Clock } from '../../lib/clock';
import type { RateLimitBackend } from '../../lib/rate-limit-store';
import type { SecretBox } from '../../lib/secret-box';
import { AccountingStore } from './accounting';
import { DataAllowanceMeter } from './allowance';
import { NasClientDirectory, type NasClient } from './clients';
import { CutoffService } from './cutoff';
import { SubscriberDirectory } from './directory';
import { RadiusService, type RadiusServiceDeps } from './service';
import { UsageMeter } from './usage';
import { VoucherAuthenticator } from '../vouchers/hotspot';

export type RadiusLog = RadiusServiceDeps['log'];

export interface RadiusCore {
  subscribers: SubscriberDirectory;
  clients: NasClientDirectory;
  usage: UsageMeter;
  accounting: AccountingStore;
  dynauth: DynAuthClient;
  cutoff: CutoffService;
  service: RadiusService;
}

export type RadiusSettings = Pick<
  Config,
  'radiusInterimInterval' | 'radiusDisconnectTimeoutMs' | 'radiusCoaPort' | 'radiusWalledGardenPool'
>;

export function defaultRouterOs(client: NasClient): RouterOsClient | null {
  if (client.api?.type !== 'rest') return null;
  return createRouterOsClient({
    host: client.host,
    port: client.api.port,
    tls: client.api.tls,
    username: client.api.username,
    password: client.api.password,
    timeoutMs: 5_000,
    rejectUnauthorized: false,
  });
}

export function createRadiusCore(deps: {
  db: Db;
  clock: Clock;
  box: SecretBox;
  /** Read at each use, so a changed walled-garden pool applies at once. */
  config: RadiusSettings;
  log: RadiusLog;
  routerOs?: (client: NasClient) => RouterOsClient | null;
  verifyAfterSeconds?: number;
  /** Where failed voucher logins are counted (per NAS and device); the app's rate-limit store, shared by its nodes. */
  attempts?: RateLimitBackend;
}): RadiusCore {
  const { db, clock, box, config, log } = deps;
  const onError = (error: unknown) => log.error({ err: error }, 'RADIUS cache refresh failed');
  const subscribers = new SubscriberDirectory({ db, box, onError });
  const clients = new NasClientDirectory({ db, box, onError });
  const usage = new UsageMeter({ db });
  const accounting = new AccountingStore({
    db,
    clock,
    interimInterval: config.radiusInterimInterval,
    subscriptionOf: (username) => subscribers.subscriptionOf(username),
  });
  const dynauth = new DynAuthClient({ timeoutMs: config.radiusDisconnectTimeoutMs });
  const cutoff = new CutoffService({
    db,
    clock,
    subscribers,
    clients,
    dynauth,
    usage,
    coaPort: config.radiusCoaPort,
    verifyAfterMs: (deps.verifyAfterSeconds ?? 30) * 1000,
    interimInterval: config.radiusInterimInterval,
    routerOs: deps.routerOs ?? defaultRouterOs,
    log,
  });
  const service = new RadiusService({
    db,
    clock,
    subscribers,
    clients,
    accounting,
    usage,
    cutoff,
    walledGardenPool: () => config.radiusWalledGardenPool,
    interimInterval: config.radiusInterimInterval,
    allowance: new DataAllowanceMeter({ db, clock }),
    vouchers: new VoucherAuthenticator({
      db,
      box,
      clock,
      interimInterval: config.radiusInterimInterval,
      attempts: deps.attempts,
    }),
    log,
  });
  return { subscribers, clients, usage, accounting, dynauth, cutoff, service };
}
