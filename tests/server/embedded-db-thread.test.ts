/**
 * The embedded database runs in its own thread (issue 33): a heavy query on it no longer freezes the server. While
 * one runs, the liveness check is answered — before the heavy query is done, where it used to wait for it — and the
 * thread's errors arrive as PGlite's (SQLSTATE and constraint kept, so a unique violation is still a 409).
 * Ordering, not timing: the heavy query takes seconds, a liveness answer a few milliseconds.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_VACUUM_JOB } from '../../server/modules/system/embedded-vacuum';
import { createTestApp, type TestApp } from '../helpers/server';

const ADMIN_URL = process.env.TEST_DATABASE_URL;

describe.skipIf(!!ADMIN_URL)('the embedded database thread', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('the server answers while a heavy query runs on the embedded database', async () => {
    const order: string[] = [];
    const heavy = t.database.db
      .execute(sql.raw('select count(*) from generate_series(1, 3000000) g where g % 7 = 3'))
      .then(() => order.push('heavy query'));
    // Give the query a moment to reach the database thread.
    await new Promise((r) => setTimeout(r, 50));
    const live = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    order.push('liveness');
    expect(live.statusCode).toBe(200);
    await heavy;
    expect(order).toEqual(['liveness', 'heavy query']);
  });

  it("the roll-up tables' dead row versions, which no autovacuum clears on the embedded database, are vacuumed by the periodic job", async () => {
    await t.database.db.execute(
      sql`insert into dashboard_daily_revenue (day, currency, amount, n) values ('2026-01-01', 'USD', 0, 0) on conflict do nothing`,
    );
    for (let i = 0; i < 300; i++)
      await t.database.db.execute(
        sql`update dashboard_daily_revenue set amount = amount + 1, n = n + 1 where day = '2026-01-01' and currency = 'USD'`,
      );
    // The statistics are flushed at the end of a statement once asked to (PostgreSQL 15's shared-memory statistics).
    const dead = async () => {
      await t.database.db.execute(sql`select pg_stat_force_next_flush()`);
      return (
        (await t.database.db.execute(
          sql`select n_dead_tup::int as n from pg_stat_user_tables where relname = 'dashboard_daily_revenue'`,
        )) as unknown as { rows: Array<{ n: number }> }
      ).rows[0]!.n;
    };
    expect(await dead()).toBeGreaterThan(0);
    expect(t.app.jobs.names).toContain(EMBEDDED_VACUUM_JOB);
    await t.app.embeddedVacuum();
    expect(await dead()).toBe(0);
  });

  it("a database error keeps PGlite's code and constraint, and a transaction that throws is rolled back", async () => {
    const error = await t.database.db
      .execute(
        sql`insert into plans (name, slug, download_mbps, upload_mbps, price, currency, billing_cycle) values ('A', 'dup', 1, 1, 0, 'USD', 'monthly'), ('B', 'dup', 1, 1, 0, 'USD', 'monthly')`,
      )
      .catch((e: unknown) => e);
    const cause =
      (error as { cause?: { code?: string; constraint?: string } }).cause ??
      (error as { code?: string; constraint?: string });
    expect(cause).toMatchObject({ code: '23505', constraint: 'plans_slug_unique' });
    await expect(
      t.database.db.transaction(async (tx) => {
        await tx.execute(
          sql`insert into plans (name, slug, download_mbps, upload_mbps, price, currency, billing_cycle) values ('C', 'kept-out', 1, 1, 0, 'USD', 'monthly')`,
        );
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const rows = await t.database.db.execute(sql`select count(*)::int as n from plans where slug = 'kept-out'`);
    expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);
  });
});
