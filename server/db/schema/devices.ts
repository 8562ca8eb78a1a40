/**
 * Network access devices (issue 7). Every secret column holds a sealed value from server/lib/secret-box
 * ("v1:iv:tag:ciphertext", AES-256-GCM under SECRETS_KEY) or null; the repository opens them for server-side
 * use only (poller, backups, RADIUS), the API never returns them.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import {
  DEVICE_API_TYPES,
  DEVICE_STATUSES,
  DEVICE_VENDORS,
  SNMP_AUTH_PROTOCOLS,
  SNMP_PRIV_PROTOCOLS,
  SNMP_VERSIONS,
} from '../../../contract/schemas/device';

export const devices = pgTable(
  'devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: varchar('name', { length: 120 }).notNull(),
    vendor: varchar('vendor', { length: 16, enum: DEVICE_VENDORS }).notNull().default('generic'),
    model: varchar('model', { length: 120 }),
    /** IP address or DNS name the portal reaches the device at (SNMP and management API). */
    host: varchar('host', { length: 255 }).notNull(),
    location: varchar('location', { length: 200 }),

    snmpVersion: varchar('snmp_version', { length: 4, enum: SNMP_VERSIONS }).notNull().default('v2c'),
    snmpPort: integer('snmp_port').notNull().default(161),
    /** Sealed v2c community. */
    snmpCommunity: text('snmp_community'),
    snmpV3User: varchar('snmp_v3_user', { length: 64 }),
    /** null: no authentication (noAuthNoPriv). */
    snmpV3AuthProtocol: varchar('snmp_v3_auth_protocol', { length: 8, enum: SNMP_AUTH_PROTOCOLS }),
    /** Sealed. */
    snmpV3AuthKey: text('snmp_v3_auth_key'),
    /** null: no privacy (authNoPriv). */
    snmpV3PrivProtocol: varchar('snmp_v3_priv_protocol', { length: 8, enum: SNMP_PRIV_PROTOCOLS }),
    /** Sealed. */
    snmpV3PrivKey: text('snmp_v3_priv_key'),

    /** null: no management API configured (SNMP only). */
    apiType: varchar('api_type', { length: 8, enum: DEVICE_API_TYPES }),
    /** null: the type's default (REST 443/80, API 8729/8728). */
    apiPort: integer('api_port'),
    apiTls: boolean('api_tls').notNull().default(true),
    apiUsername: varchar('api_username', { length: 120 }),
    /** Sealed. */
    apiPassword: text('api_password'),

    /** Sealed RADIUS shared secret between this NAS and the portal's RADIUS server. */
    radiusSecret: text('radius_secret'),
    /**
     * The hotspot's login address (MikroTik's `link-login-only`, e.g. http://10.5.50.1/login): the portal's hotspot
     * page posts voucher codes only to the origin of a registered device's hotspot URL (issue 32). null: no hotspot.
     */
    hotspotUrl: varchar('hotspot_url', { length: 2048 }),

    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    notes: text('notes'),

    status: varchar('status', { length: 8, enum: DEVICE_STATUSES }).notNull().default('unknown'),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    lastError: text('last_error'),
    /** Consecutive failed polls; the poller backs off on it. */
    pollFailures: integer('poll_failures').notNull().default(0),
    /** null: poll at the next run. */
    nextPollAt: timestamp('next_poll_at', { withTimezone: true }),

    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('devices_name_unique').on(sql`lower(${t.name})`),
    index('devices_host_idx').on(t.host),
    index('devices_status_idx').on(t.status),
    index('devices_next_poll_at_idx').on(t.nextPollAt),
    index('devices_created_at_id_idx').on(t.createdAt.desc(), t.id.desc()),
    check('devices_snmp_port_range', sql`${t.snmpPort} between 1 and 65535`),
    check('devices_api_port_range', sql`${t.apiPort} is null or ${t.apiPort} between 1 and 65535`),
  ],
);

export type DeviceRow = typeof devices.$inferSelect;
export type NewDeviceRow = typeof devices.$inferInsert;
