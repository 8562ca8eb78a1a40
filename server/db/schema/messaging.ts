/**
 * Issue 38: messages beyond e-mail, customers' choices, dunning, outages and bulk messages. One schema written
 * before the parts that use it, so they share it:
 *
 * - message_providers: the configured SMS/WhatsApp providers (Twilio, a generic webhook, WhatsApp Cloud, log-only);
 *   secrets sealed with the secret box like the payment gateways' credentials.
 * - messages: every message sent to a customer on any channel (e-mail ones link their mail_outbox row), with its
 *   status and the provider's id; (event_key, channel) is unique, so one event sends once per channel whatever
 *   node or retry tries again.
 * - message_preferences: per customer, channel and category, on or off (no row: the category's default).
 * - phone_verifications: the codes that prove a customer owns their phone number.
 * - message_opt_outs: numbers that answered STOP (or the provider reported opted out), per channel.
 * - dunning_steps: which step of the dunning schedule each invoice has had (unique: once per invoice and step).
 * - incidents / incident_customers: outages and maintenance windows and the customers they reach.
 * - bulk_messages: a message to a segment, its counts and progress.
 *
 * The late fee of an invoice is its own invoice pointing at it (invoices.late_fee_for_invoice_id, unique): once
 * per invoice, whoever runs the dunning.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import {
  BULK_SEGMENTS,
  BULK_STATUSES,
  INCIDENT_KINDS,
  INCIDENT_SOURCES,
  MESSAGE_CATEGORIES,
  MESSAGE_CHANNELS,
  MESSAGE_PROVIDERS,
  MESSAGE_STATUSES,
  PROVIDER_CHANNELS,
} from '../../../contract/schemas/messaging';
import { mailOutbox, subscriptions, users, invoices } from '../schema';
import { devices } from './devices';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const messageProviders = pgTable(
  'message_providers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: varchar('name', { length: 80 }).notNull(),
    channel: varchar('channel', { length: 16, enum: PROVIDER_CHANNELS }).notNull(),
    provider: varchar('provider', { length: 32, enum: MESSAGE_PROVIDERS }).notNull(),
    /** The provider's non-secret settings (account SID, sender number, URL, method, body template, template names…). */
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    /** Sealed JSON object of secret key → value (MESSAGE_PROVIDER_SECRET_KEYS), "v1:iv:tag:ciphertext". */
    secrets: text('secrets').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    /** The one provider used for its channel (several may be configured; one is the default per channel). */
    isDefault: boolean('is_default').notNull().default(false),
    /** At most this many sends a minute through this provider (across nodes). */
    ratePerMinute: integer('rate_per_minute').notNull().default(60),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('message_providers_name_unique').on(sql`lower(${t.name})`),
    uniqueIndex('message_providers_one_default_per_channel').on(t.channel).where(sql`${t.isDefault}`),
    check('message_providers_rate_positive', sql`${t.ratePerMinute} > 0`),
  ],
);

export type MessageProviderRow = typeof messageProviders.$inferSelect;

export const bulkMessages = pgTable(
  'bulk_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    segment: varchar('segment', { length: 16, enum: BULK_SEGMENTS }).notNull(),
    /** The segment's parameter: a plan id, a NAS device id or an area (device location); null for all/unpaid. */
    segmentValue: varchar('segment_value', { length: 200 }),
    channels: varchar('channels', { length: 16, enum: MESSAGE_CHANNELS }).array().notNull(),
    category: varchar('category', { length: 16, enum: MESSAGE_CATEGORIES }).notNull(),
    subject: varchar('subject', { length: 200 }).notNull(),
    body: text('body').notNull(),
    status: varchar('status', { length: 16, enum: BULK_STATUSES }).notNull().default('queued'),
    recipients: integer('recipients').notNull().default(0),
    sent: integer('sent').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('bulk_messages_created_at_idx').on(t.createdAt.desc(), t.id.desc())],
);

export type BulkMessageRow = typeof bulkMessages.$inferSelect;

export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** What caused it, unique per channel: "dunning:<invoice>:<step>", "incident:<id>:start:<user>", "bulk:<id>:<user>"… */
    eventKey: varchar('event_key', { length: 200 }).notNull(),
    channel: varchar('channel', { length: 16, enum: MESSAGE_CHANNELS }).notNull(),
    category: varchar('category', { length: 16, enum: MESSAGE_CATEGORIES }).notNull(),
    /** The message kind (e.g. "dunning.before_due", "incident.started", "phone.verify", "bulk"). */
    template: varchar('template', { length: 64 }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Phone number (E.164) or e-mail address it went to. */
    to: varchar('to', { length: 254 }).notNull(),
    language: varchar('language', { length: 8 }).notNull(),
    /** The e-mail's subject (null for SMS/WhatsApp). */
    subject: varchar('subject', { length: 300 }),
    body: text('body').notNull(),
    /** The e-mail's HTML (null for SMS/WhatsApp). */
    html: text('html'),
    status: varchar('status', { length: 16, enum: MESSAGE_STATUSES }).notNull().default('queued'),
    /** Why it was skipped or why it failed last. */
    error: text('error'),
    providerId: uuid('provider_id').references(() => messageProviders.id, { onDelete: 'set null' }),
    /** The provider's id for it (Twilio's SID, WhatsApp's wamid): delivery callbacks find the message by it. */
    providerMessageId: varchar('provider_message_id', { length: 128 }),
    attempts: integer('attempts').notNull().default(0),
    mailId: uuid('mail_id').references(() => mailOutbox.id, { onDelete: 'set null' }),
    bulkId: uuid('bulk_id').references(() => bulkMessages.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('messages_event_channel_unique').on(t.eventKey, t.channel),
    uniqueIndex('messages_provider_message_unique')
      .on(t.providerId, t.providerMessageId)
      .where(sql`${t.providerMessageId} is not null`),
    index('messages_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('messages_created_at_idx').on(t.createdAt.desc(), t.id.desc()),
    index('messages_status_created_idx').on(t.status, t.createdAt),
    index('messages_bulk_idx').on(t.bulkId),
  ],
);

export type MessageRow = typeof messages.$inferSelect;

export const messagePreferences = pgTable(
  'message_preferences',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: varchar('channel', { length: 16, enum: MESSAGE_CHANNELS }).notNull(),
    category: varchar('category', { length: 16, enum: MESSAGE_CATEGORIES }).notNull(),
    enabled: boolean('enabled').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.channel, t.category] })],
);

export const phoneVerifications = pgTable(
  'phone_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The number being proved (E.164). */
    phone: varchar('phone', { length: 32 }).notNull(),
    /** SHA-256 of the code sent. */
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('phone_verifications_user_created_idx').on(t.userId, t.createdAt.desc())],
);

export const messageOptOuts = pgTable(
  'message_opt_outs',
  {
    /** E.164 number. */
    phone: varchar('phone', { length: 32 }).notNull(),
    channel: varchar('channel', { length: 16, enum: PROVIDER_CHANNELS }).notNull(),
    /** "STOP" reply, the provider reported it, or the customer's own choice. */
    source: varchar('source', { length: 32 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.phone, t.channel] })],
);

export const dunningSteps = pgTable(
  'dunning_steps',
  {
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    /** Days relative to the due date (−3: three days before, 0: on the day, 7: a week after). */
    offsetDays: integer('offset_days').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.invoiceId, t.offsetDays] })],
);

export const incidents = pgTable(
  'incidents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: varchar('kind', { length: 16, enum: INCIDENT_KINDS }).notNull(),
    source: varchar('source', { length: 16, enum: INCIDENT_SOURCES }).notNull(),
    title: varchar('title', { length: 200 }).notNull(),
    /** What customers are told (staff's words; the poller's incidents use a standard text in each language). */
    description: text('description'),
    /** The area shown on the public status page (the device's location, or what staff typed). */
    area: varchar('area', { length: 200 }),
    /** The NAS or uplink device that went down, or the one a maintenance window is about. */
    deviceId: uuid('device_id').references(() => devices.id, { onDelete: 'set null' }),
    /** For an uplink: the interface (ifIndex/name) that went down. */
    interfaceName: varchar('interface_name', { length: 120 }),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    /** Planned end (maintenance) or when it was resolved; null: still going on. */
    endsAt: timestamp('ends_at', { withTimezone: true }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('incidents_starts_at_idx').on(t.startsAt.desc()),
    index('incidents_open_idx').on(t.resolvedAt, t.startsAt),
    // At most one open poller incident per device and interface: the poller on two nodes opens it once.
    uniqueIndex('incidents_open_poller_unique')
      .on(t.deviceId, sql`coalesce(${t.interfaceName}, '')`)
      .where(sql`${t.source} = 'poller' and ${t.resolvedAt} is null`),
  ],
);

export type IncidentRow = typeof incidents.$inferSelect;

export const incidentCustomers = pgTable(
  'incident_customers',
  {
    incidentId: uuid('incident_id')
      .notNull()
      .references(() => incidents.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.incidentId, t.subscriptionId] }), index('incident_customers_user_idx').on(t.userId)],
);
