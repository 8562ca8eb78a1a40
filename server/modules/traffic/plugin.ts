/**
 * The traffic module's shared parts: the device poller and the roll-up job, decorated as app.traffic (the
 * API's "poll now" and the tests use them), and, when config.devicePoller, the timer that polls due devices
 * every minute and rolls traffic up once per poll interval, stopped before close.
 */
import fp from 'fastify-plugin';
import { DevicePoller } from './poller';
import { TrafficRollup } from './rollup';

declare module 'fastify' {
  interface FastifyInstance {
    traffic: { poller: DevicePoller; rollup: TrafficRollup };
  }
}

export default fp(
  async (app) => {
    const rollup = new TrafficRollup({ db: app.db, clock: app.clock });
    const poller = new DevicePoller({
      db: app.db,
      clock: app.clock,
      box: app.secretBox,
      log: app.log.child({ module: 'device-poller' }),
      pollIntervalMinutes: app.config.devicePollMinutes,
      rollup,
    });
    app.decorate('traffic', { poller, rollup });
    if (app.config.devicePoller) {
      app.addHook('onReady', async () => poller.start());
      app.addHook('preClose', async () => poller.stop());
    }
  },
  { name: 'traffic', dependencies: ['db', 'settings'] },
);
