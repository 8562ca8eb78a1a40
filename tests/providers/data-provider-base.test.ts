import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import simpleRest from '@refinedev/simple-rest';
import { API_BASE } from '../../contract/product';
import { resetAuthState } from '../../providers/auth-store';
import { createDataProvider } from '../../providers/data-provider';
import { createHttpClient } from '../../providers/http-client';
import { getToken, saveSession } from '../../providers/session';
import { FakeApi, authData, fail, ok } from './support/fake-api';

function setup() {
  const api = new FakeApi();
  const http = createHttpClient({ adapter: api.adapter, navigate: vi.fn() });
  return { api, http, provider: createDataProvider(http) };
}

describe('data provider: built on @refinedev/simple-rest over our http client', () => {
  beforeEach(() => {
    localStorage.clear();
    saveSession('old-token');
    resetAuthState();
  });
  afterEach(() => vi.restoreAllMocks());

  it("has every method of simple-rest's provider, and simple-rest's getApiUrl answers the API base", () => {
    const { provider } = setup();
    const base = simpleRest(API_BASE);
    for (const method of Object.keys(base))
      expect(typeof provider[method as keyof typeof provider], method).toBe('function');
    expect(provider.getApiUrl()).toBe(base.getApiUrl());
    expect(provider.getApiUrl()).toBe('/api');
  });

  it("sends custom calls through simple-rest's choice of our client's verb method, with the bearer token, and unwraps the envelope", async () => {
    const { api, http, provider } = setup();
    const patch = vi.spyOn(http, 'patch');
    const get = vi.spyOn(http, 'get');
    api.on('PATCH /tickets/t1/status', ok({ id: 't1', status: 'closed' }));
    api.on('GET /dashboard/stats', ok({ tickets: 3 }));

    const patched = await provider.custom!({
      url: '/api/tickets/t1/status',
      method: 'patch',
      payload: { status: 'closed' },
    });
    const read = await provider.custom!({
      url: '/dashboard/stats',
      method: 'get',
      query: { timeFrame: 'month' },
      filters: [{ field: 'q', operator: 'contains', value: 'fiber' }],
      sorters: [{ field: 'at', order: 'desc' }],
    });

    // simple-rest picked client.patch(url, payload, config) and client.get(url, config): our client, not its own
    expect(patch).toHaveBeenCalledWith(
      '/tickets/t1/status',
      { status: 'closed' },
      expect.objectContaining({ params: {} }),
    );
    expect(get).toHaveBeenCalledWith('/dashboard/stats', expect.objectContaining({ params: expect.any(Object) }));
    const patchCall = api.last('PATCH /tickets/t1/status')!;
    expect(patchCall.authorization).toBe('Bearer old-token');
    expect(patchCall.body).toEqual({ status: 'closed' });
    const getCall = api.last('GET /dashboard/stats')!;
    expect(getCall.authorization).toBe('Bearer old-token');
    expect(getCall.config.url).toBe('/dashboard/stats'); // no "?" left over from simple-rest's url
    // our query syntax, not simple-rest's q / _sort / _order
    expect(getCall.params).toEqual({ timeFrame: 'month', search: 'fiber', sort: 'at', order: 'desc' });
    expect(patched.data).toEqual({ id: 't1', status: 'closed' });
    expect(read.data).toEqual({ tickets: 3 });
  });

  it('a custom call that gets a 401 is refreshed and retried by our client, and fails with meta.fallbackMessage', async () => {
    const { api, provider } = setup();
    api.on('GET /backups', (call) =>
      call.authorization === 'Bearer new-token' ? ok({ items: ['b1'] }) : fail(401, 'Token expired'),
    );
    api.on('POST /auth/refresh-token', ok(authData('new-token')));
    api.on('DELETE /backups/b1', fail(500));

    const list = await provider.custom!({ url: '/backups', method: 'get' });
    expect(list.data).toEqual({ items: ['b1'] });
    expect(api.count('POST /auth/refresh-token')).toBe(1);
    expect(api.count('GET /backups')).toBe(2);
    expect(getToken()).toBe('new-token');

    await expect(
      provider.custom!({
        url: '/backups/b1',
        method: 'delete',
        payload: { confirm: true },
        meta: { fallbackMessage: 'Failed to delete backup' },
      }),
    ).rejects.toMatchObject({ statusCode: 500, message: 'Failed to delete backup' });
    expect(api.last('DELETE /backups/b1')!.body).toEqual({ confirm: true });
    expect(api.last('DELETE /backups/b1')!.authorization).toBe('Bearer new-token');
  });
});
