/** Queries for interfaces and their traffic (samples and roll-ups), the poller's writes and the roll-up job's SQL. */
import { and, asc, eq, gt, gte, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import { HISTOGRAM_BASE } from './histogram';
import { devices } from '../../db/schema/devices';
import {
  deviceInterfaces,
  interfaceRatesDaily,
  interfaceRatesHourly,
  interfaceSamples,
  type DeviceInterfaceRow,
} from '../../db/schema/traffic';

export interface LatestRate {
  interfaceId: string;
  takenAt: Date;
  inBps: number | null;
  outBps: number | null;
}

/**
 * The end of a roll-up statement: writes the CTEs `agg` (n, secs, ib, ob, mi, mo per interface and
 * `bucketColumn`), `ih` and `oh` (histograms) into `table`, replacing a bucket computed before.
 */
function upsertRollup(table: 'interface_rates_hourly' | 'interface_rates_daily', bucketColumn: 'bucket' | 'day') {
  return sql.raw(`insert into ${table}
    (interface_id, bucket, sample_count, seconds, in_bytes, out_bytes, avg_in_bps, avg_out_bps, max_in_bps, max_out_bps, in_hist, out_hist)
  select agg.interface_id, agg.${bucketColumn}, agg.n, agg.secs, agg.ib, agg.ob,
    case when agg.secs > 0 then agg.ib * 8 / agg.secs else 0 end,
    case when agg.secs > 0 then agg.ob * 8 / agg.secs else 0 end,
    agg.mi, agg.mo, ih.h, oh.h
  from agg join ih using (interface_id, ${bucketColumn}) join oh using (interface_id, ${bucketColumn})
  on conflict (interface_id, bucket) do update set
    sample_count = excluded.sample_count, seconds = excluded.seconds, in_bytes = excluded.in_bytes,
    out_bytes = excluded.out_bytes, avg_in_bps = excluded.avg_in_bps, avg_out_bps = excluded.avg_out_bps,
    max_in_bps = excluded.max_in_bps, max_out_bps = excluded.max_out_bps, in_hist = excluded.in_hist,
    out_hist = excluded.out_hist`);
}

/** The bin of a rate column, as SQL (text, the histogram's jsonb key; histogram.ts has the bins). */
function binSql(column: SQL | string): SQL {
  const c = typeof column === 'string' ? sql.raw(column) : column;
  return sql`(case when ${c} < 1 then -1 else floor(ln(${c}) / ln(${HISTOGRAM_BASE}))::int end)::text`;
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const utcTrunc = (unit: 'hour' | 'day', column: string) =>
  sql.raw(`(date_trunc('${unit}', ${column} at time zone 'UTC') at time zone 'UTC')`);

const countOf = (result: unknown): number => {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return r.rowCount ?? r.affectedRows ?? 0;
};

export function createTrafficRepository(db: Db) {
  return {
    async device(id: string) {
      const [row] = await db
        .select({
          id: devices.id,
          name: devices.name,
          status: devices.status,
          statusChangedAt: devices.statusChangedAt,
          lastSeenAt: devices.lastSeenAt,
          lastError: devices.lastError,
        })
        .from(devices)
        .where(eq(devices.id, id))
        .limit(1);
      return row;
    },

    interfaces(deviceId: string): Promise<DeviceInterfaceRow[]> {
      return db
        .select()
        .from(deviceInterfaces)
        .where(eq(deviceInterfaces.deviceId, deviceId))
        .orderBy(asc(deviceInterfaces.ifIndex));
    },

    async interface(deviceId: string, interfaceId: string): Promise<DeviceInterfaceRow | undefined> {
      const [row] = await db
        .select()
        .from(deviceInterfaces)
        .where(and(eq(deviceInterfaces.deviceId, deviceId), eq(deviceInterfaces.id, interfaceId)))
        .limit(1);
      return row;
    },

    /** Each interface's newest sample (its rate over the last polled interval). */
    async latestRates(interfaceIds: string[]): Promise<Map<string, LatestRate>> {
      if (!interfaceIds.length) return new Map();
      const rows = await db
        .selectDistinctOn([interfaceSamples.interfaceId], {
          interfaceId: interfaceSamples.interfaceId,
          takenAt: interfaceSamples.takenAt,
          inBps: interfaceSamples.inBps,
          outBps: interfaceSamples.outBps,
        })
        .from(interfaceSamples)
        .where(inArray(interfaceSamples.interfaceId, interfaceIds))
        .orderBy(interfaceSamples.interfaceId, sql`${interfaceSamples.takenAt} desc`);
      return new Map(rows.map((r) => [r.interfaceId, r]));
    },

    /** Samples whose interval ends in (from, to]. */
    samples(interfaceId: string, from: Date, to: Date) {
      return db
        .select({
          takenAt: interfaceSamples.takenAt,
          kind: interfaceSamples.intervalKind,
          seconds: interfaceSamples.intervalSeconds,
          inBps: interfaceSamples.inBps,
          outBps: interfaceSamples.outBps,
          inBytes: interfaceSamples.inBytes,
          outBytes: interfaceSamples.outBytes,
        })
        .from(interfaceSamples)
        .where(
          and(
            eq(interfaceSamples.interfaceId, interfaceId),
            gt(interfaceSamples.takenAt, from),
            lte(interfaceSamples.takenAt, to),
          ),
        )
        .orderBy(asc(interfaceSamples.takenAt));
    },

    /** Roll-up buckets starting in [from, to] (the bucket starting at `to` holds the sample taken at `to`). */
    rollups(table: 'hourly' | 'daily', interfaceId: string, from: Date, to: Date) {
      const t = table === 'hourly' ? interfaceRatesHourly : interfaceRatesDaily;
      return db
        .select()
        .from(t)
        .where(and(eq(t.interfaceId, interfaceId), gte(t.bucket, from), lte(t.bucket, to)))
        .orderBy(asc(t.bucket));
    },

    /** Claims the due devices (never polled, or next_poll_at reached): next_poll_at moves to claimedUntil. */
    async claimDueDevices(now: Date, claimedUntil: Date): Promise<{ id: string }[]> {
      return db
        .update(devices)
        .set({ nextPollAt: claimedUntil })
        .where(or(isNull(devices.nextPollAt), lte(devices.nextPollAt, now)))
        .returning({ id: devices.id });
    },

    /** A poll's outcome on the device row (status, failures, next poll). */
    async updateDevice(id: string, values: Partial<typeof devices.$inferInsert>): Promise<void> {
      await db.update(devices).set(values).where(eq(devices.id, id));
    },

    /** Inserts the interfaces, or updates those the device already has (by ifIndex); their ids. */
    async upsertInterfaces(rows: (typeof deviceInterfaces.$inferInsert)[]): Promise<{ id: string; ifIndex: number }[]> {
      return db
        .insert(deviceInterfaces)
        .values(rows)
        .onConflictDoUpdate({
          target: [deviceInterfaces.deviceId, deviceInterfaces.ifIndex],
          set: {
            name: sql`excluded.name`,
            alias: sql`excluded.alias`,
            operStatus: sql`excluded.oper_status`,
            adminStatus: sql`excluded.admin_status`,
            highSpeedMbps: sql`excluded.high_speed_mbps`,
            mac: sql`excluded.mac`,
            counterBits: sql`excluded.counter_bits`,
            lastSeenAt: sql`excluded.last_seen_at`,
          },
        })
        .returning({ id: deviceInterfaces.id, ifIndex: deviceInterfaces.ifIndex });
    },

    /** Each interface's operational status as last stored, by name. */
    async interfaceStatuses(deviceId: string): Promise<Map<string, string>> {
      const rows = await db
        .select({ name: deviceInterfaces.name, operStatus: deviceInterfaces.operStatus })
        .from(deviceInterfaces)
        .where(eq(deviceInterfaces.deviceId, deviceId));
      return new Map(rows.map((r) => [r.name, r.operStatus]));
    },

    /** The device's interfaces last seen before now become notPresent. */
    async markInterfacesNotSeenSince(deviceId: string, now: Date): Promise<void> {
      await db
        .update(deviceInterfaces)
        .set({ operStatus: 'notPresent' })
        .where(
          and(
            eq(deviceInterfaces.deviceId, deviceId),
            sql`${deviceInterfaces.lastSeenAt} < ${now.toISOString()}::timestamptz`,
          ),
        );
    },

    /** The newest sample of each interface taken before `before`. */
    async samplesBefore(interfaceIds: string[], before: Date) {
      return db
        .selectDistinctOn([interfaceSamples.interfaceId])
        .from(interfaceSamples)
        .where(
          and(
            inArray(interfaceSamples.interfaceId, interfaceIds),
            sql`${interfaceSamples.takenAt} < ${before.toISOString()}::timestamptz`,
          ),
        )
        .orderBy(interfaceSamples.interfaceId, sql`${interfaceSamples.takenAt} desc`);
    },

    /** Inserts the samples, skipping one already stored for the instant; those inserted. */
    async insertSamples(values: (typeof interfaceSamples.$inferInsert)[]): Promise<{ id: string }[]> {
      return db
        .insert(interfaceSamples)
        .values(values)
        .onConflictDoNothing()
        .returning({ id: interfaceSamples.interfaceId });
    },

    /** The roll-up job's advisory lock, held until the transaction ends. */
    async lockRollup(): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(7007001)`);
    },

    async newestHourlyBucket(): Promise<unknown> {
      return rowsOf(await db.execute(sql`select max(bucket) as b from interface_rates_hourly`))[0]?.b;
    },

    async oldestSampleTime(): Promise<unknown> {
      return rowsOf(await db.execute(sql`select min(taken_at) as t from interface_samples`))[0]?.t;
    },

    async newestDailyBucket(): Promise<unknown> {
      return rowsOf(await db.execute(sql`select max(bucket) as b from interface_rates_daily`))[0]?.b;
    },

    async oldestHourlyBucket(): Promise<unknown> {
      return rowsOf(await db.execute(sql`select min(bucket) as b from interface_rates_hourly`))[0]?.b;
    },

    /** Recomputes the hourly buckets from `from` (an hour's start) from the raw samples; the rows written. */
    async rollUpHourly(from: Date): Promise<number> {
      const rate = sql.raw(`interval_kind = 'rate'`);
      const result = await db.execute(sql`
        with s as (
          select interface_id, ${utcTrunc('hour', 'taken_at')} as bucket, interval_seconds, in_bps, out_bps, in_bytes, out_bytes
          from interface_samples where ${rate} and taken_at >= ${ts(from)}
        ),
        ih as (
          select interface_id, bucket, jsonb_object_agg(bin, n) as h
          from (select interface_id, bucket, ${binSql('in_bps')} as bin, count(*) as n from s group by 1, 2, 3) x group by 1, 2
        ),
        oh as (
          select interface_id, bucket, jsonb_object_agg(bin, n) as h
          from (select interface_id, bucket, ${binSql('out_bps')} as bin, count(*) as n from s group by 1, 2, 3) x group by 1, 2
        ),
        agg as (
          select interface_id, bucket, count(*)::int as n, sum(interval_seconds) as secs,
            sum(in_bytes)::bigint as ib, sum(out_bytes)::bigint as ob, max(in_bps) as mi, max(out_bps) as mo
          from s group by 1, 2
        )
        ${upsertRollup('interface_rates_hourly', 'bucket')}`);
      return countOf(result);
    },

    /** Recomputes the daily buckets from `from` (a day's start) from the hourly ones; the rows written. */
    async rollUpDaily(from: Date): Promise<number> {
      const result = await db.execute(sql`
        with h as (
          select interface_id, ${utcTrunc('day', 'bucket')} as day, sample_count, seconds, in_bytes, out_bytes,
            max_in_bps, max_out_bps, in_hist, out_hist
          from interface_rates_hourly where bucket >= ${ts(from)}
        ),
        ih as (
          select interface_id, day, jsonb_object_agg(k, n) as h
          from (select interface_id, day, e.key as k, sum(e.value::int) as n from h, jsonb_each_text(h.in_hist) e group by 1, 2, 3) x group by 1, 2
        ),
        oh as (
          select interface_id, day, jsonb_object_agg(k, n) as h
          from (select interface_id, day, e.key as k, sum(e.value::int) as n from h, jsonb_each_text(h.out_hist) e group by 1, 2, 3) x group by 1, 2
        ),
        agg as (
          select interface_id, day, sum(sample_count)::int as n, sum(seconds) as secs, sum(in_bytes)::bigint as ib,
            sum(out_bytes)::bigint as ob, max(max_in_bps) as mi, max(max_out_bps) as mo
          from h group by 1, 2
        )
        ${upsertRollup('interface_rates_daily', 'day')}`);
      return countOf(result);
    },

    /** Deletes the raw samples taken before cutoff; how many. */
    async pruneSamplesBefore(cutoff: Date): Promise<number> {
      return countOf(await db.execute(sql`delete from interface_samples where taken_at < ${ts(cutoff)}`));
    },

    /** Deletes the hourly buckets before cutoff; how many. */
    async pruneHourlyBefore(cutoff: Date): Promise<number> {
      return countOf(await db.execute(sql`delete from interface_rates_hourly where bucket < ${ts(cutoff)}`));
    },
  };
}

export type TrafficRepository = ReturnType<typeof createTrafficRepository>;
