/**
 * The messaging API (issue 38): the signed-in customer's choices and phone verification (/me/...), the staff's
 * message log (/messaging/messages, newest first, filtered by channel, status, template or customer), and the
 * providers' public callbacks (/messaging/callbacks/..., ./callbacks.ts). Who may call what: contract/roles.ts.
 */
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, pagePagination, pageSchema } from '../../../contract/envelope';
import {
  messageLogItemSchema,
  messageLogQuerySchema,
  PREFERENCE_MESSAGES as M,
  phoneCodeConfirmSchema,
  phoneCodeRequestSchema,
  phoneCodeSentSchema,
  preferencesSchema,
  preferencesUpdateSchema,
} from '../../../contract/schemas/message-preferences';
import {
  PROVIDER_MESSAGES as PM,
  providerTestResultSchema,
  providerTestSchema,
} from '../../../contract/schemas/message-provider';
import { messageProviders, messages, type MessageRow } from '../../db/schema';
import { languageOf, mt } from '../../i18n';
import { badRequest, notFound, unauthorized } from '../../lib/errors';
import { callbackUrl, providerSettings } from './delivery';
import { senderFor } from './providers';
import { callbackRoutes } from './callbacks';
import {
  confirmPhoneCode,
  type PreferenceDeps,
  readPreferences,
  requestPhoneCode,
  savePreferences,
} from './preferences';

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const toLogItem = (m: MessageRow) => ({
  id: m.id,
  event_key: m.eventKey,
  channel: m.channel,
  category: m.category,
  template: m.template,
  user_id: m.userId,
  to: m.to,
  language: m.language,
  subject: m.subject,
  body: m.body,
  status: m.status,
  error: m.error,
  provider_id: m.providerId,
  provider_message_id: m.providerMessageId,
  attempts: m.attempts,
  created_at: m.createdAt.toISOString(),
  sent_at: iso(m.sentAt),
  delivered_at: iso(m.deliveredAt),
});

const messagingRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: PreferenceDeps = {
    db: app.db,
    clock: app.clock,
    notifier: app.notifier,
    rateLimit: app.rateLimitBackend,
    companyName: async () => (await app.settings.stored()).company.name,
  };
  const me = (user: { id: string } | undefined | null) => {
    if (!user) throw unauthorized();
    return user.id;
  };

  app.get(
    '/me/message-preferences',
    { schema: { response: { 200: envelope(preferencesSchema) } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return ok(await readPreferences(app.db, me(request.user)), M.preferences);
    },
  );

  app.put(
    '/me/message-preferences',
    { schema: { body: preferencesUpdateSchema, response: { 200: envelope(preferencesSchema) } } },
    async (request) => {
      const userId = me(request.user);
      await savePreferences(app.db, userId, request.body.preferences, app.clock.now());
      return ok(await readPreferences(app.db, userId), M.saved);
    },
  );

  app.post(
    '/me/phone-verification',
    { schema: { body: phoneCodeRequestSchema, response: { 200: envelope(phoneCodeSentSchema) } } },
    async (request) => ok(await requestPhoneCode(deps, me(request.user), request.body.phone), M.codeSent),
  );

  app.post(
    '/me/phone-verification/confirm',
    { schema: { body: phoneCodeConfirmSchema, response: { 200: envelope(preferencesSchema) } } },
    async (request) => {
      const userId = me(request.user);
      await confirmPhoneCode(deps, userId, request.body.code);
      return ok(await readPreferences(app.db, userId), M.verified);
    },
  );

  app.get(
    '/messaging/messages',
    { schema: { querystring: messageLogQuerySchema, response: { 200: envelope(pageSchema(messageLogItemSchema)) } } },
    async (request) => {
      const q = request.query;
      const filters: SQL[] = [];
      if (q.channel) filters.push(eq(messages.channel, q.channel));
      if (q.status) filters.push(eq(messages.status, q.status));
      if (q.template) filters.push(eq(messages.template, q.template));
      if (q.user_id) filters.push(eq(messages.userId, q.user_id));
      const where = filters.length ? and(...filters) : undefined;
      // Newest first on (created_at, id): messages_created_at_idx, or messages_user_created_idx for one customer.
      const [rows, [total]] = await Promise.all([
        app.db
          .select()
          .from(messages)
          .where(where)
          .orderBy(desc(messages.createdAt), desc(messages.id))
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
        app.db.select({ n: count() }).from(messages).where(where),
      ]);
      return ok(
        { items: rows.map(toLogItem), pagination: pagePagination(q.page, q.limit, Number(total?.n ?? 0)) },
        'Messages retrieved successfully',
      );
    },
  );

  // An admin's test: one message through the provider now, the provider's refusal reported as it came.
  app.post(
    '/messaging/providers/:id/test',
    {
      schema: {
        params: z.object({ id: z.string().uuid() }),
        body: providerTestSchema,
        response: { 200: envelope(providerTestResultSchema) },
      },
    },
    async (request) => {
      const [row] = await app.db.select().from(messageProviders).where(eq(messageProviders.id, request.params.id));
      if (!row) throw notFound(PM.notFound);
      const language = languageOf(null, (await app.settings.stored()).languages.default);
      const sender = senderFor(providerSettings(app.secretBox, row), {
        fetch: (...a) => fetch(...a),
        log: request.log,
      });
      try {
        const sent = await sender.send({
          channel: row.channel,
          to: request.body.to,
          text: mt(language, 'mail.messaging.test', { company: (await app.settings.stored()).company.name }),
          language,
          statusCallbackUrl: callbackUrl(app.config.appUrl, row),
        });
        return ok({ provider_message_id: sent.providerMessageId }, PM.testSent);
      } catch (error) {
        throw badRequest(
          `The provider did not take the message: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
  );

  await app.register(callbackRoutes, { prefix: '/messaging/callbacks' });
};

export default messagingRoutes;
