/**
 * The dashboard's statistics cache (spec §3, §9): one entry per time frame (custom: per the first 10 characters
 * of both dates), fresh for 5 minutes; a forced refresh skips it. It lives outside React so leaving and
 * reopening the dashboard within 5 minutes reuses the numbers, and it belongs to one signed-in user: another
 * user's first call empties it.
 */
import type { DashboardData } from '../../../contract/schemas/dashboard';
import { DASHBOARD_CACHE_MS, dashboardCacheKey, type TimeFrame } from '../../../contract/time-frames';

export interface StatsRequest {
  timeFrame: TimeFrame;
  startDate?: string;
  endDate?: string;
}

export interface LoadedStats {
  data: DashboardData;
  /** When these numbers were fetched (ms since epoch): the "last updated" time. */
  fetchedAt: number;
  fromCache: boolean;
}

export class DashboardStatsCache {
  private readonly entries = new Map<string, { data: DashboardData; fetchedAt: number }>();
  private owner: string | null = null;

  constructor(
    private readonly now: () => number = () => Date.now(),
    readonly ttlMs: number = DASHBOARD_CACHE_MS,
  ) {}

  /** Empties the cache when it was filled for another user. */
  switchOwner(owner: string): void {
    if (this.owner !== owner) this.entries.clear();
    this.owner = owner;
  }

  get(request: StatsRequest): { data: DashboardData; fetchedAt: number } | undefined {
    const key = dashboardCacheKey(request.timeFrame, request.startDate, request.endDate);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.fetchedAt >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(request: StatsRequest, data: DashboardData): { data: DashboardData; fetchedAt: number } {
    const entry = { data, fetchedAt: this.now() };
    this.entries.set(dashboardCacheKey(request.timeFrame, request.startDate, request.endDate), entry);
    return entry;
  }

  clear(): void {
    this.entries.clear();
  }
}

/** The statistics for a request: from the cache when fresh (unless forced), otherwise fetched and cached. */
export async function loadDashboardStats(
  fetchStats: (request: StatsRequest) => Promise<DashboardData>,
  cache: DashboardStatsCache,
  request: StatsRequest,
  options: { force?: boolean } = {},
): Promise<LoadedStats> {
  if (!options.force) {
    const hit = cache.get(request);
    if (hit) return { ...hit, fromCache: true };
  }
  const data = await fetchStats(request);
  return { ...cache.set(request, data), fromCache: false };
}

/** The app's one cache. */
export const dashboardStatsCache = new DashboardStatsCache();
