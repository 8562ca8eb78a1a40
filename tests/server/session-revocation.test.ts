/**
 * Issue 32, sessions end when they should: signing out, a password change or reset (by the user, by an admin, by
 * the e-mailed link), a suspension and a role change end every access token of the user, within a second, on every
 * node. Two portal apps on one database: A takes the action, B (which has the token's user in its cache) must
 * refuse the old token. Runs on PGlite and PostgreSQL.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { bearer, createTestApp, linkIn, refreshCookieHeader, TEST_PASSWORD, type TestApp } from '../helpers/server';

let t: TestApp;
let b: FastifyInstance;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  b = await buildApp({ config: t.config, database: t.database, clock: t.clock, mailer: t.mailer, logger: false });
  await t.createUser({ email: 'admin@example.com', role: 'admin' });
  admin = (await t.login('admin@example.com')).token;
}, 60_000);
afterAll(async () => {
  await b?.close();
  await t?.close();
});

const profileOn = (app: FastifyInstance, token: string) =>
  app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(token) });

/** A token that works on node B now (so B has its user cached), and is refused there within a second of `end`. */
async function endsOnEveryNode(token: string, end: () => Promise<void>): Promise<void> {
  expect((await profileOn(b, token)).statusCode).toBe(200);
  expect((await profileOn(b, token)).statusCode).toBe(200);
  await end();
  const started = Date.now();
  await expect.poll(async () => (await profileOn(b, token)).statusCode, { timeout: 1000, interval: 20 }).toBe(401);
  expect(Date.now() - started).toBeLessThan(1000);
  expect((await profileOn(t.app, token)).statusCode).toBe(401);
  expect((await profileOn(b, token)).json().message).toBe('Invalid or expired token');
}

const refresh = (cookie: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh-token', headers: { cookie } });

describe('access tokens end with the session', () => {
  it('signing out ends the access token on both nodes; another device of the user carries on after a refresh', async () => {
    await t.createUser({ email: 'olive@example.com' });
    const laptop = await t.login('olive@example.com');
    const phone = await t.login('olive@example.com');
    await endsOnEveryNode(laptop.token, async () => {
      const out = await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { ...bearer(laptop.token), cookie: laptop.cookie },
      });
      expect(out.statusCode).toBe(200);
    });
    // The signed-out session cannot come back; the phone's session refreshes to a working token.
    expect((await refresh(laptop.cookie)).statusCode).toBe(401);
    const renewed = await refresh(phone.cookie);
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect((await profileOn(b, renewed.json().data.tokens.access.token)).statusCode).toBe(200);
  });

  it('a password change ends every access token; the changing session keeps going with a refreshed one', async () => {
    await t.createUser({ email: 'pat@example.com' });
    const mine = await t.login('pat@example.com');
    const stolen = await t.login('pat@example.com');
    await endsOnEveryNode(stolen.token, async () => {
      const changed = await t.app.inject({
        method: 'POST',
        url: '/api/auth/change-password',
        headers: { ...bearer(mine.token), cookie: mine.cookie },
        payload: { currentPassword: TEST_PASSWORD, newPassword: 'Another-Horse-77' },
      });
      expect(changed.statusCode, changed.body).toBe(200);
    });
    expect((await refresh(stolen.cookie)).statusCode).toBe(401);
    const renewed = await refresh(mine.cookie);
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect((await profileOn(b, renewed.json().data.tokens.access.token)).statusCode).toBe(200);
  });

  it("an admin's password reset ends the user's access tokens", async () => {
    const user = await t.createUser({ email: 'quinn@example.com' });
    const { token } = await t.login('quinn@example.com');
    await endsOnEveryNode(token, async () => {
      const reset = await t.app.inject({
        method: 'PATCH',
        url: `/api/users/${user.id}/password`,
        headers: bearer(admin),
        payload: { newPassword: 'Reset-By-Admin-1' },
      });
      expect(reset.statusCode, reset.body).toBe(200);
    });
  });

  it('a reset through the e-mailed link ends the access tokens', async () => {
    await t.createUser({ email: 'rene@example.com' });
    const { token } = await t.login('rene@example.com');
    await endsOnEveryNode(token, async () => {
      await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: 'rene@example.com' } });
      const link = linkIn(await t.lastMailTo('rene@example.com'));
      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token: link.token, password: 'Reset-By-Link-1' },
      });
      expect(reset.statusCode, reset.body).toBe(200);
    });
  });

  it('a suspension ends the access tokens for good: reactivated, the user signs in again', async () => {
    const user = await t.createUser({ email: 'sid@example.com' });
    const signedIn = await t.login('sid@example.com');
    expect((await profileOn(b, signedIn.token)).statusCode).toBe(200);
    const suspend = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${user.id}/status`,
      headers: bearer(admin),
      payload: { status: 'suspended' },
    });
    expect(suspend.statusCode).toBe(200);
    await expect
      .poll(async () => (await profileOn(b, signedIn.token)).statusCode, { timeout: 1000, interval: 20 })
      .toBe(403);
    await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${user.id}/status`,
      headers: bearer(admin),
      payload: { status: 'active' },
    });
    await expect
      .poll(async () => (await profileOn(b, signedIn.token)).statusCode, { timeout: 1000, interval: 20 })
      .toBe(401);
    expect((await refresh(signedIn.cookie)).statusCode).toBe(401);
    expect((await profileOn(b, (await t.login('sid@example.com')).token)).statusCode).toBe(200);
  });

  it('a role change ends the access tokens signed for the old role', async () => {
    const user = await t.createUser({ email: 'tech@example.com', role: 'technician' });
    const signedIn = await t.login('tech@example.com');
    await endsOnEveryNode(signedIn.token, async () => {
      const demoted = await t.app.inject({
        method: 'PUT',
        url: `/api/users/${user.id}`,
        headers: bearer(admin),
        payload: { role: 'user' },
      });
      expect(demoted.statusCode, demoted.body).toBe(200);
    });
    // The session itself goes on, with a token of the new role.
    const renewed = await refresh(signedIn.cookie);
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(renewed.json().data.user.role).toBe('user');
    expect(refreshCookieHeader(renewed)).toContain('=');
  });
});
