import fp from 'fastify-plugin';
import type { Config } from '../config';
import type { Database, DatabaseKind, Db } from '../db/client';
import type { Clock } from '../lib/clock';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    dbKind: DatabaseKind;
    /** The open database itself (backups dump it). */
    database: Database;
    clock: Clock;
  }
}

/**
 * Shares the configuration, the database and the clock with every plugin and route. The database belongs to
 * whoever opened it (server.ts closes it after the server), so it is not closed here.
 */
export default fp<{ config: Config; database: Database; clock: Clock }>(
  async (app, opts) => {
    app.decorate('config', opts.config);
    app.decorate('db', opts.database.db);
    app.decorate('dbKind', opts.database.kind);
    app.decorate('database', opts.database);
    app.decorate('clock', opts.clock);
  },
  { name: 'db' },
);
