/** /api/mail: the outbox, so an admin can read mail that no SMTP server carried (spec: admin only). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, pagePagination, pageSchema } from '../../../contract/envelope';
import { MAIL_STATUSES, type MailRow } from '../../db/schema';
import { createMailRepository } from './repository';

export const outboxQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

const outboxItemSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  status: z.enum(MAIL_STATUSES),
  error: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});

const outboxPageSchema = envelope(pageSchema(outboxItemSchema));

const present = (row: MailRow): z.infer<typeof outboxItemSchema> => ({
  id: row.id,
  to: row.to,
  subject: row.subject,
  text: row.text,
  html: row.html,
  status: row.status,
  error: row.error,
  created_at: row.createdAt.toISOString(),
  sent_at: row.sentAt ? row.sentAt.toISOString() : null,
});

const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  const repository = createMailRepository(app.db);

  app.get(
    '/outbox',
    { schema: { querystring: outboxQuerySchema, response: { 200: outboxPageSchema } } },
    async (request) => {
      const { page, limit } = request.query;
      const { items, total } = await repository.page(page, limit);
      return ok(
        { items: items.map(present), pagination: pagePagination(page, limit, total) },
        'Outbox retrieved successfully',
      );
    },
  );
};

export default mailRoutes;
