import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { ok } from '../../../contract/envelope';

/** GET /api/health: answers once the database answers. */
const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', async () => {
    await app.db.execute(sql`select 1`);
    return ok({ status: 'ok' as const, database: app.dbKind }, 'OK');
  });
};

export default healthRoutes;
