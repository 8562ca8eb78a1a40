/**
 * The system module's queries (issue 18, 33): the shared figures' database reads (mail backlog, RADIUS sessions
 * and request counts, the last billing run, the running nodes, the database's size and migrations), this node's
 * heartbeat and request counts, and the embedded database's vacuum.
 */
import { eq, lt, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import { portalNodes, radiusRequestCounts } from '../../db/schema';

export function createSystemRepository(db: Db) {
  return {
    /** Queued and failed mail, per status. */
    async mailBacklog(): Promise<{ status: string; n: number }[]> {
      return rowsOf<{ status: string; n: number }>(
        await db.execute(
          sql`select status, count(*)::int as n from mail_outbox where status in ('queued', 'failed') group by status`,
        ),
      );
    },

    async openRadiusSessions(): Promise<{ n: number }[]> {
      return rowsOf<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from radius_sessions where status = 'open'`),
      );
    },

    /** The RADIUS requests answered in the last hour, per type and result. */
    async radiusLastHour(): Promise<{ type: string; result: string; n: number }[]> {
      return rowsOf<{ type: string; result: string; n: number }>(
        await db.execute(
          sql`select type, result, sum(n)::int as n from radius_request_counts where minute > now() - interval '1 hour' group by type, result order by type, result`,
        ),
      );
    },

    /** The newest finished billing run (at most one row). */
    async lastBillingRun(): Promise<
      { finished: Date | string | null; took: number | null; counts: Record<string, number> | string | null }[]
    > {
      return rowsOf<{
        finished: Date | string | null;
        took: number | null;
        counts: Record<string, number> | string | null;
      }>(
        await db.execute(
          sql`select finished_at as finished, extract(epoch from finished_at - started_at)::float8 as took, counts from billing_runs where finished_at is not null order by finished_at desc limit 1`,
        ),
      );
    },

    /** The nodes, oldest first; responding: a beat within the last respondingSeconds. */
    async nodes(respondingSeconds: number): Promise<
      {
        id: string;
        hostname: string;
        pid: number;
        version: string;
        started_at: Date | string;
        last_seen_at: Date | string;
        responding: boolean;
      }[]
    > {
      return rowsOf<{
        id: string;
        hostname: string;
        pid: number;
        version: string;
        started_at: Date | string;
        last_seen_at: Date | string;
        responding: boolean;
      }>(
        await db.execute(
          sql`select id, hostname, pid, version, started_at, last_seen_at, last_seen_at > now() - make_interval(secs => ${respondingSeconds}) as responding
          from portal_nodes order by started_at, id`,
        ),
      );
    },

    async databaseSize(): Promise<{ n: number | string }[]> {
      return rowsOf<{ n: number | string }>(
        await db.execute(sql`select pg_database_size(current_database())::float8 as n`),
      );
    },

    /** How many migrations drizzle's journal table lists (0 when there is none). */
    async appliedMigrations(): Promise<{ n: number }[]> {
      return rowsOf<{ n: number }>(
        await db.execute(
          sql`select case when to_regclass('drizzle.__drizzle_migrations') is null then 0 else (select count(*) from drizzle.__drizzle_migrations) end::int as n`,
        ),
      );
    },

    /** VACUUM (ANALYZE) of one table (a name from the module's own list, never input). */
    async vacuumAnalyze(table: string): Promise<void> {
      await db.execute(sql.raw(`VACUUM (ANALYZE) "${table}"`));
    },

    /** This node's heartbeat row: written the first time, its last_seen_at moved on after. */
    async upsertNode(
      node: { id: string; hostname: string; pid: number; version: string; startedAt: Date },
      now: Date,
    ): Promise<void> {
      await db
        .insert(portalNodes)
        .values({ ...node, lastSeenAt: now })
        .onConflictDoUpdate({ target: portalNodes.id, set: { lastSeenAt: now } });
    },

    /** Adds these counts to the minute's rows. */
    async addRequestCounts(
      rows: { minute: Date; nodeId: string; type: string; result: string; n: number }[],
    ): Promise<void> {
      await db
        .insert(radiusRequestCounts)
        .values(rows)
        .onConflictDoUpdate({
          target: [
            radiusRequestCounts.minute,
            radiusRequestCounts.nodeId,
            radiusRequestCounts.type,
            radiusRequestCounts.result,
          ],
          set: { n: sql`${radiusRequestCounts.n} + excluded.n` },
        });
    },

    async deleteNodesSeenBefore(before: Date): Promise<void> {
      await db.delete(portalNodes).where(lt(portalNodes.lastSeenAt, before));
    },

    async deleteRequestCountsBefore(before: Date): Promise<void> {
      await db.delete(radiusRequestCounts).where(lt(radiusRequestCounts.minute, before));
    },

    async deleteNode(id: string): Promise<void> {
      await db.delete(portalNodes).where(eq(portalNodes.id, id));
    },
  };
}
