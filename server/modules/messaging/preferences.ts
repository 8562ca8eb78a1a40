/**
 * The signed-in customer's choices (issue 38): which categories they get on which channel (no row: the category's
 * default, ./notifier.ts categoryDefault), and proving they own a phone number. A code is 6 digits, sent by SMS
 * (WhatsApp when there is no SMS provider) as a required message to the number being proved; only its SHA-256
 * is stored; it expires after 10 minutes and allows 5 wrong tries; a new code replaces the one before. At most 5 codes an hour per customer (the
 * shared rate-limit store). Confirming sets users.phone and phone_verified_at; any other change of the number
 * (the profile, a staff edit) clears phone_verified_at.
 */
import { createHash, randomInt } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  MESSAGE_CATEGORIES,
  MESSAGE_CHANNELS,
  PROVIDER_CHANNELS,
  type MessageChannel,
} from '../../../contract/schemas/messaging';
import { type MessagePreferences, PREFERENCE_MESSAGES as M } from '../../../contract/schemas/message-preferences';
import type { Db } from '../../db/client';
import { messageOptOuts, messagePreferences, messageProviders, phoneVerifications, users } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { AppError, badRequest, conflict, tooManyRequests, unauthorized } from '../../lib/errors';
import type { RateLimitBackend } from '../../lib/rate-limit-store';
import { mt } from '../../i18n';
import { categoryDefault, E164 } from './notifier';
import type { Notifier } from './types';

export const CODE_TTL_MS = 10 * 60_000;
export const CODE_ATTEMPTS = 5;
export const CODES_PER_HOUR = 5;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export interface PreferenceDeps {
  db: Db;
  clock: Clock;
  notifier: Notifier;
  rateLimit: RateLimitBackend;
  companyName: () => Promise<string>;
}

export async function readPreferences(db: Db, userId: string): Promise<MessagePreferences> {
  const [user] = await db
    .select({ phone: users.phone, verifiedAt: users.phoneVerifiedAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw unauthorized();
  const providers = await db
    .select({ channel: messageProviders.channel })
    .from(messageProviders)
    .where(and(eq(messageProviders.isDefault, true), eq(messageProviders.isActive, true)));
  const verified = Boolean(user.verifiedAt && user.phone && E164.test(user.phone));
  const optOuts = verified
    ? await db
        .select({ channel: messageOptOuts.channel })
        .from(messageOptOuts)
        .where(eq(messageOptOuts.phone, user.phone ?? ''))
    : [];
  const stored = await db
    .select({
      channel: messagePreferences.channel,
      category: messagePreferences.category,
      enabled: messagePreferences.enabled,
    })
    .from(messagePreferences)
    .where(eq(messagePreferences.userId, userId));
  const channels = MESSAGE_CHANNELS.map((channel) => {
    if (channel === 'email') return { channel, available: true, reason: null };
    if (!providers.some((p) => p.channel === channel))
      return { channel, available: false, reason: 'no_provider' as const };
    if (!verified) return { channel, available: false, reason: 'phone_not_verified' as const };
    if (optOuts.some((o) => o.channel === channel)) return { channel, available: false, reason: 'opted_out' as const };
    return { channel, available: true, reason: null };
  });
  return {
    channels,
    categories: [...MESSAGE_CATEGORIES],
    preferences: MESSAGE_CHANNELS.flatMap((channel) =>
      MESSAGE_CATEGORIES.map((category) => ({
        channel,
        category,
        enabled:
          stored.find((s) => s.channel === channel && s.category === category)?.enabled ?? categoryDefault(category),
      })),
    ),
    phone: user.phone,
    phone_verified: verified,
  };
}

export async function savePreferences(
  db: Db,
  userId: string,
  choices: ReadonlyArray<{ channel: MessageChannel; category: (typeof MESSAGE_CATEGORIES)[number]; enabled: boolean }>,
  now: Date,
): Promise<void> {
  if (!choices.length) return;
  await db
    .insert(messagePreferences)
    .values(
      choices.map((c) => ({ userId, channel: c.channel, category: c.category, enabled: c.enabled, updatedAt: now })),
    )
    .onConflictDoUpdate({
      target: [messagePreferences.userId, messagePreferences.channel, messagePreferences.category],
      set: { enabled: sql`excluded.enabled`, updatedAt: now },
    });
}

export async function requestPhoneCode(
  deps: PreferenceDeps,
  userId: string,
  phone: string,
): Promise<{ phone: string; expires_at: string; channel: MessageChannel }> {
  const { db, clock } = deps;
  const count = await deps.rateLimit.increment(`phone-code:${userId}`, 60 * 60_000);
  if (count.count > CODES_PER_HOUR) throw tooManyRequests(M.tooManyCodes, count.ttlMs / 1000);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + CODE_TTL_MS);
  // Only the newest code counts: the ones sent before it stop working.
  await db
    .delete(phoneVerifications)
    .where(and(eq(phoneVerifications.userId, userId), isNull(phoneVerifications.verifiedAt)));
  const [row] = await db
    .insert(phoneVerifications)
    .values({ userId, phone, codeHash: sha256(code), expiresAt, createdAt: now })
    .returning({ id: phoneVerifications.id });
  const company = await deps.companyName();
  for (const channel of PROVIDER_CHANNELS) {
    const [outcome] = await deps.notifier.notify({
      userId,
      category: 'service',
      eventKey: `phone-verify:${row.id}`,
      template: 'phone.verify',
      required: true,
      to: phone,
      channels: [channel],
      compose: (language) => {
        const text = mt(language, 'mail.messaging.phoneCode', { company, code });
        return {
          subject: mt(language, 'mail.messaging.phoneCodeSubject'),
          text,
          short: text,
        };
      },
    });
    if (outcome?.status === 'queued') return { phone, expires_at: expiresAt.toISOString(), channel };
  }
  throw conflict(M.cannotSend);
}

export async function confirmPhoneCode(deps: PreferenceDeps, userId: string, code: string): Promise<string> {
  const { db, clock } = deps;
  const now = clock.now();
  const [latest] = await db
    .select()
    .from(phoneVerifications)
    .where(and(eq(phoneVerifications.userId, userId), isNull(phoneVerifications.verifiedAt)))
    .orderBy(desc(phoneVerifications.createdAt))
    .limit(1);
  if (!latest) throw badRequest(M.noCode, [{ field: 'code', message: M.noCode }]);
  if (latest.expiresAt <= now) throw badRequest(M.expired, [{ field: 'code', message: M.expired }]);
  if (latest.attempts >= CODE_ATTEMPTS)
    throw new AppError(429, M.tooManyAttempts, [{ field: 'code', message: M.tooManyAttempts }]);
  if (latest.codeHash !== sha256(code)) {
    // Counted with a guarded increment, so parallel guesses cannot exceed the allowance.
    const [counted] = await db
      .update(phoneVerifications)
      .set({ attempts: sql`${phoneVerifications.attempts} + 1` })
      .where(and(eq(phoneVerifications.id, latest.id), sql`${phoneVerifications.attempts} < ${CODE_ATTEMPTS}`))
      .returning({ attempts: phoneVerifications.attempts });
    if (!counted) throw new AppError(429, M.tooManyAttempts, [{ field: 'code', message: M.tooManyAttempts }]);
    throw badRequest(M.wrongCode, [{ field: 'code', message: M.wrongCode }]);
  }
  await db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(phoneVerifications)
      .set({ verifiedAt: now })
      .where(and(eq(phoneVerifications.id, latest.id), isNull(phoneVerifications.verifiedAt)))
      .returning({ id: phoneVerifications.id });
    if (!claimed) throw badRequest(M.noCode, [{ field: 'code', message: M.noCode }]);
    await tx
      .update(users)
      .set({ phone: latest.phone, phoneVerifiedAt: now, updatedAt: now })
      .where(eq(users.id, userId));
  });
  return latest.phone;
}
