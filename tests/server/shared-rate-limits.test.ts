/**
 * Issue 14, shared limits: the rate limits count across portal processes. The PostgreSQL backend (rate_limits
 * table) on the manual clock: windows, reset, clear, sweep, concurrent increments (PGlite and PostgreSQL). Two
 * apps on one PostgreSQL database: failed logins spread over both hold the account at that address, and the address, on both
 * (PostgreSQL only). Two apps on their own databases but one Redis (REDIS_URL): the same, through Redis (skipped
 * when no Redis answers at 127.0.0.1:6379); and with Redis unreachable, counting falls back to memory.
 */
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { openDatabase, rowsOf, type Database } from '../../server/db/client';
import { ManualClock } from '../../server/lib/clock';
import { hashPassword } from '../../server/lib/passwords';
import { PostgresRateLimitBackend } from '../../server/lib/rate-limit-postgres';
import { RedisRateLimitBackend } from '../../server/lib/rate-limit-redis';
import { FallbackRateLimitBackend, MemoryRateLimitBackend } from '../../server/lib/rate-limit-store';
import { createUserRepository } from '../../server/modules/users/repository';
import { createTestApp, createTestDatabase, testConfig, TEST_PASSWORD, type TestApp } from '../helpers/server';

const ADMIN_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = 'redis://127.0.0.1:6379';
type App = Awaited<ReturnType<typeof buildApp>>;

/** Whether a Redis answers PING at 127.0.0.1:6379 within half a second. */
function redisAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(6379, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}
const HAVE_REDIS = await redisAnswers();
if (!HAVE_REDIS) console.warn(`shared-rate-limits: no Redis answers at ${REDIS_URL}; the Redis tests are skipped`);

const unique = () => randomBytes(4).toString('hex');
const octet = () => 1 + Math.floor(Math.random() * 250);
const randomIp = () => `10.${octet()}.${octet()}.${octet()}`;

const login = (app: App, email: string, password: string, ip: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password, rememberMe: false },
    remoteAddress: ip,
  });

describe('PostgresRateLimitBackend (on the manual clock)', () => {
  let database: Database;
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  let backend: PostgresRateLimitBackend;
  beforeAll(async () => {
    database = await createTestDatabase();
    backend = new PostgresRateLimitBackend(database.db, clock);
  }, 60_000);
  afterAll(() => database?.close());

  it('counts in a window, reports the time left, and starts a new window once it ends', async () => {
    expect(await backend.read('w:a')).toEqual({ count: 0, ttlMs: 0 });
    expect(await backend.increment('w:a', 60_000)).toEqual({ count: 1, ttlMs: 60_000 });
    clock.advance(20_000);
    expect(await backend.increment('w:a', 60_000)).toEqual({ count: 2, ttlMs: 40_000 });
    expect(await backend.read('w:a')).toEqual({ count: 2, ttlMs: 40_000 });
    // Reading counts nothing.
    expect(await backend.read('w:a')).toEqual({ count: 2, ttlMs: 40_000 });
    clock.advance(40_000);
    // The window ended exactly now: nothing counted any more, and the next attempt opens a fresh window.
    expect(await backend.read('w:a')).toEqual({ count: 0, ttlMs: 0 });
    expect(await backend.increment('w:a', 60_000)).toEqual({ count: 1, ttlMs: 60_000 });
  });

  it('clear forgets one key only', async () => {
    await backend.increment('c:one', 60_000);
    await backend.increment('c:one', 60_000);
    await backend.increment('c:two', 60_000);
    await backend.clear('c:one');
    expect(await backend.read('c:one')).toEqual({ count: 0, ttlMs: 0 });
    expect((await backend.read('c:two')).count).toBe(1);
    expect(await backend.increment('c:one', 60_000)).toEqual({ count: 1, ttlMs: 60_000 });
    await backend.clear('c:never-counted');
  });

  it('concurrent increments each get their own count', async () => {
    const counts = await Promise.all(Array.from({ length: 25 }, () => backend.increment('race', 60_000)));
    expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('sweeps the ended windows and keeps the running ones', async () => {
    await backend.increment('s:short', 1_000);
    await backend.increment('s:long', 3_600_000);
    clock.advance(120_000);
    await backend.sweepNow();
    const keys = rowsOf<{ key: string }>(
      await database.db.execute(sql`select key from rate_limits where key like 's:%' order by key`),
    ).map((r) => r.key);
    expect(keys).toEqual(['s:long']);
  });

  it('stores a key longer than the column by its hash', async () => {
    const long = `login-account:${'x'.repeat(600)}@example.com`;
    expect((await backend.increment(long, 60_000)).count).toBe(1);
    expect((await backend.increment(long, 60_000)).count).toBe(2);
    expect((await backend.read(long)).count).toBe(2);
  });
});

describe.skipIf(!ADMIN_URL)('two portal processes on one PostgreSQL', () => {
  const name = `isp_test_${randomBytes(6).toString('hex')}`;
  let url: string;
  const databases: Database[] = [];
  const start = new Date();
  let a: App;
  let b: App;

  async function node(): Promise<App> {
    const database = await openDatabase({ databaseUrl: url });
    databases.push(database);
    // Each process its own clock (they agree, as servers' clocks do).
    return buildApp({
      config: testConfig({ databaseUrl: url }),
      database,
      clock: new ManualClock(start),
      logger: false,
      mailer: null,
    });
  }

  beforeAll(async () => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    await client.query(`CREATE DATABASE "${name}"`);
    await client.end();
    const u = new URL(ADMIN_URL!);
    u.pathname = `/${name}`;
    url = u.toString();
    const first = await openDatabase({ databaseUrl: url });
    await first.migrate();
    await first.close();
    a = await node();
    b = await node();
    const users = createUserRepository(a.db);
    for (const email of ['target@example.com', 'other@example.com']) {
      await users.insert({
        name: 'Customer',
        email,
        passwordHash: await hashPassword(TEST_PASSWORD),
        role: 'user',
        status: 'active',
        isVerified: true,
        emailVerifiedAt: new Date(),
      });
    }
  }, 90_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const d of databases) await d.close().catch(() => {});
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.end();
  });

  it('both count in PostgreSQL', () => {
    expect(a.rateLimitBackend).toBeInstanceOf(PostgresRateLimitBackend);
    expect(b.rateLimitBackend).toBeInstanceOf(PostgresRateLimitBackend);
  });

  it('5 failed logins of an account from one address spread over A and B hold it there on both; elsewhere its owner gets in', async () => {
    for (let i = 0; i < 5; i++) {
      const response = await login(i % 2 ? b : a, 'target@example.com', 'wrong-password', '198.51.100.1');
      expect(response.statusCode, response.body).toBe(401);
    }
    for (const app of [a, b]) {
      const blocked = await login(app, 'target@example.com', TEST_PASSWORD, '198.51.100.1');
      expect(blocked.statusCode, blocked.body).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The owner from another address, and another account from that one, are not affected.
    expect((await login(b, 'target@example.com', TEST_PASSWORD, '198.51.100.200')).statusCode).toBe(200);
    expect((await login(a, 'other@example.com', TEST_PASSWORD, '198.51.100.1')).statusCode).toBe(200);
  });

  it('10 failed logins from one address spread over A and B block that address on both', async () => {
    const ip = '203.0.113.77';
    for (let i = 0; i < 10; i++)
      expect((await login(i < 5 ? a : b, `guess${i}@example.com`, 'wrong-password', ip)).statusCode).toBe(401);
    for (const app of [a, b]) expect((await login(app, 'other@example.com', TEST_PASSWORD, ip)).statusCode).toBe(429);
  });
});

describe.skipIf(!HAVE_REDIS)(
  `two portal processes on one Redis (${HAVE_REDIS ? REDIS_URL : `skipped: no Redis answers at ${REDIS_URL}`})`,
  () => {
    // Each app on its own database: whatever they share, they share through Redis.
    let a: TestApp;
    let b: TestApp;
    let redis: Redis;
    const email = `shared-${unique()}@example.com`;
    const ip = randomIp();
    const guesses: string[] = [];
    const addresses = [ip];
    const anotherIp = () => {
      addresses.push(randomIp());
      return addresses[addresses.length - 1];
    };

    beforeAll(async () => {
      redis = new Redis(REDIS_URL, { lazyConnect: true });
      await redis.connect();
      a = await createTestApp({ config: { redisUrl: REDIS_URL } });
      b = await createTestApp({ config: { redisUrl: REDIS_URL } });
      await a.createUser({ email });
      await b.createUser({ email });
      await a.createUser({ email: 'other@example.com' });
      await b.createUser({ email: 'other@example.com' });
    }, 60_000);

    afterAll(async () => {
      // Only this run's keys: its account and its address.
      if (redis) {
        const keys = [
          ...(await redis.keys(`isp:rl:*${email}`)),
          ...addresses.map((address) => `isp:rl:login-ip:${address}`),
          ...guesses.flatMap((guess) => [1, 2, 3].map((step) => `isp:rl:login-account-ip-${step}:${ip}|${guess}`)),
        ];
        if (keys.length) await redis.del(...keys);
        redis.disconnect();
      }
      await a?.close();
      await b?.close();
    });

    it('5 failed logins of an account from one address spread over A and B hold it there on both (its first step: a minute)', async () => {
      expect(a.app.rateLimitBackend).toBeInstanceOf(FallbackRateLimitBackend);
      const from = anotherIp();
      for (let i = 0; i < 5; i++) {
        const response = await login((i % 2 ? b : a).app, email, 'wrong-password', from);
        expect(response.statusCode, response.body).toBe(401);
      }
      expect(Number(await redis.get(`isp:rl:login-account-ip-1:${from}|${email}`))).toBe(5);
      const ttl = await redis.pttl(`isp:rl:login-account-ip-1:${from}|${email}`);
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
      // The longer steps count the same failures (15 minutes, a day).
      expect(await redis.pttl(`isp:rl:login-account-ip-2:${from}|${email}`)).toBeGreaterThan(14 * 60_000);
      for (const t of [a, b]) {
        const blocked = await login(t.app, email, TEST_PASSWORD, from);
        expect(blocked.statusCode, blocked.body).toBe(429);
        expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
      }
      // From another address the owner gets in.
      expect((await login(b.app, email, TEST_PASSWORD, anotherIp())).statusCode).toBe(200);
    });

    it('10 failed logins from one address spread over A and B block that address on both', async () => {
      for (let i = 0; i < 10; i++) {
        guesses.push(`guess-${unique()}@example.com`);
        expect((await login((i < 5 ? a : b).app, guesses[i], 'wrong-password', ip)).statusCode).toBe(401);
      }
      for (const t of [a, b]) expect((await login(t.app, 'other@example.com', TEST_PASSWORD, ip)).statusCode).toBe(429);
      await redis.del(`isp:rl:login-ip:${ip}`);
      expect((await login(b.app, 'other@example.com', TEST_PASSWORD, ip)).statusCode).toBe(200);
    });

    it('the backend itself: increment, read and clear under its own prefix, the window kept by Redis', async () => {
      const prefix = `isp:rl:test-${unique()}:`;
      const backend = new RedisRateLimitBackend(REDIS_URL, { keyPrefix: prefix });
      try {
        expect(await backend.ready()).toBe(true);
        expect(await backend.read('k')).toEqual({ count: 0, ttlMs: 0 });
        const first = await backend.increment('k', 60_000);
        expect(first.count).toBe(1);
        expect(first.ttlMs).toBeGreaterThan(59_000);
        expect(first.ttlMs).toBeLessThanOrEqual(60_000);
        expect((await backend.increment('k', 60_000)).count).toBe(2);
        expect((await backend.read('k')).count).toBe(2);
        expect(await redis.get(`${prefix}k`)).toBe('2');
        await backend.clear('k');
        expect(await backend.read('k')).toEqual({ count: 0, ttlMs: 0 });
        // A short window ends by Redis' own time.
        await backend.increment('short', 50);
        await new Promise((r) => setTimeout(r, 120));
        expect(await backend.read('short')).toEqual({ count: 0, ttlMs: 0 });
        expect((await backend.increment('short', 50)).count).toBe(1);
      } finally {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length) await redis.del(...keys);
        await backend.close();
      }
    });
  },
);

describe('Redis unreachable', () => {
  it('counts in memory for the failed calls and says so, without waiting', async () => {
    // Nothing listens on port 1.
    const redis = new RedisRateLimitBackend('redis://127.0.0.1:1', { onConnectionError: () => {} });
    const fallbacks: unknown[] = [];
    const backend = new FallbackRateLimitBackend(redis, new MemoryRateLimitBackend(new ManualClock()), (error) =>
      fallbacks.push(error),
    );
    try {
      expect(await redis.ready(300)).toBe(false);
      const started = Date.now();
      expect((await backend.increment('login-ip:192.0.2.1', 60_000)).count).toBe(1);
      expect((await backend.increment('login-ip:192.0.2.1', 60_000)).count).toBe(2);
      expect((await backend.read('login-ip:192.0.2.1', 60_000)).count).toBe(2);
      await backend.clear('login-ip:192.0.2.1');
      expect((await backend.read('login-ip:192.0.2.1', 60_000)).count).toBe(0);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(fallbacks.length).toBeGreaterThanOrEqual(4);
    } finally {
      await redis.close();
    }
  });
});
