/**
 * Sign-in sessions as rotating refresh tokens. Every use of a refresh token retires it and issues a new one
 * in the same family; presenting a retired token again means it was copied, so the whole family is revoked.
 */
import { randomUUID } from 'node:crypto';
import { REMEMBER_ME_DAYS } from '../../../contract/product';
import type { Db } from '../../db/client';
import type { RefreshTokenRow, UserRow } from '../../db/schema';
import { addMs, DAY_MS, HOUR_MS, type Clock } from '../../lib/clock';
import { unauthorized } from '../../lib/errors';
import { hashToken, randomToken } from '../../lib/tokens';
import type { UserRepository } from '../users/repository';
import type { AuthRepository } from './repository';
import { inactiveAccountError } from './messages';

/** A browser-session cookie still expires on the server after a day. */
export const SESSION_REFRESH_TTL_MS = 24 * HOUR_MS;
export const PERSISTENT_REFRESH_TTL_MS = REMEMBER_ME_DAYS * DAY_MS;

export interface RequestContext {
  ip?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
}

export interface IssuedRefreshToken {
  token: string;
  familyId: string;
  persistent: boolean;
  expiresAt: Date;
}

export class SessionService {
  constructor(
    private readonly deps: {
      repository: AuthRepository;
      users: UserRepository;
      clock: Clock;
      /** Records a detected reuse (a retired token presented again) in the transaction that revokes the family. */
      onReuse?: (tx: Db, token: RefreshTokenRow, ctx: RequestContext) => Promise<void>;
    },
  ) {}

  /** Opens a new session family for a user who just proved who they are. */
  start(user: Pick<UserRow, 'id'>, persistent: boolean, ctx: RequestContext): Promise<IssuedRefreshToken> {
    return this.issue(user.id, randomUUID(), persistent, ctx);
  }

  /** Trades a refresh token for a new one (and the user it belongs to). Throws 401/403 on every failure. */
  async rotate(
    token: string | undefined,
    ctx: RequestContext,
  ): Promise<{ user: UserRow; refresh: IssuedRefreshToken }> {
    if (!token) throw unauthorized('No refresh token');
    const { repository, users, clock } = this.deps;
    const now = clock.now();
    const row = await repository.findRefreshToken(hashToken(token));
    if (!row) throw unauthorized('Invalid refresh token');
    if (row.usedAt || row.revokedAt) {
      // A retired token presented again was copied: the family ends, and that is worth a line in the trail. A
      // token of a family already ended (signed out, or a reuse already caught) is only refused.
      await repository.revokeFamily(row.familyId, now, row.usedAt && !row.revokedAt ? this.reuse(row, ctx) : undefined);
      throw unauthorized('Invalid refresh token');
    }
    if (row.expiresAt.getTime() <= now.getTime()) {
      await repository.revokeFamily(row.familyId, now);
      throw unauthorized('Refresh token expired');
    }
    const user = await users.findById(row.userId);
    if (!user) throw unauthorized('Invalid refresh token');
    if (user.status !== 'active') {
      await repository.revokeFamily(row.familyId, now);
      throw inactiveAccountError(user.status);
    }
    const { refresh, values } = this.prepare(user.id, row.familyId, row.persistent, ctx);
    if (!(await repository.rotateRefreshToken(row.id, now, values))) {
      // Someone used it between our read and our update: the same as reuse.
      await repository.revokeFamily(row.familyId, now, this.reuse(row, ctx));
      throw unauthorized('Invalid refresh token');
    }
    return { user, refresh };
  }

  private reuse(row: RefreshTokenRow, ctx: RequestContext): ((tx: Db) => Promise<void>) | undefined {
    const { onReuse } = this.deps;
    return onReuse && ((tx) => onReuse(tx, row, ctx));
  }

  /** The live session a refresh token belongs to, if any (used to keep the caller's own session). */
  async familyOf(token: string | undefined): Promise<{ familyId: string; userId: string } | undefined> {
    if (!token) return undefined;
    const row = await this.deps.repository.findRefreshToken(hashToken(token));
    return row && !row.revokedAt ? { familyId: row.familyId, userId: row.userId } : undefined;
  }

  /** Signs out: revokes the token's whole family. Unknown tokens are ignored. The id of the session's user, if any. */
  async end(token: string | undefined): Promise<string | undefined> {
    if (!token) return undefined;
    const row = await this.deps.repository.findRefreshToken(hashToken(token));
    if (!row) return undefined;
    await this.deps.repository.revokeFamily(row.familyId, this.deps.clock.now());
    return row.userId;
  }

  /** Revokes every session of a user, except optionally one family (the caller's). */
  revokeAll(userId: string, exceptFamilyId?: string): Promise<void> {
    return this.deps.repository.revokeUserSessions(userId, this.deps.clock.now(), exceptFamilyId);
  }

  private async issue(
    userId: string,
    familyId: string,
    persistent: boolean,
    ctx: RequestContext,
  ): Promise<IssuedRefreshToken> {
    const { refresh, values } = this.prepare(userId, familyId, persistent, ctx);
    await this.deps.repository.insertRefreshToken(values);
    return refresh;
  }

  /** A new token of a family and the row that stores it (only its hash). */
  private prepare(userId: string, familyId: string, persistent: boolean, ctx: RequestContext) {
    const now = this.deps.clock.now();
    const token = randomToken();
    const expiresAt = addMs(now, persistent ? PERSISTENT_REFRESH_TTL_MS : SESSION_REFRESH_TTL_MS);
    const values = {
      userId,
      familyId,
      tokenHash: hashToken(token),
      persistent,
      expiresAt,
      createdAt: now,
      ip: ctx.ip?.slice(0, 64) ?? null,
      userAgent: ctx.userAgent?.slice(0, 512) ?? null,
    };
    return { refresh: { token, familyId, persistent, expiresAt } satisfies IssuedRefreshToken, values };
  }
}
