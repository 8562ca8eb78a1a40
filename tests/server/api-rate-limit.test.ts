import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/server';

const TOO_MANY = { success: false, message: 'Too many requests. Please try again later.' };

describe('the API limit per client address (API_RATE_LIMIT)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { apiRateLimit: 5 } });
  });
  afterAll(() => t.close());

  const plans = (ip: string) => t.app.inject({ method: 'GET', url: '/api/plans', remoteAddress: ip });

  it('counts every /api request, says what is left, and answers 429 in the envelope with Retry-After', async () => {
    const ip = '203.0.113.20';
    for (let i = 0; i < 5; i++) {
      const res = await plans(ip);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(4 - i));
    }
    const limited = await plans(ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual(TOO_MANY);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // Another client is not affected; a minute later the first one may call again.
    expect((await plans('203.0.113.21')).statusCode).toBe(200);
    t.clock.advance(retryAfter * 1000);
    expect((await plans(ip)).statusCode).toBe(200);
  });

  it('does not count what is not the API (the web app and its files)', async () => {
    const ip = '203.0.113.30';
    for (let i = 0; i < 10; i++) await t.app.inject({ method: 'GET', url: '/dashboard/plans', remoteAddress: ip });
    const res = await plans(ip);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('4');
  });
});

describe('registration limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('allows 20 sign-ups an hour from one address, then 429 with nothing created', async () => {
    const register = (n: number, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        remoteAddress: ip,
        payload: {
          name: `Rate ${n}`,
          email: `rate${n}@example.com`,
          password: 'long-enough-1',
          phone: '+1 555 0199',
          address: '5 Main Street',
          company: '',
        },
      });
    for (let i = 0; i < 20; i++) expect((await register(i, '198.51.100.7')).statusCode).toBe(201);
    const limited = await register(20, '198.51.100.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual(TOO_MANY);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(await t.app.users.findByEmail('rate20@example.com')).toBeFalsy();
    // Another address may still sign up.
    expect((await register(21, '198.51.100.8')).statusCode).toBe(201);
    t.clock.advanceMinutes(60);
    expect((await register(20, '198.51.100.7')).statusCode).toBe(201);
  });
});
