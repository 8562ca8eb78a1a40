/**
 * A customer's data usage (issue 8), read from RADIUS accounting.
 *
 * Per day: radius_usage_daily, which the accounting work fills from each packet's increase over the session's
 * previous totals (Start, every Interim-Update, Stop), booked on the UTC day the packet arrived. So a session
 * spanning midnight is split by its interim deltas, not pro rata: the bytes between two updates land on the
 * day of the later one. With the NAS's usual 5-minute interim interval that puts at most 5 minutes of traffic
 * on the wrong side of midnight, and the day totals always add up exactly to the sessions' totals.
 *
 * Periods follow the subscription's billing periods: the current one is current_period_start to
 * current_period_end (as UTC days, the end exclusive); earlier ones step back by the plan's billing cycle. A
 * subscription without a period yet (pending) counts calendar months, as the data cap check does.
 * The cap counts both directions against the plan's data_cap_gb (1 GB = 10^9 bytes).
 */
import { pagePagination } from '../../../contract/envelope';
import { allows, type Role } from '../../../contract/roles';
import {
  BYTES_PER_GB,
  USAGE_MAX_PAST_PERIODS,
  type Usage,
  type UsageCustomers,
  type UsageCustomersQuery,
  type UsagePeriod,
  type UsageQueryParsed,
} from '../../../contract/schemas/usage';
import type { Db } from '../../db/client';
import { addMonths, type Clock } from '../../lib/clock';
import { forbidden, notFound } from '../../lib/errors';
import { cycleMonths } from '../subscriptions/lifecycle';
import { likePattern } from '../../db/paging';
import { createUsageRepository } from './repository';
import { fairUseSummary } from '../top-ups/summary';

export const USAGE_MESSAGES = {
  usage: 'Usage retrieved successfully',
  customers: 'Customers usage retrieved successfully',
  othersStaffOnly: 'You can only see your own usage',
  subscriptionNotFound: 'Subscription not found',
} as const;

/** Staff who may read any customer's usage. */
export const USAGE_STAFF = ['admin', 'support', 'technician'] as const;

const DAY = 86_400_000;
const utcDay = (d: Date) => d.toISOString().slice(0, 10);
const dayStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

/**
 * The periods to offer, newest first: the current one and up to 11 before it, none ending before the
 * subscription was created. Each step back is computed from the anchor (no drift from clamped days).
 */
export function usagePeriods(input: {
  periodStart: Date | null;
  periodEnd: Date | null;
  cycle: string;
  createdAt: Date;
  now: Date;
}): UsagePeriod[] {
  const { now } = input;
  const anchor =
    input.periodStart && input.periodEnd
      ? input.periodStart
      : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const step = input.periodStart && input.periodEnd ? cycleMonths(input.cycle) : 1;
  const end0 = input.periodStart && input.periodEnd ? input.periodEnd : addMonths(anchor, 1);
  const periods: UsagePeriod[] = [];
  let end = end0;
  for (let k = 0; k <= USAGE_MAX_PAST_PERIODS; k++) {
    const start = addMonths(anchor, -k * step);
    if (k > 0 && end.getTime() <= dayStart(input.createdAt).getTime()) break;
    periods.push({ index: k, start: utcDay(start), end: utcDay(end) });
    end = start;
  }
  return periods;
}

export interface UsageCaller {
  id: string;
  role: Role;
}

export class UsageService {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  async usage(caller: UsageCaller, query: UsageQueryParsed): Promise<Usage> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const userId = query.user_id ?? caller.id;
    if (userId !== caller.id && !allows(USAGE_STAFF, caller.role)) throw forbidden(USAGE_MESSAGES.othersStaffOnly);

    const repo = createUsageRepository(db);
    const subs = await repo.linesOf(userId);
    const chosen = query.subscription_id ? subs.find((s) => s.sub.id === query.subscription_id) : subs[0];
    if (query.subscription_id && !chosen) throw notFound(USAGE_MESSAGES.subscriptionNotFound);

    const periods = chosen
      ? usagePeriods({
          periodStart: chosen.sub.currentPeriodStart,
          periodEnd: chosen.sub.currentPeriodEnd,
          cycle: chosen.cycle,
          createdAt: chosen.sub.createdAt,
          now,
        })
      : usagePeriods({ periodStart: null, periodEnd: null, cycle: 'monthly', createdAt: now, now });
    const period = periods[Math.min(query.period, periods.length - 1)];

    const rows = chosen ? await repo.daysOf(chosen.sub.id, period.start, period.end) : [];
    const byDay = new Map(rows.map((r) => [r.day, r]));
    // Every day of the period up to today (a past period: all of it), so the chart has no holes.
    const lastDay = Math.min(new Date(`${period.end}T00:00:00Z`).getTime() - DAY, dayStart(now).getTime());
    const days: Usage['days'] = [];
    for (let t = new Date(`${period.start}T00:00:00Z`).getTime(); t <= lastDay; t += DAY) {
      const key = utcDay(new Date(t));
      const r = byDay.get(key);
      days.push({ date: key, download: Number(r?.output ?? 0), upload: Number(r?.input ?? 0) });
    }
    // Days booked outside the listed range (clock skew) still count in the totals.
    for (const r of rows)
      if (!days.some((d) => d.date === r.day))
        days.push({ date: r.day, download: Number(r.output), upload: Number(r.input) });
    days.sort((a, b) => a.date.localeCompare(b.date));

    const download = days.reduce((n, d) => n + d.download, 0);
    const upload = days.reduce((n, d) => n + d.upload, 0);
    const limit = chosen?.capGb != null ? chosen.capGb * BYTES_PER_GB : null;
    const used = download + upload;

    let session: Usage['session'] = null;
    if (chosen) {
      const open = await repo.openSession(chosen.sub.id);
      if (open) {
        session = {
          username: open.username,
          online_since: open.startedAt.toISOString(),
          framed_ip: open.framedIp,
          download: open.outputOctets,
          upload: open.inputOctets,
          last_update: open.updatedAt.toISOString(),
        };
      }
    }

    return {
      user_id: userId,
      lines: subs.map((s) => ({
        id: s.sub.id,
        status: s.sub.status,
        plan_name: s.planName,
        created_at: s.sub.createdAt.toISOString(),
      })),
      subscription: chosen
        ? { id: chosen.sub.id, status: chosen.sub.status, plan_name: chosen.planName, data_cap_gb: chosen.capGb }
        : null,
      periods,
      period,
      days,
      totals: { download, upload, total: used },
      cap: {
        limit,
        used,
        remaining: limit === null ? null : Math.max(0, limit - used),
        percent: limit === null ? null : Math.min(100, Math.round((used / limit) * 1000) / 10),
      },
      session,
      fair_use: chosen && query.period === 0 ? await fairUseSummary(db, chosen.sub, chosen.plan) : null,
    };
  }
  /**
   * Staff's overview (issue 34): the customers with at least one line, by the bytes their lines booked this UTC
   * calendar month (heaviest first, then by name), with how many lines they have and how many sessions are open;
   * and the whole network's totals for the month, whatever the search.
   */
  async customers(query: UsageCustomersQuery): Promise<UsageCustomers> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const start = utcDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)));
    const end = utcDay(new Date(dayStart(now).getTime() + DAY));
    const pattern = query.search ? likePattern(query.search) : null;
    const [rows, [counted], [network], [online], [customers]] = await createUsageRepository(db).customersInMonth({
      start,
      end,
      pattern,
      limit: query.limit,
      offset: (query.page - 1) * query.limit,
    });

    const download = Number(network?.download ?? 0);
    const upload = Number(network?.upload ?? 0);
    return {
      period: { start, end },
      totals: {
        download,
        upload,
        total: download + upload,
        customers: Number(customers?.n ?? 0),
        online: Number(online?.n ?? 0),
      },
      items: rows.map((r) => {
        const d = Number(r.download ?? 0);
        const u = Number(r.upload ?? 0);
        return {
          user_id: r.id,
          name: r.name,
          email: r.email,
          lines: Number(r.lines),
          online: Number(r.online ?? 0),
          download: d,
          upload: u,
          total: d + u,
        };
      }),
      pagination: pagePagination(query.page, query.limit, Number(counted?.n ?? 0)),
    };
  }
}
