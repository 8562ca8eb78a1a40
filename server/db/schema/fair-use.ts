/**
 * Fair use (issue 36): a plan's usage tiers per cycle live on the plan (`plans.usage_tiers`); here are the top-up
 * packages a customer buys, the top-ups bought, the per-cycle counters and the usage notices sent.
 *
 * A cycle is the subscription's billing period (current_period_start … current_period_end); its counters are
 * keyed by the cycle's start, so a new period starts from zero without a reset job.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { invoices, subscriptions } from '../schema';

export const TOP_UP_KINDS = ['extra_data', 'full_speed'] as const;
export type TopUpKind = (typeof TOP_UP_KINDS)[number];
export const TOP_UP_PACKAGE_STATUSES = ['active', 'inactive'] as const;
export const TOP_UP_STATUSES = ['pending', 'active', 'cancelled'] as const;
export type TopUpStatus = (typeof TOP_UP_STATUSES)[number];
/** The share of a tier's threshold at which the customer is told: 80 % (nearly there) and 100 % (crossed). */
export const USAGE_NOTICE_THRESHOLDS = [80, 100] as const;

/** What the ISP sells as a top-up: extra gigabytes for this cycle, or full speed until the cycle ends. */
export const topUpPackages = pgTable(
  'top_up_packages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: varchar('name', { length: 80 }).notNull(),
    kind: varchar('kind', { length: 16, enum: TOP_UP_KINDS }).notNull(),
    /** extra_data: the gigabytes added to every tier threshold (and the hard stop) for the rest of the cycle. */
    dataGb: integer('data_gb'),
    /** Minor units. */
    price: integer('price').notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    status: varchar('status', { length: 16, enum: TOP_UP_PACKAGE_STATUSES }).notNull().default('active'),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('top_up_packages_status_idx').on(t.status, t.sortOrder),
    check('top_up_packages_price_non_negative', sql`${t.price} >= 0`),
    check('top_up_packages_data', sql`(${t.kind} <> 'extra_data') OR (${t.dataGb} IS NOT NULL AND ${t.dataGb} > 0)`),
  ],
);

/** A top-up bought for one subscription's cycle: pending until its invoice is paid, then active until the cycle ends. */
export const subscriptionTopUps = pgTable(
  'subscription_top_ups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    packageId: uuid('package_id').references(() => topUpPackages.id, { onDelete: 'set null' }),
    /** Copied from the package when bought, so a later edit of the package does not change what was sold. */
    kind: varchar('kind', { length: 16, enum: TOP_UP_KINDS }).notNull(),
    extraBytes: bigint('extra_bytes', { mode: 'number' }).notNull().default(0),
    price: integer('price').notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    /** The cycle it belongs to (the subscription's period when bought). */
    cycleStart: timestamp('cycle_start', { withTimezone: true }).notNull(),
    cycleEnd: timestamp('cycle_end', { withTimezone: true }).notNull(),
    invoiceId: uuid('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    status: varchar('status', { length: 16, enum: TOP_UP_STATUSES }).notNull().default('pending'),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('subscription_top_ups_subscription_cycle_idx').on(t.subscriptionId, t.cycleStart),
    uniqueIndex('subscription_top_ups_invoice_unique').on(t.invoiceId),
  ],
);

/**
 * Bytes per subscription per cycle, added from each accounting packet's increase (as radius_usage_daily is), so
 * the fair-use tier is one row read. Keyed by the cycle's start: a new cycle starts a new row at zero.
 */
export const usageCycleCounters = pgTable(
  'usage_cycle_counters',
  {
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    cycleStart: timestamp('cycle_start', { withTimezone: true }).notNull(),
    inputOctets: bigint('input_octets', { mode: 'number' }).notNull().default(0),
    outputOctets: bigint('output_octets', { mode: 'number' }).notNull().default(0),
    /** The tier the subscription was last put in this cycle (0: full speed; n: after the n-th threshold). */
    tier: integer('tier').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.cycleStart] })],
);

/** One row per notice sent (tier × threshold × cycle): the unique key is what stops a repeat, on every node. */
export const usageNotices = pgTable(
  'usage_notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    cycleStart: timestamp('cycle_start', { withTimezone: true }).notNull(),
    /** 1-based index of the tier threshold (or of the hard stop: the last). */
    tier: integer('tier').notNull(),
    threshold: integer('threshold').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('usage_notices_unique').on(t.subscriptionId, t.cycleStart, t.tier, t.threshold)],
);

export type TopUpPackageRow = typeof topUpPackages.$inferSelect;
export type SubscriptionTopUpRow = typeof subscriptionTopUps.$inferSelect;
export type UsageCycleCounterRow = typeof usageCycleCounters.$inferSelect;
