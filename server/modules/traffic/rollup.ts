/**
 * The roll-up job: raw samples → hourly buckets → daily buckets, then pruning by retention (raw 7 days,
 * hourly 1 year, daily forever). Buckets are UTC hours and days; an interval belongs to the bucket its end
 * falls in. Each run recomputes the buckets from the hour before the newest one already stored (that one may
 * have been partial) onwards, with upserts, so running it again, or twice at once, gives the same rows.
 * Rolling up comes before pruning, so samples are summed before they are deleted.
 */
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { DAY_MS, HOUR_MS } from '../../lib/clock';
import { createTrafficRepository } from './repository';

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

const floorTo = (d: Date, ms: number) => new Date(Math.floor(d.getTime() / ms) * ms);
const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string | Date));

export class TrafficRollup {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  /** One run: roll up what is new since the last stored buckets, then prune. */
  async run(options: { now?: Date; since?: Date } = {}): Promise<RollupResult> {
    const now = options.now ?? this.deps.clock.now();
    const { db } = this.deps;
    return db.transaction(async (txRaw) => {
      const repo = createTrafficRepository(txRaw as unknown as Db);
      // One run at a time (a second process waits, then finds the work done).
      await repo.lockRollup();

      const lastHour = dateOrNull(await repo.newestHourlyBucket());
      const firstRaw = dateOrNull(await repo.oldestSampleTime());
      // From the hour before the newest stored bucket: a poll taken just before the hour turned may have been
      // stored after a run (here or in another process) had already started the new hour's bucket.
      const hourlyFrom = options.since ?? (lastHour ? new Date(lastHour.getTime() - HOUR_MS) : firstRaw);
      let hourlyRows = 0;
      if (hourlyFrom) {
        const from = floorTo(hourlyFrom, HOUR_MS);
        hourlyRows = await repo.rollUpHourly(from);
      }

      const lastDay = dateOrNull(await repo.newestDailyBucket());
      const firstHour = dateOrNull(await repo.oldestHourlyBucket());
      // Days touched by this run's hours must be redone even when a later day is already stored.
      const candidates = [options.since, lastDay, hourlyFrom ?? undefined].filter((d): d is Date => d instanceof Date);
      const dailyFrom = candidates.length ? new Date(Math.min(...candidates.map((d) => d.getTime()))) : firstHour;
      let dailyRows = 0;
      if (dailyFrom) {
        const from = floorTo(dailyFrom, DAY_MS);
        dailyRows = await repo.rollUpDaily(from);
      }

      // Whole hours of samples and whole days of hours go, so a bucket recomputed later never sees half its data.
      const rawCutoff = floorTo(new Date(now.getTime() - RAW_RETENTION_MS), HOUR_MS);
      const hourlyCutoff = floorTo(new Date(now.getTime() - HOURLY_RETENTION_MS), DAY_MS);
      const prunedSamples = await repo.pruneSamplesBefore(rawCutoff);
      const prunedHourly = await repo.pruneHourlyBefore(hourlyCutoff);
      return { hourlyFrom, dailyFrom, hourlyRows, dailyRows, prunedSamples, prunedHourly };
    });
  }
}
