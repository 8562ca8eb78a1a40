/**
 * Sending SMS / WhatsApp messages (issue 38). The notifier stores a message (status queued) and queues a
 * "message-send" job whose id is the message's, so it is queued once. The job:
 *
 * 1. claims the row with a guarded UPDATE (queued → sending): of two nodes or two retries racing, one sends;
 * 2. checks again that the number has not answered STOP since, and that the provider is still there and active;
 * 3. counts the send against the provider's rate_per_minute in the shared rate-limit store (PostgreSQL or Redis,
 *    `app.rateLimitBackend`, the one the API's limits use), so every node counts the same sends; over the limit
 *    the row goes back to queued and a new job is queued for when the minute's window ends;
 * 4. sends through the provider (./providers): taken → sent (with the provider's id, which delivery callbacks
 *    look it up by); refused (4xx) → failed, not retried; 5xx or the network → back to queued with the error, and
 *    the job throws so the queue retries it with growing waits; after the last try → failed.
 *
 * A node that dies between claiming and sending leaves the row "sending": it is not sent again (the provider may
 * have taken it), and staff see it so.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ProviderChannel } from '../../../contract/schemas/messaging';
import type { Db } from '../../db/client';
import { type MessageProviderRow, messageOptOuts, messageProviders, messages } from '../../db/schema';
import type { RateLimitBackend } from '../../lib/rate-limit-store';
import type { Clock } from '../../lib/clock';
import type { SecretBox } from '../../lib/secret-box';
import { senderFor } from './providers';
import { type FetchLike, ProviderError, type ProviderSettings } from './providers/types';

export const MESSAGE_SEND_JOB = 'message-send';
/** Tries after the first failure, and the seconds before the first retry (doubled each time). */
export const MESSAGE_SEND_RETRIES = 4;

/** The send job's data: the message, and the WhatsApp template the event named (not stored in the row). */
export interface SendJob {
  messageId: string;
  whatsappTemplate?: { name: string; params: string[] } | null;
}

export type DeliveryOutcome = 'sent' | 'failed' | 'retry' | 'deferred' | 'skipped' | 'not-claimed';

export interface DeliveryDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  box: SecretBox;
  rateLimit: RateLimitBackend;
  fetch: FetchLike;
  /** The public base URL (APP_URL) the providers' callbacks are addressed to. */
  appUrl: string;
  /** Queues the send job of a message again, to start after `seconds` (the rate limit's window). */
  requeue: (job: SendJob, seconds: number) => Promise<unknown>;
}

/** A provider row with its secrets opened (an unreadable sealed value counts as no secrets). */
export function providerSettings(box: SecretBox, row: MessageProviderRow): ProviderSettings {
  let secrets: Record<string, string> = {};
  const opened = box.open(row.secrets);
  if (opened) {
    try {
      secrets = JSON.parse(opened) as Record<string, string>;
    } catch {
      secrets = {};
    }
  }
  return { id: row.id, provider: row.provider, config: row.config, secrets };
}

/** Where a provider reports deliveries of its messages. */
export function callbackUrl(appUrl: string, row: Pick<MessageProviderRow, 'id' | 'provider'>, inbound = false): string {
  const kind = row.provider === 'whatsapp_cloud' ? 'whatsapp' : row.provider;
  return `${appUrl.replace(/\/+$/, '')}/api/messaging/callbacks/${kind}/${row.id}${inbound ? '/inbound' : ''}`;
}

export class MessageDelivery {
  constructor(private readonly deps: DeliveryDeps) {}

  async deliver(job: SendJob, attempt: { retryCount: number; retryLimit: number }): Promise<DeliveryOutcome> {
    const { messageId } = job;
    const { db, clock, log } = this.deps;
    const [row] = await db
      .update(messages)
      .set({ status: 'sending', attempts: sql`${messages.attempts} + 1` })
      .where(and(eq(messages.id, messageId), eq(messages.status, 'queued'), sql`${messages.channel} <> 'email'`))
      .returning();
    if (!row) return 'not-claimed';
    const channel = row.channel as ProviderChannel;
    const finish = (values: Parameters<ReturnType<Db['update']>['set']>[0]) =>
      db.update(messages).set(values).where(eq(messages.id, row.id));

    const [optedOut] = await db
      .select({ phone: messageOptOuts.phone })
      .from(messageOptOuts)
      .where(and(eq(messageOptOuts.phone, row.to), eq(messageOptOuts.channel, channel)));
    if (optedOut) {
      await finish({ status: 'skipped', error: 'the number answered STOP' });
      return 'skipped';
    }
    const [provider] = row.providerId
      ? await db.select().from(messageProviders).where(eq(messageProviders.id, row.providerId))
      : [];
    if (!provider?.isActive) {
      await finish({ status: 'skipped', error: 'no active provider for this channel' });
      return 'skipped';
    }

    const count = await this.deps.rateLimit.increment(`message-provider:${provider.id}`, 60_000);
    if (count.count > provider.ratePerMinute) {
      await finish({ status: 'queued', attempts: sql`${messages.attempts} - 1` });
      await this.deps.requeue(job, Math.max(1, Math.ceil(count.ttlMs / 1000)));
      return 'deferred';
    }

    const sender = senderFor(providerSettings(this.deps.box, provider), { fetch: this.deps.fetch, log });
    try {
      const sent = await sender.send({
        channel,
        to: row.to,
        text: row.body,
        language: row.language,
        whatsappTemplate: job.whatsappTemplate ?? null,
        statusCallbackUrl: callbackUrl(this.deps.appUrl, provider),
      });
      await finish({ status: 'sent', sentAt: clock.now(), providerMessageId: sent.providerMessageId, error: null });
      return 'sent';
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const permanent = error instanceof ProviderError && error.permanent;
      if (permanent || attempt.retryCount >= attempt.retryLimit) {
        log.warn({ messageId: row.id, err: error }, 'message not sent');
        await finish({ status: 'failed', error: message });
        return 'failed';
      }
      log.info({ messageId: row.id, err: error }, 'message not sent yet; tried again later');
      await finish({ status: 'queued', error: message });
      throw error;
    }
  }
}
