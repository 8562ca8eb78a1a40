/**
 * Vacuum for the embedded database (issue 33). PGlite runs PostgreSQL as a single backend: no autovacuum worker
 * ever runs. The dashboard's roll-up tables take an upsert per payment, invoice, ticket and sign-up, so without
 * vacuum each day's row leaves a dead version per change and a year's revenue query, a few hundred live rows, came
 * to read a million dead ones (50–170 ms on the large seed, holding the one database thread). Every
 * EMBEDDED_VACUUM_EVERY_SECONDS a job vacuums and analyses these small, busy tables — milliseconds each. The big
 * tables are left alone (a vacuum of one would hold the database for seconds); they are mostly appended to.
 * PostgreSQL's own autovacuum does all of this there.
 */
import fp from 'fastify-plugin';
import { createSystemRepository } from './repository';

export const EMBEDDED_VACUUM_JOB = 'embedded-vacuum';
export const EMBEDDED_VACUUM_EVERY_SECONDS = 600;
/** Small tables changed in place on every write to the big ones. */
export const EMBEDDED_VACUUM_TABLES = [
  'dashboard_daily_users',
  'dashboard_daily_subscriptions',
  'dashboard_daily_revenue',
  'dashboard_daily_open_invoices',
  'dashboard_daily_tickets',
  'dashboard_daily_resolved_tickets',
  'voucher_batches',
  'settings',
] as const;

export const embeddedVacuumPlugin = fp(
  async (app) => {
    const vacuum = async () => {
      const repo = createSystemRepository(app.db);
      for (const table of EMBEDDED_VACUUM_TABLES) await repo.vacuumAnalyze(table);
    };
    app.decorate('embeddedVacuum', vacuum);
    app.jobs.every(
      EMBEDDED_VACUUM_JOB,
      EMBEDDED_VACUUM_EVERY_SECONDS,
      { expireInSeconds: 600 },
      vacuum,
      app.dbKind === 'pglite',
    );
  },
  { name: 'embedded-vacuum', dependencies: ['db', 'jobs'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** Vacuums the embedded database's busy small tables (what the periodic job runs). */
    embeddedVacuum: () => Promise<void>;
  }
}
