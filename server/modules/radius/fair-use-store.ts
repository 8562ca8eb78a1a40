/**
 * Fair use's queries (issue 36): the per-cycle counters accounting adds to, the cycle's usage with its active
 * top-ups (one row, for Access-Request), the tier a subscription was put in (compare-and-set, so one node acts
 * on a crossing), and the usage notices (a unique key: each is recorded — and mailed — once, on every node).
 */
import { and, eq, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import { usageCycleCounters, usageNotices } from '../../db/schema/fair-use';
import type { CycleUsage } from './fair-use';

export interface CycleCounter {
  cycleStart: Date;
  /** Both directions, this cycle, after the packet. */
  bytes: number;
  /** The tier the subscription was last put in this cycle (as read with the packet's increase). */
  tier: number;
}

/**
 * Adds a packet's increase to the subscription's counter for its current cycle (its current_period_start; none
 * without a period). Returns the counter after it.
 */
export async function addCycleUsage(
  db: Db,
  subscriptionId: string,
  input: number,
  output: number,
): Promise<CycleCounter | null> {
  const result = await db.execute(sql`
    insert into usage_cycle_counters as c (subscription_id, cycle_start, input_octets, output_octets)
    select id, current_period_start, ${input}, ${output} from subscriptions
     where id = ${subscriptionId} and current_period_start is not null
    on conflict (subscription_id, cycle_start) do update
       set input_octets = c.input_octets + excluded.input_octets,
           output_octets = c.output_octets + excluded.output_octets,
           updated_at = now()
    returning cycle_start, (input_octets + output_octets)::text as bytes, tier`);
  const [row] = rowsOf<{ cycle_start: Date | string; bytes: string; tier: number }>(result);
  if (!row) return null;
  return { cycleStart: new Date(row.cycle_start), bytes: Number(row.bytes), tier: Number(row.tier) };
}

/** A cycle's usage with its active top-ups and stored tier, in one query. */
export async function cycleUsage(
  db: Db,
  subscriptionId: string,
  cycleStart: Date,
): Promise<CycleUsage & { tier: number }> {
  const at = cycleStart.toISOString();
  const result = await db.execute(sql`
    select
      (select (input_octets + output_octets)::text from usage_cycle_counters
        where subscription_id = ${subscriptionId} and cycle_start = ${at}) as bytes,
      (select tier from usage_cycle_counters
        where subscription_id = ${subscriptionId} and cycle_start = ${at}) as tier,
      (select coalesce(sum(extra_bytes), 0)::text from subscription_top_ups
        where subscription_id = ${subscriptionId} and cycle_start = ${at} and status = 'active'
          and kind = 'extra_data') as extra,
      exists (select 1 from subscription_top_ups
        where subscription_id = ${subscriptionId} and cycle_start = ${at} and status = 'active'
          and kind = 'full_speed') as full_speed`);
  const [row] = rowsOf<{ bytes: string | null; tier: number | null; extra: string; full_speed: boolean }>(result);
  return {
    bytes: Number(row?.bytes ?? 0),
    tier: Number(row?.tier ?? 0),
    extraBytes: Number(row?.extra ?? 0),
    fullSpeed: row?.full_speed === true,
  };
}

/** Moves the cycle's tier from `from` to `to`; false when another packet (or node) moved it first. */
export async function moveTier(db: Db, subscriptionId: string, cycleStart: Date, from: number, to: number) {
  const rows = await db
    .update(usageCycleCounters)
    .set({ tier: to })
    .where(
      and(
        eq(usageCycleCounters.subscriptionId, subscriptionId),
        eq(usageCycleCounters.cycleStart, cycleStart),
        eq(usageCycleCounters.tier, from),
      ),
    )
    .returning({ tier: usageCycleCounters.tier });
  return rows.length > 0;
}

/** Sets the cycle's tier (a top-up changed it), creating the counter at zero if needed. */
export async function setTier(db: Db, subscriptionId: string, cycleStart: Date, tier: number): Promise<void> {
  await db
    .insert(usageCycleCounters)
    .values({ subscriptionId, cycleStart, tier })
    .onConflictDoUpdate({ target: [usageCycleCounters.subscriptionId, usageCycleCounters.cycleStart], set: { tier } });
}

/** Records notices; returns those recorded now (not before, by this or another node). */
export async function recordNotices(
  db: Db,
  subscriptionId: string,
  cycleStart: Date,
  notices: { tier: number; threshold: number }[],
  now: Date,
): Promise<{ tier: number; threshold: number }[]> {
  if (!notices.length) return [];
  return db
    .insert(usageNotices)
    .values(notices.map((n) => ({ subscriptionId, cycleStart, tier: n.tier, threshold: n.threshold, sentAt: now })))
    .onConflictDoNothing()
    .returning({ tier: usageNotices.tier, threshold: usageNotices.threshold });
}
