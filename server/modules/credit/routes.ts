/**
 * The credit ledger's endpoints (issue 21): GET /credit (the caller's own), GET /users/{id}/credit (staff who
 * read customers' billing) and POST /users/{id}/credit (admin, billing: an adjustment with a reason). Who may
 * call which is in contract/roles.ts.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../../contract/envelope';
import {
  CREDIT_MESSAGES as M,
  creditAccountSchema,
  creditAdjustedSchema,
  creditAdjustInputSchema,
  creditQuerySchema,
} from '../../../contract/schemas/credit';
import { notFound, unauthorized } from '../../lib/errors';
import { auditContext } from '../audit/trail';
import { CreditService } from './service';

const userParams = z.object({ id: z.string().uuid({ message: 'id must be a valid user id' }) });

const creditRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = new CreditService({
    db: app.db,
    clock: app.clock,
    defaultCurrency: async () => (await app.settings.stored()).currency || 'USD',
  });
  const assertUser = async (id: string) => {
    if (!(await service.userExists(id))) throw notFound(M.userNotFound);
  };

  app.get(
    '/credit',
    { schema: { querystring: creditQuerySchema, response: { 200: envelope(creditAccountSchema) } } },
    async (request) => {
      if (!request.user) throw unauthorized();
      return ok(await service.account(request.user.id, request.query), M.account);
    },
  );

  app.get(
    '/users/:id/credit',
    {
      schema: { params: userParams, querystring: creditQuerySchema, response: { 200: envelope(creditAccountSchema) } },
    },
    async (request) => {
      await assertUser(request.params.id);
      return ok(await service.account(request.params.id, request.query), M.account);
    },
  );

  app.post(
    '/users/:id/credit',
    {
      schema: { params: userParams, body: creditAdjustInputSchema, response: { 201: envelope(creditAdjustedSchema) } },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(ok(await service.adjust(request.params.id, request.body, auditContext(request)), M.adjusted)),
  );
};

export default creditRoutes;
