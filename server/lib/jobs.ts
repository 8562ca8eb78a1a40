// The declaration of pg-boss' untyped Manager module, referenced here so any tsconfig that compiles this file sees it.
/// <reference path="../pg-boss-manager.d.ts" />
/**
 * Background jobs on PostgreSQL through pg-boss (issue 14): every job is a row in the pgboss schema of the portal's
 * own database, so a job runs exactly once across nodes (fetched with SKIP LOCKED), survives a restart, and a job
 * whose node died mid-run is expired by pg-boss' maintenance and retried on another node. Periodic work: every
 * node offers a job each period, as a pg-boss singleton of that period's slot (singletonKey + singletonSeconds),
 * so each slot gets exactly one job whichever nodes are up, and any node runs it. (pg-boss' cron schedules tick
 * once a minute at best; the RADIUS sweep needs 15 s.)
 *
 * The embedded database runs the same pg-boss through a small adapter (`pgliteBossDb`): pg-boss accepts any object
 * with executeSql(text, values); PGlite runs parameterised statements with query() and pg-boss' multi-statement
 * scripts (its schema, its locked maintenance) with exec(). Same queue, same code path, one process.
 *
 * Definitions are made while the app is built (define / every); start() creates the queues, starts the workers
 * and the schedules; stop() stops fetching, lets running handlers finish (up to a time-out) and releases the rest
 * (pg-boss retries what was left active once it expires).
 */
/** What pg-boss needs of the embedded database (server/db/pglite-remote.ts, or PGlite itself). */
export interface PgliteQueryable {
  // biome-ignore lint/suspicious/noExplicitAny: PGlite's own signature, which pg-boss's rows are read through
  query(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
  // biome-ignore lint/suspicious/noExplicitAny: PGlite's own signature, as above
  exec(text: string): Promise<Array<{ rows: any[] }>>;
}
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import PgBossManager from 'pg-boss/src/manager.js';
import { JOB_STATUS_OF_STATE, type JobStatus } from '../../contract/jobs';

export const JOBS_SCHEMA = 'pgboss';
/** The portal's own queues (pg-boss keeps internal ones whose names begin with "__pgboss"). */
const OWN_QUEUES = `name not like '\\_\\_pgboss%'`;

export type { JobStatus };
const STATES_OF: Record<JobStatus, string> = Object.fromEntries(
  Object.entries(JOB_STATUS_OF_STATE).map(([k, v]) => [v, k]),
) as Record<JobStatus, string>;

export interface JobOptions {
  /** Tries after the first failure (default 3). */
  retryLimit?: number;
  /** Seconds before the first retry (default 30), doubled each time with retryBackoff (default true). */
  retryDelay?: number;
  retryBackoff?: boolean;
  /** A run still active this long is taken as dead (its node stopped) and retried (default 15 minutes). */
  expireInSeconds?: number;
  /** Handlers of this queue running at once in one process (default 1). */
  concurrency?: number;
}

export type JobHandler<T> = (data: T, job: { id: string; retryCount: number }) => Promise<unknown>;

interface Definition {
  name: string;
  options: Required<Omit<JobOptions, 'concurrency'>> & { concurrency: number };
  handler: JobHandler<never>;
  /** Periodic: seconds between two jobs. */
  everySeconds?: number;
}

export interface JobRow {
  id: string;
  name: string;
  status: JobStatus;
  /** Why it failed (the last error), or null. */
  error: string | null;
  retry_count: number;
  retry_limit: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  data: unknown;
}

export interface JobList {
  items: JobRow[];
  total: number;
}

/** pg-boss' database interface over an embedded PGlite. */
export function pgliteBossDb(pg: PgliteQueryable): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (values?.length) return pg.query(text, values);
      const results = await pg.exec(text);
      return results[results.length - 1] ?? { rows: [] };
    },
  };
}

/**
 * pg-boss 10 completes or fails a finished job without awaiting the call (manager.js, onFetch): when the database is
 * away at that moment (an outage, a restart, the app closing) the rejection had no handler, and an unhandled
 * rejection ends a Node process. Here each such call's failure is passed to the queue's 'error' event instead
 * (logged by Jobs, like pg-boss' other failures); the job stays active and pg-boss runs it again once it expires.
 */
for (const method of ['complete', 'fail'] as const) {
  const original = PgBossManager.prototype[method];
  PgBossManager.prototype[method] = function (
    this: { emit(event: string, error: unknown): boolean },
    ...args: unknown[]
  ) {
    const result: Promise<unknown> = original.apply(this, args);
    result.catch((error: unknown) => this.emit('error', error));
    return result;
  };
}

export interface JobsOptions {
  /** PostgreSQL connection URL, or an embedded PGlite. */
  connection: { url: string } | { pglite: PgliteQueryable };
  log: FastifyBaseLogger;
  /** Seconds between two maintenance passes (expiring dead runs, archiving); default 30. */
  maintenanceSeconds?: number;
  /** Seconds between two polls of a queue by a worker (a local send wakes the worker at once); default 2. */
  pollingSeconds?: number;
}

export class Jobs {
  private bossInstance: PgBoss | null = null;
  private readonly definitions = new Map<string, Definition>();
  private readonly workerIds = new Map<string, string[]>();
  private readonly running = new Set<Promise<unknown>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private started = false;
  private stopped = false;

  constructor(private readonly opts: JobsOptions) {}

  /** pg-boss, made at start(). */
  get boss(): PgBoss {
    if (!this.bossInstance) throw new Error('jobs not started');
    return this.bossInstance;
  }

  private createBoss(): PgBoss {
    const { opts } = this;
    const connection =
      'url' in opts.connection
        ? { connectionString: opts.connection.url, max: 4, application_name: 'isp-portal-jobs' }
        : { db: pgliteBossDb(opts.connection.pglite) };
    const boss = new PgBoss({
      ...connection,
      schema: JOBS_SCHEMA,
      schedule: false,
      supervise: true,
      migrate: true,
      maintenanceIntervalSeconds: opts.maintenanceSeconds ?? 30,
      // Done jobs stay visible to admins for a week, failed ones for a month.
      archiveCompletedAfterSeconds: 7 * 24 * 3600,
      archiveFailedAfterSeconds: 30 * 24 * 3600,
      deleteAfterDays: 30,
    });
    boss.on('error', (error: unknown) => opts.log.error({ err: error }, 'job queue error'));
    return boss;
  }

  /** A queue and its handler. Called while the app is built, before start(). */
  define<T>(name: string, options: JobOptions, handler: JobHandler<T>): void {
    if (this.started) throw new Error(`job ${name} defined after start`);
    this.definitions.set(name, {
      name,
      options: {
        retryLimit: options.retryLimit ?? 3,
        retryDelay: options.retryDelay ?? 30,
        retryBackoff: options.retryBackoff ?? true,
        expireInSeconds: options.expireInSeconds ?? 15 * 60,
        concurrency: Math.max(1, options.concurrency ?? 1),
      },
      handler: handler as JobHandler<never>,
    });
  }

  /**
   * Periodic work: one job of this name every `seconds` across all nodes (none retried: the next one comes).
   * When `enabled` is false the queue still exists (a job sent to it runs) but this node offers none.
   */
  every(name: string, seconds: number, options: JobOptions, handler: () => Promise<unknown>, enabled = true): void {
    this.define(name, { retryLimit: 0, expireInSeconds: Math.max(60, seconds * 2), ...options }, () => handler());
    if (enabled) this.definitions.get(name)!.everySeconds = seconds;
  }

  get names(): string[] {
    return [...this.definitions.keys()];
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.bossInstance = this.createBoss();
    await this.boss.start();
    for (const def of this.definitions.values()) {
      const { concurrency, ...queue } = def.options;
      await retryOnDeadlock(async () => {
        const existing = await this.boss.getQueue(def.name);
        if (existing) await this.boss.updateQueue(def.name, { name: def.name, ...queue });
        else await this.boss.createQueue(def.name, { name: def.name, ...queue });
      });
      const ids: string[] = [];
      for (let i = 0; i < concurrency; i++) {
        ids.push(
          await this.boss.work<never>(
            def.name,
            { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: this.opts.pollingSeconds ?? 2 },
            async ([job]) => {
              const run = def.handler(job.data, { id: job.id, retryCount: job.retryCount });
              this.running.add(run);
              try {
                return await run;
              } catch (error) {
                this.opts.log.warn(
                  { err: error, job: def.name, jobId: job.id, retryCount: job.retryCount },
                  'job failed',
                );
                throw error;
              } finally {
                this.running.delete(run);
              }
            },
          ),
        );
      }
      this.workerIds.set(def.name, ids);
      if (def.everySeconds) this.offerEvery(def.name, def.everySeconds);
    }
  }

  /** Offers the job of the current slot now and at every period (the first node to offer a slot makes its job). */
  private offerEvery(name: string, seconds: number): void {
    const offer = () =>
      this.send(name, {}, { singletonKey: name, singletonSeconds: seconds }).catch((error: unknown) =>
        this.opts.log.error({ err: error, job: name }, 'periodic job not queued; offered again next period'),
      );
    void offer();
    const timer = setInterval(() => void offer(), seconds * 1000);
    timer.unref();
    this.timers.push(timer);
  }

  /** Queues a job; a worker of this process is woken at once (other nodes find it at their next poll). */
  async send<T extends object>(
    name: string,
    data: T,
    options: { id?: string; singletonKey?: string; singletonSeconds?: number; startAfter?: number } = {},
  ): Promise<string | null> {
    if (!this.definitions.has(name)) throw new Error(`unknown job ${name}`);
    const id = await this.boss.send(name, data, options);
    for (const workerId of this.workerIds.get(name) ?? []) this.boss.notifyWorker(workerId);
    return id;
  }

  /**
   * Resolves when no job of these queues (default: all) is queued, retrying before `until`, or running anywhere
   * (tests and admin tools). Polls the database: another node's work counts too.
   */
  async idle(names: string[] = this.names, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await this.sql<{ n: number }>(
        `select count(*)::int as n from ${JOBS_SCHEMA}.job
          where name = any($1::text[]) and (state in ('created', 'active') or (state = 'retry' and start_after <= now()))`,
        [names],
      );
      if ((rows[0]?.n ?? 0) === 0 && this.running.size === 0) return;
      if (Date.now() > deadline) throw new Error(`jobs not idle after ${timeoutMs} ms: ${names.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const ids of this.workerIds.values()) for (const id of ids) this.boss.notifyWorker(id);
    }
  }

  /** The jobs admins see, newest first (live and archived). */
  async list(query: { name?: string; status?: JobStatus; page: number; limit: number }): Promise<JobList> {
    const where: string[] = [];
    const values: unknown[] = [];
    if (query.name) {
      values.push(query.name);
      where.push(`name = $${values.length}`);
    }
    if (query.status) {
      values.push(STATES_OF[query.status]);
      where.push(`state = $${values.length}::${JOBS_SCHEMA}.job_state`);
    }
    where.push(OWN_QUEUES);
    const filter = `where ${where.join(' and ')}`;
    const columns =
      'id, name, state::text as state, output, retry_count, retry_limit, created_on, started_on, completed_on, data';
    const union = `select ${columns} from ${JOBS_SCHEMA}.job ${filter} union all select ${columns} from ${JOBS_SCHEMA}.archive ${filter}`;
    const count = await this.sql<{ n: number }>(`select count(*)::int as n from (${union}) j`, values);
    values.push(query.limit, (query.page - 1) * query.limit);
    const page = await this.sql<RawJob>(
      `select * from (${union}) j order by created_on desc, id limit $${values.length - 1} offset $${values.length}`,
      values,
    );
    return { items: page.rows.map(toJobRow), total: count.rows[0]?.n ?? 0 };
  }

  /**
   * The queue at a glance (metrics): jobs by queue and pg-boss state, the queues' failures of the last 24 hours
   * (live and archived), and how long the oldest job due to run has waited.
   */
  async summary(): Promise<{
    byState: Array<{ name: string; state: string; n: number }>;
    failed24h: Array<{ name: string; n: number }>;
    oldestWaitingSeconds: number;
  }> {
    const byState = await this.sql<{ name: string; state: string; n: number }>(
      `select name, state::text as state, count(*)::int as n from ${JOBS_SCHEMA}.job where ${OWN_QUEUES} group by name, state`,
      [],
    );
    const failed = await this.sql<{ name: string; n: number }>(
      `select name, count(*)::int as n from (select name, state, completed_on from ${JOBS_SCHEMA}.job union all select name, state, completed_on from ${JOBS_SCHEMA}.archive) j
        where state = 'failed' and completed_on > now() - interval '24 hours' and ${OWN_QUEUES} group by name`,
      [],
    );
    const oldest = await this.sql<{ s: number | null }>(
      `select extract(epoch from now() - min(created_on))::float8 as s from ${JOBS_SCHEMA}.job where state in ('created', 'retry') and start_after <= now()`,
      [],
    );
    return {
      byState: byState.rows.map((r) => ({ name: r.name, state: r.state, n: Number(r.n) })),
      failed24h: failed.rows.map((r) => ({ name: r.name, n: Number(r.n) })),
      oldestWaitingSeconds: Math.max(0, Number(oldest.rows[0]?.s ?? 0)),
    };
  }

  /** The last job of a queue (health and tests), or null. */
  async latest(name: string): Promise<JobRow | null> {
    return (await this.list({ name, page: 1, limit: 1 })).items[0] ?? null;
  }

  /** Stops fetching, waits for running handlers (at most timeoutSeconds) and closes pg-boss' connections. */
  async stop(timeoutSeconds = 10): Promise<void> {
    if (!this.started || this.stopped) return;
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    await this.boss
      .stop({ graceful: true, wait: true, timeout: Math.max(1, timeoutSeconds) * 1000 })
      .catch((error: unknown) => {
        this.opts.log.warn({ err: error }, 'job queue did not stop cleanly');
      });
  }

  private async sql<T>(text: string, values: unknown[]): Promise<{ rows: T[] }> {
    const db = (this.boss as unknown as { getDb(): PgBoss.Db }).getDb();
    return (await db.executeSql(text, values)) as { rows: T[] };
  }
}

/**
 * Two nodes starting at once both create a queue's partition and may deadlock each other in PostgreSQL (seen in
 * the tests); creating a queue is idempotent, so the loser tries again after a short random wait.
 */
async function retryOnDeadlock(work: () => Promise<void>, tries = 6): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (i >= tries || (code !== '40P01' && code !== '23505' && code !== '42P07')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * i));
    }
  }
}

interface RawJob {
  id: string;
  name: string;
  state: string;
  output: unknown;
  retry_count: number;
  retry_limit: number;
  created_on: Date | string;
  started_on: Date | string | null;
  completed_on: Date | string | null;
  data: unknown;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function toJobRow(row: RawJob): JobRow {
  const status = JOB_STATUS_OF_STATE[row.state] ?? 'queued';
  const output = row.output as { message?: unknown } | null;
  const error =
    (status === 'failed' || status === 'retrying') && output && typeof output.message === 'string'
      ? output.message
      : null;
  return {
    id: row.id,
    name: row.name,
    status,
    error,
    retry_count: row.retry_count,
    retry_limit: row.retry_limit,
    created_at: iso(row.created_on)!,
    started_at: iso(row.started_on),
    finished_at: status === 'done' || status === 'failed' || status === 'cancelled' ? iso(row.completed_on) : null,
    data: row.data,
  };
}
