/**
 * STOP and START (issue 38): a customer's reply to an SMS or WhatsApp message. STOP (and its usual synonyms, in
 * the portal's languages) records the number in message_opt_outs for that channel and turns the channel off in
 * the preferences of the accounts with that number; nothing more is sent there (the notifier and the send job
 * both check). START removes the opt-out and the choices STOP wrote, so the categories' defaults apply again.
 */
import { and, eq, sql } from 'drizzle-orm';
import { MESSAGE_CATEGORIES, type ProviderChannel } from '../../../contract/schemas/messaging';
import type { Db } from '../../db/client';
import { messageOptOuts, messagePreferences, users } from '../../db/schema';

const STOP_WORDS = new Set([
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'OPTOUT',
  'BAJA',
  'PARAR',
  'ALTO',
  'ARRET',
  'ARRÊT',
  'DESABONNER',
  'DÉSABONNER',
  'BERHENTI',
  'إيقاف',
  'توقف',
  'الغاء',
  'إلغاء',
]);
const START_WORDS = new Set(['START', 'UNSTOP', 'YES', 'ALTA', 'REPRENDRE', 'MULAI', 'ابدأ', 'اشتراك']);

/** What an inbound text asks: "stop", "start", or nothing the portal acts on. */
export function keywordOf(text: string): 'stop' | 'start' | null {
  const word = text
    .trim()
    .replace(/[.!¡?¿]+$/u, '')
    .toLocaleUpperCase();
  if (STOP_WORDS.has(word)) return 'stop';
  if (START_WORDS.has(word)) return 'start';
  return null;
}

/** A sender's number as E.164 ("whatsapp:+1555…" from Twilio, "1555…" from WhatsApp Cloud). */
export function normalisePhone(from: string): string {
  const digits = from.replace(/^whatsapp:/, '').replace(/[^\d+]/g, '');
  return digits.startsWith('+') ? digits : `+${digits}`;
}

/** Acts on an inbound text; returns what it did. */
export async function handleInbound(
  db: Db,
  input: { from: string; text: string; channel: ProviderChannel; now: Date },
): Promise<'stop' | 'start' | null> {
  const keyword = keywordOf(input.text);
  if (!keyword) return null;
  const phone = normalisePhone(input.from);
  await db.transaction(async (tx) => {
    const owners = await tx.select({ id: users.id }).from(users).where(eq(users.phone, phone));
    if (keyword === 'stop') {
      await tx
        .insert(messageOptOuts)
        .values({ phone, channel: input.channel, source: 'STOP', createdAt: input.now })
        .onConflictDoNothing();
      for (const owner of owners) {
        await tx
          .insert(messagePreferences)
          .values(
            MESSAGE_CATEGORIES.map((category) => ({
              userId: owner.id,
              channel: input.channel,
              category,
              enabled: false,
              updatedAt: input.now,
            })),
          )
          .onConflictDoUpdate({
            target: [messagePreferences.userId, messagePreferences.channel, messagePreferences.category],
            set: { enabled: false, updatedAt: input.now },
          });
      }
      return;
    }
    await tx
      .delete(messageOptOuts)
      .where(and(eq(messageOptOuts.phone, phone), eq(messageOptOuts.channel, input.channel)));
    for (const owner of owners)
      await tx
        .delete(messagePreferences)
        .where(
          and(
            eq(messagePreferences.userId, owner.id),
            eq(messagePreferences.channel, input.channel),
            sql`not ${messagePreferences.enabled}`,
          ),
        );
  });
  return keyword;
}
