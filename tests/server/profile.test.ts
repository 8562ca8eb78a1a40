import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, bearer, type TestApp } from '../helpers/server';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ email: 'pat@example.com', name: 'Pat Profile', company: 'Acme' });
});
afterAll(() => t.close());

const getProfile = (headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: '/api/auth/profile', headers });

describe('GET /api/auth/profile', () => {
  it('returns the signed-in user', async () => {
    const { token } = await t.login('pat@example.com');
    const res = await getProfile(bearer(token));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user).toMatchObject({
      email: 'pat@example.com',
      name: 'Pat Profile',
      company: 'Acme',
      role: 'user',
    });
  });

  it('answers 401 without a token, with a forged one and with an expired one', async () => {
    expect((await getProfile()).json()).toEqual({ success: false, message: 'Authentication required' });
    const forged = await getProfile(bearer('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'));
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toBe('Invalid or expired token');

    const { token } = await t.login('pat@example.com');
    // Used once (its signature checked and remembered), then past its 15 minutes: refused all the same.
    expect((await getProfile(bearer(token))).statusCode).toBe(200);
    t.clock.advanceMinutes(16);
    const expired = await getProfile(bearer(token));
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toBe('Invalid or expired token');
  });

  it('guards HEAD like GET', async () => {
    expect((await t.app.inject({ method: 'HEAD', url: '/api/auth/profile' })).statusCode).toBe(401);
  });

  it('stops a valid token at once when the account is suspended (403)', async () => {
    const user = await t.createUser({ email: 'soon@example.com' });
    const { token } = await t.login('soon@example.com');
    await t.app.users.update(user.id, { status: 'suspended' });
    const res = await getProfile(bearer(token));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Your account is suspended. Please contact support.');
  });
});

describe('PUT /api/auth/profile', () => {
  it('updates name, phone, address and company at once, never the role, and the e-mail only once confirmed', async () => {
    const { token } = await t.login('pat@example.com');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/profile',
      headers: bearer(token),
      payload: {
        name: 'Pat Updated',
        phone: '+44 20 7946 0000',
        address: '10 New Road',
        company: null,
        role: 'admin',
        email: 'boss@example.com',
        status: 'active',
      },
    });
    expect(res.statusCode).toBe(200);
    // The new address is pending (issue 32): a link goes to it, and the account keeps its address until it is followed.
    expect(res.json().message).toBe(
      'Profile updated successfully. A confirmation link was sent to boss@example.com. The e-mail address changes once it is confirmed from there.',
    );
    expect(res.json().data.user).toMatchObject({
      name: 'Pat Updated',
      phone: '+44 20 7946 0000',
      address: '10 New Road',
      company: null,
      role: 'user',
      email: 'pat@example.com',
      pending_email: 'boss@example.com',
    });
    const again = await getProfile(bearer(token));
    expect(again.json().data.user).toMatchObject({
      name: 'Pat Updated',
      role: 'user',
      email: 'pat@example.com',
      pending_email: 'boss@example.com',
    });
    const plain = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/profile',
      headers: bearer(token),
      payload: { name: 'Pat Again' },
    });
    expect(plain.json().message).toBe('Profile updated successfully');
  });

  it('checks the fields', async () => {
    const { token } = await t.login('pat@example.com');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/profile',
      headers: bearer(token),
      payload: { name: 'P', phone: 'abc' },
    });
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['name', 'phone']);
  });
});
