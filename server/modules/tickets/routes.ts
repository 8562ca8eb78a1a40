/**
 * /api/tickets (spec §7, issue 5): lists (scoped by role), stats, detail with replies and attachments, create,
 * edit, delete (admin), replies, status, assignment (admin/support) and attachments (multipart upload and an
 * authorised download). Paginated lists answer data {items, pagination: {page, totalPages, total, hasNext, hasPrev}}.
 */
import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, pageSchema } from '../../../contract/envelope';
import {
  TICKET_ATTACHMENT_MAX_BYTES,
  TICKET_ATTACHMENT_MAX_FILES,
  ticketAssignSchema,
  ticketAttachmentSchema,
  ticketCreateSchema,
  ticketDetailSchema,
  ticketListQuerySchema,
  ticketReplyCreateSchema,
  ticketReplySchema,
  ticketSchema,
  ticketStatsSchema,
  ticketStatusSchema,
  ticketUpdateSchema,
} from '../../../contract/schemas/ticket';
import { badRequest, unauthorized } from '../../lib/errors';
import { sendStoredFile, sweepIncomingOnReady } from '../../lib/stored-files';
import { createTicketRepository } from './repository';
import { TICKET_MESSAGES as M, TicketService, type Caller, type UploadPart } from './service';
import { TICKETS_AREA } from './files';

const idParams = z.object({ id: z.string() });
const pageOf = envelope(pageSchema(ticketSchema));

const caller = (request: FastifyRequest): Caller & { name: string } => {
  if (!request.user) throw unauthorized();
  return { id: request.user.id, role: request.user.role, name: request.user.name };
};

const ticketRoutes: FastifyPluginAsyncZod = async (app) => {
  // Multipart only in this scope. Files stream to a staging file on disk; the limits cut a file at 10 MB and stop at 5 files.
  await app.register(fastifyMultipart, {
    limits: {
      fileSize: TICKET_ATTACHMENT_MAX_BYTES,
      files: TICKET_ATTACHMENT_MAX_FILES,
      fields: 10,
      parts: TICKET_ATTACHMENT_MAX_FILES + 10,
    },
  });

  sweepIncomingOnReady(app, TICKETS_AREA); // staged uploads a stopped process left behind

  const service = new TicketService({
    db: app.db,
    repository: createTicketRepository(app.db),
    clock: app.clock,
    dataDir: app.config.dataDir,
    store: app.storage,
    appUrl: app.config.appUrl,
    companyName: async () => (await app.settings.stored()).company.name,
    defaultLanguage: async () => (await app.settings.stored()).languages.default,
    send: (message) => app.mail.send(message),
    uploadQuotas: async () => (await app.settings.stored()).uploads,
  });

  app.get('/', { schema: { querystring: ticketListQuerySchema, response: { 200: pageOf } } }, async (request) =>
    ok(await service.list(caller(request), request.query), M.list),
  );

  app.get('/assigned', { schema: { querystring: ticketListQuerySchema, response: { 200: pageOf } } }, async (request) =>
    ok(await service.assigned(caller(request), request.query), M.assigned),
  );

  app.get('/stats', { schema: { response: { 200: envelope(ticketStatsSchema) } } }, async (request) =>
    ok(await service.stats(caller(request)), M.stats),
  );

  app.get('/:id', { schema: { params: idParams, response: { 200: envelope(ticketDetailSchema) } } }, async (request) =>
    ok(await service.get(caller(request), request.params.id), M.detail),
  );

  app.post(
    '/',
    { schema: { body: ticketCreateSchema, response: { 201: envelope(ticketDetailSchema) } } },
    async (request, reply) => reply.code(201).send(ok(await service.create(caller(request), request.body), M.created)),
  );

  app.put(
    '/:id',
    { schema: { params: idParams, body: ticketUpdateSchema, response: { 200: envelope(ticketSchema) } } },
    async (request) => ok(await service.update(caller(request), request.params.id, request.body), M.updated),
  );

  app.delete('/:id', { schema: { params: idParams, response: { 200: envelope(z.null()) } } }, async (request) => {
    await service.remove(request.params.id);
    return ok(null, M.deleted);
  });

  app.get(
    '/:id/replies',
    { schema: { params: idParams, response: { 200: envelope(z.array(ticketReplySchema)) } } },
    async (request) => ok(await service.replies(caller(request), request.params.id), M.replies),
  );

  app.post(
    '/:id/replies',
    { schema: { params: idParams, body: ticketReplyCreateSchema, response: { 201: envelope(ticketReplySchema) } } },
    async (request, reply) =>
      reply.code(201).send(ok(await service.addReply(caller(request), request.params.id, request.body), M.replied)),
  );

  app.patch(
    '/:id/status',
    { schema: { params: idParams, body: ticketStatusSchema, response: { 200: envelope(ticketSchema) } } },
    async (request) => ok(await service.setStatus(caller(request), request.params.id, request.body.status), M.status),
  );

  app.patch(
    '/:id/assign',
    { schema: { params: idParams, body: ticketAssignSchema, response: { 200: envelope(ticketSchema) } } },
    async (request) => {
      const ticket = await service.assign(caller(request), request.params.id, request.body.assigned_to);
      return ok(ticket, ticket.assigned_to ? M.assignedTo : M.unassigned);
    },
  );

  app.get(
    '/:id/attachments',
    { schema: { params: idParams, response: { 200: envelope(z.array(ticketAttachmentSchema)) } } },
    async (request) => ok(await service.attachments(caller(request), request.params.id), M.attachments),
  );

  app.post(
    '/:id/attachments',
    { schema: { params: idParams, response: { 201: envelope(z.array(ticketAttachmentSchema)) } } },
    async (request, reply) => {
      const who = caller(request);
      if (!request.isMultipart()) {
        // Still answer 404 for a ticket the caller may not see.
        await service.attachments(who, request.params.id);
        throw badRequest(M.noFile, [{ field: 'files', message: M.noFile }]);
      }
      const saved = await service.upload(who, request.params.id, request.parts() as AsyncIterable<UploadPart>);
      return reply.code(201).send(ok(saved, M.uploaded));
    },
  );

  app.get(
    '/:id/attachments/:attachmentId/download',
    { schema: { params: z.object({ id: z.string(), attachmentId: z.string() }) } },
    async (request, reply) => {
      const file = await service.download(caller(request), request.params.id, request.params.attachmentId);
      return sendStoredFile(reply, app.storage, file, M.attachmentNotFound);
    },
  );
};

export default ticketRoutes;
