/**
 * The network simulator (issue 16): a simulated MikroTik NAS played against a running portal, on loopback only.
 * `startSimulator` binds the NAS (SNMP agent, RADIUS client, Disconnect/CoA port), registers it as a device
 * through the portal's API (SNMP settings and the RADIUS shared secret of this run), reads the active
 * subscriptions' PPPoE logins and keeps re-reading them, and lets every customer dial in. `npm run simulate`
 * (scripts/simulate.ts) runs it beside a portal; SIMULATE=true starts it inside `npm start` (startAppSimulator).
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { PacketBudget } from './packet-budget';
import { PortalLink } from './portal-link';
import { SimulatedNas, type SimLogger, type SimulatedNasOptions } from './nas';

export { SimulatedNas } from './nas';
export type { SimEvent } from './nas';

export interface SimulatorOptions {
  /** The portal's address (its HTTP API). */
  portalUrl: string;
  /** A bearer for an administrator of the portal (access token or API token). */
  auth: () => Promise<string>;
  /** Where the portal's RADIUS server listens, and the NAS port it sends Disconnect/CoA-Requests to. */
  radius: { host: string; authPort: number; acctPort: number; coaPort: number };
  /** Loopback address of the simulated NAS. Default 127.0.0.1. */
  host?: string;
  /** Device name in the portal (found by it on the next run). Default "Simulated NAS". */
  name?: string;
  /** At most this many RADIUS packets per second. Default 50. */
  maxPacketsPerSecond?: number;
  /** Seconds between two readings of the active subscriptions. Default 60. */
  refreshSeconds?: number;
  /** SNMP port (default: a free one) and community (default: random per run). */
  snmpPort?: number;
  snmpCommunity?: string;
  /** RADIUS shared secret (default: random per run, written to the device). */
  secret?: string;
  nas?: Pick<
    SimulatedNasOptions,
    | 'maxInterimSeconds'
    | 'meanSessionMinutes'
    | 'redialSeconds'
    | 'rejectRetrySeconds'
    | 'startSpreadSeconds'
    | 'radiusTimeoutMs'
    | 'tickMs'
  >;
  log: SimLogger & { error(obj: object, msg: string): void };
}

export interface RunningSimulator {
  deviceId: string;
  nas: SimulatedNas;
  snmpPort: number;
  /** Reads the active subscriptions again now (new customers start dialing). */
  refresh(): Promise<void>;
  /** Ends every session (Stop), tells the portal the NAS is off, closes every socket. Safe to call twice. */
  stop(): Promise<void>;
}

export const DEFAULT_SIMULATED_NAS_NAME = 'Simulated NAS';

/** 127.0.0.0/8 or ::1. */
export function isLoopback(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  return (isIP(bare) === 4 && bare.startsWith('127.')) || bare === '::1' || bare === 'localhost';
}

export async function startSimulator(options: SimulatorOptions): Promise<RunningSimulator> {
  const host = options.host ?? '127.0.0.1';
  // A wildcard RADIUS listener is reached on loopback; anything else would leave the machine.
  const radiusHost = ['0.0.0.0', '::', ''].includes(options.radius.host) ? '127.0.0.1' : options.radius.host;
  if (!isLoopback(host) || isIP(host) !== 4)
    throw new Error(`The simulated NAS runs on loopback only: ${host} is not a 127.x.x.x address`);
  if (!isLoopback(radiusHost))
    throw new Error(`The simulated NAS talks to a portal on loopback only: RADIUS host ${radiusHost} is not`);
  const name = options.name ?? DEFAULT_SIMULATED_NAS_NAME;
  const secret = options.secret ?? randomBytes(18).toString('base64url');
  const community = options.snmpCommunity ?? `sim-${randomBytes(6).toString('hex')}`;
  const budget = new PacketBudget(options.maxPacketsPerSecond ?? 50);
  const log = options.log;
  const nas = new SimulatedNas({
    ...options.nas,
    name,
    host,
    radius: {
      host: radiusHost === 'localhost' ? '127.0.0.1' : radiusHost,
      authPort: options.radius.authPort,
      acctPort: options.radius.acctPort,
      secret,
    },
    coaPort: options.radius.coaPort,
    snmp: { port: options.snmpPort, community },
    budget,
    log,
  });
  const link = new PortalLink({ url: options.portalUrl, auth: options.auth });
  const { snmpPort, coaPort } = await nas.start();
  let deviceId: string;
  try {
    deviceId = await link.ensureDevice({
      name,
      model: 'CCR2004-1G-12S+2XS',
      host,
      location: 'Simulated POP (loopback)',
      snmpPort,
      snmpCommunity: community,
      radiusSecret: secret,
    });
    nas.setLogins(await link.activeLogins());
  } catch (error) {
    await nas.stop();
    throw error;
  }
  nas.run();
  log.info(
    {
      device: name,
      deviceId,
      host,
      snmpPort,
      coaPort,
      customers: nas.stats().customers,
      maxPacketsPerSecond: budget.perSecond,
    },
    'network simulator running',
  );

  let refreshing: Promise<void> | null = null;
  const refresh = () =>
    (refreshing ??= link
      .activeLogins()
      .then((logins) => nas.setLogins(logins))
      .finally(() => {
        refreshing = null;
      }));
  const timer = setInterval(
    () => {
      refresh().catch((error: unknown) =>
        log.warn({ err: error }, 'network simulator: could not read the active subscriptions'),
      );
    },
    (options.refreshSeconds ?? 60) * 1000,
  );
  timer.unref();

  let stopping: Promise<void> | null = null;
  return {
    deviceId,
    nas,
    snmpPort,
    refresh,
    stop: () =>
      (stopping ??= (async () => {
        clearInterval(timer);
        await refreshing?.catch(() => {});
        await nas.stop();
        log.info(nas.stats(), 'network simulator stopped');
      })()),
  };
}

/**
 * SIMULATE=true: the simulator beside the portal in the same process, signed in as the first active
 * administrator with an access token the app signs itself, talking to the portal over its own port.
 * Null (with a warning) when the portal has no RADIUS server or no administrator.
 */
export async function startAppSimulator(running: {
  app: FastifyInstance;
  config: Config;
  url: string;
}): Promise<RunningSimulator | null> {
  const { app, config, url } = running;
  const log = app.log.child({ module: 'simulator' });
  const ports = app.radius.ports();
  if (!config.radiusEnabled || !ports) {
    log.warn('SIMULATE=true needs the RADIUS server (RADIUS_ENABLED=true): network simulator not started');
    return null;
  }
  const admin = async () => {
    for (const role of ['admin', 'super_admin'] as const) {
      const { items } = await app.users.page({ page: 1, limit: 1, role, status: 'active' });
      if (items[0]) return items[0];
    }
    return null;
  };
  if (!(await admin())) {
    log.warn(
      'SIMULATE=true needs an active administrator to register the simulated NAS: network simulator not started',
    );
    return null;
  }
  return startSimulator({
    portalUrl: url,
    auth: async () => {
      const user = await admin();
      if (!user) throw new Error('No active administrator left for the network simulator');
      return (await app.accessTokens.sign(user)).token;
    },
    radius: {
      host: config.radiusHost,
      authPort: ports.authPort,
      acctPort: ports.acctPort,
      coaPort: config.radiusCoaPort,
    },
    log,
  });
}
