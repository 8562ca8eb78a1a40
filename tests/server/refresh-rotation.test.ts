import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, refreshCookieHeader, setCookie, bearer, type TestApp } from '../helpers/server';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ email: 'rory@example.com' });
  await t.createUser({ email: 'sam@example.com' });
});
afterAll(() => t.close());

const refresh = (cookie?: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh-token', headers: cookie ? { cookie } : {} });

describe('POST /api/auth/refresh-token', () => {
  it('gives a new access token and a new refresh cookie; the old cookie stops working', async () => {
    const { cookie } = await t.login('rory@example.com');
    t.clock.advance(1000);
    const first = await refresh(cookie);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      success: true,
      data: { user: { email: 'rory@example.com' }, tokens: { access: {} } },
    });
    const access = first.json().data.tokens.access.token;
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(access) })).statusCode).toBe(
      200,
    );

    const next = refreshCookieHeader(first);
    expect(next).not.toBe(cookie);
    expect(setCookie(first)!.attributes.httponly).toBe(true);
    expect((await refresh(next)).statusCode).toBe(200);
  });

  it('treats reuse of an old token as theft: 401 and the whole family is revoked, newest token included', async () => {
    const { cookie: c1 } = await t.login('rory@example.com');
    const r2 = await refresh(c1);
    const c2 = refreshCookieHeader(r2);
    const r3 = await refresh(c2);
    const c3 = refreshCookieHeader(r3);

    const reuse = await refresh(c1);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toEqual({ success: false, message: 'Invalid refresh token' });
    // The failure clears the cookie.
    const cleared = setCookie(reuse)!;
    expect(cleared.value).toBe('');
    expect(cleared.attributes.path).toBe('/api/auth');

    const newest = await refresh(c3);
    expect(newest.statusCode).toBe(401);
  });

  it('keeps other sessions of the same user alive when one family is revoked', async () => {
    const a = await t.login('sam@example.com');
    const b = await t.login('sam@example.com');
    const a2 = refreshCookieHeader(await refresh(a.cookie));
    await refresh(a.cookie); // reuse: revokes family a
    expect((await refresh(a2)).statusCode).toBe(401);
    expect((await refresh(b.cookie)).statusCode).toBe(200);
  });

  it('lets only one of two simultaneous uses of the same token win', async () => {
    const { cookie } = await t.login('sam@example.com');
    const results = await Promise.all([refresh(cookie), refresh(cookie)]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 401]);
  });

  it('keeps persistence: a rememberMe session rotates into another 30-day cookie, a browser session into a session cookie', async () => {
    const remembered = await t.login('rory@example.com', undefined, { rememberMe: true });
    const r1 = await refresh(remembered.cookie);
    expect(setCookie(r1)!.attributes['max-age']).toBe(String(30 * 86400));
    const session = await t.login('rory@example.com', undefined, { rememberMe: false });
    const r2 = await refresh(session.cookie);
    expect(setCookie(r2)!.attributes['max-age']).toBeUndefined();
  });

  it('answers 204 and nothing else without a cookie (a visitor: no error in their console), 401 with an unknown or tampered one', async () => {
    const none = await refresh();
    expect(none.statusCode).toBe(204);
    expect(none.body).toBe('');
    expect(setCookie(none)).toBeUndefined();

    const { cookie } = await t.login('rory@example.com');
    const [name, value] = cookie.split('=');
    const [token, signature] = value.split('.');
    const tampered = await refresh(`${name}=${token.slice(0, -2)}AA.${signature}`);
    expect(tampered.statusCode).toBe(401);
    expect(tampered.json().message).toBe('Invalid refresh token');

    const unsigned = await refresh(`${name}=${token}`);
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json().message).toBe('Invalid refresh token');
  });

  it('ends a browser session after 24 hours and a remembered one after 30 days', async () => {
    const session = await t.login('rory@example.com', undefined, { rememberMe: false });
    const remembered = await t.login('rory@example.com', undefined, { rememberMe: true });
    t.clock.advanceHours(24);
    t.clock.advance(1000);
    const expired = await refresh(session.cookie);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toBe('Refresh token expired');
    const stillOk = await refresh(remembered.cookie);
    expect(stillOk.statusCode).toBe(200);
    t.clock.advanceDays(31);
    const late = await refresh(refreshCookieHeader(stillOk));
    expect(late.json().message).toBe('Refresh token expired');
  });

  it('refuses a suspended account and revokes its session', async () => {
    await t.createUser({ email: 'soon-suspended@example.com' });
    const { cookie, user } = await t.login('soon-suspended@example.com');
    await t.app.users.update(user.id, { status: 'suspended' });
    const res = await refresh(cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Your account is suspended. Please contact support.');
    await t.app.users.update(user.id, { status: 'active' });
    expect((await refresh(cookie)).statusCode).toBe(401);
  });
});

describe('POST /api/auth/logout', () => {
  it('revokes the session and clears the cookie', async () => {
    const { cookie } = await t.login('rory@example.com');
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Logged out successfully', data: null });
    expect(setCookie(res)!.value).toBe('');
    expect((await refresh(cookie)).statusCode).toBe(401);
  });

  it('works without a cookie and without a bearer token, even with an empty JSON body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Logged out successfully');
  });
});
