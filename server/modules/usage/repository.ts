/**
 * Reading data usage (issue 8): a customer's lines with their plans, the days radius_usage_daily booked, the open
 * RADIUS sessions, staff's per-customer overview of the month and the dashboard's network figures.
 */
import { and, asc, count, desc, eq, gte, ilike, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { plans, subscriptions, users } from '../../db/schema';
import { devices } from '../../db/schema/devices';
import { radiusSessions, radiusUsageDaily } from '../../db/schema/radius';

export function createUsageRepository(db: Db) {
  return {
    /** The customer's subscriptions with their plan: active, suspended, pending, then the rest; newest first. */
    async linesOf(userId: string) {
      return db
        .select({
          sub: subscriptions,
          planName: plans.name,
          cycle: plans.billingCycle,
          capGb: plans.dataCapGb,
          plan: plans,
        })
        .from(subscriptions)
        .innerJoin(plans, eq(plans.id, subscriptions.planId))
        .where(eq(subscriptions.userId, userId))
        .orderBy(
          sql`case ${subscriptions.status} when 'active' then 0 when 'suspended' then 1 when 'pending' then 2 else 3 end`,
          desc(subscriptions.createdAt),
        );
    },

    /** The subscription's booked days in [start, end) (UTC days), by day. */
    async daysOf(subscriptionId: string, start: string, end: string) {
      return db
        .select({
          day: radiusUsageDaily.day,
          input: radiusUsageDaily.inputOctets,
          output: radiusUsageDaily.outputOctets,
        })
        .from(radiusUsageDaily)
        .where(
          and(
            eq(radiusUsageDaily.subscriptionId, subscriptionId),
            gte(radiusUsageDaily.day, start),
            lt(radiusUsageDaily.day, end),
          ),
        )
        .orderBy(asc(radiusUsageDaily.day));
    },

    /** The subscription's newest open session, if any. */
    async openSession(subscriptionId: string) {
      const [open] = await db
        .select()
        .from(radiusSessions)
        .where(and(eq(radiusSessions.subscriptionId, subscriptionId), eq(radiusSessions.status, 'open')))
        .orderBy(desc(radiusSessions.startedAt))
        .limit(1);
      return open;
    },

    /**
     * Staff's overview for the days [start, end): one page of the customers with a line (heaviest first, then by
     * name), how many match, the network's totals, the open sessions and the customers with a line.
     */
    async customersInMonth(input: {
      start: string;
      end: string;
      pattern: string | null;
      limit: number;
      offset: number;
    }) {
      const inMonth = and(gte(radiusUsageDaily.day, input.start), lt(radiusUsageDaily.day, input.end));

      const lineCounts = db
        .select({ userId: subscriptions.userId, lines: sql<number>`count(*)::int`.as('lines') })
        .from(subscriptions)
        .groupBy(subscriptions.userId)
        .as('line_counts');
      const used = db
        .select({
          userId: subscriptions.userId,
          download: sql<string>`coalesce(sum(${radiusUsageDaily.outputOctets}), 0)`.as('download'),
          upload: sql<string>`coalesce(sum(${radiusUsageDaily.inputOctets}), 0)`.as('upload'),
        })
        .from(radiusUsageDaily)
        .innerJoin(subscriptions, eq(subscriptions.id, radiusUsageDaily.subscriptionId))
        .where(inMonth)
        .groupBy(subscriptions.userId)
        .as('used');
      const open = db
        .select({ userId: subscriptions.userId, online: sql<number>`count(*)::int`.as('online') })
        .from(radiusSessions)
        .innerJoin(subscriptions, eq(subscriptions.id, radiusSessions.subscriptionId))
        .where(eq(radiusSessions.status, 'open'))
        .groupBy(subscriptions.userId)
        .as('open_sessions');

      const where = and(
        eq(users.role, 'user'),
        input.pattern ? or(ilike(users.name, input.pattern), ilike(users.email, input.pattern)) : undefined,
      );
      const total = sql<string>`coalesce(${used.download}, 0) + coalesce(${used.upload}, 0)`;

      return Promise.all([
        db
          .select({
            id: users.id,
            name: users.name,
            email: users.email,
            lines: lineCounts.lines,
            download: used.download,
            upload: used.upload,
            online: open.online,
          })
          .from(users)
          .innerJoin(lineCounts, eq(lineCounts.userId, users.id))
          .leftJoin(used, eq(used.userId, users.id))
          .leftJoin(open, eq(open.userId, users.id))
          .where(where)
          .orderBy(desc(total), asc(users.name), asc(users.id))
          .limit(input.limit)
          .offset(input.offset),
        db.select({ n: count() }).from(users).innerJoin(lineCounts, eq(lineCounts.userId, users.id)).where(where),
        db
          .select({
            download: sql<string>`coalesce(sum(${radiusUsageDaily.outputOctets}), 0)`,
            upload: sql<string>`coalesce(sum(${radiusUsageDaily.inputOctets}), 0)`,
          })
          .from(radiusUsageDaily)
          .where(inMonth),
        db.select({ n: count() }).from(radiusSessions).where(eq(radiusSessions.status, 'open')),
        db
          .select({ n: count() })
          .from(users)
          .innerJoin(lineCounts, eq(lineCounts.userId, users.id))
          .where(eq(users.role, 'user')),
      ]);
    },

    /** The dashboard's figures for the days [startDate, endDate]: one customer's (userId) or the whole network's. */
    async networkStats(window: { startDate: string; endDate: string }, userId: string | null) {
      const inRange = and(gte(radiusUsageDaily.day, window.startDate), lte(radiusUsageDaily.day, window.endDate));
      const bytes = db
        .select({
          download: sql<string>`coalesce(sum(${radiusUsageDaily.outputOctets}), 0)`,
          upload: sql<string>`coalesce(sum(${radiusUsageDaily.inputOctets}), 0)`,
        })
        .from(radiusUsageDaily);
      const sessions = db.select({ n: count() }).from(radiusSessions);
      return Promise.all([
        userId !== null
          ? bytes
              .innerJoin(subscriptions, eq(subscriptions.id, radiusUsageDaily.subscriptionId))
              .where(and(inRange, eq(subscriptions.userId, userId)))
          : bytes.where(inRange),
        userId !== null
          ? sessions
              .innerJoin(subscriptions, eq(subscriptions.id, radiusSessions.subscriptionId))
              .where(and(eq(radiusSessions.status, 'open'), eq(subscriptions.userId, userId)))
          : sessions.where(eq(radiusSessions.status, 'open')),
        userId !== null ? Promise.resolve([{ n: 0 }]) : db.select({ n: count() }).from(devices),
      ]);
    },
  };
}
