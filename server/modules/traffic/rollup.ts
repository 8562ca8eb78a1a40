/**
 * The roll-up job: raw samples → hourly buckets → daily buckets, then pruning by retention (raw 7 days,
 * hourly 1 year, daily forever). Buckets are UTC hours and days; an interval belongs to the bucket its end
 * falls in. Each run recomputes the buckets from the hour before the newest one already stored (that one may
 * have been partial) onwards, with upserts, so running it again, or twice at once, gives the same rows.
 * Rolling up comes before pruning, so samples are summed before they are deleted.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { DAY_MS, HOUR_MS } from '../../lib/clock';
import { binSql } from './histogram';

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

export const RAW_RETENTION_MS = 7 * DAY_MS;
export const HOURLY_RETENTION_MS = 365 * DAY_MS;

export interface RollupResult {
  hourlyFrom: Date | null;
  dailyFrom: Date | null;
  hourlyRows: number;
  dailyRows: number;
  prunedSamples: number;
  prunedHourly: number;
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const utcTrunc = (unit: 'hour' | 'day', column: string) =>
  sql.raw(`(date_trunc('${unit}', ${column} at time zone 'UTC') at time zone 'UTC')`);

const countOf = (result: unknown): number => {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return r.rowCount ?? r.affectedRows ?? 0;
};
const floorTo = (d: Date, ms: number) => new Date(Math.floor(d.getTime() / ms) * ms);
const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string | Date));

export class TrafficRollup {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  /** One run: roll up what is new since the last stored buckets, then prune. */
  async run(options: { now?: Date; since?: Date } = {}): Promise<RollupResult> {
    const now = options.now ?? this.deps.clock.now();
    const { db } = this.deps;
    return db.transaction(async (tx) => {
      // One run at a time (a second process waits, then finds the work done).
      await tx.execute(sql`select pg_advisory_xact_lock(7007001)`);

      const lastHour = dateOrNull(
        rowsOf(await tx.execute(sql`select max(bucket) as b from interface_rates_hourly`))[0]?.b,
      );
      const firstRaw = dateOrNull(
        rowsOf(await tx.execute(sql`select min(taken_at) as t from interface_samples`))[0]?.t,
      );
      // From the hour before the newest stored bucket: a poll taken just before the hour turned may have been
      // stored after a run (here or in another process) had already started the new hour's bucket.
      const hourlyFrom = options.since ?? (lastHour ? new Date(lastHour.getTime() - HOUR_MS) : firstRaw);
      let hourlyRows = 0;
      if (hourlyFrom) {
        const from = floorTo(hourlyFrom, HOUR_MS);
        const rate = sql.raw(`interval_kind = 'rate'`);
        const result = await tx.execute(sql`
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
        hourlyRows = countOf(result);
      }

      const lastDay = dateOrNull(
        rowsOf(await tx.execute(sql`select max(bucket) as b from interface_rates_daily`))[0]?.b,
      );
      const firstHour = dateOrNull(
        rowsOf(await tx.execute(sql`select min(bucket) as b from interface_rates_hourly`))[0]?.b,
      );
      // Days touched by this run's hours must be redone even when a later day is already stored.
      const candidates = [options.since, lastDay, hourlyFrom ?? undefined].filter((d): d is Date => d instanceof Date);
      const dailyFrom = candidates.length ? new Date(Math.min(...candidates.map((d) => d.getTime()))) : firstHour;
      let dailyRows = 0;
      if (dailyFrom) {
        const from = floorTo(dailyFrom, DAY_MS);
        const result = await tx.execute(sql`
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
        dailyRows = countOf(result);
      }

      // Whole hours of samples and whole days of hours go, so a bucket recomputed later never sees half its data.
      const rawCutoff = floorTo(new Date(now.getTime() - RAW_RETENTION_MS), HOUR_MS);
      const hourlyCutoff = floorTo(new Date(now.getTime() - HOURLY_RETENTION_MS), DAY_MS);
      const prunedSamples = countOf(
        await tx.execute(sql`delete from interface_samples where taken_at < ${ts(rawCutoff)}`),
      );
      const prunedHourly = countOf(
        await tx.execute(sql`delete from interface_rates_hourly where bucket < ${ts(hourlyCutoff)}`),
      );
      return { hourlyFrom, dailyFrom, hourlyRows, dailyRows, prunedSamples, prunedHourly };
    });
  }
}
