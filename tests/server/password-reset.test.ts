import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, linkIn, TEST_PASSWORD, bearer, type TestApp } from '../helpers/server';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const SAME_ANSWER = {
  success: true,
  message: 'If an account exists for that email, a password reset link has been sent.',
  data: null,
};
let ip = 0;
const forgot = (email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/forgot-password',
    payload: { email },
    remoteAddress: `10.2.0.${++ip}`,
  });
const reset = (token: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password } });
const refresh = (cookie: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh-token', headers: { cookie } });

describe('forgot-password', () => {
  it('gives the same answer for an unknown e-mail and sends nothing', async () => {
    await t.createUser({ email: 'known@example.com' });
    const before = (await t.sentMail()).length;
    const unknown = await forgot('unknown@example.com');
    const known = await forgot('known@example.com');
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(200);
    expect(unknown.json()).toEqual(SAME_ANSWER);
    expect(known.json()).toEqual(SAME_ANSWER);
    const sent = (await t.sentMail()).slice(before);
    expect(sent.map((m) => m.to)).toEqual(['known@example.com']);
    const { url } = linkIn(sent[0]);
    expect(`${url.origin}${url.pathname}`).toBe('http://portal.test/password-reset/confirm');
  });

  it('is rate limited per IP address (5 per 15 minutes)', async () => {
    const call = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        payload: { email: `x${++ip}@example.com` },
        remoteAddress: '10.9.9.9',
      });
    for (let i = 0; i < 5; i++) expect((await call()).statusCode).toBe(200);
    const limited = await call();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advanceMinutes(15);
    expect((await call()).statusCode).toBe(200);
  });

  it('is rate limited per e-mail address too, from any IP address', async () => {
    for (let i = 0; i < 5; i++) expect((await forgot('flood@example.com')).statusCode).toBe(200);
    const limited = await forgot('flood@example.com');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ success: false, message: 'Too many requests. Please try again later.' });
    expect((await forgot('someone-else@example.com')).statusCode).toBe(200);
  });
});

describe('reset-password', () => {
  it('sets the new password once, and signs out every session', async () => {
    await t.createUser({ email: 'rex@example.com' });
    const session = await t.login('rex@example.com');
    await forgot('rex@example.com');
    const { token } = linkIn(await t.lastMailTo('rex@example.com'));

    const res = await reset(token, 'brand-new-password');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Password has been reset successfully', data: null });

    expect((await refresh(session.cookie)).statusCode).toBe(401);
    await expect(t.login('rex@example.com', TEST_PASSWORD)).rejects.toThrow(/401/);
    await t.login('rex@example.com', 'brand-new-password');

    const again = await reset(token, 'another-password');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ success: false, message: 'Invalid or expired reset token' });
  });

  it('expires after one hour', async () => {
    await t.createUser({ email: 'slow@example.com' });
    await forgot('slow@example.com');
    const { token } = linkIn(await t.lastMailTo('slow@example.com'));
    t.clock.advanceMinutes(61);
    const res = await reset(token, 'brand-new-password');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Invalid or expired reset token');
    await t.login('slow@example.com');
  });

  it('voids the older link when a new one is requested', async () => {
    await t.createUser({ email: 'twice@example.com' });
    await forgot('twice@example.com');
    const first = linkIn(await t.lastMailTo('twice@example.com')).token;
    await forgot('twice@example.com');
    const second = linkIn(await t.lastMailTo('twice@example.com')).token;
    expect((await reset(first, 'brand-new-password')).statusCode).toBe(400);
    expect((await reset(second, 'brand-new-password')).statusCode).toBe(200);
  });

  it('checks the new password and names missing fields', async () => {
    const weak = await reset('a'.repeat(43), 'short');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors).toEqual([{ field: 'password', message: 'Password must be at least 8 characters' }]);
    const missing = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: {} });
    expect(missing.json().message).toBe('Validation failed: token is required; password is required');
  });
});

describe('change-password', () => {
  const change = (token: string, body: object, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: { ...bearer(token), ...(cookie ? { cookie } : {}) },
      payload: body,
    });

  it('refuses a wrong current password', async () => {
    await t.createUser({ email: 'cathy@example.com' });
    const { token } = await t.login('cathy@example.com');
    const res = await change(token, { currentPassword: 'wrong-one', newPassword: 'brand-new-password' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'Current password is incorrect' });
  });

  it('changes the password and signs out the other sessions, keeping the caller', async () => {
    await t.createUser({ email: 'carl@example.com' });
    const other = await t.login('carl@example.com');
    const mine = await t.login('carl@example.com');
    const res = await change(
      mine.token,
      { currentPassword: TEST_PASSWORD, newPassword: 'brand-new-password' },
      mine.cookie,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Password changed successfully');
    expect((await refresh(other.cookie)).statusCode).toBe(401);
    expect((await refresh(mine.cookie)).statusCode).toBe(200);
    await t.login('carl@example.com', 'brand-new-password');
  });

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      payload: { currentPassword: 'a', newPassword: 'brand-new-password' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, message: 'Authentication required' });
  });
});
