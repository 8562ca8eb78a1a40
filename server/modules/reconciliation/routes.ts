/**
 * /api/billing/reconciliation (admin, billing): the period's money report with the books' alarm, and the same as
 * CSV (/api/billing/reconciliation/export.csv). See service.ts for the invariant.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../../contract/envelope';
import {
  RECONCILIATION_MESSAGES as M,
  reconciliationQuerySchema,
  reconciliationSchema,
} from '../../../contract/schemas/reconciliation';
import { ReconciliationService } from './service';

const reconciliationRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = new ReconciliationService({ db: app.db, clock: app.clock });

  app.get(
    '/',
    { schema: { querystring: reconciliationQuerySchema, response: { 200: envelope(reconciliationSchema) } } },
    async (request) => ok(await service.report(request.query), M.report),
  );

  app.get('/export.csv', { schema: { querystring: reconciliationQuerySchema } }, async (request, reply) => {
    const { filename, csv } = await service.csv(request.query);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });
};

export default reconciliationRoutes;
