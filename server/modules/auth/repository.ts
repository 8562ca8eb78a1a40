/** Queries for sign-in sessions (refresh tokens) and e-mailed single-use tokens. */
import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  authTokens,
  refreshTokens,
  type AuthTokenKind,
  type AuthTokenRow,
  type RefreshTokenRow,
} from '../../db/schema';

export function createAuthRepository(db: Db) {
  return {
    // --- refresh tokens -----------------------------------------------------------------------------------
    async insertRefreshToken(values: typeof refreshTokens.$inferInsert): Promise<RefreshTokenRow> {
      const [row] = await db.insert(refreshTokens).values(values).returning();
      return row;
    },

    async findRefreshToken(tokenHash: string): Promise<RefreshTokenRow | undefined> {
      const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1);
      return row;
    },

    /**
     * Retires a token and stores its successor in one transaction, so a failure cannot leave the family with
     * no live token. Resolves false (and writes nothing) when another request retired the token first.
     */
    async rotateRefreshToken(id: string, at: Date, next: typeof refreshTokens.$inferInsert): Promise<boolean> {
      return db.transaction(async (tx) => {
        const won = await tx
          .update(refreshTokens)
          .set({ usedAt: at })
          .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
          .returning({ id: refreshTokens.id });
        if (won.length !== 1) return false;
        await tx.insert(refreshTokens).values(next);
        return true;
      });
    },

    /** Revokes a session family; `alongside` (an audit event) is written in the same transaction. */
    async revokeFamily(familyId: string, at: Date, alongside?: (tx: Db) => Promise<void>): Promise<void> {
      const revoke = (h: Db) =>
        h
          .update(refreshTokens)
          .set({ revokedAt: at })
          .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
      if (!alongside) {
        await revoke(db);
        return;
      }
      await db.transaction(async (tx) => {
        await revoke(tx as unknown as Db);
        await alongside(tx as unknown as Db);
      });
    },

    /** Revokes every session of a user, except one family when given (the caller's own). */
    async revokeUserSessions(userId: string, at: Date, exceptFamilyId?: string): Promise<void> {
      const conditions = [eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)];
      if (exceptFamilyId) conditions.push(ne(refreshTokens.familyId, exceptFamilyId));
      await db
        .update(refreshTokens)
        .set({ revokedAt: at })
        .where(and(...conditions));
    },

    // --- e-mailed tokens ----------------------------------------------------------------------------------
    /** Stores a new token of a kind and voids the user's older unused ones of that kind. */
    async replaceAuthToken(values: {
      userId: string;
      kind: AuthTokenKind;
      tokenHash: string;
      expiresAt: Date;
      createdAt: Date;
    }): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .update(authTokens)
          .set({ usedAt: values.createdAt })
          .where(
            and(eq(authTokens.userId, values.userId), eq(authTokens.kind, values.kind), isNull(authTokens.usedAt)),
          );
        await tx.insert(authTokens).values(values);
      });
    },

    /** Uses up a valid (unused, unexpired) token of a kind; undefined when there is none. */
    async consumeAuthToken(kind: AuthTokenKind, tokenHash: string, at: Date): Promise<AuthTokenRow | undefined> {
      const [row] = await db
        .update(authTokens)
        .set({ usedAt: at })
        .where(
          and(
            eq(authTokens.tokenHash, tokenHash),
            eq(authTokens.kind, kind),
            isNull(authTokens.usedAt),
            gt(authTokens.expiresAt, at),
          ),
        )
        .returning();
      return row;
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
