/** The kept backups (app.backups) and, when config.backupScheduler, their schedule (a periodic job). */
import fp from 'fastify-plugin';
import { MINUTE_MS } from '../../lib/clock';
import { PeriodicCheck } from '../../lib/periodic-check';
import { KeptBackups } from './service';

export const DATABASE_BACKUP_JOB = 'database-backup';

declare module 'fastify' {
  interface FastifyInstance {
    backups: { kept: KeptBackups; schedule: PeriodicCheck<unknown> };
  }
}

export default fp(
  async (app) => {
    const kept = new KeptBackups({
      database: app.database,
      config: app.config,
      clock: app.clock,
      log: app.log.child({ module: 'backups' }),
      store: app.storage,
    });
    // Built even when off, so tests run one check with run().
    const schedule = new PeriodicCheck(() => kept.takeIfDue());
    app.decorate('backups', { kept, schedule });
    // A check every ten minutes, once across the nodes, run by the job queue's worker (never in a start's way).
    app.jobs.every(
      DATABASE_BACKUP_JOB,
      (10 * MINUTE_MS) / 1000,
      { expireInSeconds: 3600 },
      () => schedule.run(),
      app.config.backupScheduler,
    );
    app.addHook('preClose', () => schedule.stop());
  },
  { name: 'backups', dependencies: ['db', 'jobs', 'storage'] },
);
