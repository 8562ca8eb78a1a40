import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/server';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the API error envelope', () => {
  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const)(
    '%s on an unknown /api route answers a 404 envelope',
    async (method) => {
      const res = await t.app.inject({ method, url: '/api/no/such/thing' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json()).toEqual({ success: false, message: 'Route not found' });
    },
  );

  it('answers 404 for /api itself', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api' })).json()).toEqual({
      success: false,
      message: 'Route not found',
    });
  });

  it('answers 413 for a body over 1 MB', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(1_100_000), rememberMe: false }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ success: false, message: 'Request body is too large' });
  });

  it('answers 415 for a body type the API does not take', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().success).toBe(false);
  });
});

describe('server faults', () => {
  it('hide their details behind "Internal server error" (here: a table the query needs is gone)', async () => {
    const broken = await createTestApp();
    try {
      await broken.database.db.execute(sql`drop table plans cascade`);
      const res = await broken.app.inject({ method: 'GET', url: '/api/plans' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ success: false, message: 'Internal server error' });
      expect(res.body).not.toContain('plans');
    } finally {
      await broken.close();
    }
  });

  it('a database that has gone away is a 503 to retry, not a fault: the same generic words, with Retry-After (issue 33)', async () => {
    const broken = await createTestApp();
    try {
      // The job queue stops first: on PostgreSQL, dropping the database mid-job made pg-boss 10 fail the job with a
      // call it does not await (Manager.fail), an unhandled rejection in the test run. The requests are what is tested.
      await broken.app.jobs.stop();
      await broken.database.close();
      const res = await broken.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({
        success: false,
        message: 'The service is temporarily unavailable. Please try again in a moment.',
      });
    } finally {
      await broken.close();
    }
  });
});
