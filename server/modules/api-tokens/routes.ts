/**
 * /api/api-tokens: personal API tokens for integrations (issue 12), managed by admins (super_admin too) who
 * signed in as themselves: a request made with an API token is refused here (server/plugins/auth.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, pagePagination, pageSchema } from '../../../contract/envelope';
import {
  apiTokenCreateSchema,
  apiTokenListQuerySchema,
  apiTokenSchema,
  createdApiTokenSchema,
} from '../../../contract/schemas/api-token';
import type { Db } from '../../db/client';
import { auditContext } from '../audit/trail';
import { createApiTokenRepository } from './repository';
import { API_TOKEN_MESSAGES as M, ApiTokenService } from './service';

const apiTokenRoutes: FastifyPluginAsyncZod = async (app) => {
  const tokens = new ApiTokenService({
    repository: createApiTokenRepository(app.db),
    clock: app.clock,
    transaction: (work) =>
      app.db.transaction((tx) => work(createApiTokenRepository(tx as unknown as Db), tx as unknown as Db)),
  });

  app.get(
    '/',
    { schema: { querystring: apiTokenListQuerySchema, response: { 200: envelope(pageSchema(apiTokenSchema)) } } },
    async (request) => {
      const q = request.query;
      const { items, total } = await tokens.list(q, request.user!);
      return ok({ items, pagination: pagePagination(q.page, q.limit, total) }, M.list);
    },
  );

  app.post(
    '/',
    { schema: { body: apiTokenCreateSchema, response: { 201: envelope(createdApiTokenSchema) } } },
    async (request, reply) =>
      reply.code(201).send(ok(await tokens.create(request.user!, request.body, auditContext(request)), M.created)),
  );

  app.delete(
    '/:id',
    { schema: { params: z.object({ id: z.string() }), response: { 200: envelope(apiTokenSchema) } } },
    async (request) => {
      const { token, already } = await tokens.revoke(request.params.id, request.user!, auditContext(request));
      return ok(token, already ? M.alreadyRevoked : M.revoked);
    },
  );
};

export default apiTokenRoutes;
