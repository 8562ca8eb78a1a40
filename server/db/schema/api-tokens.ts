/**
 * Personal API tokens for integrations (issue 12). Only the SHA-256 of a secret is stored; the prefix (a few
 * characters after the 'isp_' marker) tells tokens apart on screen and is no help in guessing one.
 */
import { index, pgTable, timestamp, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { API_TOKEN_ROLES } from '../../../contract/schemas/api-token';
import { users } from '../schema';

export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: varchar('name', { length: 100 }).notNull(),
    /** The staff role the token acts as. */
    role: varchar('role', { length: 32, enum: API_TOKEN_ROLES }).notNull(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    prefix: varchar('prefix', { length: 16 }).notNull(),
    /** The admin who created it: the token acts in their name and stops when they may no longer create it. */
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('api_tokens_token_hash_unique').on(t.tokenHash),
    // The list: newest first.
    index('api_tokens_created_at_id_idx').on(t.createdAt.desc(), t.id.desc()),
    index('api_tokens_created_by_idx').on(t.createdBy),
  ],
);

export type ApiTokenRow = typeof apiTokens.$inferSelect;
export type NewApiTokenRow = typeof apiTokens.$inferInsert;
