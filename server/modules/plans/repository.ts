import { totalOver, withTotal } from '../../db/paging';
import { and, asc, count, desc, eq, getTableColumns, ilike, or, type SQL } from 'drizzle-orm';
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

export function createPlanRepository(db: Db) {
  return {
    async page(query: PlanListQueryParsed): Promise<{ items: PlanRow[]; total: number }> {
      const conditions: SQL[] = [];
      if (query.status) conditions.push(eq(plans.status, query.status));
      if (query.billing_cycle) conditions.push(eq(plans.billingCycle, query.billing_cycle));
      if (query.search) {
        const p = likePattern(query.search);
        conditions.push(or(ilike(plans.name, p), ilike(plans.slug, p), ilike(plans.description, p))!);
      }
      const where = conditions.length ? and(...conditions) : undefined;
      const direction = query.order === 'desc' ? desc : asc;
      const offset = (query.page - 1) * query.limit;
      const rows = await db
        .select({ ...getTableColumns(plans), total: totalOver() })
        .from(plans)
        .where(where)
        .orderBy(direction(SORT_COLUMNS[query.sort]), asc(plans.name), asc(plans.id))
        .limit(query.limit)
        .offset(offset);
      return withTotal(rows, offset, async () => Number((await db.select({ total: count() }).from(plans).where(where))[0].total));
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
