/**
 * IP address management (issue 22): the networks the ISP hands addresses from, and which address of which
 * network a subscription holds. PGlite has no inet type nor exclusion constraints, so each network keeps its
 * numeric first/last address (numeric(39,0): an IPv6 address is 128 bits) and the service checks overlaps under
 * an advisory lock; an address is held once per network by a unique index (the conflict-free guarantee).
 */
import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { subscriptions } from '../schema';
import { devices } from './devices';

export const IP_NETWORK_PURPOSES = ['static', 'pool', 'walled_garden', 'ipv6_delegation'] as const;
export type IpNetworkPurpose = (typeof IP_NETWORK_PURPOSES)[number];
export const IP_ASSIGNMENT_STATES = ['static', 'quarantined', 'reserved'] as const;
export type IpAssignmentState = (typeof IP_ASSIGNMENT_STATES)[number];
export type IpReservedRange = { from: string; to: string; note?: string | null };

export const ipNetworks = pgTable(
  'ip_networks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: varchar('name', { length: 80 }).notNull(),
    /** Canonical network address and prefix length, e.g. 203.0.113.0/24 or 2001:db8:100::/40. */
    cidr: varchar('cidr', { length: 64 }).notNull(),
    family: integer('family').notNull(),
    prefixLength: integer('prefix_length').notNull(),
    /** First and last address of the network as integers (decimal text in JS). */
    rangeStart: numeric('range_start', { precision: 39, scale: 0 }).notNull(),
    rangeEnd: numeric('range_end', { precision: 39, scale: 0 }).notNull(),
    purpose: varchar('purpose', { length: 20, enum: IP_NETWORK_PURPOSES }).notNull(),
    /** purpose pool: the pool's name on the NAS (sent as Framed-Pool). */
    poolName: varchar('pool_name', { length: 64 }),
    gateway: varchar('gateway', { length: 45 }),
    dnsServers: jsonb('dns_servers').$type<string[]>().notNull().default([]),
    /** The NAS this network is routed to, and/or a free-text site. */
    deviceId: uuid('device_id').references(() => devices.id, { onDelete: 'set null' }),
    site: varchar('site', { length: 120 }),
    reservedRanges: jsonb('reserved_ranges').$type<IpReservedRange[]>().notNull().default([]),
    /** Days a released address is held before it is handed out again. */
    quarantineDays: integer('quarantine_days').notNull().default(30),
    /** purpose ipv6_delegation: the length of the prefixes handed out as "next free" (null: /56). */
    delegationPrefixLength: integer('delegation_prefix_length'),
    notes: text('notes'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ip_networks_name_unique').on(sql`lower(${t.name})`),
    index('ip_networks_pool_name_idx').on(t.poolName),
    index('ip_networks_family_range_idx').on(t.family, t.rangeStart, t.rangeEnd),
    index('ip_networks_device_idx').on(t.deviceId),
    check('ip_networks_family', sql`${t.family} in (4, 6)`),
    check('ip_networks_range', sql`${t.rangeStart} <= ${t.rangeEnd}`),
    check('ip_networks_quarantine_days', sql`${t.quarantineDays} between 0 and 3650`),
    check(
      'ip_networks_delegation_length',
      sql`${t.delegationPrefixLength} is null or ${t.delegationPrefixLength} between 1 and 128`,
    ),
  ],
);

/**
 * Addresses in use: a subscription's static address, a released one in quarantine, or one staff reserved.
 * A free address has no row. One static address per subscription.
 */
export const ipAssignments = pgTable(
  'ip_assignments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    networkId: uuid('network_id')
      .notNull()
      .references(() => ipNetworks.id, { onDelete: 'restrict' }),
    /** Canonical text form (IPv4 dotted quad, IPv6 compressed lower-case). */
    address: varchar('address', { length: 45 }).notNull(),
    addressNum: numeric('address_num', { precision: 39, scale: 0 }).notNull(),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'cascade' }),
    state: varchar('state', { length: 16, enum: IP_ASSIGNMENT_STATES }).notNull(),
    quarantineUntil: timestamp('quarantine_until', { withTimezone: true }),
    note: varchar('note', { length: 200 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ip_assignments_network_address_unique').on(t.networkId, t.address),
    uniqueIndex('ip_assignments_one_static_per_subscription').on(t.subscriptionId).where(sql`${t.state} = 'static'`),
    index('ip_assignments_network_num_idx').on(t.networkId, t.addressNum),
    index('ip_assignments_address_idx').on(t.address),
    check('ip_assignments_static_has_subscription', sql`${t.state} <> 'static' or ${t.subscriptionId} is not null`),
    check('ip_assignments_quarantine_until', sql`${t.state} <> 'quarantined' or ${t.quarantineUntil} is not null`),
  ],
);

/**
 * A subscription's other addressing: the dynamic pool it logs in to (a network of purpose pool, sent as
 * Framed-Pool) and its IPv6 prefixes (Framed-IPv6-Prefix on the link, Delegated-IPv6-Prefix for the LAN).
 */
export const subscriptionAddressing = pgTable(
  'subscription_addressing',
  {
    subscriptionId: uuid('subscription_id')
      .primaryKey()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    poolNetworkId: uuid('pool_network_id').references(() => ipNetworks.id, { onDelete: 'restrict' }),
    framedIpv6Prefix: varchar('framed_ipv6_prefix', { length: 64 }),
    delegatedIpv6Prefix: varchar('delegated_ipv6_prefix', { length: 64 }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('subscription_addressing_pool_idx').on(t.poolNetworkId),
    // A delegated prefix belongs to one subscription: what makes "next free" allocation conflict-free.
    uniqueIndex('subscription_addressing_delegated_unique').on(t.delegatedIpv6Prefix),
  ],
);

export type IpNetworkRow = typeof ipNetworks.$inferSelect;
export type IpAssignmentRow = typeof ipAssignments.$inferSelect;
export type SubscriptionAddressingRow = typeof subscriptionAddressing.$inferSelect;
