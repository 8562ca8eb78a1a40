/** The audit trail's reads: the filtered, newest-first list (a page or the CSV export's rows) and one event. */
import { and, count, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { AuditListQuery } from '../../../contract/schemas/audit';
import type { Db } from '../../db/client';
import { newestFirst } from '../../db/paging';
import { auditEvents, type AuditEventRow } from '../../db/schema';

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
        matching(q).limit(limit).offset((page - 1) * limit),
        db.select({ n: count() }).from(auditEvents).where(where(q)),
      ]);
      return { rows, total: Number(n) };
    },

    async findById(id: string): Promise<AuditEventRow | undefined> {
      const [row] = await db.select().from(auditEvents).where(eq(auditEvents.id, id)).limit(1);
      return row;
    },
  };
}
