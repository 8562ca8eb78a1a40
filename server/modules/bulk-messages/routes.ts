/**
 * /api/bulk-messages (issue 38): admin and support preview a segment's size, send one message to it (a job sends
 * it: ./service.ts), follow its counts and messages, and cancel it while it is being sent.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, pagePagination, pageSchema } from '../../../contract/envelope';
import {
  bulkMessageCreateSchema,
  bulkMessageItemSchema,
  bulkMessageItemsQuerySchema,
  bulkMessageListQuerySchema,
  bulkMessageSchema,
  bulkPreviewQuerySchema,
  bulkPreviewSchema,
  bulkSegmentOptionsSchema,
} from '../../../contract/schemas/bulk-message';
import { unauthorized } from '../../lib/errors';
import { auditContext } from '../audit/trail';
import { BULK_MESSAGES as M, BulkMessageService } from './service';

const idParams = z.object({ id: z.string() });

/** The job that sends a bulk message. */
export const BULK_MESSAGE_JOB = 'bulk-message';

const bulkMessageRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = new BulkMessageService({
    db: app.db,
    clock: app.clock,
    notifier: app.notifier,
    defaultLanguage: async () => (await app.settings.stored()).languages.default,
    enqueue: (bulkId) => app.jobs.send(BULK_MESSAGE_JOB, { bulkId }, { singletonKey: bulkId }),
  });
  // A run still active after 15 minutes belongs to a node that is gone: another goes on after its last customer.
  app.jobs.define<{ bulkId: string }>(
    BULK_MESSAGE_JOB,
    { retryLimit: 5, retryDelay: 10, retryBackoff: true, expireInSeconds: 900 },
    ({ bulkId }) => service.run(bulkId),
  );

  app.get(
    '/preview',
    { schema: { querystring: bulkPreviewQuerySchema, response: { 200: envelope(bulkPreviewSchema) } } },
    async (request) => ok(await service.preview(request.query), M.preview),
  );

  app.get('/segments', { schema: { response: { 200: envelope(bulkSegmentOptionsSchema) } } }, async () =>
    ok(await service.options(), M.options),
  );

  app.post(
    '/',
    { schema: { body: bulkMessageCreateSchema, response: { 202: envelope(bulkMessageSchema) } } },
    async (request, reply) => {
      const user = request.user;
      if (!user) throw unauthorized();
      const bulk = await service.create(request.body, user.id, auditContext(request));
      return reply.code(202).header('location', `/api/bulk-messages/${bulk.id}`).send(ok(bulk, M.created));
    },
  );

  app.get(
    '/',
    {
      schema: { querystring: bulkMessageListQuerySchema, response: { 200: envelope(pageSchema(bulkMessageSchema)) } },
    },
    async (request) => {
      const { page, limit, status } = request.query;
      const { items, total } = await service.list({ page, limit, status });
      return ok({ items, pagination: pagePagination(page, limit, total) }, M.list);
    },
  );

  app.get('/:id', { schema: { params: idParams, response: { 200: envelope(bulkMessageSchema) } } }, async (request) =>
    ok(await service.get(request.params.id), M.detail),
  );

  app.get(
    '/:id/messages',
    {
      schema: {
        params: idParams,
        querystring: bulkMessageItemsQuerySchema,
        response: { 200: envelope(pageSchema(bulkMessageItemSchema)) },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { items, total } = await service.messages(request.params.id, { page, limit });
      return ok({ items, pagination: pagePagination(page, limit, total) }, M.items);
    },
  );

  app.post(
    '/:id/cancel',
    { schema: { params: idParams, response: { 200: envelope(bulkMessageSchema) } } },
    async (request) => ok(await service.cancel(request.params.id, auditContext(request)), M.cancelled),
  );
};

export default bulkMessageRoutes;
