/**
 * The audit trail's queries: the filtered, newest-first list (a page or the CSV export's rows), one event, the
 * insert of an event (recordAudit) and the retention job's locked delete (pruneAuditTrail).
 */
import { and, count, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { AuditListQuery } from '../../../contract/schemas/audit';
import { rowsOf, type Db } from '../../db/client';
import { newestFirst } from '../../db/paging';
import { auditEvents, type AuditEventRow } from '../../db/schema';

/** Any constant of our own: the advisory lock that keeps two processes from pruning at once. */
const PRUNE_LOCK = 0x61756474; // "audt"

function where(q: AuditListQuery): SQL | undefined {
  const c: SQL[] = [];
  if (q.actor_id) c.push(eq(auditEvents.actorId, q.actor_id));
  if (q.action) c.push(eq(auditEvents.action, q.action));
  if (q.target_type) c.push(eq(auditEvents.targetType, q.target_type));
  if (q.target_id) c.push(eq(auditEvents.targetId, q.target_id));
  if (q.from) c.push(gte(auditEvents.at, new Date(q.from)));
  if (q.to) c.push(lte(auditEvents.at, new Date(q.to)));
  return c.length ? and(...c) : undefined;
}

export function createAuditRepository(db: Db) {
  const matching = (q: AuditListQuery) =>
    db.select().from(auditEvents).where(where(q)).orderBy(newestFirst(auditEvents.at), newestFirst(auditEvents.seq));
  return {
    /** The first `limit` matching events (the CSV export). */
    async first(q: AuditListQuery, limit: number): Promise<AuditEventRow[]> {
      return matching(q).limit(limit);
    },

    /** Page `page` of `limit` matching events, and how many match. */
    async page(q: AuditListQuery, page: number, limit: number): Promise<{ rows: AuditEventRow[]; total: number }> {
      const [rows, [{ n }]] = await Promise.all([
        matching(q)
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(auditEvents).where(where(q)),
      ]);
      return { rows, total: Number(n) };
    },

    async findById(id: string): Promise<AuditEventRow | undefined> {
      const [row] = await db.select().from(auditEvents).where(eq(auditEvents.id, id)).limit(1);
      return row;
    },

    async insert(values: typeof auditEvents.$inferInsert): Promise<void> {
      await db.insert(auditEvents).values(values);
    },

    /**
     * In a transaction (`db` made on it): delete the events before `before` and say how many, or null when another
     * process holds the prune lock. The table's trigger allows the delete only with portal.audit_prune on.
     */
    async pruneBefore(before: Date): Promise<number | null> {
      const [lock] = rowsOf(await db.execute(sql`select pg_try_advisory_xact_lock(${PRUNE_LOCK}) as got`));
      if (!lock?.got) return null;
      await db.execute(sql`select set_config('portal.audit_prune', 'on', true)`);
      const [{ n }] = rowsOf(
        await db.execute(
          sql`with gone as (delete from audit_events where at < ${before.toISOString()}::timestamptz returning 1) select count(*)::int as n from gone`,
        ),
      );
      await db.execute(sql`select set_config('portal.audit_prune', 'off', true)`);
      return Number(n);
    },
  };
}
