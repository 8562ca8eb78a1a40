/** Reading and writing tickets, their replies and attachments (with the names of the people involved). */
import { likePattern, newestFirst, PreparedByShape } from '../../db/paging';
import { and, asc, count, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TicketListQueryParsed } from '../../../contract/schemas/ticket';
import type { Db } from '../../db/client';
import {
  subscriptions,
  ticketAttachments,
  ticketReplies,
  tickets,
  users,
  type NewTicketRow,
  type TicketAttachmentRow,
  type TicketReplyRow,
  type TicketRow,
} from '../../db/schema';

const creator = alias(users, 'creator');
const assignee = alias(users, 'assignee');

export interface TicketWithNames {
  row: TicketRow;
  creatorName: string;
  creatorEmail: string;
  /** The people's languages (users.language; null: the ISP's default), for the e-mails to them. */
  creatorLanguage: string | null;
  assigneeName: string | null;
  assigneeEmail: string | null;
  assigneeLanguage: string | null;
}

export interface ReplyWithAuthor {
  row: TicketReplyRow;
  authorName: string;
  authorRole: string;
}

export interface AttachmentWithUploader {
  row: TicketAttachmentRow;
  uploaderName: string;
}

/** Which tickets a caller may see, as a condition on the tickets table (undefined: all of them). */
export type TicketScope = SQL | undefined;

/**
 * The tickets a list page may show, as data (the page is a prepared statement per shape, the caller's id a value):
 * every ticket; or the caller's own and assigned ones, plus the categories of their queue; or (assignedOnly) only
 * those assigned to them.
 */
export type TicketPageScope = { all: true } | { me: string; queue?: readonly string[]; assignedOnly?: boolean };

function pageScopeCondition(scope: TicketPageScope): SQL | undefined {
  if ('all' in scope) return undefined;
  const me = sql.placeholder('me');
  if (scope.assignedOnly) return eq(tickets.assignedTo, me);
  const mine = or(eq(tickets.createdBy, me), eq(tickets.assignedTo, me))!;
  return scope.queue?.length
    ? or(mine, inArray(tickets.category, [...scope.queue] as (typeof tickets.category.enumValues)[number][]))!
    : mine;
}

/** A page scope as a plain condition, its id a value (the stats and the dashboard's ticket figures); undefined: all. */
export function scopeCondition(scope: TicketPageScope): TicketScope {
  if ('all' in scope) return undefined;
  if (scope.assignedOnly) return eq(tickets.assignedTo, scope.me);
  const mine = or(eq(tickets.createdBy, scope.me), eq(tickets.assignedTo, scope.me))!;
  return scope.queue?.length
    ? or(mine, inArray(tickets.category, [...scope.queue] as (typeof tickets.category.enumValues)[number][]))!
    : mine;
}

export function createTicketRepository(db: Db) {
  const joinedColumns = {
    row: tickets,
    creatorName: creator.name,
    creatorEmail: creator.email,
    creatorLanguage: creator.language,
    assigneeName: assignee.name,
    assigneeEmail: assignee.email,
    assigneeLanguage: assignee.language,
  };
  const joined = (conn: Db = db) =>
    conn
      .select(joinedColumns)
      .from(tickets)
      .innerJoin(creator, eq(creator.id, tickets.createdBy))
      .leftJoin(assignee, eq(assignee.id, tickets.assignedTo));

  /** The page's filters, with placeholders for the values (see page()). */
  const pageFilters = (scope: TicketPageScope, query: TicketListQueryParsed): SQL | undefined => {
    const conditions: SQL[] = [];
    const scoped = pageScopeCondition(scope);
    if (scoped) conditions.push(scoped);
    if (query.status) conditions.push(eq(tickets.status, sql.placeholder('status')));
    if (query.priority) conditions.push(eq(tickets.priority, sql.placeholder('priority')));
    if (query.category) conditions.push(eq(tickets.category, sql.placeholder('category')));
    if (query.assigned_to === 'none') conditions.push(isNull(tickets.assignedTo));
    else if (query.assigned_to) conditions.push(eq(tickets.assignedTo, sql.placeholder('assigned_to')));
    if (query.search) {
      const p = sql.placeholder('pattern');
      conditions.push(
        or(ilike(tickets.number, p), ilike(tickets.subject, p), ilike(creator.name, p), ilike(creator.email, p))!,
      );
    }
    return conditions.length ? and(...conditions) : undefined;
  };
  const pages = new PreparedByShape<ReturnType<typeof preparePage>>('tickets_page');
  const counts = new PreparedByShape<ReturnType<typeof prepareCount>>('tickets_count');
  function preparePage(scope: TicketPageScope, query: TicketListQueryParsed, name: string) {
    return db
      .select(joinedColumns)
      .from(tickets)
      .innerJoin(creator, eq(creator.id, tickets.createdBy))
      .leftJoin(assignee, eq(assignee.id, tickets.assignedTo))
      .where(pageFilters(scope, query))
      .orderBy(newestFirst(tickets.updatedAt), newestFirst(tickets.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name);
  }
  function prepareCount(scope: TicketPageScope, query: TicketListQueryParsed, name: string) {
    // The creator is joined only for a search (which matches their name and e-mail); every ticket has one.
    const base = db.select({ total: count() }).from(tickets);
    return (query.search ? base.innerJoin(creator, eq(creator.id, tickets.createdBy)) : base)
      .where(pageFilters(scope, query))
      .prepare(name);
  }

  return {
    /** Newest activity first. */
    async page(
      scope: TicketPageScope,
      query: TicketListQueryParsed,
    ): Promise<{ items: TicketWithNames[]; total: number }> {
      const values = {
        me: 'me' in scope ? scope.me : undefined,
        status: query.status,
        priority: query.priority,
        category: query.category,
        assigned_to: query.assigned_to && query.assigned_to !== 'none' ? query.assigned_to : undefined,
        pattern: query.search ? likePattern(query.search) : undefined,
      };
      const shape = [
        'all' in scope ? 'all' : scope.assignedOnly ? 'assigned' : `mine:${(scope.queue ?? []).join('+')}`,
        ...Object.entries(values)
          .filter(([k, v]) => k !== 'me' && v !== undefined)
          .map(([k]) => k),
        query.assigned_to === 'none' ? 'unassigned' : '',
      ].join(',');
      const offset = (query.page - 1) * query.limit;
      // Two statements, not a count(*) over () on the page's: that makes PostgreSQL read and join every matching
      // row before the LIMIT (0.7 s for the first page of 200 000 tickets in bench:api).
      const [items, counted] = await Promise.all([
        pages.get(shape, (name) => preparePage(scope, query, name)).execute({ ...values, limit: query.limit, offset }),
        counts.get(shape, (name) => prepareCount(scope, query, name)).execute(values),
      ]);
      return { items, total: Number(counted[0].total) };
    },

    async findById(id: string, conn: Db = db): Promise<TicketWithNames | undefined> {
      const [row] = await joined(conn).where(eq(tickets.id, id)).limit(1);
      return row;
    },

    /** The ticket row under a row lock (inside a transaction). */
    async lock(tx: Db, id: string): Promise<TicketRow | undefined> {
      const [row] = await tx.select().from(tickets).where(eq(tickets.id, id)).for('update');
      return row;
    },

    async nextNumber(tx: Db): Promise<number> {
      const result = await tx.execute<{ n: string | number }>(sql`select nextval('ticket_number_seq') as n`);
      const rows = (result as unknown as { rows: Array<{ n: string | number }> }).rows;
      return Number(rows[0].n);
    },

    async insert(tx: Db, values: NewTicketRow): Promise<TicketRow> {
      const [row] = await tx.insert(tickets).values(values).returning();
      return row;
    },

    async update(tx: Db, id: string, values: Partial<NewTicketRow>): Promise<TicketRow | undefined> {
      const [row] = await tx.update(tickets).set(values).where(eq(tickets.id, id)).returning();
      return row;
    },

    async delete(id: string): Promise<boolean> {
      const rows = await db.delete(tickets).where(eq(tickets.id, id)).returning({ id: tickets.id });
      return rows.length > 0;
    },

    async replies(ticketId: string, includeInternal: boolean): Promise<ReplyWithAuthor[]> {
      const where = includeInternal
        ? eq(ticketReplies.ticketId, ticketId)
        : and(eq(ticketReplies.ticketId, ticketId), eq(ticketReplies.isInternal, false));
      return db
        .select({ row: ticketReplies, authorName: users.name, authorRole: users.role })
        .from(ticketReplies)
        .innerJoin(users, eq(users.id, ticketReplies.authorId))
        .where(where)
        .orderBy(asc(ticketReplies.createdAt), asc(ticketReplies.id));
    },

    async reply(id: string): Promise<ReplyWithAuthor | undefined> {
      const [row] = await db
        .select({ row: ticketReplies, authorName: users.name, authorRole: users.role })
        .from(ticketReplies)
        .innerJoin(users, eq(users.id, ticketReplies.authorId))
        .where(eq(ticketReplies.id, id));
      return row;
    },

    async insertReply(tx: Db, values: typeof ticketReplies.$inferInsert): Promise<TicketReplyRow> {
      const [row] = await tx.insert(ticketReplies).values(values).returning();
      return row;
    },

    async attachments(ticketId: string): Promise<AttachmentWithUploader[]> {
      return db
        .select({ row: ticketAttachments, uploaderName: users.name })
        .from(ticketAttachments)
        .innerJoin(users, eq(users.id, ticketAttachments.uploadedBy))
        .where(eq(ticketAttachments.ticketId, ticketId))
        .orderBy(asc(ticketAttachments.createdAt), asc(ticketAttachments.id));
    },

    async attachment(ticketId: string, id: string): Promise<TicketAttachmentRow | undefined> {
      const [row] = await db
        .select()
        .from(ticketAttachments)
        .where(and(eq(ticketAttachments.ticketId, ticketId), eq(ticketAttachments.id, id)));
      return row;
    },

    async insertAttachments(
      tx: Db,
      values: Array<typeof ticketAttachments.$inferInsert>,
    ): Promise<TicketAttachmentRow[]> {
      return tx.insert(ticketAttachments).values(values).returning();
    },

    async attachmentsByIds(ids: string[]): Promise<AttachmentWithUploader[]> {
      if (!ids.length) return [];
      return db
        .select({ row: ticketAttachments, uploaderName: users.name })
        .from(ticketAttachments)
        .innerJoin(users, eq(users.id, ticketAttachments.uploadedBy))
        .where(inArray(ticketAttachments.id, ids))
        .orderBy(asc(ticketAttachments.createdAt), asc(ticketAttachments.id));
    },

    /** Counts by status and priority and the average response/resolution times (seconds) within a scope. */
    async stats(scope: TicketScope): Promise<{
      byStatus: Array<{ key: string; n: number }>;
      byPriority: Array<{ key: string; n: number }>;
      avgFirstResponse: number | null;
      avgResolution: number | null;
    }> {
      const [byStatus, byPriority, [firstResponse], [resolution]] = await Promise.all([
        db.select({ key: tickets.status, n: count() }).from(tickets).where(scope).groupBy(tickets.status),
        db.select({ key: tickets.priority, n: count() }).from(tickets).where(scope).groupBy(tickets.priority),
        db
          .select({
            avg: sql<string | null>`avg(extract(epoch from (${tickets.firstResponseAt} - ${tickets.createdAt})))`,
          })
          .from(tickets)
          .where(and(scope, isNotNull(tickets.firstResponseAt))),
        db
          .select({ avg: sql<string | null>`avg(extract(epoch from (${tickets.resolvedAt} - ${tickets.createdAt})))` })
          .from(tickets)
          .where(and(scope, isNotNull(tickets.resolvedAt))),
      ]);
      const num = (v: string | number | null | undefined) => (v === null || v === undefined ? null : Number(v));
      return {
        byStatus: byStatus.map((r) => ({ key: r.key, n: Number(r.n) })),
        byPriority: byPriority.map((r) => ({ key: r.key, n: Number(r.n) })),
        avgFirstResponse: num(firstResponse?.avg),
        avgResolution: num(resolution?.avg),
      };
    },

    async subscriptionOwner(id: string): Promise<string | undefined> {
      const [row] = await db
        .select({ userId: subscriptions.userId })
        .from(subscriptions)
        .where(eq(subscriptions.id, id));
      return row?.userId;
    },

    /** An active staff user (a valid assignee), or undefined. */
    /** The id of the user with this e-mail address (the demo seed). */
    async userIdByEmail(email: string): Promise<string | undefined> {
      const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
      return row?.id;
    },

    /** Whether there is any ticket at all (the demo seed fills an empty table only). */
    async any(): Promise<boolean> {
      return (await db.select({ id: tickets.id }).from(tickets).limit(1)).length > 0;
    },

    async insertReplies(tx: Db, values: Array<typeof ticketReplies.$inferInsert>): Promise<void> {
      await tx.insert(ticketReplies).values(values);
    },

    async user(
      id: string,
    ): Promise<{ id: string; name: string; email: string; role: string; status: string } | undefined> {
      const [row] = await db
        .select({ id: users.id, name: users.name, email: users.email, role: users.role, status: users.status })
        .from(users)
        .where(eq(users.id, id));
      return row;
    },
  };
}

export type TicketRepository = ReturnType<typeof createTicketRepository>;
