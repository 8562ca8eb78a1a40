/**
 * Health for load balancers (issue 14): live answers while the process serves HTTP; ready checks the database,
 * the migrations of this build and the change listener, and says which check failed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/server';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('health', () => {
  it('live and ready answer 200 on a migrated database, uncached and without signing in', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.headers['cache-control']).toBe('no-store');
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({
      success: true,
      data: { status: 'ready', checks: { database: true, migrations: true, changes: true } },
    });
  });

  it('ready answers 503 and names the check when the database is gone; live still answers', async () => {
    await t.database.close();
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({
      success: false,
      data: { status: 'not_ready', checks: { database: false, migrations: false } },
    });
    // On PostgreSQL the listener's connection went with the database too.
    expect(ready.json().message).toMatch(/^Not ready: database, migrations(, changes)?$/);
    expect((await t.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
  });
});
