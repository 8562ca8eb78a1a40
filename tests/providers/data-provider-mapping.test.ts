import { beforeEach, describe, expect, it } from 'vitest';
import { createDataProvider, errorFallback, unwrapEntity } from '../../providers/data-provider';
import { createHttpClient } from '../../providers/http-client';
import { FakeApi, fail, ok } from './support/fake-api';

function setup() {
  const api = new FakeApi();
  const provider = createDataProvider(createHttpClient({ adapter: api.adapter }));
  return { api, provider };
}

const pagination = (page: number, totalPages: number, total: number) => ({
  page,
  totalPages,
  total,
  hasNext: page < totalPages,
  hasPrev: page > 1,
});

describe('data provider: lists', () => {
  beforeEach(() => localStorage.clear());

  it('maps pagination, filters and sorters to page/limit, plain keys, search, comma lists and sort/order', async () => {
    const { api, provider } = setup();
    api.on('GET /users', ok({ items: [{ id: 'a' }, { id: 'b' }], pagination: pagination(3, 5, 42) }));

    const result = await provider.getList({
      resource: 'users',
      pagination: { currentPage: 3, pageSize: 20 },
      filters: [
        { field: 'role', operator: 'eq', value: 'admin' },
        { field: 'q', operator: 'contains', value: 'ada' },
        { field: 'status', operator: 'in', value: ['active', 'suspended'] },
        { field: 'company', operator: 'eq', value: '' },
        { field: 'city', operator: 'eq', value: null },
        { field: 'tags', operator: 'in', value: [] },
      ],
      sorters: [
        { field: 'created_at', order: 'desc' },
        { field: 'name', order: 'asc' },
      ],
    });

    expect(api.last('GET /users')!.params).toEqual({
      page: '3',
      limit: '20',
      role: 'admin',
      search: 'ada',
      status: 'active,suspended',
      sort: 'created_at',
      order: 'desc',
    });
    expect(result).toEqual({ data: [{ id: 'a' }, { id: 'b' }], total: 42 });
  });

  it('sends contains on "search" as search, and defaults to page 1 of 10', async () => {
    const { api, provider } = setup();
    api.on('GET /plans', ok({ items: [], pagination: pagination(1, 1, 0) }));
    await provider.getList({ resource: 'plans', filters: [{ field: 'search', operator: 'contains', value: 'fiber' }] });
    expect(api.last('GET /plans')!.params).toEqual({ page: '1', limit: '10', search: 'fiber' });
  });

  it("sends a range on a field the API takes as from/to (the audit trail's at) and drops ranges elsewhere", async () => {
    const { api, provider } = setup();
    api.on('GET /audit', ok({ items: [], pagination: pagination(1, 1, 0) }));
    api.on('GET /plans', ok({ items: [], pagination: pagination(1, 1, 0) }));
    const range = [
      { field: 'at', operator: 'gte' as const, value: '2026-11-01T00:00:00.000Z' },
      { field: 'at', operator: 'lte' as const, value: '2026-11-24T23:59:59.999Z' },
    ];
    await provider.getList({
      resource: 'audit',
      filters: [...range, { field: 'action', operator: 'eq', value: 'plan.updated' }],
    });
    expect(api.last('GET /audit')!.params).toEqual({
      page: '1',
      limit: '10',
      action: 'plan.updated',
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-24T23:59:59.999Z',
    });
    await provider.getList({ resource: 'plans', filters: range });
    expect(api.last('GET /plans')!.params).toEqual({ page: '1', limit: '10' });
  });

  it('pages subscriptions by page/limit like every list and reads the total from pagination', async () => {
    const { api, provider } = setup();
    api.on(
      'GET /subscriptions',
      ok({ items: [{ id: 's1' }], pagination: { page: 3, totalPages: 3, total: 73, hasNext: false, hasPrev: true } }),
    );
    const result = await provider.getList({
      resource: 'subscriptions',
      pagination: { currentPage: 3, pageSize: 25 },
      filters: [
        { field: 'status', operator: 'eq', value: 'active' },
        { field: 'user_id', operator: 'eq', value: undefined },
      ],
    });
    expect(api.last('GET /subscriptions')!.params).toEqual({ page: '3', limit: '25', status: 'active' });
    expect(result.total).toBe(73);
  });

  it('sends no paging when pagination is off, and uses the payment gateways path', async () => {
    const { api, provider } = setup();
    api.on('GET /payments/gateways', ok({ items: [{ id: 'g1' }, { id: 'g2' }] }));
    const result = await provider.getList({ resource: 'payment-gateways', pagination: { mode: 'off' } });
    expect(api.last('GET /payments/gateways')!.params).toEqual({});
    expect(result).toEqual({ data: [{ id: 'g1' }, { id: 'g2' }], total: 2 });
  });

  it('accepts a bare array as data', async () => {
    const { api, provider } = setup();
    api.on('GET /tickets', ok([{ id: 1 }]));
    expect(await provider.getList({ resource: 'tickets' })).toEqual({ data: [{ id: 1 }], total: 1 });
  });
});

describe('data provider: single records and mutations', () => {
  beforeEach(() => localStorage.clear());

  it('unwraps the envelope, and {<singular>: {...}} when it is the only key', async () => {
    const { api, provider } = setup();
    api.on('GET /users/u1', ok({ user: { id: 'u1', name: 'Ada' } }));
    api.on('GET /plans/p1', ok({ id: 'p1', name: 'Fiber 100' }));
    api.on('GET /payments/gateways/g1', ok({ gateway: { id: 'g1' } }));
    api.on('GET /subscriptions/s1', ok({ subscription: { id: 's1' }, invoice: { id: 'i1' } }));
    expect((await provider.getOne({ resource: 'users', id: 'u1' })).data).toEqual({ id: 'u1', name: 'Ada' });
    expect((await provider.getOne({ resource: 'plans', id: 'p1' })).data).toEqual({ id: 'p1', name: 'Fiber 100' });
    expect((await provider.getOne({ resource: 'payment-gateways', id: 'g1' })).data).toEqual({ id: 'g1' });
    // two keys: the data is the record itself
    expect((await provider.getOne({ resource: 'subscriptions', id: 's1' })).data).toEqual({
      subscription: { id: 's1' },
      invoice: { id: 'i1' },
    });
    // a one-key entity whose key is not the resource name stays as it is; {item: {...}} is unwrapped
    expect(unwrapEntity({ status: { a: 1 } }, 'plans')).toEqual({ status: { a: 1 } });
    expect(unwrapEntity({ item: { id: 1 } }, 'categories')).toEqual({ id: 1 });
    expect(unwrapEntity({ category: { id: 2 } }, 'categories')).toEqual({ id: 2 });
  });

  it('strips id, created_at and updated_at from plan and gateway payloads on create and update', async () => {
    const { api, provider } = setup();
    api.on('POST /plans', ok({ id: 'p9', name: 'New' }));
    api.on('PUT /plans/p9', ok({ plan: { id: 'p9', name: 'Renamed' } }));
    api.on('POST /payments/gateways', ok({ id: 'g9' }));
    api.on('PUT /payments/gateways/g9', ok({ id: 'g9' }));
    const stamped = { id: 'x', created_at: 'then', updated_at: 'now' };

    const created = await provider.create({ resource: 'plans', variables: { ...stamped, name: 'New', price: 10 } });
    const updated = await provider.update({ resource: 'plans', id: 'p9', variables: { ...stamped, name: 'Renamed' } });
    await provider.create({ resource: 'payment-gateways', variables: { ...stamped, name: 'Stripe', is_active: true } });
    await provider.update({ resource: 'payment-gateways', id: 'g9', variables: { ...stamped, is_active: false } });

    expect(api.last('POST /plans')!.body).toEqual({ name: 'New', price: 10 });
    expect(api.last('PUT /plans/p9')!.body).toEqual({ name: 'Renamed' });
    expect(api.last('POST /payments/gateways')!.body).toEqual({ name: 'Stripe', is_active: true });
    expect(api.last('PUT /payments/gateways/g9')!.body).toEqual({ is_active: false });
    expect(created.data).toEqual({ id: 'p9', name: 'New' });
    expect(updated.data).toEqual({ id: 'p9', name: 'Renamed' });
  });

  it("keeps other resources' payloads whole", async () => {
    const { api, provider } = setup();
    api.on('PUT /users/u1', ok({ id: 'u1' }));
    await provider.update({ resource: 'users', id: 'u1', variables: { id: 'u1', name: 'Ada' } });
    expect(api.last('PUT /users/u1')!.body).toEqual({ id: 'u1', name: 'Ada' });
  });

  it('deletes, reads many one by one, and makes custom calls through the same envelope', async () => {
    const { api, provider } = setup();
    api.on('DELETE /plans/p1', ok(null, 'Plan deleted'));
    api.on('GET /plans/p1', ok({ id: 'p1' }));
    api.on('GET /plans/p2', ok({ id: 'p2' }));
    api.on('PATCH /tickets/t1/status', ok({ id: 't1', status: 'closed' }));
    api.on('GET /dashboard/stats', ok({ stats: { tickets: {} } }));

    expect((await provider.deleteOne({ resource: 'plans', id: 'p1' })).data).toEqual({ id: 'p1' });
    expect((await provider.getMany!({ resource: 'plans', ids: ['p1', 'p2'] })).data).toEqual([
      { id: 'p1' },
      { id: 'p2' },
    ]);
    const patched = await provider.custom!({
      url: '/api/tickets/t1/status',
      method: 'patch',
      payload: { status: 'closed' },
    });
    expect(patched.data).toEqual({ id: 't1', status: 'closed' });
    expect(api.last('PATCH /tickets/t1/status')!.body).toEqual({ status: 'closed' });
    await provider.custom!({ url: 'dashboard/stats', method: 'get', query: { timeFrame: 'month' } });
    expect(api.last('GET /dashboard/stats')!.params).toEqual({ timeFrame: 'month' });
    expect(provider.getApiUrl()).toBe('/api');
  });
});

describe('data provider: failure texts per resource and operation (spec §8)', () => {
  beforeEach(() => localStorage.clear());

  it('uses the resource fallback when the server sends no message', async () => {
    const { api, provider } = setup();
    api.on('GET /plans', fail(500));
    api.on('GET /plans/p1', fail(500));
    api.on('POST /plans', fail(500));
    api.on('PUT /plans/p1', fail(500));
    api.on('DELETE /plans/p1', fail(500));
    api.on('GET /payments/gateways', fail(500));
    api.on('PUT /payments/gateways/g1', fail(500));
    api.on('GET /users', fail(500));
    api.on('GET /subscriptions/s1', fail(503));

    await expect(provider.getList({ resource: 'plans' })).rejects.toMatchObject({
      message: 'Failed to fetch plans',
      statusCode: 500,
    });
    await expect(provider.getOne({ resource: 'plans', id: 'p1' })).rejects.toMatchObject({
      message: 'Failed to fetch plan details',
    });
    await expect(provider.create({ resource: 'plans', variables: { name: 'x' } })).rejects.toMatchObject({
      message: 'Failed to create plan',
    });
    await expect(provider.update({ resource: 'plans', id: 'p1', variables: { name: 'x' } })).rejects.toMatchObject({
      message: 'Failed to update plan',
    });
    await expect(
      provider.update({ resource: 'plans', id: 'p1', variables: { status: 'inactive' } }),
    ).rejects.toMatchObject({
      message: 'Failed to update plan status',
    });
    await expect(provider.deleteOne({ resource: 'plans', id: 'p1' })).rejects.toMatchObject({
      message: 'Failed to delete plan',
    });
    await expect(provider.getList({ resource: 'payment-gateways' })).rejects.toMatchObject({
      message: 'Failed to fetch payment gateways',
    });
    await expect(
      provider.update({ resource: 'payment-gateways', id: 'g1', variables: { is_active: true } }),
    ).rejects.toMatchObject({
      message: 'Failed to update gateway status',
    });
    await expect(provider.getList({ resource: 'users' })).rejects.toMatchObject({ message: 'Failed to fetch users' });
    await expect(provider.getOne({ resource: 'subscriptions', id: 's1' })).rejects.toMatchObject({
      message: 'Failed to fetch subscription details',
    });
  });

  it("prefers the server's message, and meta.fallbackMessage over the table", async () => {
    const { api, provider } = setup();
    api.on('GET /plans', fail(500, 'Plans are being migrated'));
    api.on('POST /tickets/t1/replies', fail(500));
    await expect(provider.getList({ resource: 'plans' })).rejects.toMatchObject({
      message: 'Plans are being migrated',
    });
    await expect(
      provider.custom!({
        url: '/tickets/t1/replies',
        method: 'post',
        payload: { message: 'hi' },
        meta: { fallbackMessage: 'Failed to add reply' },
      }),
    ).rejects.toMatchObject({ message: 'Failed to add reply' });
  });

  it('knows the spec texts for every resource group, and a generic text for unknown ones', () => {
    expect(errorFallback('users', 'one')).toBe('Failed to fetch user');
    expect(errorFallback('users', 'update')).toBe('Failed to update user profile');
    expect(errorFallback('gateways', 'delete')).toBe('Failed to delete payment gateway');
    expect(errorFallback('subscriptions', 'list')).toBe('Failed to fetch subscriptions');
    expect(errorFallback('invoices', 'list')).toBe('Failed to fetch invoices');
    expect(errorFallback('tickets', 'one')).toBe('Failed to fetch ticket');
    expect(errorFallback('installations', 'list')).toBe('Failed to load installations');
    expect(errorFallback('warehouse-items', 'list')).toBe('An unknown error occurred.');
  });
});
