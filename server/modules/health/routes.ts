import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { envelope, fail, ok } from '../../../contract/envelope';
import { appliedMigrations, knownMigrations } from '../system/figures';
import { z } from 'zod';

const checksSchema = z
  .record(z.string(), z.boolean())
  .describe('Each check (database, migrations, changes) and whether it passed.');

/**
 * Health for people and load balancers:
 *   GET /api/health        the database answers (kept as it was);
 *   GET /api/health/live   the process runs and serves HTTP (restart it when this fails);
 *   GET /api/health/ready  it should get traffic: the database answers, every migration of this build is applied,
 *                          and it hears the other processes' changes; 503 otherwise, with each check's outcome.
 *                          On SIGTERM it answers 503 "draining" for SHUTDOWN_DRAIN_SECONDS while every other
 *                          request is still served, so a balancer stops sending traffic before the port closes;
 *                          then Fastify closes (new connections refused, requests in flight finished).
 */
const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const expected = knownMigrations().count;

  app.get(
    '/health',
    { schema: { response: { 200: envelope(z.object({ status: z.literal('ok'), database: z.string() })) } } },
    async () => {
      await app.db.execute(sql`select 1`);
      return ok({ status: 'ok' as const, database: app.dbKind }, 'OK');
    },
  );

  app.get(
    '/health/live',
    {
      schema: { response: { 200: envelope(z.object({ status: z.literal('ok'), uptime_seconds: z.number().int() })) } },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok({ status: 'ok' as const, uptime_seconds: Math.round(process.uptime()) }, 'OK');
    },
  );

  app.get(
    '/health/ready',
    {
      schema: {
        response: {
          200: envelope(z.object({ status: z.literal('ready'), checks: checksSchema })),
          503: z.object({
            success: z.literal(false),
            message: z.string(),
            data: z.object({ status: z.enum(['draining', 'not_ready']), checks: checksSchema.optional() }).optional(),
          }),
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      if (app.draining) return reply.code(503).send({ ...fail('Not ready: draining'), data: { status: 'draining' } });
      const checks: Record<string, boolean> = { database: false, migrations: false, changes: app.changes.connected };
      try {
        await app.db.execute(sql`select 1`);
        checks.database = true;
        checks.migrations = (await appliedMigrations(app)) >= expected;
      } catch {
        // Reported below as a failed check.
      }
      const ready = Object.values(checks).every(Boolean);
      if (!ready) {
        const failing = Object.keys(checks).filter((k) => !checks[k]);
        return reply
          .code(503)
          .send({ ...fail(`Not ready: ${failing.join(', ')}`), data: { status: 'not_ready', checks } });
      }
      return ok({ status: 'ready' as const, checks }, 'Ready');
    },
  );
};

export default healthRoutes;
