/**
 * POST /api/contact: the public form (stored, e-mailed to the support address; honeypot; rate-limited). Staff
 * read and handle the messages through /api/contact-messages (module.ts, the CRUD factory).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../../contract/envelope';
import { contactInputSchema } from '../../../contract/schemas/contact';
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

/** Mounted under /api. */
const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const rateLimit = app.limitRequests({
    nameSpace: 'contact:',
    ...CONTACT_RATE_LIMIT,
    message: CONTACT_MESSAGES.tooMany,
  });

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
      const row = await createContactRepository(app.db).insert({
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
        request.log.warn(
          { contactMessageId: row.id },
          'no support e-mail address in the settings; contact message stored only',
        );
      }
      return reply.code(201).send(ok(null, CONTACT_MESSAGES.submitted));
    },
  );
};

export default contactRoutes;
