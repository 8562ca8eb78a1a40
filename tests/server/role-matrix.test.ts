import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINT_ACCESS, ROLES, allows } from '../../contract/roles';
import { createTestApp, bearer, type TestApp } from '../helpers/server';

let t: TestApp;
const tokens = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ROLES) {
    await t.createUser({ email: `${role.replace('_', '-')}@example.com`, role });
    tokens.set(role, (await t.login(`${role.replace('_', '-')}@example.com`)).token);
  }
});
afterAll(() => t.close());

describe('GET /api/mail/outbox follows the role matrix', () => {
  for (const role of ROLES) {
    const expected = allows(ENDPOINT_ACCESS['GET /mail/outbox'], role) ? 200 : 403;
    it(`${role}: ${expected}`, async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/mail/outbox', headers: bearer(tokens.get(role)!) });
      expect(res.statusCode).toBe(expected);
      if (expected === 403)
        expect(res.json()).toEqual({ success: false, message: 'You do not have permission to perform this action' });
    });
  }

  it('admin and super_admin are the ones allowed', () => {
    expect(ROLES.filter((r) => allows(ENDPOINT_ACCESS['GET /mail/outbox'], r))).toEqual(['admin', 'super_admin']);
  });

  it('anonymous: 401', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/mail/outbox' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, message: 'Authentication required' });
  });
});

describe('the outbox', () => {
  it('lists mail newest first, paginated', async () => {
    for (let i = 1; i <= 3; i++) {
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: {
          name: `Person ${i}`,
          email: `p${i}@example.com`,
          password: 'long-enough-1',
          phone: '+1 555 0101',
          address: '1 Road',
        },
      });
      await t.app.mail.idle();
      t.clock.advance(1000);
    }
    const page1 = await t.app.inject({
      method: 'GET',
      url: '/api/mail/outbox?page=1&limit=2',
      headers: bearer(tokens.get('admin')!),
    });
    expect(page1.statusCode).toBe(200);
    const data = page1.json().data;
    expect(data.items.map((m: { to: string }) => m.to)).toEqual(['p3@example.com', 'p2@example.com']);
    expect(data.items[0]).toMatchObject({ status: 'sent', subject: expect.stringContaining('Verify') });
    expect(data.pagination).toEqual({ page: 1, totalPages: 2, total: 3, hasNext: true, hasPrev: false });
    const page2 = await t.app.inject({
      method: 'GET',
      url: '/api/mail/outbox?page=2&limit=2',
      headers: bearer(tokens.get('super_admin')!),
    });
    expect(page2.json().data.items.map((m: { to: string }) => m.to)).toEqual(['p1@example.com']);
    expect(page2.json().data.pagination).toMatchObject({ page: 2, hasNext: false, hasPrev: true });
  });

  it('caps limit at 100', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/mail/outbox?limit=101',
      headers: bearer(tokens.get('admin')!),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('limit');
  });
});
