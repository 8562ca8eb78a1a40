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
}

/** Short-lived HS256 bearer tokens (claims sub, role, iat, exp) signed with JWT_SECRET. */
export function createAccessTokenIssuer(options: { secret: string; ttlSeconds: number; clock: Clock }) {
  const key = new TextEncoder().encode(options.secret);
  return {
    async sign(user: { id: string; role: Role }): Promise<AccessToken> {
      const iat = Math.floor(options.clock.now().getTime() / 1000);
      const exp = iat + options.ttlSeconds;
      const token = await new SignJWT({ role: user.role })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key);
      return { token, expires: new Date(exp * 1000).toISOString() };
    },

    /** The token's claims, or null when it is malformed, forged or expired. */
    async verify(token: string): Promise<AccessClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: options.clock.now() });
        if (typeof payload.sub !== 'string' || !isRole(payload.role)) return null;
        return { sub: payload.sub, role: payload.role };
      } catch {
        return null;
      }
    },
  };
}

export type AccessTokenIssuer = ReturnType<typeof createAccessTokenIssuer>;
