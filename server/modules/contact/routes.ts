/**
 * POST /api/contact (public form: stored, e-mailed to the support address; honeypot; rate-limited) and
 * /api/contact-messages for staff (admin, support).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../contract/envelope';
import {
  contactInputSchema,
  contactListQuerySchema,
  contactMessageSchema,
  contactUpdateSchema,
  type ContactMessage,
} from '../../../contract/schemas/contact';
import type { ContactMessageRow } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { createContactRepository } from './repository';

export const CONTACT_MESSAGES = {
  submitted: 'Contact form submitted successfully',
  list: 'Contact messages retrieved successfully',
  updated: 'Contact message updated successfully',
  notFound: 'Contact message not found',
  tooMany: 'Too many messages sent. Please try again later.',
} as const;

/** 5 submissions per 15 minutes per IP address. */
export const CONTACT_RATE_LIMIT = { max: 5, windowMs: 15 * 60 * 1000 };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), message: z.string(), data });
const pagination = z.object({ page: z.number(), totalPages: z.number(), total: z.number(), hasNext: z.boolean(), hasPrev: z.boolean() });

export const toContactMessage = (row: ContactMessageRow): ContactMessage => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  subject: row.subject,
  message: row.message,
  status: row.status,
  handled_by: row.handledBy,
  handled_at: row.handledAt ? row.handledAt.toISOString() : null,
  created_at: row.createdAt.toISOString(),
});

/** Mounted under /api (the two paths differ in their first segment). */
const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const repository = createContactRepository(app.db);
  const rateLimit = app.limitRequests({ nameSpace: 'contact:', ...CONTACT_RATE_LIMIT, message: CONTACT_MESSAGES.tooMany });

  app.post(
    '/contact',
    { onRequest: rateLimit, schema: { body: contactInputSchema, response: { 201: envelope(z.null()) } } },
    async (request, reply) => {
      const { website, ...input } = request.body;
      // Honeypot filled in: a bot. Same answer as for a person, but nothing is kept or sent.
      if (website && website.trim() !== '') {
        request.log.info({ ip: request.ip }, 'contact form honeypot filled; message dropped');
        return reply.code(201).send(ok(null, CONTACT_MESSAGES.submitted));
      }
      const row = await repository.insert({
        name: input.name,
        email: input.email,
        phone: input.phone ? input.phone : null,
        subject: input.subject,
        message: input.message,
        ip: request.ip.slice(0, 64),
        createdAt: app.clock.now(),
      });
      const { company } = await app.settings.stored();
      if (company.support_email) {
        app.mail.send({
          to: company.support_email,
          subject: `[${company.name}] Contact form: ${row.subject}`,
          text: [
            `A visitor sent a message through the contact form of ${company.name}.`,
            '',
            `Name: ${row.name}`,
            `E-mail: ${row.email}`,
            `Phone: ${row.phone ?? '-'}`,
            `Subject: ${row.subject}`,
            '',
            row.message,
            '',
            `Message id: ${row.id}`,
          ].join('\n'),
        });
      } else {
        request.log.warn({ contactMessageId: row.id }, 'no support e-mail address in the settings; contact message stored only');
      }
      return reply.code(201).send(ok(null, CONTACT_MESSAGES.submitted));
    },
  );

  app.get(
    '/contact-messages',
    { schema: { querystring: contactListQuerySchema, response: { 200: envelope(z.object({ items: z.array(contactMessageSchema), pagination })) } } },
    async (request) => {
      const q = request.query;
      const { items, total } = await repository.page(q);
      const totalPages = Math.max(1, Math.ceil(total / q.limit));
      return ok(
        { items: items.map(toContactMessage), pagination: { page: q.page, totalPages, total, hasNext: q.page < totalPages, hasPrev: q.page > 1 } },
        CONTACT_MESSAGES.list,
      );
    },
  );

  app.patch(
    '/contact-messages/:id',
    { schema: { params: z.object({ id: z.string() }), body: contactUpdateSchema, response: { 200: envelope(contactMessageSchema) } } },
    async (request) => {
      const { id } = request.params;
      if (!UUID.test(id) || !(await repository.findById(id))) throw notFound(CONTACT_MESSAGES.notFound);
      const handled = request.body.status === 'handled';
      const row = await repository.update(id, {
        status: request.body.status,
        handledBy: handled ? request.user!.id : null,
        handledAt: handled ? app.clock.now() : null,
      });
      if (!row) throw notFound(CONTACT_MESSAGES.notFound);
      return ok(toContactMessage(row), CONTACT_MESSAGES.updated);
    },
  );
};

export default contactRoutes;
