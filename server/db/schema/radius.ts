/**
 * PPPoE access through RADIUS (issue 8): each subscription's access credentials, the accounting sessions the
 * NAS devices report, the per-day usage derived from them, and every cut-off request sent to a NAS.
 *
 * Octet directions are the NAS's (RFC 2866): input = received from the customer (their upload), output = sent
 * to the customer (their download). Counters are full 64-bit values (Gigawords × 2^32 + Octets); as JS numbers
 * they are exact up to 2^53 bytes (8 PiB), far beyond any session.
 */
import {
  bigint,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { subscriptions } from '../schema';
import { devices } from './devices';

export const RADIUS_SESSION_STATUSES = ['open', 'closed', 'stale'] as const;
export type RadiusSessionStatus = (typeof RADIUS_SESSION_STATUSES)[number];
export const RADIUS_DISCONNECT_KINDS = ['disconnect', 'coa'] as const;
export type RadiusDisconnectKind = (typeof RADIUS_DISCONNECT_KINDS)[number];
/**
 * pending until the NAS answered (or not); fallback_removed: the PPP active entry was removed over the API.
 * A CoA (issue 36) is `confirmed` once the next Interim-Update shows the session under the new policy (or the
 * session ended), `unconfirmed` when it did not within the interval (a Disconnect follows).
 */
export const RADIUS_DISCONNECT_RESULTS = [
  'pending',
  'ack',
  'nak',
  'timeout',
  'fallback_removed',
  'failed',
  'confirmed',
  'unconfirmed',
] as const;
export type RadiusDisconnectResult = (typeof RADIUS_DISCONNECT_RESULTS)[number];
export const DATA_CAP_ACTIONS = ['reject', 'throttle'] as const;
export type DataCapAction = (typeof DATA_CAP_ACTIONS)[number];

const octets = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

/** One PPPoE login per subscription. The password is sealed (not hashed): CHAP needs it and the customer sees it. */
export const serviceCredentials = pgTable(
  'service_credentials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    username: varchar('username', { length: 64 }).notNull(),
    /** server/lib/secret-box under SECRETS_KEY. */
    passwordSealed: text('password_sealed').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('service_credentials_subscription_unique').on(t.subscriptionId),
    uniqueIndex('service_credentials_username_unique').on(t.username),
  ],
);

/** Accounting sessions, one row per (NAS, Acct-Session-Id). */
export const radiusSessions = pgTable(
  'radius_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    acctSessionId: varchar('acct_session_id', { length: 253 }).notNull(),
    /** The NAS (a registered device); null only after the device was deleted. */
    nasDeviceId: uuid('nas_device_id').references(() => devices.id, { onDelete: 'set null' }),
    /** Source address the accounting came from (where Disconnect/CoA go). */
    nasIp: varchar('nas_ip', { length: 45 }).notNull(),
    username: varchar('username', { length: 253 }).notNull(),
    /** null when the username matches no credentials (still recorded: the NAS let it in). */
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    framedIp: varchar('framed_ip', { length: 45 }),
    callingStationId: varchar('calling_station_id', { length: 64 }),
    nasPortId: varchar('nas_port_id', { length: 64 }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    /** Last accounting packet that moved the session on (Start, Interim-Update or Stop). */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    lastInterimAt: timestamp('last_interim_at', { withTimezone: true }),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    terminateCause: varchar('terminate_cause', { length: 64 }),
    sessionTime: integer('session_time').notNull().default(0),
    inputOctets: octets('input_octets'),
    outputOctets: octets('output_octets'),
    /** Seconds between Interim-Updates (Acct-Interim-Interval as granted, or as observed). */
    interimInterval: integer('interim_interval'),
    status: varchar('status', { length: 8, enum: RADIUS_SESSION_STATUSES }).notNull().default('open'),
    /**
     * The policy the NAS last reported for the session in its accounting (issue 36: a vendor profile reads it from
     * the Interim-Update, e.g. the rate attribute or the QoS profile name), as the profile's canonical text.
     */
    reportedPolicy: varchar('reported_policy', { length: 255 }),
  },
  (t) => [
    uniqueIndex('radius_sessions_nas_session_unique').on(t.nasDeviceId, t.acctSessionId),
    // IP address history (issue 22): who had an address at a time = the session with that framed_ip started last before it.
    index('radius_sessions_framed_ip_started_idx').on(t.framedIp, t.startedAt),
    index('radius_sessions_subscription_started_idx').on(t.subscriptionId, t.startedAt),
    index('radius_sessions_status_updated_idx').on(t.status, t.updatedAt),
    index('radius_sessions_username_idx').on(t.username),
  ],
);

/**
 * Bytes per subscription per UTC day, added from each accounting packet's increase over the session's previous
 * totals (so a retransmission adds nothing). The usage page and the data cap read this, not the sessions.
 */
export const radiusUsageDaily = pgTable(
  'radius_usage_daily',
  {
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    inputOctets: octets('input_octets'),
    outputOctets: octets('output_octets'),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.day] })],
);

/** Every Disconnect-Request / CoA-Request sent for a session and what came of it. */
export const radiusDisconnects = pgTable(
  'radius_disconnects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => radiusSessions.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    kind: varchar('kind', { length: 16, enum: RADIUS_DISCONNECT_KINDS }).notNull(),
    /** Why: the subscription's new status (suspended, expired, cancelled) or plan_change. */
    reason: varchar('reason', { length: 32 }).notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    /** When the request was last sent (retries move it). */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** When the outcome became final: the session ended (Stop), was removed, or nothing more can be done. */
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** Disconnects only: when the next check that the session really ended is due (null once completed). */
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }),
    result: varchar('result', { length: 20, enum: RADIUS_DISCONNECT_RESULTS }).notNull().default('pending'),
    /** Error-Cause (RFC 5176) of a NAK. */
    errorCause: integer('error_cause'),
    attempts: integer('attempts').notNull().default(0),
    detail: text('detail'),
    /** CoA only (issue 36): the policy the session must show in an Interim-Update for the change to be confirmed. */
    expectedPolicy: varchar('expected_policy', { length: 255 }),
    /** CoA only: when an unconfirmed change is given up on (Disconnect and the profile's fallback follow). */
    verifyBy: timestamp('verify_by', { withTimezone: true }),
  },
  (t) => [
    index('radius_disconnects_session_idx').on(t.sessionId),
    index('radius_disconnects_requested_idx').on(t.requestedAt),
    index('radius_disconnects_next_check_idx').on(t.nextCheckAt),
    index('radius_disconnects_verify_by_idx').on(t.verifyBy),
  ],
);

export type ServiceCredentialRow = typeof serviceCredentials.$inferSelect;
export type RadiusSessionRow = typeof radiusSessions.$inferSelect;
export type RadiusUsageDailyRow = typeof radiusUsageDaily.$inferSelect;
export type RadiusDisconnectRow = typeof radiusDisconnects.$inferSelect;
