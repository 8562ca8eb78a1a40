import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFRESH_COOKIE_PATH } from '../../contract/product';
import { createTestApp, setCookie, TEST_PASSWORD, bearer, type TestApp } from '../helpers/server';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ email: 'ann@example.com', role: 'user' });
  await t.createUser({ email: 'sus@example.com', status: 'suspended' });
  await t.createUser({ email: 'dis@example.com', status: 'disabled' });
  await t.createUser({ email: 'new@example.com', isVerified: false });
});
afterAll(() => t.close());

const login = (payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: payload as object, headers });

describe('POST /api/auth/login', () => {
  it('signs in with the right password: user, access token with its expiry, refresh cookie', async () => {
    const before = t.clock.now();
    const res = await login({ email: 'Ann@Example.com ', password: TEST_PASSWORD, rememberMe: false });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'Login successful' });
    expect(body.data.user).toMatchObject({
      email: 'ann@example.com',
      role: 'user',
      status: 'active',
      isVerified: true,
    });
    expect(body.data.user).not.toHaveProperty('passwordHash');
    expect(body.data.user.last_login_at).toBe(before.toISOString());
    const { token, expires } = body.data.tokens.access;
    expect(token.split('.')).toHaveLength(3);
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ sub: body.data.user.id, role: 'user' });
    expect(claims.exp - claims.iat).toBe(15 * 60);
    expect(expires).toBe(new Date(claims.exp * 1000).toISOString());
    expect(setCookie(res)?.value).toBeTruthy();

    const profile = await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(token) });
    expect(profile.json().data.user.email).toBe('ann@example.com');
  });

  it('answers a wrong password and an unknown e-mail with the same 401', async () => {
    const wrong = await login({ email: 'ann@example.com', password: 'not-the-password', rememberMe: false });
    const unknown = await login({ email: 'nobody@example.com', password: 'not-the-password', rememberMe: false });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ success: false, message: 'Invalid email or password' });
    expect(unknown.json()).toEqual(wrong.json());
    expect(setCookie(wrong)).toBeUndefined();
  });

  it.each([
    ['suspended', 'sus@example.com'],
    ['disabled', 'dis@example.com'],
  ])('refuses a %s account with 403 once the password is right', async (status, email) => {
    const res = await login({ email, password: TEST_PASSWORD, rememberMe: false });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, message: `Your account is ${status}. Please contact support.` });
    expect(setCookie(res)).toBeUndefined();
  });

  it('lets an unverified account sign in', async () => {
    const res = await login({ email: 'new@example.com', password: TEST_PASSWORD, rememberMe: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user.isVerified).toBe(false);
  });

  it.each([
    ['email', { password: 'x', rememberMe: false }],
    ['password', { email: 'ann@example.com', rememberMe: false }],
    ['rememberMe', { email: 'ann@example.com', password: TEST_PASSWORD }],
  ])('requires %s (400 naming the field)', async (field, payload) => {
    const res = await login(payload);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(body.message).toBe(`Validation failed: ${field} is required`);
    expect(body.errors).toEqual([{ field, message: `${field} is required` }]);
  });

  it('names every missing field when the body is empty', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toEqual(['email', 'password', 'rememberMe']);
  });

  it('rejects a malformed e-mail with its reason', async () => {
    const res = await login({ email: 'not-an-email', password: 'x', rememberMe: false });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'email', message: 'Enter a valid e-mail address' }]);
    expect(res.json().message).toBe('Validation failed: email: Enter a valid e-mail address');
  });

  it('answers malformed JSON with a 400 envelope', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'Malformed JSON in request body' });
  });
});

describe('the refresh cookie', () => {
  it('without rememberMe is a browser-session cookie: HttpOnly, SameSite=Strict, Path=/api/auth, signed, no Max-Age', async () => {
    const res = await login({ email: 'ann@example.com', password: TEST_PASSWORD, rememberMe: false });
    const c = setCookie(res)!;
    expect(c.attributes.httponly).toBe(true);
    expect(c.attributes.samesite).toBe('Strict');
    expect(c.attributes.path).toBe(REFRESH_COOKIE_PATH);
    expect(c.attributes['max-age']).toBeUndefined();
    expect(c.attributes.expires).toBeUndefined();
    expect(c.attributes.secure).toBeUndefined();
    // Signed: "<token>.<signature>".
    expect(c.value.split('.')).toHaveLength(2);
  });

  it('with rememberMe lasts 30 days', async () => {
    const res = await login({ email: 'ann@example.com', password: TEST_PASSWORD, rememberMe: true });
    const c = setCookie(res)!;
    expect(c.attributes['max-age']).toBe(String(30 * 24 * 3600));
    expect(c.attributes.httponly).toBe(true);
    expect(c.attributes.samesite).toBe('Strict');
    expect(c.attributes.path).toBe('/api/auth');
  });
});

describe('Secure cookies behind a TLS-terminating proxy', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await createTestApp({ config: { trustProxy: true } });
    await proxied.createUser({ email: 'ann@example.com' });
  });
  afterAll(() => proxied.close());

  it('marks the cookie Secure when the request came over HTTPS', async () => {
    const res = await proxied.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'x-forwarded-proto': 'https' },
      payload: { email: 'ann@example.com', password: TEST_PASSWORD, rememberMe: false },
    });
    expect(res.statusCode).toBe(200);
    expect(setCookie(res)!.attributes.secure).toBe(true);
  });
});
