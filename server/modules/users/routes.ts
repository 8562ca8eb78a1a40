/** /api/users: user management for admin and support (super_admin everything); the rules are in the service. */
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, pageSchema } from '../../../contract/envelope';
import {
  managedUserSchema,
  userCreateSchema,
  userListQuerySchema,
  userPasswordBodySchema,
  userStatusBodySchema,
  userUpdateSchema,
} from '../../../contract/schemas/user';
import { unauthorized } from '../../lib/errors';
import { auditContext } from '../audit/trail';
import { EmailChanges } from '../auth/email-change';
import { createAuthRepository } from '../auth/repository';
import { Pace } from '../../lib/pace';
import { USER_CSV_HEADER, csvLine, userCsvLine } from './csv';
import { createUserRepository } from './repository';
import { USER_MESSAGES as M, UserService, type Actor } from './service';

const idParams = z.object({ id: z.string() });
const filterQuery = userListQuerySchema.pick({ search: true, role: true, status: true, company: true });

function actorOf(request: FastifyRequest): Actor {
  if (!request.user) throw unauthorized();
  return { id: request.user.id, role: request.user.role, viaApiToken: request.viaApiToken };
}

const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const auth = createAuthRepository(app.db);
  const users = new UserService({
    repository: createUserRepository(app.db),
    createRepository: createUserRepository,
    clock: app.clock,
    revokeSessions: (userId) => auth.revokeUserSessions(userId, app.clock.now()),
    emailChanges: new EmailChanges({
      config: app.config,
      clock: app.clock,
      mail: app.mail,
      defaultLanguage: async () => (await app.settings.stored()).languages.default,
    }),
  });

  app.get(
    '/',
    { schema: { querystring: userListQuerySchema, response: { 200: envelope(pageSchema(managedUserSchema)) } } },
    async (request) => ok(await users.list(request.query), M.list),
  );

  app.get('/companies', { schema: { response: { 200: envelope(z.array(z.string())) } } }, async () =>
    ok(await users.companies(), M.companies),
  );

  /** The filtered list as CSV (every page), streamed in batches. */
  app.get('/export.csv', { schema: { querystring: filterQuery } }, async (request, reply) => {
    const filters = request.query;
    async function* lines() {
      yield `\uFEFF${csvLine(USER_CSV_HEADER)}`;
      // On the embedded database the export gives way to other requests between its batches (lib/pace.ts), and reads
      // in smaller batches there (each a short hold of its one thread); PostgreSQL reads 1 000 rows a batch.
      const embedded = app.dbKind === 'pglite';
      const pace = new Pace(embedded);
      for await (const batch of users.scan(filters, embedded ? 200 : 1000)) {
        yield batch.map(userCsvLine).join('');
        await pace.step();
      }
    }
    const day = app.clock.now().toISOString().slice(0, 10);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="users-${day}.csv"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(lines()));
  });

  app.get('/:id', { schema: { params: idParams, response: { 200: envelope(managedUserSchema) } } }, async (request) =>
    ok(await users.get(request.params.id), M.detail),
  );

  app.post(
    '/',
    { schema: { body: userCreateSchema, response: { 201: envelope(managedUserSchema) } } },
    async (request, reply) =>
      reply.code(201).send(ok(await users.create(actorOf(request), request.body, auditContext(request)), M.created)),
  );

  app.put(
    '/:id',
    { schema: { params: idParams, body: userUpdateSchema, response: { 200: envelope(managedUserSchema) } } },
    async (request) => {
      const user = await users.update(actorOf(request), request.params.id, request.body, auditContext(request));
      const pending = request.body.email !== undefined && user.pending_email;
      return ok(user, pending ? M.emailPending(pending) : M.updated);
    },
  );

  app.patch(
    '/:id/status',
    { schema: { params: idParams, body: userStatusBodySchema, response: { 200: envelope(managedUserSchema) } } },
    async (request) => {
      const user = await users.setStatus(
        actorOf(request),
        request.params.id,
        request.body.status,
        auditContext(request),
      );
      return ok(user, M.statusChanged(user.status));
    },
  );

  app.patch(
    '/:id/password',
    { schema: { params: idParams, body: userPasswordBodySchema, response: { 200: envelope(z.null()) } } },
    async (request) => {
      await users.setPassword(actorOf(request), request.params.id, request.body.newPassword, auditContext(request));
      return ok(null, M.passwordReset);
    },
  );

  app.delete('/:id', { schema: { params: idParams, response: { 200: envelope(z.null()) } } }, async (request) => {
    await users.delete(actorOf(request), request.params.id, auditContext(request));
    return ok(null, M.deleted);
  });
};

export default userRoutes;
