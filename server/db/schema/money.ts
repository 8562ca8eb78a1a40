/**
 * Money the way ISPs run it (issue 21): a customer credit ledger, saved payment methods and autopay.
 *
 * - credit_entries is the ledger: a customer's credit balance (per currency) is the SUM of their entries,
 *   never a mutable column. Positive entries add credit (overpayment, refund to credit, staff adjustment),
 *   negative ones use it (applied to an invoice, staff adjustment). Writers lock the customer's users row
 *   (SELECT … FOR NO KEY UPDATE, see credit/ledger.ts) before reading the balance, so two writers never spend the
 *   same credit; at most one "applied" entry per invoice (partial unique index).
 * - payment_methods: a card (or the sandbox's test card) saved with the provider for off-session charges;
 *   the card number never reaches us, only the provider's ids and brand / last four / expiry. One per
 *   customer and gateway is "current"; removing it deletes the row, which stops autopay (subscriptions'
 *   autopay_method_id is set null).
 * - autopay_charges: one row per attempt to charge an invoice off-session (attempt 1 when the invoice is
 *   issued, then the retry schedule). (invoice_id, attempt) is unique: a retried billing run never charges
 *   twice, and the attempt number is part of the provider's idempotency key.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { invoices, paymentGateways, payments, subscriptions, users } from '../schema';

export const CREDIT_ENTRY_KINDS = [
  'overpayment',
  'refund_to_credit',
  'adjustment',
  'applied_to_invoice',
  'overpayment_reversed',
  'released_from_invoice',
] as const;
export type CreditEntryKind = (typeof CREDIT_ENTRY_KINDS)[number];

export const creditEntries = pgTable(
  'credit_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 24, enum: CREDIT_ENTRY_KINDS }).notNull(),
    /** Signed minor units: + adds credit, − uses it. Never zero. */
    amount: integer('amount').notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    /** Required for staff adjustments; a short description otherwise. */
    reason: text('reason'),
    invoiceId: uuid('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('credit_entries_user_created_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('credit_entries_invoice_idx').on(t.invoiceId),
    uniqueIndex('credit_entries_one_apply_per_invoice').on(t.invoiceId).where(sql`${t.kind} = 'applied_to_invoice'`),
    uniqueIndex('credit_entries_one_release_per_invoice')
      .on(t.invoiceId)
      .where(sql`${t.kind} = 'released_from_invoice'`),
    uniqueIndex('credit_entries_one_per_payment_kind').on(t.paymentId, t.kind).where(sql`${t.paymentId} is not null`),
    check('credit_entries_amount_nonzero', sql`${t.amount} <> 0`),
    check(
      'credit_entries_sign',
      sql`(${t.kind} in ('applied_to_invoice', 'overpayment_reversed') and ${t.amount} < 0) or (${t.kind} in ('overpayment', 'refund_to_credit', 'released_from_invoice') and ${t.amount} > 0) or ${t.kind} = 'adjustment'`,
    ),
  ],
);

/**
 * The double-entry ledger under every money module (issue 31). Each movement of money is one transfer: two or
 * more postings with the same transfer_id whose amounts sum to zero (server/modules/ledger writes them and
 * refuses any other). Per customer and currency, an account's balance is the sum of its postings:
 * - payer: the world outside (cash, card, bank). Money received is a negative posting, money given back positive.
 * - grants: credit staff gave or took (adjustments), on the same side as the payer.
 * - revenue: applied to invoices (paid by money or by credit; a refund or a cancelled invoice's released credit
 *   takes it back).
 * - credit: the customer's credit balance (credit_entries is its customer-facing history, written with it).
 * - held: money a provider took that no invoice counted (a second payment, a wrong amount) until it is given back.
 * - shortfall: money given back that was no longer there (a provider refund after the payment's overpayment credit
 *   was spent). Non-zero only in a fault: the reconciliation screen's alarm.
 * So −payer − grants − shortfall = revenue + credit + held for every customer, by construction; the alarm compares
 * each account with what the modules' own rows say (payments, invoices, credit_entries).
 */
export const LEDGER_ACCOUNTS = ['payer', 'grants', 'revenue', 'credit', 'held', 'shortfall'] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];
export const LEDGER_KINDS = [
  'opening_balance',
  'payment_received',
  'payment_held',
  'held_refunded',
  'refund_to_provider',
  'refund_to_credit',
  'credit_applied',
  'credit_released',
  'credit_adjustment',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const ledgerPostings = pgTable(
  'ledger_postings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transferId: uuid('transfer_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    currency: varchar('currency', { length: 3 }).notNull(),
    account: varchar('account', { length: 16, enum: LEDGER_ACCOUNTS }).notNull(),
    kind: varchar('kind', { length: 24, enum: LEDGER_KINDS }).notNull(),
    /** Signed minor units; the postings of one transfer sum to zero. */
    amount: integer('amount').notNull(),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    invoiceId: uuid('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Balances per customer, currency and account (the reconciliation's per-customer sums read this index).
    index('ledger_postings_user_account_idx').on(t.userId, t.currency, t.account, t.amount),
    index('ledger_postings_transfer_idx').on(t.transferId),
    index('ledger_postings_payment_idx').on(t.paymentId),
    index('ledger_postings_invoice_idx').on(t.invoiceId),
    index('ledger_postings_created_idx').on(t.createdAt),
    check('ledger_postings_amount_nonzero', sql`${t.amount} <> 0`),
  ],
);

export type LedgerPostingRow = typeof ledgerPostings.$inferSelect;

export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    gatewayId: uuid('gateway_id').references(() => paymentGateways.id, { onDelete: 'set null' }),
    provider: varchar('provider', { length: 32 }).notNull(),
    /** The provider's customer (Stripe: cus_…); the sandbox uses its own. */
    providerCustomerId: varchar('provider_customer_id', { length: 200 }),
    /** The provider's saved method (Stripe: pm_…). */
    providerMethodId: varchar('provider_method_id', { length: 200 }).notNull(),
    brand: varchar('brand', { length: 32 }).notNull(),
    last4: varchar('last4', { length: 4 }).notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    /** The last "card expires soon" reminder sent for this card (one per card). */
    expiryRemindedAt: timestamp('expiry_reminded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payment_methods_user_idx').on(t.userId),
    uniqueIndex('payment_methods_provider_method_unique').on(t.provider, t.providerMethodId),
    check('payment_methods_exp_month', sql`${t.expMonth} between 1 and 12`),
  ],
);

/** Saved-method set-ups under way (a checkout in "setup" mode): which customer and subscription it is for. */
export const paymentMethodSetups = pgTable(
  'payment_method_setups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'cascade' }),
    gatewayId: uuid('gateway_id').references(() => paymentGateways.id, { onDelete: 'set null' }),
    provider: varchar('provider', { length: 32 }).notNull(),
    /** The provider's reference for the set-up (Stripe: the Checkout Session cs_…). */
    transactionId: varchar('transaction_id', { length: 200 }).notNull(),
    status: varchar('status', { length: 16, enum: ['pending', 'completed', 'failed'] })
      .notNull()
      .default('pending'),
    paymentMethodId: uuid('payment_method_id').references(() => paymentMethods.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_method_setups_provider_tx_unique').on(t.provider, t.transactionId),
    index('payment_method_setups_user_idx').on(t.userId),
  ],
);

export const AUTOPAY_CHARGE_STATUSES = [
  'scheduled',
  'processing',
  'submitted',
  'succeeded',
  'failed',
  'skipped',
] as const;
export type AutopayChargeStatus = (typeof AUTOPAY_CHARGE_STATUSES)[number];

export const autopayCharges = pgTable(
  'autopay_charges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    /** 1 = on issue, then one per retry of the schedule. */
    attempt: integer('attempt').notNull(),
    status: varchar('status', { length: 16, enum: AUTOPAY_CHARGE_STATUSES }).notNull().default('scheduled'),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }).notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }),
    paymentMethodId: uuid('payment_method_id').references(() => paymentMethods.id, { onDelete: 'set null' }),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    amount: integer('amount'),
    /** declined | expired_card | authentication_required | … and the provider's message. */
    failureCode: varchar('failure_code', { length: 64 }),
    failureMessage: text('failure_message'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('autopay_charges_invoice_attempt_unique').on(t.invoiceId, t.attempt),
    index('autopay_charges_due_idx').on(t.status, t.scheduledAt),
    index('autopay_charges_subscription_idx').on(t.subscriptionId),
  ],
);

export type CreditEntryRow = typeof creditEntries.$inferSelect;
export type PaymentMethodRow = typeof paymentMethods.$inferSelect;
export type PaymentMethodSetupRow = typeof paymentMethodSetups.$inferSelect;
export type AutopayChargeRow = typeof autopayCharges.$inferSelect;
