/**
 * Issue 15, the per-minute API limit without a database write per request: BatchedRateLimitBackend counts in memory
 * and adds the counts to the shared backend once a second. Two processes ("nodes") over one shared backend — memory
 * here, PostgreSQL's rate_limits table in the PostgreSQL run — still reach the limit together, to within one flush.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/lib/clock';
import { PostgresRateLimitBackend } from '../../server/lib/rate-limit-postgres';
import {
  BatchedRateLimitBackend,
  MemoryRateLimitBackend,
  type RateLimitBackend,
} from '../../server/lib/rate-limit-store';
import { createTestDatabase } from '../helpers/server';
import type { Database } from '../../server/db/client';

const WINDOW = 60_000;
const clock = new ManualClock(new Date('2026-11-25T12:00:00Z'));
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

const backends: Array<[string, () => RateLimitBackend]> = [
  ['memory', () => new MemoryRateLimitBackend(clock)],
  [
    process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'the rate_limits table (PGlite)',
    () => new PostgresRateLimitBackend(database.db, clock),
  ],
];

describe.each(backends)('over %s', (_name, make) => {
  it('two nodes counting 12 each reach a limit of 20 together once they have flushed', async () => {
    const shared = make();
    const key = `api:203.0.113.${Math.floor(Math.random() * 200)}`;
    const a = new BatchedRateLimitBackend(shared, clock, { flushMs: 60_000 });
    const b = new BatchedRateLimitBackend(shared, clock, { flushMs: 60_000 });
    try {
      for (let i = 0; i < 12; i++) await a.increment(key, WINDOW);
      for (let i = 0; i < 12; i++) await b.increment(key, WINDOW);
      // Before a flush each node has only its own count.
      expect((await a.read(key)).count).toBe(12);
      expect((await b.read(key)).count).toBe(12);
      await a.flush();
      await b.flush();
      expect((await shared.read(key, WINDOW)).count).toBe(24);
      // B's flush brought A's 12 back; A learns B's at its next flush.
      expect((await b.increment(key, WINDOW)).count).toBe(25);
      await a.flush();
      expect((await a.increment(key, WINDOW)).count).toBe(25);
      expect((await a.read(key)).ttlMs).toBeGreaterThan(0);
    } finally {
      await a.close();
      await b.close();
    }
    expect((await shared.read(key, WINDOW)).count).toBe(26);
  });

  it('keeps what it counted when the shared backend fails, and adds it at the next flush', async () => {
    const real = make();
    let down = true;
    const errors: unknown[] = [];
    const flaky: RateLimitBackend = {
      increment: (key, windowMs, by) =>
        down ? Promise.reject(new Error('database unreachable')) : real.increment(key, windowMs, by),
      read: (key, windowMs) => real.read(key, windowMs),
      clear: (key) => real.clear(key),
    };
    const key = `api:198.51.100.${Math.floor(Math.random() * 200)}`;
    const node = new BatchedRateLimitBackend(flaky, clock, { flushMs: 60_000, onError: (e) => errors.push(e) });
    for (let i = 0; i < 5; i++) await node.increment(key, WINDOW);
    await node.flush();
    expect(errors).toHaveLength(1);
    expect((await node.read(key)).count).toBe(5);
    down = false;
    await node.flush();
    expect((await real.read(key, WINDOW)).count).toBe(5);
    await node.close();
  });
});
