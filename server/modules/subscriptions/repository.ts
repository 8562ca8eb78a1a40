import { totalOver, withTotal } from '../../db/paging';
import { and, count, desc, eq, gte, ilike, lt, or, type SQL } from 'drizzle-orm';
import type { SubscriptionListQueryParsed } from '../../../contract/schemas/subscription';
import type { Db } from '../../db/client';
import { plans, subscriptions, users, type PlanRow, type SubscriptionRow } from '../../db/schema';

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface SubscriptionWithNames {
  row: SubscriptionRow;
  planName: string;
  userName: string;
  userEmail: string;
}

const columns = { row: subscriptions, planName: plans.name, userName: users.name, userEmail: users.email };

export function createSubscriptionRepository(db: Db) {
  const joined = () =>
    db.select(columns).from(subscriptions).innerJoin(plans, eq(plans.id, subscriptions.planId)).innerJoin(users, eq(users.id, subscriptions.userId));

  return {
    async page(query: SubscriptionListQueryParsed): Promise<{ items: SubscriptionWithNames[]; total: number }> {
      const conditions: SQL[] = [];
      if (query.status) conditions.push(eq(subscriptions.status, query.status));
      if (query.user_id) conditions.push(eq(subscriptions.userId, query.user_id));
      if (query.plan_id) conditions.push(eq(subscriptions.planId, query.plan_id));
      // Inclusive UTC days: from 00:00 of `from` to before 00:00 of the day after `to`.
      if (query.from) conditions.push(gte(subscriptions.createdAt, new Date(`${query.from}T00:00:00Z`)));
      if (query.to) conditions.push(lt(subscriptions.createdAt, new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000)));
      if (query.search) {
        const p = likePattern(query.search);
        conditions.push(or(ilike(users.name, p), ilike(users.email, p), ilike(plans.name, p), ilike(subscriptions.location, p), ilike(subscriptions.note, p))!);
      }
      const where = conditions.length ? and(...conditions) : undefined;
      const rows = await db
        .select({ ...columns, total: totalOver() })
        .from(subscriptions)
        .innerJoin(plans, eq(plans.id, subscriptions.planId))
        .innerJoin(users, eq(users.id, subscriptions.userId))
        .where(where)
        .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
        .limit(query.limit)
        .offset(query.offset);
      return withTotal(rows, query.offset, async () =>
        Number(
          (
            await db
              .select({ total: count() })
              .from(subscriptions)
              .innerJoin(plans, eq(plans.id, subscriptions.planId))
              .innerJoin(users, eq(users.id, subscriptions.userId))
              .where(where)
          )[0].total,
        ),
      );
    },

    async findById(id: string): Promise<SubscriptionWithNames | undefined> {
      const [row] = await joined().where(eq(subscriptions.id, id)).limit(1);
      return row;
    },

    /** Every subscription of one user, newest first. */
    async ownedBy(userId: string): Promise<SubscriptionWithNames[]> {
      return joined().where(eq(subscriptions.userId, userId)).orderBy(desc(subscriptions.createdAt), desc(subscriptions.id));
    },

    /** The user's newest active subscription and its plan. */
    async activeFor(userId: string): Promise<{ subscription: SubscriptionWithNames; plan: PlanRow } | undefined> {
      const [row] = await db
        .select({ ...columns, plan: plans })
        .from(subscriptions)
        .innerJoin(plans, eq(plans.id, subscriptions.planId))
        .innerJoin(users, eq(users.id, subscriptions.userId))
        .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'active')))
        .orderBy(desc(subscriptions.currentPeriodStart), desc(subscriptions.createdAt))
        .limit(1);
      if (!row) return undefined;
      const { plan, ...subscription } = row;
      return { subscription, plan };
    },
  };
}

export type SubscriptionRepository = ReturnType<typeof createSubscriptionRepository>;
