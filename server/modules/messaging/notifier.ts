/**
 * The notifier (issue 38): stores one `messages` row per channel an event goes out on, unique on (event key,
 * channel), and hands it to the channel's sender. This first version serves e-mail through the mail outbox
 * (server/modules/mail); SMS and WhatsApp are reported skipped until their providers are configured.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { MESSAGE_CHANNELS, type MessageCategory } from '../../../contract/schemas/messaging';
import type { Db } from '../../db/client';
import { messagePreferences, messages, users } from '../../db/schema';
import type { MailMessage } from '../../integrations/mail/mailer';
import type { Clock } from '../../lib/clock';
import { languageOf } from '../../i18n';
import type { Notification, Notifier, NotifyOutcome } from './types';

/** A category's default when the customer has not chosen: marketing is opt-in, everything else is on. */
export const categoryDefault = (category: MessageCategory): boolean => category !== 'marketing';

export class MessageNotifier implements Notifier {
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      log: FastifyBaseLogger;
      /** The ISP's default language (settings.languages.default). */
      defaultLanguage: () => Promise<string>;
      sendMail: (message: MailMessage) => void;
    },
  ) {}

  async notify(n: Notification, tx?: Db): Promise<NotifyOutcome[]> {
    const db = tx ?? this.deps.db;
    const [user] = await db
      .select({ id: users.id, email: users.email, language: users.language })
      .from(users)
      .where(eq(users.id, n.userId));
    if (!user) return [];
    const channels = n.channels ?? MESSAGE_CHANNELS;
    const choices = await db
      .select({ channel: messagePreferences.channel, enabled: messagePreferences.enabled })
      .from(messagePreferences)
      .where(and(eq(messagePreferences.userId, n.userId), eq(messagePreferences.category, n.category)));
    const language = languageOf(user.language, await this.deps.defaultLanguage());
    const composed = await n.compose(language);
    const outcomes: NotifyOutcome[] = [];
    const stored: string[] = [];
    for (const channel of channels) {
      const chosen = choices.find((c) => c.channel === channel)?.enabled ?? categoryDefault(n.category);
      if (!n.required && !chosen) {
        outcomes.push({ channel, status: 'skipped', reason: 'turned off by the customer' });
        continue;
      }
      if (channel !== 'email') {
        outcomes.push({ channel, status: 'skipped', reason: 'no provider for this channel' });
        continue;
      }
      const [row] = await db
        .insert(messages)
        .values({
          eventKey: n.eventKey,
          channel,
          category: n.category,
          template: n.template,
          userId: n.userId,
          to: n.to ?? user.email,
          language,
          subject: composed.subject,
          body: composed.text,
          html: composed.html ?? null,
          bulkId: n.bulkId ?? null,
          createdAt: this.deps.clock.now(),
        })
        .onConflictDoNothing({ target: [messages.eventKey, messages.channel] })
        .returning({ id: messages.id });
      if (!row) {
        outcomes.push({ channel, status: 'duplicate' });
        continue;
      }
      stored.push(row.id);
      outcomes.push({ channel, status: 'queued', messageId: row.id });
    }
    if (!tx && stored.length) await this.flush(stored);
    return outcomes;
  }

  async flush(messageIds: readonly string[]): Promise<void> {
    if (!messageIds.length) return;
    const work = (async () => {
      const { db, clock } = this.deps;
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
  }
}
