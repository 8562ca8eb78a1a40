/**
 * RADIUS on several cores (RADIUS_WORKERS > 1, PostgreSQL only: an embedded PGlite database belongs to one
 * process). The app forks that many worker processes (worker.ts) through node:cluster; they share the UDP
 * sockets, each with its own subscriber directory, and the app tells them when a subscription or the NAS list
 * changed. A worker that dies is forked again.
 */
import type { UsageNotice } from './service';
import cluster, { type Worker } from 'node:cluster';
import { createSocket } from 'node:dgram';
import { fileURLToPath } from 'node:url';
import { COMPILED } from '../../lib/paths';
import type { RadiusLog } from './core';
import type { CoaOutcome } from './cutoff';
import { WORKER_SETTINGS_ENV, type WorkerCommand, type WorkerReport, type WorkerSettings } from './worker';

export class RadiusWorkerPool {
  private readonly workers = new Set<Worker>();
  private ports: { authPort: number; acctPort: number } | null = null;
  private closing = false;

  constructor(
    private readonly options: {
      count: number;
      settings: WorkerSettings;
      log: RadiusLog;
      /** Told about every request a worker answered (the app's RadiusService.observe: metrics, system page). */
      observe?: (type: 'access' | 'accounting', result: string, seconds: number) => void;
      /** A worker's accounting ended a line (it disconnected the sessions itself): the others must re-read it. */
      accessChanged?: (subscriptionId: string) => void;
      /** A worker's accounting confirmed a CoA (the app's cut-off onCoaOutcome: metrics). */
      coaOutcome?: (result: CoaOutcome) => void;
      /** A worker recorded a fair-use notice (issue 36): the app mails it. */
      usageNotice?: (notice: UsageNotice) => void;
    },
  ) {}

  get listening(): { authPort: number; acctPort: number } | null {
    return this.ports;
  }

  /** Forks the workers and waits until every one listens. */
  async start(): Promise<{ authPort: number; acctPort: number }> {
    // From the sources, worker.ts under the app's TypeScript loader; compiled, the bundle built beside the
    // server's (build/server/radius-worker.mjs), run by node alone.
    cluster.setupPrimary(
      COMPILED
        ? { exec: fileURLToPath(new URL('./radius-worker.mjs', import.meta.url)), execArgv: [], silent: false }
        : {
            exec: fileURLToPath(new URL('./worker.ts', import.meta.url)),
            execArgv: workerExecArgv(process.execArgv),
            silent: false,
          },
    );
    // The cluster shares one socket per address and port: a port 0 must become a real one first, or the auth and
    // accounting sockets would be the same handle.
    const settings = this.options.settings;
    if (settings.radiusAuthPort === 0) settings.radiusAuthPort = await freePort(settings.radiusHost);
    if (settings.radiusAcctPort === 0)
      settings.radiusAcctPort = await freePort(settings.radiusHost, settings.radiusAuthPort);
    const all = await Promise.all(Array.from({ length: this.options.count }, () => this.fork(settings)));
    this.ports = all[0];
    return all[0];
  }

  broadcast(command: WorkerCommand): void {
    // (A worker that sent a change gets its own reload back: one extra read, and its entry is certainly fresh.)
    for (const w of this.workers) if (w.isConnected()) w.send(command);
  }

  async close(): Promise<void> {
    this.closing = true;
    const exits = [...this.workers].map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.isDead()) return resolve();
          const timer = setTimeout(() => w.process.kill('SIGKILL'), 5_000);
          w.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          if (w.isConnected()) w.send({ type: 'stop' } satisfies WorkerCommand);
          else w.process.kill('SIGTERM');
        }),
    );
    await Promise.all(exits);
    this.workers.clear();
  }

  private fork(settings: WorkerSettings): Promise<{ authPort: number; acctPort: number }> {
    const worker = cluster.fork({ [WORKER_SETTINGS_ENV]: JSON.stringify(settings) });
    this.workers.add(worker);
    return new Promise((resolve, reject) => {
      worker.on('message', (report: WorkerReport) => {
        if (report.type === 'observed')
          for (const [type, result, seconds] of report.items) this.options.observe?.(type, result, seconds);
        else if (report.type === 'access-changed') this.options.accessChanged?.(report.subscriptionId);
        else if (report.type === 'coa-outcome') this.options.coaOutcome?.(report.result);
        else if (report.type === 'usage-notice')
          this.options.usageNotice?.({ ...report.notice, cycleStart: new Date(report.notice.cycleStart) });
        else if (report.type === 'listening') resolve({ authPort: report.authPort, acctPort: report.acctPort });
        else if (report.type === 'failed') reject(new Error(`RADIUS worker failed to start: ${report.message}`));
      });
      worker.once('exit', (code) => {
        this.workers.delete(worker);
        reject(new Error(`RADIUS worker exited with ${code}`));
        if (!this.closing && this.ports) {
          this.options.log.error({ code }, 'RADIUS worker died: starting another');
          this.fork(this.options.settings).catch((error: unknown) =>
            this.options.log.error({ err: error }, 'RADIUS worker could not be restarted'),
          );
        }
      });
    });
  }
}

/** A UDP port free right now on the host (other than `not`). */
async function freePort(host: string, not = -1): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const s = createSocket(host.includes(':') ? 'udp6' : 'udp4');
      s.once('error', reject);
      s.bind({ port: 0, address: host, exclusive: true }, () => {
        const p = s.address().port;
        s.close(() => resolve(p));
      });
    });
    if (port !== not) return port;
  }
}

/**
 * The workers run worker.ts, so they need the app's TypeScript loader: the parent's --require/--import/--loader
 * flags (how tsx runs the app), or tsx itself when the parent has none (e.g. a test runner). Nothing else of the
 * parent's flags (an --eval would replace the worker's script).
 */
export function workerExecArgv(parent: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < parent.length; i++) {
    const flag = parent[i];
    if (['--require', '-r', '--import', '--loader', '--experimental-loader'].includes(flag) && i + 1 < parent.length)
      out.push(flag, parent[++i]);
    else if (/^--(require|import|loader|experimental-loader)=/.test(flag)) out.push(flag);
  }
  if (!out.some((a) => a.includes('tsx'))) out.push('--import', 'tsx');
  return out;
}
