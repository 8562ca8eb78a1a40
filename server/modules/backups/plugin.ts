/** The kept backups (app.backups) and, when config.backupScheduler, their schedule, stopped on close. */
import fp from 'fastify-plugin';
import { MINUTE_MS } from '../../lib/clock';
import { PeriodicCheck } from '../../lib/periodic-check';
import { KeptBackups } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    backups: { kept: KeptBackups; schedule: PeriodicCheck<unknown> };
  }
}

export default fp(
  async (app) => {
    const kept = new KeptBackups({ database: app.database, config: app.config, clock: app.clock, log: app.log.child({ module: 'backups' }) });
    // Built even when off, so tests run one check with run().
    const schedule = new PeriodicCheck(() => kept.takeIfDue(), 10 * MINUTE_MS);
    app.decorate('backups', { kept, schedule });
    // The first check waits a few minutes: a backup dumps the whole database, which a start should not wait for.
    let firstCheck: NodeJS.Timeout | null = null;
    if (app.config.backupScheduler) {
      app.addHook('onReady', async () => {
        firstCheck = setTimeout(() => schedule.start(), 5 * MINUTE_MS);
        firstCheck.unref();
      });
    }
    app.addHook('preClose', async () => {
      if (firstCheck) clearTimeout(firstCheck);
      await schedule.stop();
    });
  },
  { name: 'backups', dependencies: ['db'] },
);
