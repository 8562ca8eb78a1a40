import { z } from 'zod';
import { STAT_GROUPS, type StatGroup } from '../roles';
import { DEFAULT_TIME_FRAME, TIME_FRAMES } from '../time-frames';

/**
 * Dashboard statistics (spec §3 "Dashboard stats", §5 time frames, §6 stats by role, §9 cache).
 * GET /dashboard/stats?timeFrame=…[&startDate=YYYY-MM-DD&endDate=YYYY-MM-DD] answers
 * data {timeFrame, stats, dateRange, series, unavailable, generatedAt}; the spec's readers use stats and dateRange.
 */
// Time frames and the cache key live in a module without zod: the dashboard's first screen needs them, not the
// schema library. Re-exported for the server and the schema's other readers.
export {
  MAX_CUSTOM_RANGE_DAYS,
  isIsoDay,
  type TimeFrame,
} from '../time-frames';

const emptyAsAbsent = (v: unknown) => (v === '' ? undefined : v);

export const DASHBOARD_MESSAGES = {
  stats: 'Dashboard stats fetched successfully',
  startDate: 'Start date must be a valid date (YYYY-MM-DD)',
  endDate: 'End date must be a valid date (YYYY-MM-DD)',
  endBeforeStart: 'End date cannot be before the start date',
  rangeTooLong: 'The date range cannot be longer than 10 years',
} as const;

export const dashboardStatsQuerySchema = z.object({
  // The OpenAPI document says enum, so an unknown value is refused (400, issue 32); none (or empty) is this month.
  // The client never sends another value: its own fallback to month (spec §5) is in its time-frame state.
  timeFrame: z.preprocess(emptyAsAbsent, z.enum(TIME_FRAMES).default(DEFAULT_TIME_FRAME)),
  startDate: z.preprocess(emptyAsAbsent, z.string().max(40).optional()),
  endDate: z.preprocess(emptyAsAbsent, z.string().max(40).optional()),
});
export type DashboardStatsQuery = z.input<typeof dashboardStatsQuerySchema>;
export type DashboardStatsQueryParsed = z.output<typeof dashboardStatsQuerySchema>;

export const userStatsSchema = z.object({
  totalUsers: z.number().int(),
  newUsers: z.number().int(),
  activeUsers: z.number().int(),
});
export const subscriptionStatsSchema = z.object({
  activeSubscriptions: z.number().int(),
  newSubscriptions: z.number().int(),
  cancelledSubscriptions: z.number().int(),
});
/** Formatted in the site currency, e.g. "$1,234.50". */
export const revenueStatsSchema = z.object({
  totalRevenue: z.string(),
  pendingPayments: z.string(),
  overduePayments: z.string(),
});
export const ticketStatsSchema = z.object({
  openTickets: z.number().int(),
  newTickets: z.number().int(),
  resolvedTickets: z.number().int(),
});
/** Formatted byte counts, e.g. "1.5 GB". */
export const bandwidthStatsSchema = z.object({ totalDownload: z.string(), totalUpload: z.string() });

/** Only the groups the caller's role may see are present (contract/roles.ts statGroupsFor). */
export const dashboardStatsSchema = z.object({
  users: userStatsSchema.optional(),
  subscriptions: subscriptionStatsSchema.optional(),
  revenue: revenueStatsSchema.optional(),
  tickets: ticketStatsSchema.optional(),
  bandwidth: bandwidthStatsSchema.optional(),
  networkDevices: z.number().int().optional(),
  activeConnections: z.number().int().optional(),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;

/** Inclusive, YYYY-MM-DD (UTC days). */
export const dateRangeSchema = z.object({ startDate: z.string(), endDate: z.string() });
export type DateRange = z.infer<typeof dateRangeSchema>;

/** Chart points: one per day (per month when the range is longer than 366 days), oldest first, up to today. */
export const dashboardSeriesSchema = z.object({
  interval: z.enum(['day', 'month']),
  /** Paid payments in the site currency, minor units (group revenue). */
  revenue: z.array(z.object({ date: z.string(), amount: z.number().int() })).optional(),
  currency: z.string().optional(),
  /** New subscriptions (group subscriptions). */
  subscriptions: z.array(z.object({ date: z.string(), count: z.number().int() })).optional(),
  /** Tickets opened and resolved (group tickets, the caller's visible tickets). */
  tickets: z.array(z.object({ date: z.string(), opened: z.number().int(), resolved: z.number().int() })).optional(),
  /** New customer accounts (group users). */
  users: z.array(z.object({ date: z.string(), count: z.number().int() })).optional(),
});
export type DashboardSeries = z.infer<typeof dashboardSeriesSchema>;

export const dashboardDataSchema = z.object({
  /** The time frame actually used (after the fallback to month). */
  timeFrame: z.enum(TIME_FRAMES),
  stats: dashboardStatsSchema,
  dateRange: dateRangeSchema,
  series: dashboardSeriesSchema,
  /**
   * Groups present in stats whose source is not measured yet (network monitoring arrives in a later issue):
   * their values are zero placeholders, and a screen should explain rather than show them as real zeros.
   */
  unavailable: z.array(z.enum(STAT_GROUPS)),
  /** Server time the numbers were computed (ISO). */
  generatedAt: z.string(),
});
export type DashboardData = z.infer<typeof dashboardDataSchema>;

/** Stat groups fed by network monitoring, which does not exist yet. */
export const NETWORK_STAT_GROUPS: readonly StatGroup[] = ['bandwidth', 'networkDevices', 'activeConnections'];
