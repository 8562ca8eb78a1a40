/**
 * A RADIUS worker process (RADIUS_WORKERS > 1 with PostgreSQL): forked by the app through node:cluster, it
 * binds the same UDP ports as its siblings (one socket shared through the cluster, the kernel handing each
 * packet to one of them) and answers with its own subscriber directory and database pool. The app tells it
 * what changed (subscription re-read, NAS list re-read) over IPC; sweeps and cut-off checks stay in the app.
 */
import type { UsageNotice } from './service';
import cluster from 'node:cluster';
import { openDatabase } from '../../db/client';
import { RadiusUdpServer } from '../../integrations/radius/server';
import { systemClock } from '../../lib/clock';
import { PostgresRateLimitBackend } from '../../lib/rate-limit-postgres';
import { createSecretBox } from '../../lib/secret-box';
import type { NasClient } from './clients';
import { createRadiusCore, type RadiusLog, type RadiusSettings } from './core';
import type { CoaOutcome } from './cutoff';

export interface WorkerSettings extends RadiusSettings {
  databaseUrl: string;
  secretsKey: string;
  radiusHost: string;
  radiusAuthPort: number;
  radiusAcctPort: number;
  logLevel: string;
}

/** Messages from the app to its workers. */
export type WorkerCommand =
  | { type: 'reload'; subscriptionId: string }
  | { type: 'reload-all' }
  | { type: 'reload-clients' }
  | { type: 'stop' };
/** Messages from a worker to the app. */
export type WorkerReport =
  | { type: 'listening'; authPort: number; acctPort: number }
  | { type: 'failed'; message: string }
  /** The requests this worker answered since its last report: [type, result, seconds] each (metrics, system page). */
  | { type: 'observed'; items: Observation[] }
  /** This worker's accounting ended a line (data allowance used): it disconnected its sessions; the app tells the rest. */
  | { type: 'access-changed'; subscriptionId: string }
  /** A CoA ended here (confirmed by this worker's accounting): counted by the app's metrics. */
  | { type: 'coa-outcome'; result: CoaOutcome }
  /** A fair-use notice this worker recorded (usage_notices, once across processes): the app mails it (issue 36). */
  | { type: 'usage-notice'; notice: Omit<UsageNotice, 'cycleStart'> & { cycleStart: string } };

export type Observation = ['access' | 'accounting', string, number];

/** How often a worker reports what it answered to the app (batched: one IPC message a second at most). */
const OBSERVED_EVERY_MS = 1_000;

export const WORKER_SETTINGS_ENV = 'ISP_RADIUS_WORKER_SETTINGS';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

function workerLog(level: string): RadiusLog {
  const min = LEVELS.indexOf(level);
  const at = (name: string) => (obj: object, msg: string) => {
    if (min < 0 || LEVELS.indexOf(name) < min) return;
    const err = (obj as { err?: unknown }).err;
    process.stderr.write(
      `${JSON.stringify({ level: name, time: Date.now(), pid: process.pid, module: 'radius-worker', msg, ...obj, ...(err ? { err: String(err) } : {}) })}\n`,
    );
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

async function main(): Promise<void> {
  const settings = JSON.parse(process.env[WORKER_SETTINGS_ENV] ?? '{}') as WorkerSettings;
  const send = (report: WorkerReport) => process.send?.(report);
  const log = workerLog(settings.logLevel);
  const database = await openDatabase({ databaseUrl: settings.databaseUrl });
  // Workers run with PostgreSQL only: failed voucher logins count in its rate_limits table, shared by every worker.
  const attempts = new PostgresRateLimitBackend(database.db, systemClock, (error) =>
    log.warn({ err: error }, 'sweeping ended rate-limit windows failed'),
  );
  const core = createRadiusCore({
    db: database.db,
    clock: systemClock,
    box: createSecretBox(settings.secretsKey),
    config: settings,
    log,
    attempts,
  });
  const server = new RadiusUdpServer<NasClient>(core.service);
  // What this worker answered goes to the app, which counts it with its own (metrics, the system page).
  let observed: Observation[] = [];
  const report = () =>
    new Promise<void>((resolve) => {
      if (observed.length === 0 || !process.send) return resolve();
      process.send({ type: 'observed', items: observed } satisfies WorkerReport, () => resolve());
      observed = [];
    });
  core.service.observe = (type, result, seconds) => {
    observed.push([type, result, seconds]);
  };
  core.cutoff.onCoaOutcome = (result) => send({ type: 'coa-outcome', result });
  core.service.onEnded = (subscriptionId) => {
    core.cutoff.accessChanged(subscriptionId, 'status');
    send({ type: 'access-changed', subscriptionId });
  };
  // Fair use (issue 36): a tier this worker moved makes the app and the other workers drop their cached usage;
  // a notice it recorded is mailed by the app.
  core.service.onFairUseTier = (subscriptionId) => {
    send({ type: 'access-changed', subscriptionId });
  };
  core.service.usageNotice = (notice) => {
    send({ type: 'usage-notice', notice: { ...notice, cycleStart: notice.cycleStart.toISOString() } });
  };
  const reporting = setInterval(() => void report(), OBSERVED_EVERY_MS);
  reporting.unref();
  await Promise.all([core.subscribers.start(), core.clients.start()]);
  const ports = await server.listen({
    host: settings.radiusHost,
    authPort: settings.radiusAuthPort,
    acctPort: settings.radiusAcctPort,
    exclusive: false,
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    core.subscribers.stop();
    core.clients.stop();
    await server.close();
    await core.cutoff.idle();
    await core.dynauth.close();
    clearInterval(reporting);
    await report(); // sent before the exit, so the last second's requests are counted too
    await database.close().catch(() => {});
    process.exit(0);
  };
  process.on('message', (command: WorkerCommand) => {
    if (command.type === 'reload') {
      // Its fair-use usage too (a top-up paid, a tier moved by another node).
      core.usage.forget(command.subscriptionId);
      core.subscribers
        .reload(command.subscriptionId)
        .catch((error: unknown) => log.error({ err: error }, 'reload failed'));
    } else if (command.type === 'reload-all')
      core.subscribers.reloadAll().catch((error: unknown) => log.error({ err: error }, 'reload failed'));
    else if (command.type === 'reload-clients')
      core.clients.reload().catch((error: unknown) => log.error({ err: error }, 'reload failed'));
    else if (command.type === 'stop') void stop();
  });
  process.on('disconnect', () => void stop());
  process.on('SIGTERM', () => void stop());
  send({ type: 'listening', ...ports });
}

// Only as a forked worker: the app imports this file for its types and constant.
if (cluster.isWorker && process.env[WORKER_SETTINGS_ENV]) {
  main().catch((error: unknown) => {
    process.send?.({ type: 'failed', message: String((error as Error)?.message ?? error) } satisfies WorkerReport);
    process.exit(1);
  });
}
