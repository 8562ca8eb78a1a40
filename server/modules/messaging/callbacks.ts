/**
 * The providers' callbacks (issue 38), public and signed, under /api/messaging/callbacks/<kind>/<providerId>:
 *
 * - twilio (answers 204: no TwiML reply): Twilio's StatusCallback (form POST; X-Twilio-Signature, HMAC-SHA1 with the auth token over the URL
 *   and the sorted parameters) and, at …/inbound, the number's incoming messages (STOP / START).
 * - whatsapp: the WhatsApp Cloud webhook: GET answers Meta's hub.challenge when hub.verify_token matches the
 *   provider's verify token; POST (X-Hub-Signature-256, HMAC-SHA256 of the raw body with the app secret) carries
 *   statuses (sent, delivered, read, failed) and incoming messages.
 * - webhook: the generic gateway's reports, authenticated by the provider's callback token (X-Callback-Token
 *   header or ?token=): `{message_id, status}` or an incoming `{from, text}`.
 *
 * A bad or missing signature: 401 (missing) or 403 (wrong), nothing recorded. A status only moves a message
 * forward (a late "sent" after "delivered" changes nothing), so a repeated callback is harmless.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../../contract/envelope';
import type { MessageStatus, ProviderChannel } from '../../../contract/schemas/messaging';
import type { Db } from '../../db/client';
import { messageProviders, messages } from '../../db/schema';
import { badRequest, forbidden, notFound, unauthorized } from '../../lib/errors';
import { sameSecret } from './providers/types';
import { providerSettings } from './delivery';
import { handleInbound } from './opt-outs';
import { validTwilioSignature } from './providers/twilio';
import { validHubSignature } from './providers/whatsapp-cloud';

type Reported = Extract<MessageStatus, 'sent' | 'delivered' | 'undelivered' | 'failed'>;

/** The statuses a report may move a message from (forward only). */
const BEFORE: Record<Reported, MessageStatus[]> = {
  sent: ['queued', 'sending'],
  delivered: ['queued', 'sending', 'sent'],
  undelivered: ['queued', 'sending', 'sent'],
  failed: ['queued', 'sending', 'sent'],
};

const TWILIO_STATUS: Record<string, Reported> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  undelivered: 'undelivered',
  failed: 'failed',
};
const WHATSAPP_STATUS: Record<string, Reported> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  failed: 'failed',
};

/** Records a provider's report on one of its messages; true when it changed the message. */
export async function recordStatus(
  db: Db,
  input: { providerId: string; providerMessageId: string; status: Reported; now: Date; error?: string | null },
): Promise<boolean> {
  const rows = await db
    .update(messages)
    .set({
      status: input.status,
      ...(input.status === 'delivered' ? { deliveredAt: input.now } : {}),
      ...(input.error ? { error: input.error.slice(0, 1000) } : {}),
    })
    .where(
      and(
        eq(messages.providerId, input.providerId),
        eq(messages.providerMessageId, input.providerMessageId),
        inArray(messages.status, BEFORE[input.status]),
      ),
    )
    .returning({ id: messages.id });
  return rows.length > 0;
}

const receiptSchema = z.object({ received: z.literal(true), updated: z.number().int() });
const params = z.object({ providerId: z.string().uuid() });

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export async function callbackRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.removeAllContentTypeParsers();
  api.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) =>
    done(null, body),
  );
  const rawOf = (body: unknown) => (typeof body === 'string' ? body : '');

  const provider = async (id: string, kind: string) => {
    const [row] = await app.db.select().from(messageProviders).where(eq(messageProviders.id, id));
    if (!row || row.provider !== kind) throw notFound('Message provider not found');
    return { row, settings: providerSettings(app.secretBox, row) };
  };

  const twilioChecked = async (id: string, url: string, raw: string, signature: string | undefined) => {
    const { row, settings } = await provider(id, 'twilio');
    const form = Object.fromEntries(new URLSearchParams(raw));
    if (!signature) throw unauthorized('Missing X-Twilio-Signature');
    const fullUrl = `${app.config.appUrl.replace(/\/+$/, '')}${url}`;
    if (!validTwilioSignature(settings.secrets.auth_token ?? '', fullUrl, form, signature))
      throw forbidden('Invalid signature');
    return { row, form };
  };

  api.post('/twilio/:providerId', { schema: { params, response: { 204: z.null() } } }, async (request, reply) => {
    const { row, form } = await twilioChecked(
      request.params.providerId,
      request.url,
      rawOf(request.body),
      header(request.headers['x-twilio-signature']),
    );
    const status = TWILIO_STATUS[form.MessageStatus ?? ''];
    if (status && form.MessageSid) {
      const error = form.ErrorCode ? `Twilio error ${form.ErrorCode}` : null;
      await recordStatus(app.db, {
        providerId: row.id,
        providerMessageId: form.MessageSid,
        status,
        now: app.clock.now(),
        error,
      });
    }
    return reply.code(204).send(null);
  });

  api.post(
    '/twilio/:providerId/inbound',
    { schema: { params, response: { 204: z.null() } } },
    async (request, reply) => {
      const { form } = await twilioChecked(
        request.params.providerId,
        request.url,
        rawOf(request.body),
        header(request.headers['x-twilio-signature']),
      );
      if (form.From && form.Body !== undefined) {
        const channel: ProviderChannel = form.From.startsWith('whatsapp:') ? 'whatsapp' : 'sms';
        await handleInbound(app.db, { from: form.From, text: form.Body, channel, now: app.clock.now() });
      }
      return reply.code(204).send(null);
    },
  );

  api.get(
    '/whatsapp/:providerId',
    {
      schema: {
        params,
        querystring: z.object({
          'hub.mode': z.string().max(40).optional(),
          'hub.verify_token': z.string().max(500).optional(),
          'hub.challenge': z.string().max(500).optional(),
        }),
      },
    },
    async (request, reply) => {
      const { settings } = await provider(request.params.providerId, 'whatsapp_cloud');
      const q = request.query;
      const token = typeof settings.config.verify_token === 'string' ? settings.config.verify_token : '';
      if (q['hub.mode'] !== 'subscribe' || !sameSecret(token, q['hub.verify_token']))
        throw forbidden('Invalid verify token');
      return reply.type('text/plain').send(q['hub.challenge'] ?? '');
    },
  );

  api.post(
    '/whatsapp/:providerId',
    { schema: { params, response: { 200: envelope(receiptSchema) } } },
    async (request) => {
      const { row, settings } = await provider(request.params.providerId, 'whatsapp_cloud');
      const raw = rawOf(request.body);
      const signature = header(request.headers['x-hub-signature-256']);
      if (!signature) throw unauthorized('Missing X-Hub-Signature-256');
      if (!validHubSignature(settings.secrets.app_secret ?? '', raw, signature)) throw forbidden('Invalid signature');
      let payload: WhatsAppWebhook;
      try {
        payload = JSON.parse(raw) as WhatsAppWebhook;
      } catch {
        throw badRequest('The body is not JSON');
      }
      let updated = 0;
      const now = app.clock.now();
      for (const entry of Array.isArray(payload?.entry) ? payload.entry : [])
        for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
          const value = change?.value;
          for (const s of Array.isArray(value?.statuses) ? value.statuses : []) {
            const status = WHATSAPP_STATUS[String(s?.status)];
            if (!status || typeof s?.id !== 'string') continue;
            const error = s.errors?.[0] ? `${s.errors[0].code ?? ''} ${s.errors[0].title ?? ''}`.trim() : null;
            if (await recordStatus(app.db, { providerId: row.id, providerMessageId: s.id, status, now, error }))
              updated++;
          }
          for (const m of Array.isArray(value?.messages) ? value.messages : []) {
            if (typeof m?.from === 'string' && typeof m?.text?.body === 'string')
              await handleInbound(app.db, { from: m.from, text: m.text.body, channel: 'whatsapp', now });
          }
        }
      return ok({ received: true as const, updated }, 'Callback received');
    },
  );

  api.post(
    '/webhook/:providerId',
    {
      schema: {
        params,
        querystring: z.object({ token: z.string().max(500).optional() }),
        response: { 200: envelope(receiptSchema) },
      },
    },
    async (request) => {
      const { row, settings } = await provider(request.params.providerId, 'webhook');
      const token = header(request.headers['x-callback-token']) ?? request.query.token;
      if (!token) throw unauthorized('Missing callback token');
      if (!sameSecret(settings.secrets.callback_token, token)) throw forbidden('Invalid callback token');
      const parsed = webhookReport.safeParse(safeJson(rawOf(request.body)));
      if (!parsed.success) throw badRequest('Expected {message_id, status} or {from, text}');
      const now = app.clock.now();
      let updated = 0;
      const report = parsed.data;
      if ('message_id' in report) {
        if (
          await recordStatus(app.db, {
            providerId: row.id,
            providerMessageId: report.message_id,
            status: report.status,
            now,
          })
        )
          updated++;
      } else {
        const channel = report.channel ?? (row.channel as ProviderChannel);
        await handleInbound(app.db, { from: report.from, text: report.text, channel, now });
      }
      return ok({ received: true as const, updated }, 'Callback received');
    },
  );
}

const webhookReport = z.union([
  z.object({
    message_id: z.union([z.string().min(1).max(128), z.number().transform(String)]),
    status: z.enum(['sent', 'delivered', 'undelivered', 'failed']),
  }),
  z.object({
    from: z.string().min(3).max(40),
    text: z.string().max(2000),
    channel: z.enum(['sms', 'whatsapp']).optional(),
  }),
]);

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

interface WhatsAppWebhook {
  entry?: Array<{
    changes?: Array<{
      value?: {
        statuses?: Array<{ id?: unknown; status?: unknown; errors?: Array<{ code?: number; title?: string }> }>;
        messages?: Array<{ from?: unknown; text?: { body?: unknown } }>;
      };
    }>;
  }>;
}
