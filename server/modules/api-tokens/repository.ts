import { and, count, eq, isNull, lt, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { newestFirst } from '../../db/paging';
import { apiTokens, users, type ApiTokenRow, type NewApiTokenRow, type UserRow } from '../../db/schema';

/** A token with the creator's name, e-mail and role, for the list. */
export type ApiTokenWithCreator = ApiTokenRow & {
  creatorName: string;
  creatorEmail: string;
  creatorRole: UserRow['role'];
};

const withCreator = {
  token: apiTokens,
  creatorName: users.name,
  creatorEmail: users.email,
  creatorRole: users.role,
};

const flatten = (r: {
  token: ApiTokenRow;
  creatorName: string;
  creatorEmail: string;
  creatorRole: UserRow['role'];
}): ApiTokenWithCreator => ({
  ...r.token,
  creatorName: r.creatorName,
  creatorEmail: r.creatorEmail,
  creatorRole: r.creatorRole,
});

export function createApiTokenRepository(db: Db) {
  return {
    async insert(values: NewApiTokenRow): Promise<ApiTokenRow> {
      const [row] = await db.insert(apiTokens).values(values).returning();
      return row;
    },

    /** Newest first; without the tokens of super_admins unless `withSuperAdmins`. */
    async page(
      q: { page: number; limit: number },
      withSuperAdmins = true,
    ): Promise<{ items: ApiTokenWithCreator[]; total: number }> {
      const visible = withSuperAdmins ? undefined : ne(users.role, 'super_admin');
      const [rows, [{ total }]] = await Promise.all([
        db
          .select(withCreator)
          .from(apiTokens)
          .innerJoin(users, eq(users.id, apiTokens.createdBy))
          .where(visible)
          .orderBy(newestFirst(apiTokens.createdAt), newestFirst(apiTokens.id))
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
        db
          .select({ total: count() })
          .from(apiTokens)
          .innerJoin(users, eq(users.id, apiTokens.createdBy))
          .where(visible),
      ]);
      return { items: rows.map(flatten), total: Number(total) };
    },

    async findById(id: string): Promise<ApiTokenWithCreator | undefined> {
      const [row] = await db
        .select(withCreator)
        .from(apiTokens)
        .innerJoin(users, eq(users.id, apiTokens.createdBy))
        .where(eq(apiTokens.id, id))
        .limit(1);
      return row ? flatten(row) : undefined;
    },

    /** The token a secret's hash belongs to, with its creator as stored now (role and status decide). */
    async findByHash(tokenHash: string) {
      const [row] = await db
        .select({ token: apiTokens, creator: users })
        .from(apiTokens)
        .innerJoin(users, eq(users.id, apiTokens.createdBy))
        .where(eq(apiTokens.tokenHash, tokenHash))
        .limit(1);
      return row;
    },

    /** Sets revoked_at unless already set; the row either way. */
    async revoke(id: string, at: Date): Promise<void> {
      await db
        .update(apiTokens)
        .set({ revokedAt: at })
        .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)));
    },

    /** Records a use, unless one was recorded after `unlessSince` (at most one write per interval). */
    async touch(id: string, at: Date, unlessSince: Date): Promise<void> {
      await db
        .update(apiTokens)
        .set({ lastUsedAt: at })
        .where(and(eq(apiTokens.id, id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, unlessSince))));
    },
  };
}

export type ApiTokenRepository = ReturnType<typeof createApiTokenRepository>;
