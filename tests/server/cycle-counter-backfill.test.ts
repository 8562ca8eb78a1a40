/**
 * Migration 0034 (issue 36): an ISP that installs fair use mid-cycle keeps what its customers used so far this
 * cycle. The migration's SQL is run against a database holding daily usage from before and within the current
 * period: the cycle counter starts from the period's days only, and a counter already there is left alone.
 */
import { readFileSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plans, subscriptions } from '../../server/db/schema';
import { usageCycleCounters } from '../../server/db/schema/fair-use';
import { radiusUsageDaily } from '../../server/db/schema/radius';
import { createTestApp, type TestApp } from '../helpers/server';

const MIGRATION = readFileSync(
  new URL('../../server/db/migrations/0034_backfill_cycle_counters.sql', import.meta.url),
  'utf8',
);
const GIB = 2 ** 30;

describe('migration 0034: per-cycle counters from the daily usage of the current period', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sums the current period’s days (its first day whole), ignores earlier days, keeps an existing counter', async () => {
    const db = t.database.db;
    const [plan] = await db
      .insert(plans)
      .values({
        name: 'Capped',
        slug: 'capped',
        downloadMbps: 50,
        uploadMbps: 10,
        dataCapGb: 100,
        price: 1000,
        currency: 'USD',
        billingCycle: 'monthly',
      })
      .returning();
    const sub = async (email: string, start: string | null) => {
      const user = await t.createUser({ email });
      const [row] = await db
        .insert(subscriptions)
        .values({
          userId: user.id,
          planId: plan.id,
          status: 'active',
          currentPeriodStart: start ? new Date(start) : null,
          currentPeriodEnd: start ? new Date(Date.parse(start) + 30 * 86_400_000) : null,
        })
        .returning();
      return row;
    };
    const mid = await sub('mid@example.com', '2026-11-10T15:30:00Z');
    const counted = await sub('counted@example.com', '2026-11-01T00:00:00Z');
    const none = await sub('none@example.com', null);
    const day = (subscriptionId: string, d: string, gib: number) => ({
      subscriptionId,
      day: d,
      inputOctets: gib * GIB,
      outputOctets: 2 * gib * GIB,
    });
    await db
      .insert(radiusUsageDaily)
      .values([
        day(mid.id, '2026-11-09', 7),
        day(mid.id, '2026-11-10', 1),
        day(mid.id, '2026-11-20', 4),
        day(counted.id, '2026-11-05', 3),
        day(none.id, '2026-11-05', 3),
      ]);
    await db.insert(usageCycleCounters).values({
      subscriptionId: counted.id,
      cycleStart: counted.currentPeriodStart!,
      inputOctets: 42,
      outputOctets: 43,
    });

    await db.execute(sql.raw(MIGRATION));

    const counter = async (id: string, start: Date) =>
      (
        await db
          .select()
          .from(usageCycleCounters)
          .where(and(eq(usageCycleCounters.subscriptionId, id), eq(usageCycleCounters.cycleStart, start)))
      )[0];
    // 1 + 4 GiB up, twice that down; the day before the period (7 GiB) is not this cycle's.
    expect(await counter(mid.id, mid.currentPeriodStart!)).toMatchObject({
      inputOctets: 5 * GIB,
      outputOctets: 10 * GIB,
      tier: 0,
    });
    expect(await counter(counted.id, counted.currentPeriodStart!)).toMatchObject({ inputOctets: 42, outputOctets: 43 });
    const noneRows = await db.select().from(usageCycleCounters).where(eq(usageCycleCounters.subscriptionId, none.id));
    expect(noneRows).toEqual([]);
  });
});
