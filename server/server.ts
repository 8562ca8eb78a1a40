/**
 * Starts the portal: validates the configuration, opens the database and applies pending migrations, seeds
 * demo accounts on an empty development database, then listens. SIGTERM/SIGINT close the server, then the
 * database. `tsx server/server.ts` runs it; tests and scripts can call startServer() instead.
 */
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openAndMigrate } from './db/migrate';
import { DatabaseInUseError, type Database } from './db/client';
import { demoLoginsTable, seedDemoData } from './db/seed';
import { seedLivingDemo } from './db/demo/living';
import { createFileStore, storageConfigOf } from './lib/storage';
import { createUserRepository } from './modules/users/repository';
import { startupNotices } from './startup-notices';
import { createSecretBox } from './lib/secret-box';
import { startAppSimulator, type RunningSimulator } from './simulator';
import type { Mailer } from './integrations/mail/mailer';
import type { Clock } from './lib/clock';
import { trackConnections, type ConnectionTracker } from './lib/drain';

/** How long a connection must have been idle, once the listener closed, before it is closed. */
const CLOSE_IDLE_GRACE_MS = 500;

export interface StartServerOptions {
  /** 0 picks a free port. Default PORT or 3000. */
  port?: number;
  host?: string;
  dataDir?: string;
  /** Built web app folder; null to serve no SPA. */
  distDir?: string | null;
  databaseUrl?: string;
  appUrl?: string;
  smtpUrl?: string;
  seedDemo?: boolean;
  logLevel?: Config['logLevel'];
  /** Further environment variables (same names as in config.ts), over process.env. */
  env?: Record<string, string | undefined>;
  mailer?: Mailer | null;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** Print the demo logins and start-up notes to stdout. Default true. */
  print?: boolean;
}

export interface RunningServer {
  app: FastifyInstance;
  config: Config;
  /** The open database (backups, scripts). */
  database: Database;
  /** http://host:port, with 127.0.0.1 for a wildcard host. */
  url: string;
  /** Closes the server (waiting for requests in flight), then the database. Safe to call twice. */
  close(): Promise<void>;
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  const set = (name: string, value: string | number | boolean | undefined) => {
    if (value !== undefined) env[name] = String(value);
  };
  set('PORT', options.port);
  set('HOST', options.host);
  set('DATA_DIR', options.dataDir);
  set('DATABASE_URL', options.databaseUrl);
  set('APP_URL', options.appUrl);
  set('SMTP_URL', options.smtpUrl);
  set('SEED_DEMO', options.seedDemo);
  set('LOG_LEVEL', options.logLevel);
  if (options.distDir === null) set('SERVE_SPA', false);
  else set('DIST_DIR', options.distDir);

  const config = loadConfig(env);
  const print = options.print ?? true;
  const database = await openAndMigrate(config);
  let app: FastifyInstance | undefined;
  let connections: ConnectionTracker;
  try {
    if (config.seedDemo) {
      const box = createSecretBox(config.secretsKey);
      const created = await seedDemoData(database.db, { clock: options.clock, box });
      if (print) {
        console.log(
          created.length
            ? `Demo accounts created (change their passwords before real use):\n${demoLoginsTable(created)}`
            : 'The database already has users: demo accounts not created.',
        );
      }
      // The living demo (DEMO_DATA=full) only right after the demo accounts were made: never on a database in use.
      if (created.length && config.demoData === 'full') {
        if (print)
          console.log(
            'Creating the demo ISP: a year of customers, billing, tickets, devices and traffic (DEMO_DATA=minimal skips it)...',
          );
        const storage = createFileStore(storageConfigOf(config), config.dataDir);
        const demo = await seedLivingDemo(database.db, {
          clock: options.clock,
          box,
          storage,
          dataDir: config.dataDir,
          appUrl: config.appUrl,
        });
        if (print && demo) {
          console.log(
            `Demo ISP ready in ${(demo.ms / 1000).toFixed(1)} s: ${demo.customers} customers, ${demo.invoices} invoices, ${demo.tickets} tickets, ${demo.network.devices} NAS devices.`,
          );
        }
      }
    }
    for (const notice of startupNotices(config, await createUserRepository(database.db).activeAdministratorCount())) {
      if (print) console.warn(notice);
    }
    app = await buildApp({ config, database, clock: options.clock, mailer: options.mailer, logger: options.logger });
    // Every connection from the first one on (the simulator's too), for the close (server/lib/drain.ts).
    connections = trackConnections(app.server);
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // What did start (the RADIUS sockets, the job queue) is closed too: a failed start must not hold the ports.
    await app?.close().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  // SIMULATE=true: the simulated NAS is a peer of the listening portal; it stops first, its sessions ended by Stops.
  let simulator: RunningSimulator | null = null;
  if (config.simulate) {
    simulator = await startAppSimulator({ app, config, url }).catch((error: unknown) => {
      app.log.error(
        { err: error },
        'the network simulator could not start (SIMULATE=true); the portal runs without it',
      );
      return null;
    });
  }
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      try {
        await simulator
          ?.stop()
          .catch((error: unknown) => app.log.warn({ err: error }, 'the network simulator did not stop cleanly'));
        // Connections end once idle, not at once: a request already on its way is served (server/lib/drain.ts), with
        // Connection: close.
        app.draining = true;
        connections.closeIdleGently(CLOSE_IDLE_GRACE_MS);
        await connections.stopListening();
        await app.close();
      } finally {
        await database.close();
      }
    })());
  if (print)
    console.log(
      `ISP Portal listening on ${url} (database: ${database.kind}${database.kind === 'pglite' ? ` in ${config.dataDir}/db` : ''})`,
    );
  return { app, config, database, url, close };
}

/** Starts the server and stops it gracefully on SIGTERM/SIGINT (npm start: scripts/start.mjs; or run this file). */
export async function main(): Promise<void> {
  let running: RunningServer | null = null;
  let stopping = false;
  // A signal while starting (migrations, the demo seed, connecting): the start finishes its step and the server
  // then stops at once; a second one exits now. (Some libraries install their own handlers while they load, so
  // without ours a SIGTERM during a long start was swallowed and the process went on to listen.)
  let signalledWhileStarting: string | null = null;
  const onSignal = (signal: string) => {
    if (running) return void shutdown(signal);
    if (signalledWhileStarting) {
      console.error(`${signal} again: exiting now.`);
      process.exit(1);
    }
    signalledWhileStarting = signal;
    console.error(
      `${signal} while starting: stopping as soon as the start-up step in progress ends (send it again to exit now).`,
    );
  };
  // A library's promise nobody awaits (pg-boss completes a finished job that way) rejecting while the database is
  // away must not take the whole portal down with it (issue 33: an outage is a 503, then recovery): logged, and the
  // process goes on.
  process.on('unhandledRejection', (reason) => {
    if (running) running.app.log.error({ err: reason }, 'unhandled promise rejection (the portal keeps running)');
    else console.error('Unhandled promise rejection:', reason);
  });
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  try {
    running = await startServer();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DatabaseInUseError) console.error(error.message);
    else console.error('Could not start the server:', error);
    process.exit(1);
  }
  const shutdown = async (signal: string) => {
    const { app, config } = running!;
    if (stopping) {
      // A second signal: no more waiting for the drain.
      console.error(`${signal} again: closing now.`);
      process.exit(1);
    }
    stopping = true;
    const drain = config.shutdownDrainSeconds;
    app.log.info({ signal, drainSeconds: drain }, 'shutting down');
    const force = setTimeout(
      () => {
        console.error(`Shutdown took longer than ${drain + config.shutdownTimeoutSeconds} s; exiting.`);
        process.exit(1);
      },
      (drain + config.shutdownTimeoutSeconds) * 1000,
    );
    force.unref();
    // Draining: readiness says 503 so the load balancer moves traffic away; requests are still served meanwhile,
    // each answer with Connection: close, so kept-alive clients move to new connections.
    app.draining = true;
    if (drain > 0) await new Promise((resolve) => setTimeout(resolve, drain * 1000));
    try {
      // Fastify stops accepting connections (a new one is refused at connect), serves what reached it on the open
      // ones and finishes the requests in flight; every plugin's onClose then stops its timers and jobs, and the
      // database closes last.
      await running!.close();
      process.exit(0);
    } catch (error) {
      console.error('Error during shutdown:', error);
      process.exit(1);
    }
  };
  if (signalledWhileStarting) void shutdown(signalledWhileStarting);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
