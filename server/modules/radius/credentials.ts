/**
 * PPPoE access credentials, one per subscription: the username comes from the customer number (C-000123 →
 * c000123; a second subscription of the same customer gets c000123-2, …) and the password is random, sealed
 * with the server's secret box (SECRETS_KEY) because CHAP needs the plain text and the customer is shown it.
 *
 * provisionCredentials is what completing an installation calls, inside its transaction. It is idempotent:
 * the subscription's existing credentials are returned unchanged.
 */
import { randomInt } from 'node:crypto';
import type { Db } from '../../db/client';
import type { ServiceCredentialRow } from '../../db/schema/radius';
import type { SecretBox } from '../../lib/secret-box';
import { notFound } from '../../lib/errors';
import { createRadiusRepository } from './repository';

export interface ServiceCredentials {
  subscription_id: string;
  username: string;
  /** null only when the stored value cannot be opened (SECRETS_KEY changed): rotate it. */
  password: string | null;
  created_at: string;
  rotated_at: string | null;
}

/** No look-alikes (0/O, 1/l/I), so a customer can type it from the screen into their router. */
const PASSWORD_ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const PASSWORD_LENGTH = 14;

export function generateAccessPassword(length = PASSWORD_LENGTH): string {
  let out = '';
  for (let i = 0; i < length; i++) out += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return out;
}

/** "C-000123" → "c000123" (lower case, letters and digits only). */
export function usernameBase(customerNumber: string): string {
  return customerNumber.toLowerCase().replace(/[^a-z0-9]/g, '');
}

let registeredBox: SecretBox | null = null;

/** The app registers its secret box at start (radius plugin), so callers need not pass one. */
export function registerCredentialsBox(box: SecretBox): void {
  registeredBox = box;
}

function boxOf(box?: SecretBox): SecretBox {
  const b = box ?? registeredBox;
  if (!b) throw new Error('No secret box for access credentials: pass app.secretBox');
  return b;
}

/** Listeners told when credentials are created or rotated (the RADIUS server's lookup cache). */
const changeListeners = new Set<(subscriptionId: string) => void>();
export function onCredentialsChanged(listener: (subscriptionId: string) => void): () => void {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}
function changed(subscriptionId: string): void {
  for (const l of changeListeners) {
    try {
      l(subscriptionId);
    } catch {
      // A cache listener must never break provisioning.
    }
  }
}

export function toServiceCredentials(row: ServiceCredentialRow, box?: SecretBox): ServiceCredentials {
  return {
    subscription_id: row.subscriptionId,
    username: row.username,
    password: boxOf(box).open(row.passwordSealed),
    created_at: row.createdAt.toISOString(),
    rotated_at: row.rotatedAt ? row.rotatedAt.toISOString() : null,
  };
}

/**
 * The subscription's credentials, creating them on first call (inside the caller's transaction `tx`).
 * Concurrent callers for the same subscription end up with the same row (the insert does nothing on conflict
 * and the existing row is read back); a username taken meanwhile by another subscription moves to the next suffix.
 */
export async function provisionCredentials(
  tx: Db,
  subscriptionId: string,
  box?: SecretBox,
  now: Date = new Date(),
): Promise<ServiceCredentials> {
  const sealer = boxOf(box);
  const existing = await findRow(tx, subscriptionId);
  if (existing) return toServiceCredentials(existing, sealer);
  const repo = createRadiusRepository(tx);
  const owner = await repo.customerNumberOf(subscriptionId);
  if (!owner) throw notFound('Subscription not found');
  const base = usernameBase(owner.customerNumber);
  const password = generateAccessPassword();
  for (let attempt = 0; attempt < 20; attempt++) {
    const taken = new Set((await repo.usernamesLike(base)).map((r) => r.username));
    let username = base;
    for (let n = 2; taken.has(username); n++) username = `${base}-${n}`;
    const inserted = await repo.insertCredentials({
      subscriptionId,
      username,
      passwordSealed: sealer.seal(password),
      createdAt: now,
    });
    if (inserted) {
      changed(subscriptionId);
      return toServiceCredentials(inserted, sealer);
    }
    const raced = await findRow(tx, subscriptionId);
    if (raced) return toServiceCredentials(raced, sealer);
  }
  throw new Error(`Could not find a free PPPoE username for ${base}`);
}

/** The subscription's credentials, or null when none were provisioned yet. */
export async function getCredentials(
  db: Db,
  subscriptionId: string,
  box?: SecretBox,
): Promise<ServiceCredentials | null> {
  const row = await findRow(db, subscriptionId);
  return row ? toServiceCredentials(row, box) : null;
}

async function findRow(db: Db, subscriptionId: string): Promise<ServiceCredentialRow | undefined> {
  return createRadiusRepository(db).credentialsOf(subscriptionId);
}
