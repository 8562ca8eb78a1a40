/**
 * Issue 15, the signed-in user cache: a request with a valid access token no longer reads its user row each time,
 * and nothing gets less safe. A suspension or a role change made through the API, and a change made straight in
 * the database (as another node, the admin CLI or psql would), is refused on the user's next request. Runs on
 * PGlite and, in the PostgreSQL run, on PostgreSQL (where the database's trigger notification crosses processes).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserCache } from '../../server/lib/user-cache';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ email: 'admin@example.com', role: 'admin' });
  admin = (await t.login('admin@example.com')).token;
});
afterAll(() => t?.close());

const get = (token: string, url: string) => t.app.inject({ method: 'GET', url: `/api${url}`, headers: bearer(token) });

describe('the signed-in user cache', () => {
  it('a customer suspended through the API is refused on the very next request; once active again, only a new sign-in lets them in', async () => {
    const casey = await t.createUser({ email: 'casey@example.com' });
    const { token } = await t.login('casey@example.com');
    expect((await get(token, '/auth/profile')).statusCode).toBe(200);
    expect((await get(token, '/auth/profile')).statusCode).toBe(200); // now from the cache

    const suspended = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${casey.id}/status`,
      headers: bearer(admin),
      payload: { status: 'suspended' },
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    const refused = await get(token, '/auth/profile');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Your account is suspended. Please contact support.');

    await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${casey.id}/status`,
      headers: bearer(admin),
      payload: { status: 'active' },
    });
    // The suspension ended the access token for good (issue 32).
    expect((await get(token, '/auth/profile')).statusCode).toBe(401);
    expect((await get((await t.login('casey@example.com')).token, '/auth/profile')).statusCode).toBe(200);
  });

  it('a role taken away straight in the database (another node, the CLI, psql) is refused within a second', async () => {
    const sam = await t.createUser({ email: 'sam@example.com', role: 'admin' });
    const { token } = await t.login('sam@example.com');
    expect((await get(token, '/audit')).statusCode).toBe(200);
    expect((await get(token, '/audit')).statusCode).toBe(200);

    await t.database.db.execute(sql`update users set role = 'support' where id = ${sam.id}`);
    await expect.poll(async () => (await get(token, '/audit')).statusCode, { timeout: 1000, interval: 20 }).toBe(403);
    expect((await get(token, '/auth/profile')).json().data.user.role).toBe('support');

    await t.database.db.execute(sql`delete from users where id = ${sam.id}`);
    await expect
      .poll(async () => (await get(token, '/auth/profile')).statusCode, { timeout: 1000, interval: 20 })
      .toBe(401);
  });
});

describe('UserCache', () => {
  it('reads a row once within its time, again after it, and never keeps a read that raced with a change', async () => {
    let now = 0;
    let reads = 0;
    let value = 'old';
    let release: (() => void) | null = null;
    const cache = new UserCache<string>(
      async () => {
        reads++;
        const seen = value;
        if (release === null && value === 'slow') await new Promise<void>((r) => (release = r));
        return seen;
      },
      { ttlMs: 1000, now: () => now },
    );
    try {
      expect(await cache.get('a')).toBe('old');
      expect(await cache.get('a')).toBe('old');
      expect(reads).toBe(1);
      now = 1000;
      expect(await cache.get('a')).toBe('old');
      expect(reads).toBe(2);

      // A read in flight when the row changes: its (old) answer is returned but not kept.
      cache.invalidate('a');
      value = 'slow';
      const racing = cache.get('a');
      await new Promise((r) => setTimeout(r, 10));
      cache.invalidate('a');
      value = 'new';
      release!();
      expect(await racing).toBe('slow');
      expect(await cache.get('a')).toBe('new');
      expect(cache.size).toBe(1);
      cache.clear();
      expect(cache.size).toBe(0);
    } finally {
      cache.dispose();
    }
  });
});
