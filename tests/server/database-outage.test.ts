/**
 * A database that cannot be reached is a 503 with Retry-After (issue 33), never a 500 "Internal server error": a
 * balancer retries a 503 elsewhere and a client later, and the log names the dependency. On PostgreSQL the app
 * talks to the database through a TCP proxy the test cuts (every connection reset, new ones refused) and
 * restores: the same app answers again without a restart. On the embedded database the database is closed under
 * the running app.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { openDatabase, rowsOf } from '../../server/db/client';
import { killDatabaseThreadForTests } from '../../server/db/pglite-remote';
import { createTestApp, createThrowawayPostgres, testConfig } from '../helpers/server';
import { TcpProxy } from '../helpers/tcp-proxy';

const ADMIN_URL = process.env.TEST_DATABASE_URL;
const UNAVAILABLE = {
  success: false,
  message: 'The service is temporarily unavailable. Please try again in a moment.',
};

describe('database unavailable', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const f of cleanup.reverse()) await f().catch(() => {});
  });

  it.skipIf(!!ADMIN_URL)(
    'the embedded database closed under the app: 503 with Retry-After on a public and a signed-in call; live still 200',
    async () => {
      const t = await createTestApp();
      cleanup.push(() => t.close());
      await t.createUser({ email: 'ada@example.com' });
      const { token } = await t.login('ada@example.com');
      expect((await t.app.inject({ method: 'GET', url: '/api/plans' })).statusCode).toBe(200);
      await t.database.close();
      for (const res of [
        await t.app.inject({ method: 'GET', url: '/api/plans' }),
        await t.app.inject({
          method: 'GET',
          url: '/api/subscriptions/orders',
          headers: { authorization: `Bearer ${token}` },
        }),
        await t.app.inject({
          method: 'POST',
          url: '/api/contact',
          payload: { name: 'Dana', email: 'dana@example.com', subject: 'Hello', message: 'Is the network down?' },
        }),
      ]) {
        expect(res.statusCode, res.body).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json()).toEqual(UNAVAILABLE);
      }
      expect((await t.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    },
  );

  it.skipIf(!!ADMIN_URL)(
    "the embedded database's thread dies under the app: 503 with Retry-After while it reopens, then the same app serves again with its data and its LISTENs",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pglite-crash-'));
      cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
      const database = await openDatabase({ pgliteDir: join(dir, 'data') });
      await database.migrate();
      const app = await buildApp({ config: testConfig(), database, logger: false, mailer: null });
      cleanup.push(async () => {
        await app.close();
        await database.close();
      });
      await app.ready();
      await database.db.execute(
        sql`insert into plans (name, slug, download_mbps, upload_mbps, price, currency, billing_cycle) values ('Before the crash', 'before-crash', 10, 5, 1500, 'USD', 'monthly')`,
      );
      const heard: string[] = [];
      await database.pglite!.listen('crash_drill', (payload) => heard.push(payload));
      expect((await app.inject({ method: 'GET', url: '/api/plans' })).statusCode).toBe(200);

      await killDatabaseThreadForTests();
      const during = await app.inject({ method: 'GET', url: '/api/plans' });
      expect(during.statusCode, during.body).toBe(503);
      expect(during.headers['retry-after']).toBe('5');
      expect(during.json()).toEqual(UNAVAILABLE);
      expect((await app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);

      await expect
        .poll(async () => (await app.inject({ method: 'GET', url: '/api/plans' })).statusCode, {
          timeout: 20_000,
          interval: 200,
        })
        .toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
      const kept = rowsOf<{ name: string }>(
        await database.db.execute(sql`select name from plans where slug = 'before-crash'`),
      );
      expect(kept).toEqual([{ name: 'Before the crash' }]);
      await database.db.execute(sql`select pg_notify('crash_drill', 'after')`);
      await expect.poll(() => heard).toEqual(['after']);
    },
  );

  it.skipIf(!ADMIN_URL)(
    'PostgreSQL cut off under a running app: 503 with Retry-After while it is away, the same app serves again once it is back',
    async () => {
      const target = new URL(ADMIN_URL!);
      const throwaway = await createThrowawayPostgres(ADMIN_URL!);
      cleanup.push(() => throwaway.drop());
      const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      await proxy.start();
      cleanup.push(() => proxy.stop());
      const url = new URL(throwaway.url);
      url.host = `127.0.0.1:${proxy.port}`;
      const database = await openDatabase({ databaseUrl: url.toString() });
      const logged: Array<Record<string, unknown>> = [];
      const app = await buildApp({
        config: testConfig({ databaseUrl: url.toString() }),
        database,
        logger: { level: 'error', stream: { write: (line: string) => logged.push(JSON.parse(line)) } } as never,
        mailer: null,
      });
      cleanup.push(async () => {
        await app.close();
        await database.close();
      });
      await app.ready();
      expect((await app.inject({ method: 'GET', url: '/api/plans' })).statusCode).toBe(200);

      await proxy.cut();
      for (let i = 0; i < 3; i++) {
        const res = await app.inject({ method: 'GET', url: '/api/plans' });
        expect(res.statusCode, res.body).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json()).toEqual(UNAVAILABLE);
      }
      expect((await app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(503);
      expect((await app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
      expect(logged.some((l) => l.dependency === 'database' && l.msg === 'database unavailable')).toBe(true);

      await proxy.restore();
      await expect
        .poll(async () => (await app.inject({ method: 'GET', url: '/api/plans' })).statusCode, {
          timeout: 10_000,
          interval: 200,
        })
        .toBe(200);
      await expect
        .poll(async () => (await app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode, {
          timeout: 10_000,
          interval: 200,
        })
        .toBe(200);
    },
  );
});
