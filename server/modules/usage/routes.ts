/** GET /api/usage: the caller's data usage, or (staff) a customer's through ?user_id=; GET /api/usage/customers: staff's overview. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../contract/envelope';
import {
  usageCustomersQuerySchema,
  usageCustomersSchema,
  usageQuerySchema,
  usageSchema,
} from '../../../contract/schemas/usage';
import { unauthorized } from '../../lib/errors';
import { USAGE_MESSAGES as M, UsageService } from './service';

const usageRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = new UsageService({ db: app.db, clock: app.clock });
  app.get(
    '/',
    {
      schema: {
        querystring: usageQuerySchema,
        response: { 200: z.object({ success: z.literal(true), message: z.string(), data: usageSchema }) },
      },
    },
    async (request) => {
      if (!request.user) throw unauthorized();
      return ok(await service.usage({ id: request.user.id, role: request.user.role }, request.query), M.usage);
    },
  );
  // Staff's overview of every customer's usage this month (issue 34); who may call it: contract/roles.ts.
  app.get(
    '/customers',
    {
      schema: {
        querystring: usageCustomersQuerySchema,
        response: { 200: z.object({ success: z.literal(true), message: z.string(), data: usageCustomersSchema }) },
      },
    },
    async (request) => ok(await service.customers(request.query), M.customers),
  );
};

export default usageRoutes;
