import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/server';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ email: 'target@example.com' });
  await t.createUser({ email: 'other@example.com' });
});
afterAll(() => t.close());

const attempt = (email: string, password: string, ip: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password, rememberMe: false },
    remoteAddress: ip,
  });

const TOO_MANY = { success: false, message: 'Too many login attempts. Please try again later.' };

describe('login rate limit', () => {
  it('blocks an IP address after 10 failed attempts (any accounts), with Retry-After, for 15 minutes', async () => {
    const ip = '203.0.113.10';
    for (let i = 0; i < 10; i++)
      expect((await attempt(`guess${i}@example.com`, 'wrong-password', ip)).statusCode).toBe(401);
    const blocked = await attempt('other@example.com', TEST_PASSWORD, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(TOO_MANY);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    // Other addresses are not affected.
    expect((await attempt('other@example.com', TEST_PASSWORD, '203.0.113.11')).statusCode).toBe(200);

    t.clock.advance(retryAfter * 1000);
    expect((await attempt('other@example.com', TEST_PASSWORD, ip)).statusCode).toBe(200);
  });

  it('strangers cannot lock an account out: 10 failures from 10 addresses leave its owner in from their own', async () => {
    for (let i = 0; i < 10; i++)
      expect((await attempt('target@example.com', 'wrong-password', `198.51.100.${i}`)).statusCode).toBe(401);
    expect((await attempt('target@example.com', TEST_PASSWORD, '198.51.100.200')).statusCode).toBe(200);
    // Each of those addresses may go on guessing (its own count is low), but only up to its own limits.
    expect((await attempt('target@example.com', 'wrong-password', '198.51.100.1')).statusCode).toBe(401);
  });

  it('one address guessing one account waits longer and longer: a minute after 5, 15 minutes after 10, a day after 20', async () => {
    const ip = '198.51.100.77';
    const guess = () => attempt('guessed@example.com', 'wrong-password', ip);
    await t.createUser({ email: 'guessed@example.com' });
    const waitAfter = async () => {
      const blocked = await attempt('guessed@example.com', TEST_PASSWORD, ip);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual(TOO_MANY);
      return Number(blocked.headers['retry-after']);
    };
    for (let i = 0; i < 5; i++) expect((await guess()).statusCode).toBe(401);
    const first = await waitAfter();
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(60);
    // The owner, elsewhere, is not held up at all.
    expect((await attempt('guessed@example.com', TEST_PASSWORD, '198.51.100.78')).statusCode).toBe(200);

    t.clock.advance(first * 1000);
    for (let i = 0; i < 5; i++) expect((await guess()).statusCode).toBe(401);
    const second = await waitAfter();
    expect(second).toBeGreaterThan(60);
    expect(second).toBeLessThanOrEqual(15 * 60);

    t.clock.advance(second * 1000);
    // The address's own limit (10 failures in 15 minutes, any accounts) has ended too; 10 more reach the day step.
    for (let i = 0; i < 5; i++) expect((await guess()).statusCode).toBe(401);
    t.clock.advance((await waitAfter()) * 1000);
    for (let i = 0; i < 5; i++) expect((await guess()).statusCode).toBe(401);
    const third = await waitAfter();
    expect(third).toBeGreaterThan(15 * 60);
    expect(third).toBeLessThanOrEqual(24 * 3600);
    expect((await attempt('guessed@example.com', TEST_PASSWORD, '198.51.100.79')).statusCode).toBe(200);
  });

  it('does not count successful sign-ins', async () => {
    for (let i = 0; i < 12; i++)
      expect((await attempt('other@example.com', TEST_PASSWORD, '192.0.2.50')).statusCode).toBe(200);
  });
});

describe('a configured limit', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({ config: { loginRateLimit: 2, loginRateWindowMinutes: 1 } });
  });
  afterAll(() => strict.close());

  it('uses LOGIN_RATE_LIMIT and LOGIN_RATE_WINDOW_MINUTES', async () => {
    const go = () =>
      strict.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'a@example.com', password: 'x', rememberMe: false },
      });
    expect((await go()).statusCode).toBe(401);
    expect((await go()).statusCode).toBe(401);
    const blocked = await go();
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
    strict.clock.advanceMinutes(1);
    expect((await go()).statusCode).toBe(401);
  });
});
