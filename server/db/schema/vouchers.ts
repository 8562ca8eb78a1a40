/**
 * Prepaid vouchers (issue 22). A code is never stored in plain text: `code_hash` is an HMAC-SHA256 under a key
 * derived from SECRETS_KEY (the look-up, unique across all batches), `code_sealed` the code sealed with the secret
 * box (AES-256-GCM) — needed because a hotspot's CHAP login can only be checked against the plain code. A copy of
 * the database without SECRETS_KEY reveals no usable code.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
  text,
} from 'drizzle-orm/pg-core';
import { VOUCHER_STATES } from '../../../contract/schemas/vouchers';
import { plans, subscriptions, users } from '../schema';

export const voucherBatches = pgTable(
  'voucher_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'restrict' }),
    count: integer('count').notNull(),
    /** Time from first use; null: no time limit. */
    validityMinutes: integer('validity_minutes'),
    dataAllowanceMb: integer('data_allowance_mb'),
    price: integer('price').notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    codeLength: integer('code_length').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /**
     * Codes made so far (issue 33): a large batch is made by a job, a chunk per short transaction, so the embedded
     * database is never held for the whole batch; this is its progress.
     */
    generated: integer('generated').notNull().default(0),
    /** When the last code was made; null while the batch is being generated. The export window starts here. */
    generatedAt: timestamp('generated_at', { withTimezone: true }),
    /**
     * The system a batch of cards was imported from (issue 39: `phpnuxbill`, `daloradius`); null for the portal's
     * own. While a batch that is not revoked has one, codes of the other system's shape are looked up too.
     */
    importedFrom: varchar('imported_from', { length: 32 }),
  },
  (t) => [
    index('voucher_batches_created_at_idx').on(t.createdAt.desc(), t.id.desc()),
    index('voucher_batches_imported_idx').on(t.importedFrom).where(sql`${t.importedFrom} is not null`),
    check('voucher_batches_limit', sql`${t.validityMinutes} is not null or ${t.dataAllowanceMb} is not null`),
    check('voucher_batches_price_non_negative', sql`${t.price} >= 0`),
    check('voucher_batches_generated_range', sql`${t.generated} >= 0 and ${t.generated} <= ${t.count}`),
  ],
);

export const vouchers = pgTable(
  'vouchers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    batchId: uuid('batch_id')
      .notNull()
      .references(() => voucherBatches.id, { onDelete: 'cascade' }),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    codeSealed: text('code_sealed').notNull(),
    /** The last 3 characters, for staff to recognise a card. */
    codeHint: varchar('code_hint', { length: 4 }).notNull(),
    state: varchar('state', { length: 16, enum: VOUCHER_STATES }).notNull().default('unused'),
    firstUsedAt: timestamp('first_used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    usedBytes: bigint('used_bytes', { mode: 'number' }).notNull().default(0),
    redeemedBy: uuid('redeemed_by').references(() => users.id, { onDelete: 'set null' }),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('vouchers_code_hash_unique').on(t.codeHash),
    index('vouchers_batch_state_idx').on(t.batchId, t.state, t.id),
  ],
);

export type VoucherBatchRow = typeof voucherBatches.$inferSelect;
export type VoucherRow = typeof vouchers.$inferSelect;
