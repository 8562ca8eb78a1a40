/**
 * The signed link of a suspended customer's page (issue 38): /suspended/<token>, where the token names one
 * subscription and when it stops working, under an HMAC-SHA256 with a key derived from SECRETS_KEY
 * (secretBox.mac, purpose "suspended-link"). Nothing is stored: a link is valid until its expiry, and a new
 * SECRETS_KEY ends every link at once. It shows only what the page shows (first name, the open invoice, the
 * amount) and lets its holder start a payment of that invoice, nothing else.
 *
 * Form: <subscription id, 32 hex digits>.<expiry, Unix seconds in base 36>.<the first 32 hex digits of the MAC>.
 */
import { timingSafeEqual } from 'node:crypto';
import type { SecretBox } from '../../lib/secret-box';

/** How long a link works: a week, long enough for a dunning message read late. */
const SUSPENDED_LINK_TTL_SECONDS = 7 * 86_400;
const PURPOSE = 'suspended-link';
const TOKEN = /^([0-9a-f]{32})\.([0-9a-z]{1,10})\.([0-9a-f]{32})$/;

const compact = (uuid: string) => uuid.replace(/-/g, '').toLowerCase();
const uuidOf = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
const macOf = (box: SecretBox, id: string, expiry: string) => box.mac(PURPOSE, `${id}.${expiry}`).slice(0, 32);

/** A token for the subscription, valid from `now` for `ttlSeconds`. */
export function signSuspendedToken(
  box: SecretBox,
  subscriptionId: string,
  now: Date,
  ttlSeconds = SUSPENDED_LINK_TTL_SECONDS,
): string {
  const id = compact(subscriptionId);
  const expiry = Math.floor(now.getTime() / 1000 + ttlSeconds).toString(36);
  return `${id}.${expiry}.${macOf(box, id, expiry)}`;
}

type TokenCheck = { ok: true; subscriptionId: string; expiresAt: Date } | { ok: false; why: 'bad' | 'expired' };

/** The subscription a token names, or why it does not count (forged or damaged: bad; past its expiry: expired). */
export function verifySuspendedToken(box: SecretBox, token: string, now: Date): TokenCheck {
  const m = TOKEN.exec(token);
  if (!m) return { ok: false, why: 'bad' };
  const [, id, expiry, mac] = m;
  const expected = Buffer.from(macOf(box, id, expiry));
  if (!timingSafeEqual(expected, Buffer.from(mac))) return { ok: false, why: 'bad' };
  const expiresAt = new Date(Number.parseInt(expiry, 36) * 1000);
  if (expiresAt.getTime() <= now.getTime()) return { ok: false, why: 'expired' };
  return { ok: true, subscriptionId: uuidOf(id), expiresAt };
}
