/**
 * GET /api/me/home (issue 34): the signed-in customer's home in one answer (contract/schemas/home.ts). Customers
 * only (contract/roles.ts): staff have their dashboard, and a staff member's own "service" would be meaningless.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../../contract/envelope';
import { HOME_MESSAGES as M, customerHomeSchema } from '../../../contract/schemas/home';
import { unauthorized } from '../../lib/errors';
import { HomeService } from './service';

const homeRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = new HomeService({ db: app.db, clock: app.clock });
  app.get(
    '/me/home',
    {
      schema: {
        description: 'The signed-in customer’s home: open order, service, usage, next bill, credit and open tickets.',
        response: { 200: envelope(customerHomeSchema) },
      },
    },
    async (request, reply) => {
      if (!request.user) throw unauthorized();
      // Per caller and changing by the minute (online now, what is due): never kept by a shared cache.
      reply.header('cache-control', 'private, no-store');
      return ok(await service.home({ id: request.user.id, name: request.user.name }), M.home);
    },
  );
};

export default homeRoutes;
