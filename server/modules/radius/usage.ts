/**
 * Bytes a subscription used in its current period, for the data cap at login. Read from radius_usage_daily
 * (UTC days from the period start's day on), kept in memory for `ttlMs` and moved on by every accounting
 * packet's increase, so a customer crossing the cap mid-period is caught at their next login without a query
 * per login.
 */
import type { Db } from '../../db/client';
import { createRadiusRepository } from './repository';

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

export class UsageMeter {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly deps: { db: Db; ttlMs?: number }) {}

  async bytesSince(subscriptionId: string, firstDay: string): Promise<number> {
    const hit = this.entries.get(subscriptionId);
    if (hit && hit.firstDay === firstDay && Date.now() - hit.at < (this.deps.ttlMs ?? 60_000)) return hit.bytes;
    const row = await createRadiusRepository(this.deps.db).bytesSince(subscriptionId, firstDay);
    const bytes = Number(row?.bytes ?? 0);
    this.entries.set(subscriptionId, { firstDay, bytes, at: Date.now() });
    return bytes;
  }

  /** Called with each committed increase (accounting). */
  add(subscriptionId: string, day: string, bytes: number): void {
    const hit = this.entries.get(subscriptionId);
    if (hit && day >= hit.firstDay) hit.bytes += bytes;
  }

  forget(subscriptionId: string): void {
    this.entries.delete(subscriptionId);
  }
}
