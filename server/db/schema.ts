/** The database schema (Drizzle). Migrations in ./migrations are generated from this file by drizzle-kit. */
import { LANGUAGE_CODES } from '../../contract/languages';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { ROLES } from '../../contract/roles';
import { USER_STATUSES } from '../../contract/schemas/user';
import { BILLING_CYCLES, PLAN_STATUSES } from '../../contract/schemas/plan';
import { CONTACT_STATUSES } from '../../contract/schemas/contact';
import { GATEWAY_MODES, PAYMENT_PROVIDERS } from '../../contract/schemas/gateway';
import { INVOICE_STATUSES, type InvoiceLineItem } from '../../contract/schemas/invoice';
import { PAYMENT_STATUSES } from '../../contract/schemas/payment';
import { pgSequence, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { paymentMethods } from './schema/money';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Customer numbers (C-000123): a sequence, so two sign-ups at once never share one (gaps are harmless). */
export const customerNumberSeq = pgSequence('customer_number_seq', { startWith: 1, increment: 1 });

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: varchar('name', { length: 120 }).notNull(),
    /** Always stored lower-case (the contract's schemas lower-case it; the check keeps it so). */
    email: varchar('email', { length: 254 }).notNull(),
    passwordHash: text('password_hash').notNull(),
    role: varchar('role', { length: 32, enum: ROLES }).notNull().default('user'),
    status: varchar('status', { length: 16, enum: USER_STATUSES }).notNull().default('active'),
    phone: varchar('phone', { length: 32 }),
    /** When the customer proved `phone` is theirs with a code (issue 38); cleared when the number changes. */
    phoneVerifiedAt: timestamp('phone_verified_at', { withTimezone: true }),
    address: varchar('address', { length: 300 }),
    company: varchar('company', { length: 120 }),
    /** Given by the database from customer_number_seq (existing users were numbered by the migration). */
    customerNumber: varchar('customer_number', { length: 20 })
      .notNull()
      .default(sql`'C-' || lpad(nextval('customer_number_seq')::text, 6, '0')`),
    isVerified: boolean('is_verified').notNull().default(false),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    /**
     * Raised whenever every access token of the user must stop working (sign-out, a password change or reset, a
     * suspension, a role change): access tokens carry the version they were signed with (issue 32).
     */
    sessionVersion: integer('session_version').notNull().default(0),
    /**
     * An e-mail change waiting for the owner to confirm it from the new address (issue 32): the address, the
     * SHA-256 of the e-mailed token and when the link expires. `email` stays the confirmed address until then.
     */
    pendingEmail: varchar('pending_email', { length: 254 }),
    pendingEmailTokenHash: varchar('pending_email_token_hash', { length: 64 }),
    pendingEmailExpiresAt: timestamp('pending_email_expires_at', { withTimezone: true }),
    /**
     * The person's language (issue 37: en, es, fr, id, ar), used for the portal once they sign in and for what is
     * sent to them (e-mails, PDFs); null: their browser's language among the ISP's offered ones, else the default.
     */
    language: varchar('language', { length: 8, enum: LANGUAGE_CODES }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    uniqueIndex('users_pending_email_token_unique').on(t.pendingEmailTokenHash),
    check('users_email_lower_case', sql`${t.email} = lower(${t.email})`),
    index('users_role_idx').on(t.role),
    index('users_status_idx').on(t.status),
    index('users_company_idx').on(t.company),
    index('users_created_at_idx').on(t.createdAt),
    // The user list's search is a prefix match on these (pg_trgm is not available on PGlite), so each one is a
    // pattern-ops btree that serves LIKE 'x%'; the list is ordered by (created_at, id) newest first.
    uniqueIndex('users_customer_number_unique').on(t.customerNumber.op('text_pattern_ops')),
    index('users_email_pattern_idx').on(t.email.op('text_pattern_ops')),
    index('users_name_lower_idx').on(sql`lower(${t.name}) text_pattern_ops`),
    index('users_phone_pattern_idx').on(t.phone.op('text_pattern_ops')),
    index('users_created_at_id_idx').on(t.createdAt.desc(), t.id.desc()),
    // Dashboard statistics: customers by creation time, with their status (index-only counts).
    index('users_stats_role_created_idx').on(t.role, t.createdAt, t.status),
  ],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** All tokens rotated from one sign-in share a family; reuse of an old one revokes the family. */
    familyId: uuid('family_id').notNull(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    /** rememberMe: a 30-day cookie instead of a browser-session cookie. */
    persistent: boolean('persistent').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
    ip: varchar('ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 512 }),
  },
  (t) => [
    uniqueIndex('refresh_tokens_token_hash_unique').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
  ],
);

export const AUTH_TOKEN_KINDS = ['verify_email', 'reset_password'] as const;
export type AuthTokenKind = (typeof AUTH_TOKEN_KINDS)[number];

/** Single-use e-mailed tokens: e-mail verification and password reset. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 32, enum: AUTH_TOKEN_KINDS }).notNull(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('auth_tokens_token_hash_unique').on(t.tokenHash),
    index('auth_tokens_user_kind_idx').on(t.userId, t.kind),
  ],
);

export const MAIL_STATUSES = ['queued', 'sent', 'logged', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** Every outgoing message, kept whether or not it could be delivered. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: varchar('to', { length: 254 }).notNull(),
    subject: varchar('subject', { length: 300 }).notNull(),
    text: text('text').notNull(),
    html: text('html'),
    status: varchar('status', { length: 16, enum: MAIL_STATUSES }).notNull().default('queued'),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('mail_outbox_created_at_idx').on(t.createdAt)],
);

/** Service plans (spec §3, §4). Money is integer minor units. */
export const plans = pgTable(
  'plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: varchar('name', { length: 80 }).notNull(),
    slug: varchar('slug', { length: 100 }).notNull(),
    description: text('description'),
    /** The description in other languages than the ISP's default (issue 37): {es: '…'}; a missing one falls back. */
    descriptionTranslations: jsonb('description_translations').$type<Record<string, string>>().notNull().default({}),
    downloadMbps: integer('download_mbps').notNull(),
    uploadMbps: integer('upload_mbps').notNull(),
    /** null = unlimited */
    dataCapGb: integer('data_cap_gb'),
    /** Once the data cap is reached (RADIUS): reject the login, or accept it at the throttled rate below. */
    dataCapAction: varchar('data_cap_action', { length: 16, enum: ['reject', 'throttle'] })
      .notNull()
      .default('reject'),
    /** Throttled rate in kbit/s; null: 1024. */
    throttleDownloadKbps: integer('throttle_download_kbps'),
    throttleUploadKbps: integer('throttle_upload_kbps'),
    /**
     * Fair-use tiers per cycle (issue 36), in order: after `afterGb` gigabytes this cycle the rate drops to the
     * tier's. Empty: none (the data cap above, if any, still applies: reject = hard stop, throttle = one tier).
     */
    usageTiers: jsonb('usage_tiers')
      .$type<{ afterGb: number; downloadKbps: number; uploadKbps: number }[]>()
      .notNull()
      .default([]),
    price: integer('price').notNull(),
    setupFee: integer('setup_fee').notNull().default(0),
    currency: varchar('currency', { length: 3 }).notNull(),
    billingCycle: varchar('billing_cycle', { length: 16, enum: BILLING_CYCLES }).notNull(),
    features: jsonb('features').$type<string[]>().notNull().default([]),
    isFeatured: boolean('is_featured').notNull().default(false),
    /** A plan installed at the customer's address (fiber, fixed wireless): an order needs the service address (issue 31). */
    requiresInstallation: boolean('requires_installation').notNull().default(false),
    sortOrder: integer('sort_order').notNull().default(0),
    status: varchar('status', { length: 16, enum: PLAN_STATUSES }).notNull().default('active'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('plans_slug_unique').on(t.slug),
    index('plans_status_idx').on(t.status),
    index('plans_sort_order_idx').on(t.sortOrder),
    check('plans_price_non_negative', sql`${t.price} >= 0 AND ${t.setupFee} >= 0`),
  ],
);

/** Subscriptions: the base table only (its endpoints come later); a plan in use cannot be deleted. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'restrict' }),
    status: text('status').notNull().default('pending'),
    location: text('location'),
    note: text('note'),
    suspensionReason: text('suspension_reason'),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    /** Autopay (issue 21): the saved method each new invoice is charged to; null = paid by hand. Removing the
     *  method (payment_methods row deleted) sets this null, which stops autopay. */
    autopayMethodId: uuid('autopay_method_id').references((): AnyPgColumn => paymentMethods.id, {
      onDelete: 'set null',
    }),
    /** What was paid for the current period (minor units, the plan line of the invoice that paid it): the basis of
     *  the unused-days credit when the plan changes (issue 31). 0 while the period is unpaid (an upgrade whose
     *  invoice is open) or was not paid in money (a prepaid voucher): such a period earns no credit. */
    periodPaidAmount: integer('period_paid_amount').notNull().default(0),
    /** A line bought with data vouchers (issue 31): the bytes it may use in all (both directions), and the bytes used
     *  so far (counted by RADIUS accounting). null: no allowance (a paid period, or a time-only voucher). When the
     *  use reaches the allowance the line ends (status expired) and its sessions are disconnected. */
    dataAllowanceBytes: bigint('data_allowance_bytes', { mode: 'number' }),
    dataUsedBytes: bigint('data_used_bytes', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('subscriptions_user_idx').on(t.userId),
    index('subscriptions_plan_idx').on(t.planId),
    index('subscriptions_status_idx').on(t.status),
    // Dashboard statistics: new per day, active now, cancelled in a period.
    index('subscriptions_stats_created_idx').on(t.createdAt),
    index('subscriptions_stats_status_updated_idx').on(t.status, t.updatedAt, t.createdAt),
    // One open order per customer (issue 31): a second pending subscription is refused by the database, so two
    // parallel orders cannot both pass a read-then-write check.
    uniqueIndex('subscriptions_one_pending_per_user').on(t.userId).where(sql`${t.status} = 'pending'`),
    check(
      'subscriptions_data_allowance_non_negative',
      sql`${t.dataUsedBytes} >= 0 AND (${t.dataAllowanceBytes} IS NULL OR ${t.dataAllowanceBytes} >= 0)`,
    ),
  ],
);

/**
 * Payment gateways (spec §3, §4). The credentials are one JSON object sealed with the secret box
 * (AES-256-GCM, SECRETS_KEY) and never leave the server in full. At most one gateway is the default.
 */
export const paymentGateways = pgTable(
  'payment_gateways',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: varchar('name', { length: 80 }).notNull(),
    provider: varchar('provider', { length: 32, enum: PAYMENT_PROVIDERS }).notNull(),
    mode: varchar('mode', { length: 8, enum: GATEWAY_MODES }).notNull().default('test'),
    /** Sealed JSON object of credential key → value ("v1:iv:tag:ciphertext"). */
    credentials: text('credentials').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    isDefault: boolean('is_default').notNull().default(false),
    displayOrder: integer('display_order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_gateways_name_unique').on(sql`lower(${t.name})`),
    uniqueIndex('payment_gateways_one_default').on(t.isDefault).where(sql`${t.isDefault}`),
    index('payment_gateways_display_order_idx').on(t.displayOrder),
  ],
);

/**
 * Invoices. The id is a random uuid (the public invoice page is reached through it); number is the settings
 * prefix + a sequence taken under a row lock on the settings counter, so numbers are unique and gap-free.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: varchar('number', { length: 40 }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    status: varchar('status', { length: 16, enum: INVOICE_STATUSES }).notNull().default('unpaid'),
    currency: varchar('currency', { length: 3 }).notNull(),
    lineItems: jsonb('line_items').$type<InvoiceLineItem[]>().notNull(),
    subtotal: integer('subtotal').notNull(),
    taxRateBp: integer('tax_rate_bp').notNull().default(0),
    tax: integer('tax').notNull(),
    totalAmount: integer('total_amount').notNull(),
    /** Customer credit used for this invoice when it was issued (issue 21); amount due = total − credit applied. */
    creditApplied: integer('credit_applied').notNull().default(0),
    /**
     * A late fee (issue 38) is its own invoice pointing at the overdue invoice it is for; unique, so an invoice
     * gets at most one late fee whoever runs the dunning.
     */
    lateFeeForInvoiceId: uuid('late_fee_for_invoice_id').references((): AnyPgColumn => invoices.id, {
      onDelete: 'restrict',
    }),
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    paidDate: timestamp('paid_date', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoices_number_unique').on(t.number),
    index('invoices_user_idx').on(t.userId),
    index('invoices_subscription_idx').on(t.subscriptionId),
    index('invoices_status_idx').on(t.status),
    index('invoices_due_date_idx').on(t.dueDate),
    uniqueIndex('invoices_late_fee_for_unique').on(t.lateFeeForInvoiceId),
    // Dashboard statistics: open invoices issued in a period (index-only sums over the few open ones).
    index('invoices_stats_open_issue_idx')
      .on(t.issueDate, t.status, t.currency, t.dueDate, t.totalAmount)
      .where(sql`${t.status} in ('unpaid', 'overdue')`),
    check('invoices_total_consistent', sql`${t.totalAmount} = ${t.subtotal} + ${t.tax}`),
    check(
      'invoices_credit_applied_range',
      sql`${t.creditApplied} >= 0 and ${t.creditApplied} <= greatest(${t.totalAmount}, 0)`,
    ),
  ],
);

/**
 * Payments against invoices. transaction_id is the provider's reference (unique per provider); at most one
 * payment per invoice is ever paid (partial unique index), whatever races happen above it.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    gatewayId: uuid('gateway_id').references(() => paymentGateways.id, { onDelete: 'set null' }),
    provider: varchar('provider', { length: 32 }).notNull(),
    transactionId: varchar('transaction_id', { length: 200 }).notNull(),
    status: varchar('status', { length: 16, enum: PAYMENT_STATUSES }).notNull().default('pending'),
    amount: integer('amount').notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    paymentMethod: varchar('payment_method', { length: 32 }).notNull(),
    paymentDate: timestamp('payment_date', { withTimezone: true }),
    reference: varchar('reference', { length: 200 }),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payments_provider_transaction_unique').on(t.provider, t.transactionId),
    uniqueIndex('payments_one_paid_per_invoice').on(t.invoiceId).where(sql`${t.status} = 'paid'`),
    index('payments_invoice_idx').on(t.invoiceId),
    index('payments_user_idx').on(t.userId),
    index('payments_status_idx').on(t.status),
    // The staff payments list (issue 31): newest first, its default order, read from the index.
    index('payments_created_at_id_idx').on(t.createdAt.desc(), t.id.desc()),
    // Dashboard statistics: revenue per day from paid payments (index-only sums).
    index('payments_stats_paid_date_idx').on(t.paymentDate, t.currency, t.amount).where(sql`${t.status} = 'paid'`),
  ],
);

/** Provider webhook events already processed: a redelivered event id changes nothing. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: varchar('provider', { length: 32 }).notNull(),
    eventId: varchar('event_id', { length: 200 }).notNull(),
    type: varchar('type', { length: 64 }),
    transactionId: varchar('transaction_id', { length: 200 }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('webhook_events_provider_event_unique').on(t.provider, t.eventId)],
);

/** Messages from the public contact form. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: varchar('name', { length: 100 }).notNull(),
    email: varchar('email', { length: 254 }).notNull(),
    phone: varchar('phone', { length: 32 }),
    subject: varchar('subject', { length: 150 }).notNull(),
    message: text('message').notNull(),
    status: varchar('status', { length: 16, enum: CONTACT_STATUSES }).notNull().default('new'),
    ip: varchar('ip', { length: 64 }),
    handledBy: uuid('handled_by').references(() => users.id, { onDelete: 'set null' }),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('contact_messages_status_idx').on(t.status), index('contact_messages_created_at_idx').on(t.createdAt)],
);

/** Site settings, one row per section (company, currency, smtp, policy:<type>, ...); absent = default. */
export const settings = pgTable('settings', {
  key: varchar('key', { length: 64 }).primaryKey(),
  value: jsonb('value').$type<unknown>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type RefreshTokenRow = typeof refreshTokens.$inferSelect;
export type AuthTokenRow = typeof authTokens.$inferSelect;
export type MailRow = typeof mailOutbox.$inferSelect;
export type PlanRow = typeof plans.$inferSelect;
export type NewPlanRow = typeof plans.$inferInsert;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type ContactMessageRow = typeof contactMessages.$inferSelect;
export type SettingRow = typeof settings.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoiceRow = typeof invoices.$inferInsert;
export type PaymentGatewayRow = typeof paymentGateways.$inferSelect;
export type NewPaymentGatewayRow = typeof paymentGateways.$inferInsert;
export type PaymentRow = typeof payments.$inferSelect;
export type NewPaymentRow = typeof payments.$inferInsert;
export type WebhookEventRow = typeof webhookEvents.$inferSelect;

export const BILLING_RUN_TRIGGERS = ['scheduler', 'api'] as const;
export type BillingRunTrigger = (typeof BILLING_RUN_TRIGGERS)[number];

/**
 * One row per day the recurring billing job ran (run_date unique: the job runs once a day). Written in the
 * same transaction as the job's work, so a run that fails leaves no row and the next trigger redoes the day.
 */
export const billingRuns = pgTable(
  'billing_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    runDate: date('run_date', { mode: 'string' }).notNull(),
    triggeredBy: varchar('triggered_by', { length: 16, enum: BILLING_RUN_TRIGGERS }).notNull(),
    /** The admin who ran it through the API; null for the scheduler. */
    triggeredByUserId: uuid('triggered_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
  },
  (t) => [
    uniqueIndex('billing_runs_run_date_unique').on(t.runDate),
    index('billing_runs_started_at_idx').on(t.startedAt),
  ],
);

export type BillingRunRow = typeof billingRuns.$inferSelect;

export * from './schema/tickets';
export * from './schema/devices';
export * from './schema/traffic';
export * from './schema/radius';
export * from './schema/device-backups';
export * from './schema/dashboard';
export * from './schema/installations';
export * from './schema/api-tokens';
export * from './schema/audit';
export * from './schema/rate-limits';
export * from './schema/system';
export * from './schema/money';
export * from './schema/ipam';
export * from './schema/vouchers';
export * from './schema/fair-use';
export * from './schema/messaging';
export * from './schema/imports';
