/**
 * Bytes a subscription used in its current period, for the data cap at login. Read from radius_usage_daily
 * (UTC days from the period start's day on), kept in memory for `ttlMs` and moved on by every accounting
 * packet's increase, so a customer crossing the cap mid-period is caught at their next login without a query
 * per login.
 */
import type { Db } from '../../db/client';
import { createRadiusRepository } from './repository';
import type { CycleUsage } from './fair-use';
import { cycleUsage } from './fair-use-store';

export const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** The first day counted for a period: its start's UTC day, or the calendar month's first day without a period. */
export function periodFirstDay(periodStart: Date | null, now: Date): string {
  if (periodStart) return utcDay(periodStart);
  return `${now.toISOString().slice(0, 7)}-01`;
}

interface Entry {
  firstDay: string;
  bytes: number;
  at: number;
}

interface CycleEntry {
  cycleStart: number;
  usage: CycleUsage;
  at: number;
}

export class UsageMeter {
  private readonly entries = new Map<string, Entry>();
  private readonly cycles = new Map<string, CycleEntry>();

  constructor(private readonly deps: { db: Db; ttlMs?: number }) {}

  async bytesSince(subscriptionId: string, firstDay: string): Promise<number> {
    const hit = this.entries.get(subscriptionId);
    if (hit && hit.firstDay === firstDay && Date.now() - hit.at < (this.deps.ttlMs ?? 60_000)) return hit.bytes;
    const row = await createRadiusRepository(this.deps.db).bytesSince(subscriptionId, firstDay);
    const bytes = Number(row?.bytes ?? 0);
    this.entries.set(subscriptionId, { firstDay, bytes, at: Date.now() });
    return bytes;
  }

  /**
   * This cycle's usage and active top-ups (fair use, issue 36): the per-cycle counter of the subscription's
   * current period (one row, kept like bytesSince). Without a period: the daily usage since the month's start.
   */
  async cycleOf(sub: { subscriptionId: string; periodStart: Date | null }, now: Date): Promise<CycleUsage> {
    if (!sub.periodStart)
      return {
        bytes: await this.bytesSince(sub.subscriptionId, periodFirstDay(null, now)),
        extraBytes: 0,
        fullSpeed: false,
      };
    const start = sub.periodStart.getTime();
    const hit = this.cycles.get(sub.subscriptionId);
    if (hit && hit.cycleStart === start && Date.now() - hit.at < (this.deps.ttlMs ?? 60_000)) return hit.usage;
    const { tier: _tier, ...usage } = await cycleUsage(this.deps.db, sub.subscriptionId, sub.periodStart);
    this.cycles.set(sub.subscriptionId, { cycleStart: start, usage, at: Date.now() });
    return usage;
  }

  /** Called with each committed increase (accounting). */
  add(subscriptionId: string, day: string, bytes: number): void {
    const hit = this.entries.get(subscriptionId);
    if (hit && day >= hit.firstDay) hit.bytes += bytes;
    const cycle = this.cycles.get(subscriptionId);
    if (cycle) cycle.usage = { ...cycle.usage, bytes: cycle.usage.bytes + bytes };
  }

  forget(subscriptionId: string): void {
    this.entries.delete(subscriptionId);
    this.cycles.delete(subscriptionId);
  }
}
