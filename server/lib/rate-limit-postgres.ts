/**
 * Rate-limit windows in PostgreSQL (table rate_limits), so every portal process on one database counts the
 * same attempts (issue 14). Each call is one statement: the increment an INSERT … ON CONFLICT that starts a new
 * window when the stored one has ended, else adds one, atomically under the row's lock however many processes
 * count at once. "Now" is the app's clock passed as a parameter (not the database's now()), so tests move time
 * with a ManualClock and the windows behave as the in-memory ones do. Ended windows are deleted now and then.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';
import type { Clock } from './clock';
import type { RateLimitBackend, RateLimitCount } from './rate-limit-store';

/** rate_limits.key is varchar(512); a longer key (an absurd e-mail address) is stored by its hash. */
const MAX_KEY_LENGTH = 512;
const SWEEP_EVERY_MS = 60_000;

type Row = { count: number | string; reset_ms: number | string };

export class PostgresRateLimitBackend implements RateLimitBackend {
  private lastSweep = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** Told about a failed sweep (the counting itself reports its errors to the caller). */
    private readonly onSweepError: (error: unknown) => void = () => {},
  ) {}

  async increment(key: string, windowMs: number, by = 1): Promise<RateLimitCount> {
    const now = this.clock.now();
    this.sweep(now);
    const at = now.toISOString();
    const resetAt = new Date(now.getTime() + windowMs).toISOString();
    const [row] = rowsOf<Row>(
      await this.db.execute(sql`
        insert into rate_limits (key, count, reset_at) values (${storedKey(key)}, ${by}, ${resetAt}::timestamptz)
        on conflict (key) do update set
          count = case when rate_limits.reset_at <= ${at}::timestamptz then ${by} else least(rate_limits.count, 2147483647 - ${by}) + ${by} end,
          reset_at = case when rate_limits.reset_at <= ${at}::timestamptz then excluded.reset_at else rate_limits.reset_at end
        returning count, (extract(epoch from reset_at) * 1000)::float8 as reset_ms`),
    );
    return toCount(row, now);
  }

  async read(key: string): Promise<RateLimitCount> {
    const now = this.clock.now();
    const [row] = rowsOf<Row>(
      await this.db.execute(sql`
        select count, (extract(epoch from reset_at) * 1000)::float8 as reset_ms from rate_limits
        where key = ${storedKey(key)} and reset_at > ${now.toISOString()}::timestamptz`),
    );
    return row ? toCount(row, now) : { count: 0, ttlMs: 0 };
  }

  async clear(key: string): Promise<void> {
    await this.db.execute(sql`delete from rate_limits where key = ${storedKey(key)}`);
  }

  /** Deletes the ended windows, at most once a minute per process; in the background, never delaying a request. */
  private sweep(now: Date): void {
    if (now.getTime() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now.getTime();
    void this.sweepNow(now).catch(this.onSweepError);
  }

  /** Deletes the windows ended by `now`; returns how many. */
  async sweepNow(now = this.clock.now()): Promise<number> {
    const [row] = rowsOf<Row>(
      await this.db.execute(
        sql`with gone as (delete from rate_limits where reset_at <= ${now.toISOString()}::timestamptz returning 1) select count(*)::int as count from gone`,
      ),
    );
    return Number(row?.count ?? 0);
  }
}

function storedKey(key: string): string {
  return key.length <= MAX_KEY_LENGTH ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

function toCount(row: Row, now: Date): RateLimitCount {
  return { count: Number(row.count), ttlMs: Math.max(0, Math.round(Number(row.reset_ms) - now.getTime())) };
}
