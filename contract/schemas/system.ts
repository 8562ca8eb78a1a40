import { z } from 'zod';

/**
 * The admin system page (issue 18, GET /api/system, /dashboard/system): what runs, on what, and how it is
 * doing. The shared figures (jobs, mail, RADIUS, billing, backups, nodes) are read by the same code as the
 * Prometheus scrape (/metrics), so both show the same numbers.
 */
const count = z.number().int().nonnegative();
const instant = z.string();

export const systemNodeSchema = z.object({
  id: z.string(),
  hostname: z.string(),
  pid: count,
  version: z.string(),
  started_at: instant,
  last_seen_at: instant,
  /** Beat within the last three heartbeats. */
  responding: z.boolean(),
  /** The node that answered this request. */
  current: z.boolean(),
});

export const systemStatusSchema = z.object({
  version: z.string(),
  node: z.object({
    id: z.string(),
    hostname: z.string(),
    pid: count,
    started_at: instant,
    uptime_seconds: count,
    node_version: z.string(),
  }),
  database: z.object({
    kind: z.enum(['pglite', 'postgres']),
    size_bytes: count,
    migrations: z.object({ applied: count, known: count, latest: z.string().nullable() }),
    pool: z.object({ total: count, idle: count, waiting: count }).nullable(),
  }),
  nodes: z.array(systemNodeSchema),
  jobs: z.object({
    by_state: z.array(z.object({ queue: z.string(), state: z.string(), n: count })),
    failed_24h: z.array(z.object({ queue: z.string(), n: count })),
    oldest_waiting_seconds: z.number().nonnegative(),
  }),
  mail: z.object({ queued: count, failed: count }),
  radius: z.object({
    enabled: z.boolean(),
    sessions_open: count,
    /** Requests answered by every node in the last 60 minutes, by type and result. */
    last_hour: z.array(z.object({ type: z.string(), result: z.string(), n: count })),
  }),
  billing: z.object({
    last_run_at: instant.nullable(),
    last_run_seconds: z.number().nullable(),
    last_run_counts: z.record(z.string(), z.number()).nullable(),
  }),
  backups: z.object({
    last_at: instant.nullable(),
    last_size_bytes: count.nullable(),
    kept: count,
    scheduled: z.boolean(),
    last_failure: z.object({ at: instant, message: z.string() }).nullable(),
  }),
});
export type SystemStatus = z.infer<typeof systemStatusSchema>;

/**
 * GET /api/system/notices (every staff role): what every back-office page warns about. sandbox_payments_allowed:
 * NODE_ENV=production with ALLOW_SANDBOX_PAYMENTS=true (anyone holding a checkout link can approve a payment).
 */
export const systemNoticesSchema = z.object({ sandbox_payments_allowed: z.boolean() });
export type SystemNotices = z.infer<typeof systemNoticesSchema>;

export const SYSTEM_MESSAGES = {
  status: 'System status retrieved successfully',
  notices: 'System notices retrieved successfully',
} as const;
