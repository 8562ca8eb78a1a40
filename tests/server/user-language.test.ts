/**
 * Issue 37: a person's language is kept on their account (PUT /api/auth/profile), so the portal opens in it on any
 * browser they sign in from and what is sent to them can use it; only the portal's languages are accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

describe("a person's language", () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    await t.createUser({ email: 'lang@example.com', role: 'user' });
    token = (await t.login('lang@example.com')).token;
  });
  afterAll(() => t.close());

  const put = (payload: unknown) =>
    t.app.inject({ method: 'PUT', url: '/api/auth/profile', headers: bearer(token), payload: payload as object });
  const profile = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(token) })).json().data.user;

  it('is unset at first, is stored when chosen, and can be cleared back to the browser language', async () => {
    expect((await profile()).language).toBeNull();
    const chosen = await put({ language: 'ar' });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json().data.user.language).toBe('ar');
    expect((await profile()).language).toBe('ar');
    // Another field's change leaves it as it is.
    expect((await put({ name: 'Layla Haddad' })).json().data.user.language).toBe('ar');
    expect((await put({ language: null })).json().data.user.language).toBeNull();
  });

  it('accepts only the languages the portal speaks, and changes nothing on a refusal', async () => {
    await put({ language: 'es' });
    const refused = await put({ language: 'de', name: 'Someone Else' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      success: false,
      errors: [expect.objectContaining({ field: 'language', message: 'Choose one of en, es, fr, id, ar' })],
    });
    const now = await profile();
    expect(now.language).toBe('es');
    expect(now.name).not.toBe('Someone Else');
  });
});
