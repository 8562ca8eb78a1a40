/**
 * Personal API tokens (issue 12): an admin creates a named token for a staff role and sees its secret once;
 * the token is a bearer for that role's endpoints only, cannot manage tokens or its creator's account, and
 * stops at once when revoked, expired, or when its creator is suspended or demoted.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../contract/roles';
import { apiTokens } from '../../server/db/schema';
import { hashToken } from '../../server/lib/tokens';
import { bearer, createTestApp, type ApiMethod, type CallAs, type TestApp } from '../helpers/server';

const plan = (name: string) => ({ name, download_mbps: 100, upload_mbps: 20, price: 3999, billing_cycle: 'monthly' });
const SECRET = /^isp_[A-Za-z0-9_-]{43}$/;

describe('personal API tokens', () => {
  let t: TestApp;
  let call: CallAs;
  /** Calls /api with a raw bearer value (an API token's secret). */
  const withToken = (
    secret: string,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url: `/api${url}`, headers: bearer(secret), payload });
  const create = async (role: Role | undefined, body: Record<string, unknown>) =>
    call('POST', '/api-tokens', role, body);
  const secretFor = async (tokenRole: string, caller: Role = 'admin', extra: Record<string, unknown> = {}) => {
    const res = await create(caller, { name: `${tokenRole} integration`, role: tokenRole, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; secret: string; prefix: string };
  };

  beforeAll(async () => {
    t = await createTestApp();
    const roles: Role[] = ['admin', 'billing', 'support', 'technician', 'user', 'super_admin'];
    for (const role of roles) await t.createUser({ email: `${role}@example.com`, role });
    // Like signInEveryRole, but signs in again once the test clock has moved past the access token's life.
    const sessions = new Map<Role, { token: string; at: number }>();
    const tokenOf = async (role: Role) => {
      const now = t.clock.now().getTime();
      const held = sessions.get(role);
      if (held && now - held.at < 60_000) return held.token;
      const token = (await t.login(`${role}@example.com`)).token;
      sessions.set(role, { token, at: now });
      return token;
    };
    call = async (method: ApiMethod, url: string, role?: Role, payload?: unknown) =>
      t.app.inject({
        method,
        url: `/api${url}`,
        headers: role ? bearer(await tokenOf(role)) : {},
        payload: payload as object,
      });
  });
  afterAll(() => t.close());

  it('shows the secret once on creation; the list and the database never hold it', async () => {
    const res = await create('admin', { name: 'Accounting export', role: 'billing' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      message: 'API token created. Copy it now: it will not be shown again.',
      data: {
        name: 'Accounting export',
        role: 'billing',
        status: 'active',
        last_used_at: null,
        expires_at: null,
        revoked_at: null,
        created_by_email: 'admin@example.com',
      },
    });
    const { id, secret, prefix } = body.data;
    expect(secret).toMatch(SECRET);
    expect(prefix).toBe(secret.slice(4, 12));

    const list = await call('GET', '/api-tokens', 'admin');
    expect(list.statusCode).toBe(200);
    expect(list.json().message).toBe('API tokens retrieved successfully');
    expect(list.json().data.pagination).toMatchObject({ page: 1, total: expect.any(Number) });
    const listed = list.json().data.items.find((i: { id: string }) => i.id === id);
    expect(listed).toMatchObject({
      name: 'Accounting export',
      role: 'billing',
      prefix,
      created_by_name: expect.any(String),
      status: 'active',
    });
    expect(listed).not.toHaveProperty('secret');
    expect(list.body).not.toContain(secret);
    expect(list.body).not.toContain(secret.slice(12));

    const [row] = await t.database.db.select().from(apiTokens).where(eq(apiTokens.id, id));
    expect(row.tokenHash).toBe(hashToken(secret));
    expect(JSON.stringify(row)).not.toContain(secret.slice(4));
  });

  it('lists newest first with page pagination', async () => {
    await secretFor('support');
    t.clock.advanceMinutes(1);
    const newest = await secretFor('technician');
    const res = await call('GET', '/api-tokens?page=1&limit=2', 'admin');
    const { items, pagination } = res.json().data;
    expect(items).toHaveLength(2);
    expect(items[0].id).toBe(newest.id);
    expect(pagination).toMatchObject({ page: 1, hasPrev: false, hasNext: true });
  });

  it('acts as its role: a billing token creates plans but is refused admin-only routes', async () => {
    const { secret } = await secretFor('billing');
    const created = await withToken(secret, 'POST', '/plans', plan('Via billing token'));
    expect(created.statusCode, created.body).toBe(201);
    expect((await withToken(secret, 'GET', '/users')).statusCode).toBe(403);
    expect((await withToken(secret, 'GET', '/settings')).statusCode).toBe(403);
    // Not an admin: the token endpoints refuse it like any billing user.
    const tokens = await withToken(secret, 'GET', '/api-tokens');
    expect(tokens.statusCode).toBe(403);
    expect(tokens.json().message).toBe('You do not have permission to perform this action');
  });

  it('a support token is refused POST /plans', async () => {
    const { secret } = await secretFor('support');
    const res = await withToken(secret, 'POST', '/plans', plan('Via support token'));
    expect(res.statusCode).toBe(403);
    expect((await withToken(secret, 'GET', '/users')).statusCode).toBe(200);
  });

  it('lets only admins (and super_admin) manage tokens; anonymous gets 401', async () => {
    for (const role of ['billing', 'support', 'technician', 'user'] as Role[]) {
      expect((await call('GET', '/api-tokens', role)).statusCode, role).toBe(403);
      expect((await create(role, { name: 'x', role: 'support' })).statusCode, role).toBe(403);
      expect((await call('DELETE', `/api-tokens/${crypto.randomUUID()}`, role)).statusCode, role).toBe(403);
    }
    expect((await call('GET', '/api-tokens')).statusCode).toBe(401);
    expect((await create(undefined, { name: 'x', role: 'support' })).statusCode).toBe(401);
    expect((await call('GET', '/api-tokens', 'super_admin')).statusCode).toBe(200);
  });

  it("an admin token cannot manage tokens, nor change its creator's password or profile", async () => {
    const { secret, id } = await secretFor('admin');
    expect((await withToken(secret, 'GET', '/users')).statusCode).toBe(200);
    for (const [method, url, payload] of [
      ['POST', '/api-tokens', { name: 'Child', role: 'support' }],
      ['GET', '/api-tokens', undefined],
      ['DELETE', `/api-tokens/${id}`, undefined],
    ] as const) {
      const res = await withToken(secret, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe('API tokens cannot manage API tokens; sign in as yourself to do this');
    }
    const password = await withToken(secret, 'POST', '/auth/change-password', {
      currentPassword: 'whatever',
      newPassword: 'Another-Horse-10',
    });
    expect(password.statusCode).toBe(403);
    expect(password.json().message).toMatch(/cannot be done with an API token/);
    expect((await withToken(secret, 'PUT', '/auth/profile', { name: 'Renamed' })).statusCode).toBe(403);
    // Reading the profile is fine: it is the creator's.
    const profile = await withToken(secret, 'GET', '/auth/profile');
    expect(profile.statusCode).toBe(200);
    expect(profile.json().data.user.email).toBe('admin@example.com');
    // Nothing was created through it.
    const list = (await call('GET', '/api-tokens?limit=100', 'admin')).json().data.items;
    expect(list.filter((i: { name: string }) => i.name === 'Child')).toHaveLength(0);
  });

  it('revoking stops the token at once; revoking again is harmless; an unknown id is 404', async () => {
    const { secret, id } = await secretFor('billing');
    expect((await withToken(secret, 'GET', `/payments/gateways/${crypto.randomUUID()}`)).statusCode).toBe(404);
    const revoked = await call('DELETE', `/api-tokens/${id}`, 'admin');
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({
      message: 'API token revoked',
      data: { id, status: 'revoked', revoked_at: expect.any(String) },
    });
    const refused = await withToken(secret, 'POST', '/plans', plan('After revoke'));
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ success: false, message: 'Invalid or expired token' });
    const again = await call('DELETE', `/api-tokens/${id}`, 'admin');
    expect(again.statusCode).toBe(200);
    expect(again.json().data.revoked_at).toBe(revoked.json().data.revoked_at);
    expect((await call('DELETE', `/api-tokens/${crypto.randomUUID()}`, 'admin')).statusCode).toBe(404);
    expect((await call('DELETE', '/api-tokens/not-a-uuid', 'admin')).statusCode).toBe(404);
  });

  it('an expired token gets 401', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + 60 * 60_000).toISOString();
    const { secret, id } = await secretFor('support', 'admin', { expiresAt });
    expect((await withToken(secret, 'GET', '/users')).statusCode).toBe(200);
    t.clock.advanceMinutes(61);
    expect((await withToken(secret, 'GET', '/users')).statusCode).toBe(401);
    const listed = (await call('GET', '/api-tokens?limit=100', 'admin'))
      .json()
      .data.items.find((i: { id: string }) => i.id === id);
    expect(listed).toMatchObject({ status: 'expired', expires_at: expiresAt });
  });

  it('an unknown or malformed isp_ token gets 401, and JWTs keep working', async () => {
    expect((await withToken('isp_not-a-real-token', 'GET', '/users')).statusCode).toBe(401);
    expect((await call('GET', '/users', 'admin')).statusCode).toBe(200);
  });

  it('stops working when its creator is suspended or demoted, and again when reinstated', async () => {
    const creator = await t.createUser({ email: 'creator@example.com', role: 'admin' });
    const session = await t.login('creator@example.com');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/api-tokens',
      headers: bearer(session.token),
      payload: { name: 'Creator token', role: 'support' },
    });
    expect(res.statusCode).toBe(201);
    const { secret } = res.json().data;
    expect((await withToken(secret, 'GET', '/users')).statusCode).toBe(200);

    expect(
      (await call('PATCH', `/users/${creator.id}/status`, 'super_admin', { status: 'suspended' })).statusCode,
    ).toBe(200);
    expect((await withToken(secret, 'GET', '/users')).statusCode).toBe(401);
    expect((await call('PATCH', `/users/${creator.id}/status`, 'super_admin', { status: 'active' })).statusCode).toBe(
      200,
    );
    expect((await withToken(secret, 'GET', '/users')).statusCode).toBe(200);

    expect((await call('PUT', `/users/${creator.id}`, 'super_admin', { role: 'support' })).statusCode).toBe(200);
    const demoted = await withToken(secret, 'GET', '/users');
    expect(demoted.statusCode).toBe(401);
    expect(demoted.json().message).toBe('Invalid or expired token');
  });

  it('records the last use, at most once a minute', async () => {
    const { secret, id } = await secretFor('support');
    const lastUsed = async () =>
      (await t.database.db.select().from(apiTokens).where(eq(apiTokens.id, id)))[0].lastUsedAt;
    expect(await lastUsed()).toBeNull();
    const first = t.clock.now();
    await withToken(secret, 'GET', '/users');
    expect((await lastUsed())?.getTime()).toBe(first.getTime());
    t.clock.advance(30_000);
    await withToken(secret, 'GET', '/users');
    expect((await lastUsed())?.getTime()).toBe(first.getTime());
    t.clock.advance(31_000);
    await withToken(secret, 'GET', '/users');
    expect((await lastUsed())?.getTime()).toBe(first.getTime() + 61_000);
    const listed = (await call('GET', '/api-tokens?limit=100', 'admin'))
      .json()
      .data.items.find((i: { id: string }) => i.id === id);
    expect(listed.last_used_at).toBe(new Date(first.getTime() + 61_000).toISOString());
  });

  it('validates the body and names the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '', role: 'billing' }, 'name'],
      [{ name: '   ', role: 'billing' }, 'name'],
      [{ name: 'x'.repeat(101), role: 'billing' }, 'name'],
      [{ name: 'Unknown role', role: 'owner' }, 'role'],
      [{ name: 'Customer role', role: 'user' }, 'role'],
      [{ name: 'No role' }, 'role'],
      [{ name: 'Bad date', role: 'billing', expiresAt: 'tomorrow' }, 'expiresAt'],
      [
        { name: 'Past', role: 'billing', expiresAt: new Date(t.clock.now().getTime() - 1000).toISOString() },
        'expiresAt',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await create('admin', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().success).toBe(false);
      expect(
        res.json().errors.map((e: { field: string }) => e.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    const past = await create('admin', {
      name: 'Past',
      role: 'billing',
      expiresAt: new Date(t.clock.now().getTime() - 1000).toISOString(),
    });
    expect(past.json().message).toContain('Expiry must be in the future');
  });

  it('only a super_admin creates a super_admin token', async () => {
    const refused = await create('admin', { name: 'Root', role: 'super_admin' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Only a super admin can create a token with the super_admin role');
    const { secret } = await secretFor('super_admin', 'super_admin');
    expect((await withToken(secret, 'GET', '/users')).statusCode).toBe(200);
  });
});
