/**
 * The figures every node shares, read from the database (issue 18): one reader for both the Prometheus scrape
 * (/metrics) and the admin system page (/api/system), so the page and the monitoring always show the same
 * numbers. Per-process figures (request histograms, this process's pool) stay in the metrics plugin.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { MIGRATIONS_FOLDER } from '../../db/client';
import { createSystemRepository } from './repository';

/** Nodes whose last beat is older than this many beats are shown as not responding. */
export const MISSED_BEATS = 3;

/** The migrations this build knows (drizzle's journal): how many, and the newest one's tag. */
export function knownMigrations(): { count: number; latest: string | null } {
  try {
    const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
      entries?: Array<{ tag: string }>;
    };
    const entries = journal.entries ?? [];
    return { count: entries.length, latest: entries.at(-1)?.tag ?? null };
  } catch {
    return { count: 0, latest: null };
  }
}

export interface SharedFigures {
  jobs: {
    byState: Array<{ name: string; state: string; n: number }>;
    failed24h: Array<{ name: string; n: number }>;
    oldestWaitingSeconds: number;
  };
  mail: { queued: number; failed: number };
  radius: { sessionsOpen: number; lastHour: Array<{ type: string; result: string; n: number }> };
  billing: { lastRunAt: Date | null; lastRunSeconds: number | null; lastRunCounts: Record<string, number> | null };
  backups: {
    lastAt: Date | null;
    lastSize: number | null;
    kept: number;
    lastFailure: { at: string; message: string } | null;
    scheduled: boolean;
  };
  nodes: Array<{
    id: string;
    hostname: string;
    pid: number;
    version: string;
    startedAt: Date;
    lastSeenAt: Date;
    responding: boolean;
  }>;
}

const num = (v: unknown) => Number(v ?? 0);

/** Reads the shared figures, after this node's own pending counts are written (so they are included). */
export async function readSharedFigures(app: FastifyInstance): Promise<SharedFigures> {
  const repo = createSystemRepository(app.db);
  await app.system.heartbeat
    .beat()
    .catch((error: unknown) => app.log.warn({ err: error }, 'system: the heartbeat could not be written'));
  const jobs = await app.jobs.summary();

  const mailRows = await repo.mailBacklog();
  const mail = { queued: 0, failed: 0 };
  for (const r of mailRows) mail[r.status as 'queued' | 'failed'] = num(r.n);

  const [open] = await repo.openRadiusSessions();
  const lastHour = (await repo.radiusLastHour()).map((r) => ({ type: r.type, result: r.result, n: num(r.n) }));

  const [billing] = await repo.lastBillingRun();

  const kept = await app.backups.kept.list();
  const newest = kept.items[0];

  const beat = app.config.nodeHeartbeatSeconds;
  const nodes = (await repo.nodes(beat * MISSED_BEATS)).map((r) => ({
    id: r.id,
    hostname: r.hostname,
    pid: num(r.pid),
    version: r.version,
    startedAt: new Date(r.started_at),
    lastSeenAt: new Date(r.last_seen_at),
    responding: Boolean(r.responding),
  }));

  return {
    jobs,
    mail,
    radius: { sessionsOpen: num(open?.n), lastHour },
    billing: billing
      ? {
          lastRunAt: new Date(billing.finished!),
          lastRunSeconds: billing.took === null ? null : Number(billing.took),
          lastRunCounts:
            typeof billing.counts === 'string'
              ? (JSON.parse(billing.counts) as Record<string, number>)
              : billing.counts,
        }
      : { lastRunAt: null, lastRunSeconds: null, lastRunCounts: null },
    backups: {
      lastAt: newest ? new Date(newest.created_at) : null,
      lastSize: newest?.size ?? null,
      kept: kept.items.length,
      lastFailure: kept.last_failure,
      scheduled: kept.schedule.enabled,
    },
    nodes,
  };
}

/** The database's size in bytes (PostgreSQL and PGlite alike answer pg_database_size). */
export async function databaseSize(app: FastifyInstance): Promise<number> {
  const [row] = await createSystemRepository(app.db).databaseSize();
  return num(row?.n);
}

/** Migrations applied to this database (drizzle's journal table). */
export async function appliedMigrations(app: FastifyInstance): Promise<number> {
  const [{ n }] = await createSystemRepository(app.db).appliedMigrations();
  return num(n);
}
