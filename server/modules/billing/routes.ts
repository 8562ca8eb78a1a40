/**
 * /api/billing: run the recurring billing job now (admin) and read past runs (admin, billing).
 * A second run on the same day answers 200 with data.alreadyRan = true and the first run (nothing is redone).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, ok, pageSchema } from '../../../contract/envelope';
import {
  BILLING_MESSAGES as M,
  billingRunListQuerySchema,
  billingRunResultSchema,
  billingRunSchema,
} from '../../../contract/schemas/billing';
import { unauthorized } from '../../lib/errors';

const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/run', { schema: { response: { 200: envelope(billingRunResultSchema) } } }, async (request) => {
    if (!request.user) throw unauthorized();
    const result = await app.billing.job.run({ by: 'api', userId: request.user.id });
    return ok(result, result.alreadyRan ? M.alreadyRan : M.ran);
  });

  app.get(
    '/runs',
    { schema: { querystring: billingRunListQuerySchema, response: { 200: envelope(pageSchema(billingRunSchema)) } } },
    async (request) => ok(await app.billing.job.listRuns(request.query), M.runs),
  );
};

export default billingRoutes;
