/**
 * app.jobs: the job queue (server/lib/jobs.ts, pg-boss on the portal's database). Modules define their jobs while
 * the app is built; the queue starts when the app is ready and stops before the other plugins close, letting
 * running jobs finish within SHUTDOWN_TIMEOUT_SECONDS (what is left is retried by another node or the next start).
 */
import fp from 'fastify-plugin';
import { Jobs } from '../lib/jobs';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: Jobs;
  }
}

export default fp(
  async (app) => {
    const { database, config } = app;
    const connection =
      database.kind === 'postgres' && database.url
        ? { url: database.url }
        : database.pglite
          ? { pglite: database.pglite }
          : null;
    if (!connection) throw new Error('the job queue needs the PostgreSQL URL or the embedded database');
    const jobs = new Jobs({
      connection,
      log: app.log.child({ module: 'jobs' }),
      maintenanceSeconds: config.jobsMaintenanceSeconds,
    });
    app.decorate('jobs', jobs);
    app.addHook('onReady', () => jobs.start());
    app.addHook('preClose', () => jobs.stop(config.shutdownTimeoutSeconds));
  },
  { name: 'jobs', dependencies: ['db'] },
);
