/**
 * `app.outages` (issue 38): listens to the device poller (a NAS or an uplink going down opens an outage, coming
 * back resolves it) and runs the "incidents" job every minute on the shared queue (staff windows start and end).
 */
import fp from 'fastify-plugin';
import { MINUTE_MS } from '../../lib/clock';
import { OutageService } from './service';

export const INCIDENTS_JOB = 'incidents';

declare module 'fastify' {
  interface FastifyInstance {
    outages: OutageService;
  }
}

export default fp(
  async (app) => {
    const outages = new OutageService({
      db: app.db,
      clock: app.clock,
      notifier: app.notifier,
      log: app.log.child({ module: 'outages' }),
      context: async () => ({ timeZone: (await app.settings.stored()).time_zone ?? null, appUrl: app.config.appUrl }),
    });
    app.decorate('outages', outages);
    app.traffic.poller.onPolled((event) => outages.devicePolled(event));
    app.jobs.every(INCIDENTS_JOB, MINUTE_MS / 1000, {}, () => outages.tick());
  },
  { name: 'outages', dependencies: ['db', 'settings', 'jobs', 'messaging', 'traffic'] },
);
