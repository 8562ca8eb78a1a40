/**
 * The traffic module's shared parts: the device poller and the roll-up job, decorated as app.traffic (the
 * API's "poll now" and the tests use them), and their periodic jobs on the shared queue: "device-poll" every
 * minute (each device keeps its own next_poll_at, claimed with one UPDATE) and "traffic-roll-up" once per poll
 * interval, so hourly and daily charts include the current hour and day. Offered only when config.devicePoller.
 */
import fp from 'fastify-plugin';
import { MINUTE_MS } from '../../lib/clock';
import { DevicePoller, POLLER_TICK_MS } from './poller';
import { TrafficRollup } from './rollup';

export const DEVICE_POLL_JOB = 'device-poll';
export const TRAFFIC_ROLLUP_JOB = 'traffic-roll-up';

declare module 'fastify' {
  interface FastifyInstance {
    traffic: { poller: DevicePoller; rollup: TrafficRollup };
  }
}

export default fp(
  async (app) => {
    const rollup = new TrafficRollup({ db: app.db, clock: app.clock });
    const log = app.log.child({ module: 'device-poller' });
    const poller = new DevicePoller({
      db: app.db,
      clock: app.clock,
      box: app.secretBox,
      log,
      pollIntervalMinutes: app.config.devicePollMinutes,
    });
    app.decorate('traffic', { poller, rollup });
    const on = app.config.devicePoller;
    app.jobs.every(
      DEVICE_POLL_JOB,
      POLLER_TICK_MS / 1000,
      {},
      async () => {
        const round = await poller.pollOnce();
        return { polled: round.polled, up: round.up, down: round.down };
      },
      on,
    );
    app.jobs.every(
      TRAFFIC_ROLLUP_JOB,
      (app.config.devicePollMinutes * MINUTE_MS) / 1000,
      { expireInSeconds: 1800 },
      () => rollup.run(),
      on,
    );
  },
  { name: 'traffic', dependencies: ['db', 'settings', 'jobs'] },
);
