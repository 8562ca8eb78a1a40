/**
 * Data allowances of lines bought with data vouchers (issue 31). A voucher with a data allowance redeemed in the
 * portal gives its subscription `data_allowance_bytes`; RADIUS accounting adds each session's new octets (both
 * directions, the increase an Interim-Update or Stop reports — a replayed packet adds nothing) to its
 * `data_used_bytes`. The packet that takes the use to the allowance ends the line: status → expired (the
 * lifecycle's 'usage' transition), period end → now, in one transaction; the caller then has its live sessions
 * disconnected and every RADIUS process re-read it, so the next login is refused.
 *
 * The plan's data cap (per period, throttle or reject) is a different thing, counted by day in
 * radius_usage_daily (usage.ts); an allowance is counted to the byte, since a bundle of 1 GB must end at 1 GB.
 */
import type { Db } from '../../db/client';
import type { SubscriptionStatus } from '../../../contract/schemas/subscription';
import type { Clock } from '../../lib/clock';
import { canTransition } from '../subscriptions/lifecycle';
import { createRadiusRepository } from './repository';

export class DataAllowanceMeter {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  /**
   * Adds `bytes` to the line's use. True when this call ended the line (its allowance is used); false when it has
   * data left, has no allowance, or was already ended.
   */
  async record(subscriptionId: string, bytes: number): Promise<boolean> {
    if (bytes <= 0) return false;
    const { db, clock } = this.deps;
    return db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const repo = createRadiusRepository(tx);
      const row = await repo.addDataUsed(subscriptionId, bytes);
      if (!row || row.allowance === null || row.used < row.allowance) return false;
      if (!canTransition(row.status as SubscriptionStatus, 'expired', 'usage')) return false;
      const now = clock.now();
      const periodEnd = row.periodEnd && row.periodEnd.getTime() < now.getTime() ? row.periodEnd : now;
      await repo.endLine(subscriptionId, periodEnd, now);
      return true;
    });
  }
}

/** True when a line's allowance is used (a login is then refused even before its status caught up). */
export function allowanceUsed(sub: { dataAllowanceBytes: number | null; dataUsedBytes: number }): boolean {
  return sub.dataAllowanceBytes !== null && sub.dataUsedBytes >= sub.dataAllowanceBytes;
}
