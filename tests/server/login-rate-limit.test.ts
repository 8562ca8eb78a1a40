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
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password, rememberMe: false }, remoteAddress: ip });

const TOO_MANY = { success: false, message: 'Too many login attempts. Please try again later.' };

describe('login rate limit', () => {
  it('blocks an IP address after 10 failed attempts (any accounts), with Retry-After, for 15 minutes', async () => {
    const ip = '203.0.113.10';
    for (let i = 0; i < 10; i++) expect((await attempt(`guess${i}@example.com`, 'wrong-password', ip)).statusCode).toBe(401);
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

  it('blocks an account after 10 failed attempts from many addresses, even with the right password', async () => {
    for (let i = 0; i < 10; i++) expect((await attempt('target@example.com', 'wrong-password', `198.51.100.${i}`)).statusCode).toBe(401);
    const blocked = await attempt('target@example.com', TEST_PASSWORD, '198.51.100.200');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(TOO_MANY);
    expect(blocked.headers['retry-after']).toBeDefined();
    // Another account from the same addresses still works.
    expect((await attempt('other@example.com', TEST_PASSWORD, '198.51.100.1')).statusCode).toBe(200);
    t.clock.advanceMinutes(15);
    expect((await attempt('target@example.com', TEST_PASSWORD, '198.51.100.200')).statusCode).toBe(200);
  });

  it('does not count successful sign-ins', async () => {
    for (let i = 0; i < 12; i++) expect((await attempt('other@example.com', TEST_PASSWORD, '192.0.2.50')).statusCode).toBe(200);
  });
});

describe('a configured limit', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({ config: { loginRateLimit: 2, loginRateWindowMinutes: 1 } });
  });
  afterAll(() => strict.close());

  it('uses LOGIN_RATE_LIMIT and LOGIN_RATE_WINDOW_MINUTES', async () => {
    const go = () => strict.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a@example.com', password: 'x', rememberMe: false } });
    expect((await go()).statusCode).toBe(401);
    expect((await go()).statusCode).toBe(401);
    const blocked = await go();
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
    strict.clock.advanceMinutes(1);
    expect((await go()).statusCode).toBe(401);
  });
});
