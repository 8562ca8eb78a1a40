/**
 * Interfaces of network devices and their traffic history (issue 7). The poller upserts interfaces from IF-MIB
 * and stores one raw sample per interface and poll, with the interval to the previous sample already turned
 * into rates (server/modules/traffic/rates.ts). The roll-up job keeps hourly and daily buckets; retention:
 * raw samples 7 days, hourly 1 year, daily forever.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { devices } from './devices';

/** Sparse log-scale histogram of interval rates: bin index → number of intervals (see traffic/histogram.ts). */
export type RateHistogram = Record<string, number>;

export const deviceInterfaces = pgTable(
  'device_interfaces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    ifIndex: integer('if_index').notNull(),
    /** ifName, else ifDescr. */
    name: varchar('name', { length: 255 }).notNull(),
    alias: varchar('alias', { length: 255 }).notNull().default(''),
    /** IF-MIB ifOperStatus / ifAdminStatus names: up, down, testing, unknown, dormant, notPresent, lowerLayerDown. */
    operStatus: varchar('oper_status', { length: 16 }).notNull().default('unknown'),
    adminStatus: varchar('admin_status', { length: 16 }).notNull().default('unknown'),
    /** ifHighSpeed in Mbit/s (0: unknown). */
    highSpeedMbps: integer('high_speed_mbps').notNull().default(0),
    /** aa:bb:cc:dd:ee:ff, '' when the interface has none (loopback). */
    mac: varchar('mac', { length: 64 }).notNull().default(''),
    /** 64: ifHCInOctets/ifHCOutOctets; 32: the ifInOctets/ifOutOctets fallback. */
    counterBits: smallint('counter_bits').notNull().default(64),
    /** The last poll that saw it; an interface gone from the device keeps its history and an old last_seen_at. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('device_interfaces_device_if_index_unique').on(t.deviceId, t.ifIndex)],
);

export const interfaceSamples = pgTable(
  'interface_samples',
  {
    interfaceId: uuid('interface_id')
      .notNull()
      .references(() => deviceInterfaces.id, { onDelete: 'cascade' }),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull(),
    /** Raw counters; numeric because a Counter64 does not fit a signed bigint. */
    inOctets: numeric('in_octets', { precision: 20, scale: 0, mode: 'bigint' }).notNull(),
    outOctets: numeric('out_octets', { precision: 20, scale: 0, mode: 'bigint' }).notNull(),
    /** sysUpTime (hundredths of a second) read with the counters. */
    uptimeTicks: bigint('uptime_ticks', { mode: 'bigint' }),
    counterBits: smallint('counter_bits').notNull(),
    /** The interval from the previous sample: rate, gap, reset; null for an interface's first sample. */
    intervalKind: varchar('interval_kind', { length: 8, enum: ['rate', 'gap', 'reset'] }),
    intervalSeconds: doublePrecision('interval_seconds'),
    /** Only for interval_kind 'rate'. */
    inBps: doublePrecision('in_bps'),
    outBps: doublePrecision('out_bps'),
    inBytes: bigint('in_bytes', { mode: 'number' }),
    outBytes: bigint('out_bytes', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ name: 'interface_samples_pk', columns: [t.interfaceId, t.takenAt] }),
    index('interface_samples_taken_at_idx').on(t.takenAt),
    check('interface_samples_counter_bits', sql`${t.counterBits} in (32, 64)`),
  ],
);

/** Columns shared by the hourly and daily roll-ups (one row per interface and bucket start). */
const rollupColumns = () => ({
  interfaceId: uuid('interface_id')
    .notNull()
    .references(() => deviceInterfaces.id, { onDelete: 'cascade' }),
  bucket: timestamp('bucket', { withTimezone: true }).notNull(),
  /** Rate intervals ending in the bucket. */
  sampleCount: integer('sample_count').notNull(),
  /** Seconds those intervals cover (the average is time-weighted: bytes × 8 / seconds). */
  seconds: doublePrecision('seconds').notNull(),
  inBytes: bigint('in_bytes', { mode: 'number' }).notNull(),
  outBytes: bigint('out_bytes', { mode: 'number' }).notNull(),
  avgInBps: doublePrecision('avg_in_bps').notNull(),
  avgOutBps: doublePrecision('avg_out_bps').notNull(),
  maxInBps: doublePrecision('max_in_bps').notNull(),
  maxOutBps: doublePrecision('max_out_bps').notNull(),
  /** The interval rates as histograms, so the 95th percentile of any range is the merge of its buckets. */
  inHist: jsonb('in_hist').$type<RateHistogram>().notNull(),
  outHist: jsonb('out_hist').$type<RateHistogram>().notNull(),
});

export const interfaceRatesHourly = pgTable('interface_rates_hourly', rollupColumns(), (t) => [
  primaryKey({ name: 'interface_rates_hourly_pk', columns: [t.interfaceId, t.bucket] }),
  index('interface_rates_hourly_bucket_idx').on(t.bucket),
]);

export const interfaceRatesDaily = pgTable('interface_rates_daily', rollupColumns(), (t) => [
  primaryKey({ name: 'interface_rates_daily_pk', columns: [t.interfaceId, t.bucket] }),
]);

export type DeviceInterfaceRow = typeof deviceInterfaces.$inferSelect;
export type InterfaceSampleRow = typeof interfaceSamples.$inferSelect;
