/**
 * The notifier (issue 38): stores one `messages` row per channel an event goes out on, unique on (event key,
 * channel), and hands it to the channel's sender. This first version serves e-mail through the mail outbox
 * (server/modules/mail); SMS and WhatsApp through the channel's default provider, sent by the "message-send" job
 * (./delivery.ts). An SMS / WhatsApp message goes only to a verified E.164 number (or the `to` of a required
 * message, the number being verified) that has not answered STOP, and only when the channel has an active default
 * provider; otherwise its row is stored as skipped, with why, so staff see why the customer got nothing.
 */
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { MESSAGE_CHANNELS, type MessageCategory, type ProviderChannel } from '../../../contract/schemas/messaging';
import type { Db } from '../../db/client';
import { messageOptOuts, messagePreferences, messageProviders, messages, settings, users } from '../../db/schema';
import type { MailMessage } from '../../integrations/mail/mailer';
import type { Clock } from '../../lib/clock';
import { languageOf, mt } from '../../i18n';
import { defaultSettings } from '../settings/defaults';
import type { SendJob } from './delivery';
import type { ComposedMessage, Notification, Notifier, NotifyOutcome } from './types';

/** A phone number in E.164: "+", a country code, at most 15 digits. */
export const E164 = /^\+[1-9]\d{6,14}$/;

/** A category's default when the customer has not chosen: marketing is opt-in, everything else is on. */
export const categoryDefault = (category: MessageCategory): boolean => category !== 'marketing';

const OPTED_OUT = 'the number answered STOP';

/** settings.languages.default as stored (the default 'en' when it was never set). */
async function defaultLanguageIn(db: Db): Promise<string> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, 'languages'));
  const value = row?.value as { default?: unknown } | undefined;
  return typeof value?.default === 'string' ? value.default : defaultSettings().languages.default;
}

export class MessageNotifier implements Notifier {
  private readonly pending = new Set<Promise<unknown>>();
  /** The WhatsApp templates of messages stored in a transaction, until flushed (the row has no place for them). */
  private readonly templates = new Map<string, { name: string; params: string[] }>();

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      log: FastifyBaseLogger;
      /** The ISP's default language (settings.languages.default). */
      defaultLanguage: () => Promise<string>;
      sendMail: (message: MailMessage) => void;
      /** Queues the send job of a stored SMS / WhatsApp message (its id is the job's, so it is queued once). */
      enqueue: (job: SendJob) => Promise<unknown>;
      /** Resolves when no send job is queued or running (tests). */
      sendsIdle: () => Promise<void>;
    },
  ) {}

  async notify(n: Notification, tx?: Db): Promise<NotifyOutcome[]> {
    const db = tx ?? this.deps.db;
    const [user] = await db
      .select({
        id: users.id,
        email: users.email,
        language: users.language,
        phone: users.phone,
        phoneVerifiedAt: users.phoneVerifiedAt,
      })
      .from(users)
      .where(eq(users.id, n.userId));
    if (!user) return [];
    const channels = n.channels ?? MESSAGE_CHANNELS;
    const choices = await db
      .select({ channel: messagePreferences.channel, enabled: messagePreferences.enabled })
      .from(messagePreferences)
      .where(and(eq(messagePreferences.userId, n.userId), eq(messagePreferences.category, n.category)));
    // Inside a caller's transaction the ISP's default language is read through that transaction: the settings
    // cache may need the database, and the embedded database has one connection, which the transaction holds.
    const language = languageOf(user.language, tx ? await defaultLanguageIn(tx) : await this.deps.defaultLanguage());
    const composed = await n.compose(language);
    const outcomes: NotifyOutcome[] = [];
    const stored: string[] = [];
    for (const channel of channels) {
      const chosen = choices.find((c) => c.channel === channel)?.enabled ?? categoryDefault(n.category);
      if (!n.required && !chosen) {
        outcomes.push({ channel, status: 'skipped', reason: 'turned off by the customer' });
        continue;
      }
      let to = n.to ?? user.email;
      let body = composed.text;
      let providerId: string | null = null;
      let skip: string | null = null;
      if (channel !== 'email') {
        const reach = await this.reach(db, channel, n, user);
        // A skipped SMS/WhatsApp is kept (with why) only where staff would look for it: the customer turned the
        // channel on, the message was required or addressed, or the number answered STOP. A customer who never chose
        // the channel and has no verified number gets no row per event.
        const asked =
          choices.some((c) => c.channel === channel && c.enabled) || n.required === true || n.to !== undefined;
        if (reach.keep === false || (reach.skip && reach.skip !== OPTED_OUT && !asked)) {
          outcomes.push({ channel, status: 'skipped', reason: reach.skip ?? undefined });
          continue;
        }
        to = reach.to;
        providerId = reach.providerId;
        skip = reach.skip;
        body = withOptOutLine(composed, language, n.required === true, channel);
      }
      const [row] = await db
        .insert(messages)
        .values({
          eventKey: n.eventKey,
          channel,
          category: n.category,
          template: n.template,
          userId: n.userId,
          to,
          language,
          subject: channel === 'email' ? composed.subject : null,
          body,
          html: channel === 'email' ? (composed.html ?? null) : null,
          bulkId: n.bulkId ?? null,
          providerId,
          status: skip ? 'skipped' : 'queued',
          error: skip,
          createdAt: this.deps.clock.now(),
        })
        .onConflictDoNothing({ target: [messages.eventKey, messages.channel] })
        .returning({ id: messages.id });
      if (!row) {
        outcomes.push({ channel, status: 'duplicate' });
        continue;
      }
      if (skip) {
        outcomes.push({ channel, status: 'skipped', reason: skip, messageId: row.id });
        continue;
      }
      stored.push(row.id);
      if (channel !== 'email' && composed.whatsappTemplate) this.templates.set(row.id, composed.whatsappTemplate);
      outcomes.push({ channel, status: 'queued', messageId: row.id });
    }
    if (!tx && stored.length) await this.flush(stored);
    return outcomes;
  }

  /** Where an SMS / WhatsApp message can go, through which provider, or why it cannot. */
  private async reach(
    db: Db,
    channel: ProviderChannel,
    n: Notification,
    user: { phone: string | null; phoneVerifiedAt: Date | null },
  ): Promise<{ to: string; providerId: string | null; skip: string | null; keep?: false }> {
    const number = n.to ?? (user.phoneVerifiedAt ? user.phone : null);
    const to = number ?? user.phone ?? '';
    // No number at all: nothing to tell staff about this customer on this channel, so no row (else every event
    // would store a skipped SMS and WhatsApp row for every customer who never gave a number).
    if (!number && !user.phone) return { to, providerId: null, skip: 'no phone number', keep: false };
    if (!number) return { to, providerId: null, skip: 'no verified phone number' };
    if (!E164.test(number)) return { to, providerId: null, skip: 'the phone number is not in E.164 form' };
    const [provider] = await db
      .select({ id: messageProviders.id })
      .from(messageProviders)
      .where(
        and(
          eq(messageProviders.channel, channel),
          eq(messageProviders.isDefault, true),
          eq(messageProviders.isActive, true),
        ),
      );
    // The ISP does not use this channel: no row either.
    if (!provider) return { to, providerId: null, skip: 'no active provider for this channel', keep: false };
    const [optedOut] = await db
      .select({ phone: messageOptOuts.phone })
      .from(messageOptOuts)
      .where(and(eq(messageOptOuts.phone, number), eq(messageOptOuts.channel, channel)));
    if (optedOut) return { to, providerId: provider.id, skip: OPTED_OUT };
    return { to, providerId: provider.id, skip: null };
  }

  async flush(messageIds: readonly string[]): Promise<void> {
    if (!messageIds.length) return;
    const work = (async () => {
      const { db, clock } = this.deps;
      const phoneMessages = await db
        .select({ id: messages.id })
        .from(messages)
        .where(
          and(inArray(messages.id, [...messageIds]), eq(messages.status, 'queued'), ne(messages.channel, 'email')),
        );
      for (const { id } of phoneMessages) {
        await this.deps.enqueue({ messageId: id, whatsappTemplate: this.templates.get(id) ?? null });
        this.templates.delete(id);
      }
      const rows = await db
        .update(messages)
        .set({ status: 'sent', sentAt: clock.now(), attempts: sql`${messages.attempts} + 1` })
        .where(and(inArray(messages.id, [...messageIds]), eq(messages.status, 'queued'), eq(messages.channel, 'email')))
        .returning();
      for (const row of rows)
        this.deps.sendMail({ to: row.to, subject: row.subject ?? '', text: row.body, html: row.html });
    })().catch((error: unknown) => this.deps.log.error({ err: error }, 'could not send notified messages'));
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
    await work;
  }

  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
    await this.deps.sendsIdle();
  }
}

/**
 * The SMS / WhatsApp text: the event's short text and, except on a required message (a verification code), the
 * opt-out line in the customer's language ("Reply STOP to opt out.").
 */
function withOptOutLine(
  composed: ComposedMessage,
  language: Parameters<typeof mt>[0],
  required: boolean,
  channel: ProviderChannel,
): string {
  if (required) return composed.short;
  // A WhatsApp template's parameter may not hold a line break.
  return `${composed.short}${channel === 'whatsapp' ? ' ' : '\n'}${mt(language, 'mail.messaging.optOut')}`;
}
