import { createHash, randomBytes } from 'node:crypto';

/** An unguessable token for links and cookies: 32 random bytes, base64url. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as their SHA-256, so a database leak does not hand out sessions or reset links. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
