/**
 * Prometheus metrics (issue 18) through prom-client, never public:
 * - METRICS_PORT set: GET /metrics on its own listener (METRICS_HOST, default 127.0.0.1), for a scraper on the
 *   host or the private network;
 * - METRICS_TOKEN set: GET /metrics on the portal's port too, for `Authorization: Bearer <METRICS_TOKEN>` only;
 * - neither: no /metrics at all.
 * What this process saw: API request durations by route and status, RADIUS requests by type and result with
 * their latency (answered in this process), CoA outcomes (isp_radius_coa_total), process metrics. What every node shares, read from the database at
 * each scrape (so any node answers alike): the job queue (jobs by queue and state, failures of the last 24 h, age
 * of the oldest waiting job), the mail outbox backlog, open RADIUS sessions, the last billing run, and this
 * process's database pool.
 */
import { createServer, type Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import client from 'prom-client';
import { readSharedFigures } from '../modules/system/figures';
import { isApiPath } from './access';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: client.Registry;
  }
}

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export default fp(
  async (app) => {
    const { config } = app;
    const registry = new client.Registry();
    client.collectDefaultMetrics({ register: registry, prefix: 'isp_' });

    const http = new client.Histogram({
      name: 'isp_http_request_duration_seconds',
      help: 'API requests by method, route and status: duration in seconds',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
    app.addHook('onResponse', (request, reply, done) => {
      if (isApiPath(request.url)) {
        http.observe(
          { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
          reply.elapsedTime / 1000,
        );
      }
      done();
    });

    const radiusRequests = new client.Counter({
      name: 'isp_radius_requests_total',
      help: 'RADIUS requests answered by this process, by type (access, accounting) and result',
      labelNames: ['type', 'result'] as const,
      registers: [registry],
    });
    const radiusLatency = new client.Histogram({
      name: 'isp_radius_request_duration_seconds',
      help: 'RADIUS requests answered by this process: time from the request to the answer, in seconds',
      labelNames: ['type'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers: [registry],
    });
    // Every request answered here or by a RADIUS worker process (the pool forwards theirs to this callback).
    const { heartbeat } = app.system;
    app.radius.service.observe = (type, result, seconds) => {
      radiusRequests.inc({ type, result });
      radiusLatency.observe({ type }, seconds);
      heartbeat.countRadius(type, result);
    };

    // Verified changes (issue 36): how each CoA ended, here or in a RADIUS worker process (forwarded by the pool).
    const coaOutcomes = new client.Counter({
      name: 'isp_radius_coa_total',
      help: 'CoA requests by outcome: confirmed (the session reported the new policy or ended), unconfirmed (not in time: disconnected), nak, timeout (disconnected at once), failed (no NAS to send to)',
      labelNames: ['result'] as const,
      registers: [registry],
    });
    for (const result of ['confirmed', 'unconfirmed', 'nak', 'timeout', 'failed']) coaOutcomes.inc({ result }, 0);
    app.radius.cutoff.onCoaOutcome = (result) => coaOutcomes.inc({ result });

    const jobs = new client.Gauge({
      name: 'isp_jobs',
      help: 'Jobs of the shared queue by queue and state (pg-boss)',
      labelNames: ['queue', 'state'] as const,
      registers: [registry],
    });
    const jobFailures = new client.Gauge({
      name: 'isp_job_failures_24h',
      help: 'Jobs that failed for good in the last 24 hours, by queue',
      labelNames: ['queue'] as const,
      registers: [registry],
    });
    const oldestWaiting = new client.Gauge({
      name: 'isp_job_oldest_waiting_seconds',
      help: 'Age of the oldest job waiting to run (0: none)',
      registers: [registry],
    });
    const mailBacklog = new client.Gauge({
      name: 'isp_mail_outbox_backlog',
      help: 'E-mails not delivered yet, by status (queued, failed)',
      labelNames: ['status'] as const,
      registers: [registry],
    });
    const sessions = new client.Gauge({
      name: 'isp_radius_sessions_open',
      help: 'Open RADIUS accounting sessions (all NAS)',
      registers: [registry],
    });
    const lastBilling = new client.Gauge({
      name: 'isp_billing_last_run_timestamp_seconds',
      help: 'When the last billing run finished (Unix time; 0: never)',
      registers: [registry],
    });
    const lastBillingDuration = new client.Gauge({
      name: 'isp_billing_last_run_duration_seconds',
      help: 'How long the last billing run took',
      registers: [registry],
    });
    const pool = new client.Gauge({
      name: 'isp_db_pool_connections',
      help: "This process's database connections by state (PostgreSQL)",
      labelNames: ['state'] as const,
      registers: [registry],
    });

    const radiusLastHour = new client.Gauge({
      name: 'isp_radius_requests_last_hour',
      help: 'RADIUS requests answered by every node in the last 60 minutes, by type and result',
      labelNames: ['type', 'result'] as const,
      registers: [registry],
    });
    const lastBackup = new client.Gauge({
      name: 'isp_backup_last_success_timestamp_seconds',
      help: 'When the newest kept database backup was taken (Unix time; 0: none)',
      registers: [registry],
    });
    const backupFailing = new client.Gauge({
      name: 'isp_backup_failing',
      help: '1 while the last scheduled database backup failed (until one succeeds), else 0',
      registers: [registry],
    });
    const backupScheduled = new client.Gauge({
      name: 'isp_backup_scheduled',
      help: '1 when this portal takes database backups on a schedule (BACKUP_SCHEDULER), else 0',
      registers: [registry],
    });
    const nodesUp = new client.Gauge({
      name: 'isp_nodes',
      help: 'Portal nodes in the shared list, by whether their heartbeat is recent',
      labelNames: ['responding'] as const,
      registers: [registry],
    });

    /** The shared figures, read once per scrape by the same code as the system page (modules/system/figures.ts). */
    const readShared = async () => {
      const shared = await readSharedFigures(app);
      jobs.reset();
      for (const r of shared.jobs.byState) jobs.set({ queue: r.name, state: r.state }, r.n);
      jobFailures.reset();
      for (const r of shared.jobs.failed24h) jobFailures.set({ queue: r.name }, r.n);
      oldestWaiting.set(shared.jobs.oldestWaitingSeconds);
      mailBacklog.set({ status: 'queued' }, shared.mail.queued);
      mailBacklog.set({ status: 'failed' }, shared.mail.failed);
      sessions.set(shared.radius.sessionsOpen);
      radiusLastHour.reset();
      for (const r of shared.radius.lastHour) radiusLastHour.set({ type: r.type, result: r.result }, r.n);
      lastBilling.set(shared.billing.lastRunAt ? shared.billing.lastRunAt.getTime() / 1000 : 0);
      lastBillingDuration.set(shared.billing.lastRunSeconds ?? 0);
      lastBackup.set(shared.backups.lastAt ? shared.backups.lastAt.getTime() / 1000 : 0);
      backupFailing.set(shared.backups.lastFailure ? 1 : 0);
      backupScheduled.set(shared.backups.scheduled ? 1 : 0);
      nodesUp.set({ responding: 'true' }, shared.nodes.filter((n) => n.responding).length);
      nodesUp.set({ responding: 'false' }, shared.nodes.filter((n) => !n.responding).length);
      const stats = app.database.poolStats?.();
      if (stats) {
        pool.set({ state: 'total' }, stats.total);
        pool.set({ state: 'idle' }, stats.idle);
        pool.set({ state: 'waiting' }, stats.waiting);
      }
    };

    const render = async (): Promise<string> => {
      try {
        await readShared();
      } catch (error) {
        app.log.warn({ err: error }, 'metrics: the shared figures could not be read');
      }
      return registry.metrics();
    };
    app.decorate('metrics', registry);

    if (config.metricsToken) {
      const token = config.metricsToken;
      app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
        const header = request.headers.authorization ?? '';
        const given = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? '';
        if (!sameToken(given, token))
          return reply.code(401).header('www-authenticate', 'Bearer').type('text/plain').send('Unauthorized\n');
        return reply
          .type(registry.contentType)
          .header('cache-control', 'no-store')
          .send(await render());
      });
    }

    let server: Server | null = null;
    if (config.metricsPort !== null) {
      server = createServer((request, response) => {
        if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
          response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
          return;
        }
        render().then(
          (text) =>
            response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text),
          () => response.writeHead(500).end(),
        );
      });
      const listening = server;
      app.addHook(
        'onReady',
        () =>
          new Promise<void>((resolve, reject) => {
            listening.once('error', reject);
            listening.listen(config.metricsPort!, config.metricsHost, () => resolve());
          }),
      );
      app.addHook('onClose', () => new Promise<void>((resolve) => listening.close(() => resolve())));
    }
    app.decorate('metricsAddress', () => (server?.address() as import('node:net').AddressInfo | null) ?? null);
  },
  { name: 'metrics', dependencies: ['db', 'radius', 'jobs', 'system', 'backups'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** The metrics listener's address (METRICS_PORT), or null. */
    metricsAddress(): import('node:net').AddressInfo | null;
  }
}
