import { PreparedByShape, totalOver, withTotal } from '../../db/paging';
import { and, asc, count, desc, eq, getTableColumns, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { PlanListQueryParsed } from '../../../contract/schemas/plan';
import type { Db } from '../../db/client';
import { plans, subscriptions, type NewPlanRow, type PlanRow } from '../../db/schema';

const SORT_COLUMNS = {
  name: plans.name,
  price: plans.price,
  sort_order: plans.sortOrder,
  created_at: plans.createdAt,
  download_mbps: plans.downloadMbps,
} as const;

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The page's filters with placeholders (values come at execution), and whether each is present (the shape). */
function pageConditions(query: PlanListQueryParsed): SQL | undefined {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(plans.status, sql.placeholder('status')));
  if (query.billing_cycle) conditions.push(eq(plans.billingCycle, sql.placeholder('billing_cycle')));
  if (query.search) {
    const p = sql.placeholder('pattern');
    conditions.push(or(ilike(plans.name, p), ilike(plans.slug, p), ilike(plans.description, p))!);
  }
  return conditions.length ? and(...conditions) : undefined;
}

export function createPlanRepository(db: Db) {
  const pages = new PreparedByShape<ReturnType<typeof preparePage>>('plans_page');
  const counts = new PreparedByShape<ReturnType<typeof prepareCount>>('plans_count');
  function preparePage(query: PlanListQueryParsed, name: string) {
    const direction = query.order === 'desc' ? desc : asc;
    return db
      .select({ ...getTableColumns(plans), total: totalOver() })
      .from(plans)
      .where(pageConditions(query))
      .orderBy(direction(SORT_COLUMNS[query.sort]), asc(plans.name), asc(plans.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name);
  }
  function prepareCount(query: PlanListQueryParsed, name: string) {
    return db.select({ total: count() }).from(plans).where(pageConditions(query)).prepare(name);
  }
  return {
    async page(query: PlanListQueryParsed): Promise<{ items: PlanRow[]; total: number }> {
      const filters = [query.status ? 's' : '', query.billing_cycle ? 'b' : '', query.search ? 'q' : ''].join('');
      const values = { status: query.status, billing_cycle: query.billing_cycle, pattern: query.search ? likePattern(query.search) : undefined };
      const offset = (query.page - 1) * query.limit;
      const rows = await pages.get(`${filters}|${query.sort}|${query.order}`, (name) => preparePage(query, name)).execute({ ...values, limit: query.limit, offset });
      return withTotal(rows, offset, async () => Number((await counts.get(filters, (name) => prepareCount(query, name)).execute(values))[0].total));
    },

    async findById(id: string): Promise<PlanRow | undefined> {
      const [row] = await db.select().from(plans).where(eq(plans.id, id)).limit(1);
      return row;
    },

    async slugTaken(slug: string, exceptId?: string): Promise<boolean> {
      const [row] = await db.select({ id: plans.id }).from(plans).where(eq(plans.slug, slug)).limit(1);
      return Boolean(row && row.id !== exceptId);
    },

    async insert(values: NewPlanRow): Promise<PlanRow> {
      const [row] = await db.insert(plans).values(values).returning();
      return row;
    },

    async update(id: string, values: Partial<NewPlanRow>): Promise<PlanRow | undefined> {
      const [row] = await db.update(plans).set(values).where(eq(plans.id, id)).returning();
      return row;
    },

    async delete(id: string): Promise<boolean> {
      const rows = await db.delete(plans).where(eq(plans.id, id)).returning({ id: plans.id });
      return rows.length > 0;
    },

    async count(): Promise<number> {
      const [{ total }] = await db.select({ total: count() }).from(plans);
      return Number(total);
    },

    async subscriptionCount(planId: string): Promise<number> {
      const [{ total }] = await db.select({ total: count() }).from(subscriptions).where(eq(subscriptions.planId, planId));
      return Number(total);
    },
  };
}

export type PlanRepository = ReturnType<typeof createPlanRepository>;
