/**
 * The dashboard's time frames (spec §5) and its client cache (spec §9), without zod: the dashboard's first
 * screen needs these, and the schema library stays out of its code (contract/schemas/dashboard.ts re-exports them).
 */
export const TIME_FRAMES = ['today', 'tomorrow', 'week', 'month', 'quarter', 'year', 'custom'] as const;
export type TimeFrame = (typeof TIME_FRAMES)[number];
export const DEFAULT_TIME_FRAME: TimeFrame = 'month';

/** Client cache lifetime per time frame (spec §9). */
export const DASHBOARD_CACHE_MS = 5 * 60_000;

/** The client's cache key: the time frame, and for custom the first 10 characters of both dates (spec §9). */
export function dashboardCacheKey(timeFrame: TimeFrame, startDate?: string | null, endDate?: string | null): string {
  if (timeFrame !== 'custom') return timeFrame;
  return `custom:${String(startDate ?? '').slice(0, 10)}:${String(endDate ?? '').slice(0, 10)}`;
}

/** A real calendar day written YYYY-MM-DD (2026-02-30 is refused). */
export function isIsoDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** The longest custom range (a chart has at most ~120 monthly points). */
export const MAX_CUSTOM_RANGE_DAYS = 3660;
