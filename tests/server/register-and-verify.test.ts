import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, linkIn, setCookie, bearer, type TestApp } from '../helpers/server';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const registration = (email: string) => ({
  name: 'Rita Register',
  email,
  password: 'long-enough-1',
  phone: '+1 555 0199',
  address: '5 Main Street',
  company: '',
});

const register = (payload: object) => t.app.inject({ method: 'POST', url: '/api/auth/register', payload });
const verify = (token: string) =>
  t.app.inject({ method: 'GET', url: `/api/auth/verify-email?token=${encodeURIComponent(token)}` });

describe('POST /api/auth/register', () => {
  it('creates an unverified customer and e-mails a verification link; the customer signs in with the new password', async () => {
    const res = await register(registration('Rita@Example.com'));
    expect(res.statusCode).toBe(201);
    // Nobody is signed in by registering (issue 32): the answer must not differ from a taken address's.
    expect(res.json()).toEqual({
      success: true,
      message: 'Registration successful. Please check your email to verify your account.',
      data: null,
    });
    expect(setCookie(res)).toBeUndefined();

    const mail = await t.lastMailTo('rita@example.com');
    const { url, token } = linkIn(mail);
    expect(`${url.origin}${url.pathname}`).toBe('http://portal.test/verify-email');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.html).toContain(url.pathname);

    const signedIn = await t.login('rita@example.com', 'long-enough-1');
    expect(signedIn.user).toMatchObject({
      email: 'rita@example.com',
      role: 'user',
      status: 'active',
      isVerified: false,
      company: null,
      name: 'Rita Register',
    });
  });

  it('answers a taken address exactly as a new one, whatever its case, and tells its owner instead', async () => {
    const fresh = await register(registration('brand.new@example.com'));
    const before = (await t.sentMail()).length;
    const taken = await register({ ...registration('RITA@example.com'), password: 'attacker-pass-1' });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.body).toBe(fresh.body);
    expect(setCookie(taken)).toBeUndefined();

    const sent = (await t.sentMail()).slice(before);
    expect(sent.map((m) => [m.to, m.subject])).toEqual([
      ['rita@example.com', 'Someone tried to register with your ISP Portal address'],
    ]);
    expect(sent[0].text).toContain('No new account was created.');
    expect(linkIn(sent[0]).url.toString()).toBe('http://portal.test/login');
    // The account is untouched: its own password signs in, the one just tried does not.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: 'rita@example.com', password: 'attacker-pass-1', rememberMe: false },
        })
      ).statusCode,
    ).toBe(401);
    await t.login('rita@example.com', 'long-enough-1');
  });

  it('cannot be used to pick a role', async () => {
    const res = await register({
      ...registration('sneaky@example.com'),
      role: 'admin',
      status: 'active',
      isVerified: true,
    });
    expect(res.statusCode).toBe(201);
    expect((await t.login('sneaky@example.com', 'long-enough-1')).user).toMatchObject({
      role: 'user',
      isVerified: false,
    });
  });

  it.each(['name', 'email', 'password', 'phone', 'address'])('requires %s', async (field) => {
    const payload: Record<string, unknown> = registration(`missing-${field}@example.com`);
    delete payload[field];
    const res = await register(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`Validation failed: ${field} is required`);
  });

  it('refuses a short password with the rule', async () => {
    const res = await register({ ...registration('short@example.com'), password: 'short' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'password', message: 'Password must be at least 8 characters' }]);
  });
});

describe('e-mail verification', () => {
  it('verifies once; the link then stops working', async () => {
    await register(registration('vera@example.com'));
    const { token } = linkIn(await t.lastMailTo('vera@example.com'));
    const first = await verify(token);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      success: true,
      message: 'Email verified successfully',
      data: { user: { email: 'vera@example.com', isVerified: true } },
    });
    const again = await verify(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ success: false, message: 'Invalid or expired verification token' });
  });

  it('expires after 24 hours', async () => {
    await register(registration('late@example.com'));
    const { token } = linkIn(await t.lastMailTo('late@example.com'));
    t.clock.advanceHours(24);
    t.clock.advance(1000);
    const res = await verify(token);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Invalid or expired verification token');
  });

  it('rejects an unknown token and a missing one', async () => {
    expect((await verify('x'.repeat(43))).json().message).toBe('Invalid or expired verification token');
    const missing = await t.app.inject({ method: 'GET', url: '/api/auth/verify-email' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Validation failed: token is required');
  });

  it('resend answers the same for unknown, verified and unverified accounts, and only mails the unverified one', async () => {
    await register(registration('again@example.com'));
    const firstLink = linkIn(await t.lastMailTo('again@example.com')).token;
    const before = (await t.sentMail()).length;
    const answers = [];
    for (const email of ['nobody@example.com', 'vera@example.com', 'again@example.com']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/resend-verification',
        payload: { email },
        remoteAddress: '10.1.0.1',
      });
      expect(res.statusCode).toBe(200);
      answers.push(res.json());
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual({
      success: true,
      message: 'If the account exists and is not verified, a verification email has been sent.',
      data: null,
    });
    const sent = (await t.sentMail()).slice(before);
    expect(sent.map((m) => m.to)).toEqual(['again@example.com']);

    // The new link replaces the old one.
    expect((await verify(firstLink)).statusCode).toBe(400);
    const res = await verify(linkIn(sent[0]).token);
    expect(res.statusCode).toBe(200);
  });

  it('shows as verified on the profile afterwards', async () => {
    const signedIn = await t.login('vera@example.com', 'long-enough-1');
    const profile = await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(signedIn.token) });
    expect(profile.json().data.user.isVerified).toBe(true);
  });
});
