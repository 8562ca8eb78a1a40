/**
 * app.changes: the change bus (server/lib/change-bus.ts). PostgreSQL: LISTEN/NOTIFY between every process on the
 * database, listening from registration on, so no change committed after this process started is missed.
 * The embedded database: in process. Closed last, once the other plugins stopped publishing.
 */
import fp from 'fastify-plugin';
import { createLocalChangeBus, createPostgresChangeBus, type ChangeBus } from '../lib/change-bus';

declare module 'fastify' {
  interface FastifyInstance {
    changes: ChangeBus;
  }
}

export default fp(
  async (app) => {
    const log = app.log.child({ module: 'changes' });
    const { database } = app;
    const bus =
      database.kind === 'postgres' && database.url
        ? createPostgresChangeBus({ url: database.url, db: app.db, log })
        : createLocalChangeBus(log, database.pglite);
    await bus.start();
    app.decorate('changes', bus);
    app.addHook('onClose', () => bus.close());
  },
  { name: 'changes', dependencies: ['db'] },
);
