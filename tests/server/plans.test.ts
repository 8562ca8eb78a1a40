import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../contract/roles';
import { subscriptions } from '../../server/db/schema';
import { bearer, createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

const base = { name: 'Home 100', download_mbps: 100, upload_mbps: 20, price: 3999, billing_cycle: 'monthly' };

describe('plans API', () => {
  let t: TestApp;
  let call: CallAs;
  beforeAll(async () => {
    t = await createTestApp();
    call = await signInEveryRole(t);
  });
  afterAll(() => t.close());

  it.each(['admin', 'billing'] as Role[])('%s creates, updates, toggles and deletes a plan', async (role) => {
    const created = await call('POST', '/plans', role, { ...base, name: `Plan by ${role}` });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ success: true, message: 'Plan created successfully' });
    const plan = created.json().data;
    expect(plan).toMatchObject({
      slug: `plan-by-${role}`,
      setup_fee: 0,
      currency: 'USD',
      features: [],
      is_featured: false,
      sort_order: 0,
      status: 'active',
      data_cap_gb: null,
      description: null,
    });

    const updated = await call('PUT', `/plans/${plan.id}`, role, { price: 4999, features: ['Unlimited data'] });
    expect(updated.json()).toMatchObject({
      message: 'Plan updated successfully',
      data: { price: 4999, features: ['Unlimited data'], name: `Plan by ${role}` },
    });

    const off = await call('PUT', `/plans/${plan.id}`, role, { status: 'inactive' });
    expect(off.json()).toMatchObject({ message: 'Plan deactivated successfully', data: { status: 'inactive' } });
    const on = await call('PUT', `/plans/${plan.id}`, role, { status: 'active' });
    expect(on.json()).toMatchObject({ message: 'Plan activated successfully', data: { status: 'active' } });

    const deleted = await call('DELETE', `/plans/${plan.id}`, role);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({ message: 'Plan deleted successfully' });
    expect((await call('GET', `/plans/${plan.id}`, role)).statusCode).toBe(404);
  });

  it('refuses plan management to support, technician and user (403) and to visitors (401)', async () => {
    const plan = (await call('POST', '/plans', 'admin', { ...base, name: 'Guarded' })).json().data;
    for (const role of ['support', 'technician', 'user'] as Role[]) {
      expect((await call('POST', '/plans', role, base)).statusCode).toBe(403);
      expect((await call('PUT', `/plans/${plan.id}`, role, { price: 1 })).statusCode).toBe(403);
      expect((await call('DELETE', `/plans/${plan.id}`, role)).statusCode).toBe(403);
    }
    expect((await call('POST', '/plans', undefined, base)).statusCode).toBe(401);
    expect((await call('PUT', `/plans/${plan.id}`, undefined, { price: 1 })).statusCode).toBe(401);
    expect((await call('DELETE', `/plans/${plan.id}`)).statusCode).toBe(401);
    expect((await call('POST', '/plans', 'super_admin', { ...base, name: 'By super admin' })).statusCode).toBe(201);
  });

  it('shows visitors and customers only active plans, staff all of them', async () => {
    const hidden = (await call('POST', '/plans', 'admin', { ...base, name: 'Hidden plan', status: 'inactive' })).json()
      .data;
    for (const role of [undefined, 'user'] as Array<Role | undefined>) {
      const list = await call('GET', '/plans?limit=100', role);
      expect(list.statusCode).toBe(200);
      expect(list.json().message).toBe('Plans retrieved successfully');
      const items = list.json().data.items as Array<{ status: string; id: string }>;
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((p) => p.status === 'active')).toBe(true);
      // Their own filter combines with the scope (AND): asking for inactive plans finds none, rather than the
      // scope silently answering the active ones in its place.
      const inactive = await call('GET', '/plans?limit=100&status=inactive', role);
      expect(inactive.statusCode).toBe(200);
      expect(inactive.json().data).toMatchObject({ items: [], pagination: { total: 0 } });
      const detail = await call('GET', `/plans/${hidden.id}`, role);
      expect(detail.statusCode).toBe(404);
      expect(detail.json().message).toBe('Plan not found');
    }
    for (const role of ['support', 'technician', 'billing', 'admin'] as Role[]) {
      const list = (await call('GET', '/plans?limit=100&status=inactive', role)).json().data.items as Array<{
        id: string;
        status: string;
      }>;
      expect(list.map((p) => p.id)).toContain(hidden.id);
      expect(list.every((p) => p.status === 'inactive')).toBe(true);
      expect((await call('GET', `/plans/${hidden.id}`, role)).json().data.id).toBe(hidden.id);
    }
    // An invalid token on a public route is a visitor, not an error.
    const anon = await t.app.inject({ method: 'GET', url: `/api/plans/${hidden.id}`, headers: bearer('not-a-token') });
    expect(anon.statusCode).toBe(404);
    expect((await call('GET', '/plans/not-a-uuid')).statusCode).toBe(404);
  });

  it.each([
    [{ ...base, price: -1 }, 'price'],
    [{ ...base, name: undefined }, 'name'],
    [{ ...base, billing_cycle: 'weekly' }, 'billing_cycle'],
    [{ ...base, download_mbps: 0 }, 'download_mbps'],
    [{ ...base, slug: 'Not A Slug!' }, 'slug'],
  ])('refuses an invalid plan with 400 naming the field (%#)', async (payload, field) => {
    const res = await call('POST', '/plans', 'admin', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('ignores id, created_at and updated_at in the payload', async () => {
    const fake = {
      id: '00000000-0000-4000-8000-000000000000',
      created_at: '2000-01-01T00:00:00.000Z',
      updated_at: '2000-01-01T00:00:00.000Z',
    };
    const created = await call('POST', '/plans', 'admin', { ...base, name: 'Clean payload', ...fake });
    expect(created.statusCode).toBe(201);
    const plan = created.json().data;
    expect(plan.id).not.toBe(fake.id);
    expect(plan.created_at).not.toBe(fake.created_at);
    const updated = await call('PUT', `/plans/${plan.id}`, 'admin', { ...plan, ...fake, price: 100 });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ id: plan.id, price: 100, created_at: plan.created_at });
    expect(updated.json().message).toBe('Plan updated successfully');
  });

  it('refuses a duplicate slug with 409, and numbers a generated one', async () => {
    expect((await call('POST', '/plans', 'admin', { ...base, name: 'Fiber', slug: 'fiber-x' })).statusCode).toBe(201);
    const dup = await call('POST', '/plans', 'admin', { ...base, name: 'Other', slug: 'fiber-x' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ success: false, message: 'A plan with this slug already exists' });
    const other = (await call('POST', '/plans', 'admin', { ...base, name: 'Other' })).json().data;
    expect((await call('PUT', `/plans/${other.id}`, 'admin', { slug: 'fiber-x' })).statusCode).toBe(409);
    expect((await call('POST', '/plans', 'admin', { ...base, name: 'Other' })).json().data.slug).toBe('other-2');
  });

  it('refuses to delete a plan with subscriptions (409) and keeps it', async () => {
    const plan = (await call('POST', '/plans', 'admin', { ...base, name: 'In use' })).json().data;
    const customer = await t.createUser({ email: 'subscriber@example.com' });
    await t.database.db.insert(subscriptions).values({ userId: customer.id, planId: plan.id, status: 'active' });
    const res = await call('DELETE', `/plans/${plan.id}`, 'admin');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This plan has subscriptions and cannot be deleted. Deactivate it instead.');
    expect((await call('GET', `/plans/${plan.id}`)).statusCode).toBe(200);
  });
});

describe('plan list: pagination, sort, filter, search', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    await t.createUser({ email: 'admin@example.com', role: 'admin' });
    admin = (await t.login('admin@example.com')).token;
    const plans = [
      { name: 'Alpha', price: 3000, download_mbps: 50, sort_order: 3, billing_cycle: 'monthly' },
      { name: 'Bravo', price: 1000, download_mbps: 500, sort_order: 1, billing_cycle: 'yearly' },
      {
        name: 'Charlie Fiber',
        price: 2000,
        download_mbps: 100,
        sort_order: 2,
        billing_cycle: 'monthly',
        description: 'gigabit ready',
      },
      { name: 'Delta', price: 4000, download_mbps: 10, sort_order: 4, billing_cycle: 'quarterly', status: 'inactive' },
      { name: 'Echo', price: 5000, download_mbps: 20, sort_order: 5, billing_cycle: 'half_yearly' },
    ];
    for (const p of plans) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/plans',
        headers: bearer(admin),
        payload: { upload_mbps: 5, ...p },
      });
      expect(res.statusCode).toBe(201);
    }
  });
  afterAll(() => t.close());

  const names = async (query: string, token?: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/plans?${query}`, headers: token ? bearer(token) : {} });
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };

  it('sorts by sort_order by default, and by other fields either way', async () => {
    expect((await names('')).items.map((p: { name: string }) => p.name)).toEqual([
      'Bravo',
      'Charlie Fiber',
      'Alpha',
      'Echo',
    ]);
    expect((await names('sort=price&order=desc', admin)).items.map((p: { name: string }) => p.name)).toEqual([
      'Echo',
      'Delta',
      'Alpha',
      'Charlie Fiber',
      'Bravo',
    ]);
    expect((await names('sort=download_mbps')).items.map((p: { download_mbps: number }) => p.download_mbps)).toEqual([
      20, 50, 100, 500,
    ]);
    expect((await names('sort=name&order=desc')).items[0].name).toBe('Echo');
  });

  it('paginates', async () => {
    const page2 = await names('limit=2&page=2&sort=name', admin);
    expect(page2.items.map((p: { name: string }) => p.name)).toEqual(['Charlie Fiber', 'Delta']);
    expect(page2.pagination).toEqual({ page: 2, totalPages: 3, total: 5, hasNext: true, hasPrev: true });
    expect((await names('limit=2&page=1')).pagination).toEqual({
      page: 1,
      totalPages: 2,
      total: 4,
      hasNext: true,
      hasPrev: false,
    });
    const bad = await t.app.inject({ method: 'GET', url: '/api/plans?limit=101' });
    expect(bad.statusCode).toBe(400);
  });

  it('filters by billing cycle and status, and searches name and description', async () => {
    expect((await names('billing_cycle=monthly')).items.map((p: { name: string }) => p.name)).toEqual([
      'Charlie Fiber',
      'Alpha',
    ]);
    expect((await names('status=inactive', admin)).items.map((p: { name: string }) => p.name)).toEqual(['Delta']);
    expect((await names('search=fiber')).items.map((p: { name: string }) => p.name)).toEqual(['Charlie Fiber']);
    expect((await names('search=GIGABIT')).items.map((p: { name: string }) => p.name)).toEqual(['Charlie Fiber']);
    expect((await names('search=100%25')).items).toEqual([]);
  });
});
