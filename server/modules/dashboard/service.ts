/**
 * Dashboard statistics (spec §3, §5, §6). Only the groups statGroupsFor(role) allows are computed and sent.
 * Definitions (UTC days; the range is the calendar period of the time frame, see range.ts):
 * - users (customer accounts, role user): totalUsers = existing at the end of the range; activeUsers = those
 *   with status active; newUsers = created in the range.
 * - subscriptions: activeSubscriptions = status active now (created by the end of the range);
 *   newSubscriptions = created in the range; cancelledSubscriptions = cancelled, last changed in the range.
 * - revenue (site currency, formatted): totalRevenue = paid payments dated in the range; pendingPayments /
 *   overduePayments = totals of invoices issued in the range still unpaid and not yet due / past due (or
 *   marked overdue).
 * - tickets (the caller's visible tickets, so a customer's own): openTickets = open, in progress or waiting
 *   for the customer now; newTickets = opened in the range; resolvedTickets = resolved in the range.
 * - bandwidth (bytes booked in the range) and activeConnections (sessions open now) come from RADIUS accounting
 *   when the `network` dependency is given (server/modules/usage/network-stats.ts), and so does networkDevices
 *   (the registered network devices, whatever their status); without it: zero placeholders of the spec's shape,
 *   listed in `unavailable` so screens explain instead of showing zeros.
 */
import { formatMoney } from '../../../contract/money';
import { statGroupsFor, type Role, type StatGroup } from '../../../contract/roles';
import {
  NETWORK_STAT_GROUPS,
  type DashboardData,
  type DashboardSeries,
  type DashboardStats,
  type DashboardStatsQueryParsed,
} from '../../../contract/schemas/dashboard';
import type { Clock } from '../../lib/clock';
import { scopeFor } from '../tickets/service';
import type { Bucketed, DashboardRepository, StatsWindow } from './repository';
import { resolveRange, seriesInterval, seriesKeys } from './range';

export interface DashboardCaller {
  id: string;
  role: Role;
}

export interface DashboardServiceDeps {
  repository: DashboardRepository;
  clock: Clock;
  currency: () => Promise<string>;
  /** RADIUS accounting's bytes in the range and open sessions (the caller's own for a customer); absent: placeholders. */
  network?: (
    caller: DashboardCaller,
    window: StatsWindow,
  ) => Promise<{ download: number; upload: number; activeConnections: number; devices: number }>;
}

/** 1536 → "1.5 KB" (binary units). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i++;
  }
  return `${i === 0 ? value : Number(value.toFixed(1))} ${units[i]}`;
}

const sum = (rows: Bucketed[]) => rows.reduce((acc, r) => acc + r.n, 0);

/** Bucketed rows laid over every chart key (missing buckets are zero). */
function fill(keys: string[], rows: Bucketed[]): number[] {
  const by = new Map(rows.map((r) => [r.key, r.n]));
  return keys.map((k) => by.get(k) ?? 0);
}

export class DashboardService {
  constructor(private readonly deps: DashboardServiceDeps) {}

  async stats(caller: DashboardCaller, query: DashboardStatsQueryParsed): Promise<DashboardData> {
    const now = this.deps.clock.now();
    const range = resolveRange(query.timeFrame, now, query.startDate, query.endDate);
    const interval = seriesInterval(range);
    const keys = seriesKeys(range, interval, now);
    const window: StatsWindow = { ...range, interval, today: now.toISOString().slice(0, 10) };
    const groups = new Set<StatGroup>(statGroupsFor(caller.role));
    const { repository } = this.deps;

    const stats: DashboardStats = {};
    const series: DashboardSeries = { interval };
    const jobs: Array<Promise<void>> = [];

    if (groups.has('users')) {
      jobs.push(
        repository.users(window).then((u) => {
          stats.users = { totalUsers: u.total, newUsers: sum(u.created), activeUsers: u.active };
          series.users = fill(keys, u.created).map((count, i) => ({ date: keys[i], count }));
        }),
      );
    }
    if (groups.has('subscriptions')) {
      jobs.push(
        repository.subscriptions(window).then((s) => {
          stats.subscriptions = {
            activeSubscriptions: s.active,
            newSubscriptions: sum(s.created),
            cancelledSubscriptions: s.cancelled,
          };
          series.subscriptions = fill(keys, s.created).map((count, i) => ({ date: keys[i], count }));
        }),
      );
    }
    if (groups.has('revenue')) {
      jobs.push(
        this.deps.currency().then(async (currency) => {
          const r = await repository.revenue(window, currency);
          const money = (minor: number) => formatMoney(minor, currency, 'en-US');
          stats.revenue = {
            totalRevenue: money(sum(r.paid)),
            pendingPayments: money(r.pending),
            overduePayments: money(r.overdue),
          };
          series.revenue = fill(keys, r.paid).map((amount, i) => ({ date: keys[i], amount }));
          series.currency = currency;
        }),
      );
    }
    if (groups.has('tickets')) {
      jobs.push(
        repository.tickets(window, scopeFor(caller)).then((tk) => {
          stats.tickets = { openTickets: tk.open, newTickets: sum(tk.opened), resolvedTickets: sum(tk.resolved) };
          const opened = fill(keys, tk.opened);
          const resolved = fill(keys, tk.resolved);
          series.tickets = keys.map((date, i) => ({ date, opened: opened[i], resolved: resolved[i] }));
        }),
      );
    }
    await Promise.all(jobs);

    const fedByAccounting = (g: StatGroup) =>
      !!this.deps.network && (g === 'bandwidth' || g === 'activeConnections' || g === 'networkDevices');
    const network =
      groups.has('bandwidth') || groups.has('activeConnections') || groups.has('networkDevices')
        ? await this.deps.network?.(caller, window)
        : undefined;
    if (groups.has('bandwidth'))
      stats.bandwidth = {
        totalDownload: formatBytes(network?.download ?? 0),
        totalUpload: formatBytes(network?.upload ?? 0),
      };
    if (groups.has('networkDevices')) stats.networkDevices = network?.devices ?? 0;
    if (groups.has('activeConnections')) stats.activeConnections = network?.activeConnections ?? 0;

    // Keys in the spec's order, whatever order the queries finished in.
    const ordered: DashboardStats = {};
    for (const g of statGroupsFor(caller.role)) (ordered as Record<string, unknown>)[g] = stats[g];

    return {
      timeFrame: query.timeFrame,
      stats: ordered,
      dateRange: { startDate: range.startDate, endDate: range.endDate },
      series,
      unavailable: NETWORK_STAT_GROUPS.filter((g) => groups.has(g) && !fedByAccounting(g)),
      generatedAt: now.toISOString(),
    };
  }
}
