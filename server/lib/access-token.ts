import { jwtVerify, SignJWT } from 'jose';
import { isRole, type Role } from '../../contract/roles';
import type { Clock } from './clock';

export interface AccessToken {
  token: string;
  /** ISO time of the token's exp claim. */
  expires: string;
}

export interface AccessClaims {
  sub: string;
  role: Role;
  /** The user's session version when the token was signed (users.session_version; absent in older tokens: 0). */
  sv: number;
}

/** Tokens verified recently: at most this many are remembered (the oldest are forgotten first). */
const VERIFIED_MAX = 10_000;

/**
 * Short-lived HS256 bearer tokens (claims sub, role, sv, iat, exp) signed with JWT_SECRET. A token's signature is
 * checked once: its claims are then remembered until it expires (a token never changes, and whether its user may
 * still act is decided from the user, not the token), which saves a WebCrypto HMAC on every request (issue 15).
 * `sv` is the user's session version: once the user's row holds a higher one, the token is refused (issue 32).
 */
export function createAccessTokenIssuer(options: { secret: string; ttlSeconds: number; clock: Clock }) {
  const key = new TextEncoder().encode(options.secret);
  const verified = new Map<string, { claims: AccessClaims; expMs: number; nbfMs: number }>();
  return {
    async sign(user: { id: string; role: Role; sessionVersion: number }): Promise<AccessToken> {
      const iat = Math.floor(options.clock.now().getTime() / 1000);
      const exp = iat + options.ttlSeconds;
      const token = await new SignJWT({ role: user.role, sv: user.sessionVersion })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key);
      return { token, expires: new Date(exp * 1000).toISOString() };
    },

    /** The token's claims, or null when it is malformed, forged or expired. */
    async verify(token: string): Promise<AccessClaims | null> {
      const now = options.clock.now();
      const known = verified.get(token);
      if (known) {
        if (now.getTime() < known.expMs && now.getTime() >= known.nbfMs) return { ...known.claims };
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: now });
        if (typeof payload.sub !== 'string' || !isRole(payload.role) || typeof payload.exp !== 'number') return null;
        const sv = payload.sv === undefined ? 0 : payload.sv;
        if (typeof sv !== 'number' || !Number.isInteger(sv)) return null;
        const claims: AccessClaims = { sub: payload.sub, role: payload.role, sv };
        verified.set(token, {
          claims,
          expMs: payload.exp * 1000,
          nbfMs: typeof payload.nbf === 'number' ? payload.nbf * 1000 : -Infinity,
        });
        while (verified.size > VERIFIED_MAX) verified.delete(verified.keys().next().value!);
        return { ...claims };
      } catch {
        return null;
      }
    },
  };
}

export type AccessTokenIssuer = ReturnType<typeof createAccessTokenIssuer>;
