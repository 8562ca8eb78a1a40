/**
 * Rate-limit windows shared by every portal process on one PostgreSQL (issue 14): one row per counted key
 * (limit name space + client address or account), its count in the window and when the window ends. Rows
 * whose window ended are reset by the next increment and swept now and then (server/lib/rate-limit-postgres.ts).
 */
import { integer, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';

export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 512 }).primaryKey(),
  count: integer('count').notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
});
