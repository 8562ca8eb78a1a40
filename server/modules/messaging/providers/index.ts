/** The sender of a configured provider (./types.ts). */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { twilioSender } from './twilio';
import type { FetchLike, MessageSender, ProviderSettings } from './types';
import { webhookSender } from './webhook';
import { whatsappCloudSender } from './whatsapp-cloud';

export function senderFor(p: ProviderSettings, deps: { fetch: FetchLike; log: FastifyBaseLogger }): MessageSender {
  switch (p.provider) {
    case 'twilio':
      return twilioSender(p, deps.fetch);
    case 'whatsapp_cloud':
      return whatsappCloudSender(p, deps.fetch);
    case 'webhook':
      return webhookSender(p, deps.fetch);
    case 'log':
      // Development: the message is recorded (the messages row, and the log), nothing leaves the server.
      return {
        async send(m) {
          deps.log.info({ provider: p.id, channel: m.channel, to: m.to, text: m.text }, 'message logged, not sent');
          return { providerMessageId: `log-${randomUUID()}` };
        },
      };
  }
}
