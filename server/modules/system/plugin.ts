/**
 * app.system (issue 18): this node's heartbeat in the shared node list and its RADIUS counts per minute
 * (nodes.ts). Beats from when the app is ready until it closes; a clean stop removes the node from the list.
 */
import fp from 'fastify-plugin';
import { systemClock } from '../../lib/clock';
import { NodeHeartbeat } from './nodes';

declare module 'fastify' {
  interface FastifyInstance {
    system: { heartbeat: NodeHeartbeat };
  }
}

export default fp(
  async (app) => {
    const log = app.log.child({ module: 'system' });
    const heartbeat = new NodeHeartbeat({
      db: app.db,
      // Wall time, not the app's clock (which tests move through billing periods): the beats and per-minute
      // counts are compared with the database's now().
      clock: systemClock,
      everySeconds: app.config.nodeHeartbeatSeconds,
      onError: (error) => log.warn({ err: error }, 'the node heartbeat could not be written'),
    });
    app.decorate('system', { heartbeat });
    app.addHook('onReady', () => heartbeat.start());
    app.addHook('onClose', () => heartbeat.stop());
  },
  { name: 'system', dependencies: ['db'] },
);
