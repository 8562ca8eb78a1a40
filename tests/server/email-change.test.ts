/**
 * Issue 32, accounts only their owner controls. A change of e-mail address, by staff, by the customer or by an API
 * token, waits for the new address to confirm it: the account keeps its address (so "forgot password" keeps going
 * there), the new address gets a link and the current one a notice. An API token cannot change its creator's
 * account at all, and an admin neither sees nor revokes a super_admin's tokens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../contract/roles';
import { bearer, createTestApp, linkIn, TEST_PASSWORD, type TestApp } from '../helpers/server';

let t: TestApp;
const tokens: Partial<Record<Role, string>> = {};

const STAFF = ['admin', 'support', 'super_admin'] as const;
/** Signs the staff in (again, once the test clock has moved past their access tokens' life). */
async function signInStaff() {
  for (const role of STAFF) tokens[role] = (await t.login(`${role}@example.com`)).token;
}

beforeAll(async () => {
  t = await createTestApp();
  for (const role of STAFF) await t.createUser({ email: `${role}@example.com`, role });
  await signInStaff();
});
afterAll(() => t?.close());

const as = (who: Role | string, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: bearer(tokens[who as Role] ?? who), payload });
const anonymous = (method: 'POST', url: string, payload: object) =>
  t.app.inject({ method, url: `/api${url}`, payload });
const mailTo = async (address: string) => (await t.sentMail()).filter((m) => m.to === address);
const signIn = (email: string, password = TEST_PASSWORD) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password, rememberMe: false } });

describe('an e-mail change by staff', () => {
  it('keeps the address until the new one confirms: support cannot take a customer over', async () => {
    const customer = await t.createUser({ email: 'victim@example.com', name: 'Vic Tim' });
    const changed = await as('support', 'PUT', `/users/${customer.id}`, { email: 'x@attacker.example' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().message).toBe(
      'User updated. A confirmation link was sent to x@attacker.example; the e-mail address changes once it is confirmed from there.',
    );
    expect(changed.json().data).toMatchObject({
      email: 'victim@example.com',
      pending_email: 'x@attacker.example',
      isVerified: true,
    });

    // The owner is told, at the address the account still has.
    const [notice] = await mailTo('victim@example.com');
    expect(notice.subject).toBe('Your ISP Portal e-mail address is about to change');
    expect(notice.text).toContain(
      'Our staff asked to change the e-mail address of your account from victim@example.com to x@attacker.example',
    );

    // "Forgot password" for the new address sends nothing; the account still signs in with the old one only.
    await anonymous('POST', '/auth/forgot-password', { email: 'x@attacker.example' });
    expect((await mailTo('x@attacker.example')).map((m) => m.subject)).toEqual([
      'Confirm your new e-mail address for ISP Portal',
    ]);
    expect((await signIn('x@attacker.example')).statusCode).toBe(401);
    expect((await signIn('victim@example.com')).statusCode).toBe(200);
    // Staff see the change as pending, in the user's screen and in the list.
    expect((await as('admin', 'GET', `/users/${customer.id}`)).json().data.pending_email).toBe('x@attacker.example');
    const listed = (await as('admin', 'GET', '/users?search=victim')).json().data.items;
    expect(listed.map((u: { email: string; pending_email: string }) => [u.email, u.pending_email])).toEqual([
      ['victim@example.com', 'x@attacker.example'],
    ]);
  });

  it('takes effect when the link sent to the new address is followed, once', async () => {
    const customer = await t.createUser({ email: 'mover@example.com' });
    expect((await as('admin', 'PUT', `/users/${customer.id}`, { email: 'Mover@New.example' })).statusCode).toBe(200);
    const [confirmation] = await mailTo('mover@new.example');
    const { url, token } = linkIn(confirmation);
    expect(url.origin + url.pathname).toBe('http://portal.test/confirm-email');

    const confirmed = await anonymous('POST', '/auth/confirm-email', { token });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({
      message: 'Your e-mail address has been changed',
      data: { user: { email: 'mover@new.example', pending_email: null, isVerified: true } },
    });
    expect((await signIn('mover@new.example')).statusCode).toBe(200);
    expect((await signIn('mover@example.com')).statusCode).toBe(401);

    const again = await anonymous('POST', '/auth/confirm-email', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Invalid or expired confirmation link');
  });

  it('a link expires after 24 hours, and setting the address back withdraws the change', async () => {
    const customer = await t.createUser({ email: 'slow@example.com' });
    await as('admin', 'PUT', `/users/${customer.id}`, { email: 'slow@new.example' });
    const { token } = linkIn((await mailTo('slow@new.example'))[0]);
    t.clock.advance(24 * 3600_000 + 1000);
    expect((await anonymous('POST', '/auth/confirm-email', { token })).statusCode).toBe(400);
    await signInStaff();

    await as('admin', 'PUT', `/users/${customer.id}`, { email: 'slow@newer.example' });
    const { token: newer } = linkIn((await mailTo('slow@newer.example'))[0]);
    const withdrawn = await as('admin', 'PUT', `/users/${customer.id}`, { email: 'slow@example.com' });
    expect(withdrawn.json().data).toMatchObject({ email: 'slow@example.com', pending_email: null });
    expect((await anonymous('POST', '/auth/confirm-email', { token: newer })).statusCode).toBe(400);
  });

  it('an address in use is refused to staff, and one taken before the link is followed is refused then', async () => {
    const a = await t.createUser({ email: 'first@example.com' });
    await t.createUser({ email: 'second@example.com' });
    const taken = await as('admin', 'PUT', `/users/${a.id}`, { email: 'second@example.com' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('A user with this e-mail already exists');

    await as('admin', 'PUT', `/users/${a.id}`, { email: 'contested@example.com' });
    const { token } = linkIn((await mailTo('contested@example.com'))[0]);
    await t.createUser({ email: 'contested@example.com' });
    const late = await anonymous('POST', '/auth/confirm-email', { token });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('This e-mail address is already used by another account');
    expect((await as('admin', 'GET', `/users/${a.id}`)).json().data.email).toBe('first@example.com');
  });
});

describe('an e-mail change by the customer', () => {
  it('is pending from the profile until confirmed, with a notice to the current address', async () => {
    await t.createUser({ email: 'self@example.com', name: 'Sel Fie' });
    const { token } = await t.login('self@example.com');
    const changed = await as(token, 'PUT', '/auth/profile', { email: 'self@new.example', name: 'Sel Fie' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().message).toBe(
      'Profile updated successfully. A confirmation link was sent to self@new.example. The e-mail address changes once it is confirmed from there.',
    );
    expect(changed.json().data.user).toMatchObject({ email: 'self@example.com', pending_email: 'self@new.example' });
    expect((await mailTo('self@example.com'))[0].text).toContain(
      'Someone asked to change the e-mail address of your account from self@example.com to self@new.example',
    );

    // An address of another account gets the same answer (no way to probe for customers); its link cannot work.
    await t.createUser({ email: 'someone.else@example.com' });
    const probe = await as(token, 'PUT', '/auth/profile', { email: 'someone.else@example.com' });
    expect(probe.statusCode).toBe(200);
    expect(probe.json().data.user.pending_email).toBe('someone.else@example.com');
    const { token: link } = linkIn((await mailTo('someone.else@example.com'))[0]);
    expect((await anonymous('POST', '/auth/confirm-email', { token: link })).statusCode).toBe(409);
  });
});

describe('API tokens', () => {
  const createToken = async (owner: string, role: Role) => {
    const res = await as(owner, 'POST', '/api-tokens', { name: `${role} token`, role });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; secret: string };
  };

  it("cannot change their creator's e-mail, password, role or status", async () => {
    const creator = await t.createUser({ email: 'maker@example.com', role: 'admin' });
    const { token } = await t.login('maker@example.com');
    const { secret } = await createToken(token, 'admin');
    const refusals = [
      await as(secret, 'PUT', `/users/${creator.id}`, { email: 'y@attacker.example' }),
      await as(secret, 'PUT', `/users/${creator.id}`, { role: 'support' }),
      await as(secret, 'PATCH', `/users/${creator.id}/status`, { status: 'disabled' }),
      await as(secret, 'PATCH', `/users/${creator.id}/password`, { newPassword: 'Attacker-Pass-1' }),
    ];
    for (const refused of refusals) {
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().message).toBe(
        'An API token cannot change the account of the person who made it; sign in as yourself to do this',
      );
    }
    expect((await mailTo('y@attacker.example')).length).toBe(0);
    expect((await as('admin', 'GET', `/users/${creator.id}`)).json().data).toMatchObject({
      email: 'maker@example.com',
      pending_email: null,
      role: 'admin',
      status: 'active',
    });

    // Another account's address: only a pending change, as from staff.
    const customer = await t.createUser({ email: 'token.target@example.com' });
    const other = await as(secret, 'PUT', `/users/${customer.id}`, { email: 'token.new@example.com' });
    expect(other.json().data).toMatchObject({
      email: 'token.target@example.com',
      pending_email: 'token.new@example.com',
    });
  });

  it("an admin neither sees nor revokes a super_admin's tokens", async () => {
    const superToken = await createToken('super_admin', 'super_admin');
    const adminToken = await createToken('admin', 'support');
    const listedFor = async (who: Role) => (await as(who, 'GET', '/api-tokens?limit=100')).json().data;
    const forAdmin = await listedFor('admin');
    expect(forAdmin.items.map((x: { id: string }) => x.id)).toContain(adminToken.id);
    expect(forAdmin.items.map((x: { id: string }) => x.id)).not.toContain(superToken.id);
    expect(
      forAdmin.items.every((x: { created_by_email: string }) => x.created_by_email !== 'super_admin@example.com'),
    ).toBe(true);
    expect(forAdmin.pagination.total).toBe(forAdmin.items.length);
    expect((await listedFor('super_admin')).items.map((x: { id: string }) => x.id)).toContain(superToken.id);

    const revoke = await as('admin', 'DELETE', `/api-tokens/${superToken.id}`);
    expect(revoke.statusCode).toBe(404);
    expect((await as(superToken.secret, 'GET', '/users')).statusCode).toBe(200);
    expect((await as('super_admin', 'DELETE', `/api-tokens/${superToken.id}`)).statusCode).toBe(200);
  });
});
