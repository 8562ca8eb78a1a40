import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpClient } from '../../providers/http-client';
import { getAuthState, resetAuthState } from '../../providers/auth-store';
import { getToken, hasSessionMarker, saveSession } from '../../providers/session';
import { ApiError } from '../../providers/http-error';
import { FakeApi, authData, fail, ok } from './support/fake-api';

/** GET /things answers 401 unless it carries the new token. */
function apiWithProtectedThings() {
  const api = new FakeApi();
  api.on('GET /things', (call) =>
    call.authorization === 'Bearer new-token' ? ok({ id: call.params.n }) : fail(401, 'Token expired'),
  );
  return api;
}

describe('401 → one shared refresh → one retry (spec §4 request retry)', () => {
  beforeEach(() => {
    localStorage.clear();
    saveSession('old-token');
    resetAuthState();
  });
  afterEach(() => vi.restoreAllMocks());

  it('five concurrent 401s cause exactly one refresh call and five retries that succeed with the new token', async () => {
    const api = apiWithProtectedThings();
    api.on('POST /auth/refresh-token', { ...ok(authData('new-token')), delay: 20 });
    const client = createHttpClient({ adapter: api.adapter, navigate: vi.fn() });

    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => client.get('/things', { params: { n } })));

    expect(results.map((r) => r.data.data.id)).toEqual([1, 2, 3, 4, 5]);
    expect(api.count('POST /auth/refresh-token')).toBe(1);
    expect(api.count('GET /things')).toBe(10); // five failures, five retries
    const retries = api.calls.filter((c) => c.path === '/things').slice(5);
    expect(retries.every((c) => c.authorization === 'Bearer new-token')).toBe(true);
    expect(getToken()).toBe('new-token');
    expect(getAuthState()).toMatchObject({ isAuthenticated: true, token: 'new-token', isRefreshing: false });
  });

  it('sends the refresh with cookies, an empty body and no bearer token', async () => {
    const api = apiWithProtectedThings();
    api.on('POST /auth/refresh-token', ok(authData('new-token')));
    const client = createHttpClient({ adapter: api.adapter });
    await client.get('/things');
    const refresh = api.last('POST /auth/refresh-token')!;
    expect(refresh.config.withCredentials).toBe(true);
    expect(refresh.body).toBeUndefined();
    expect(refresh.authorization).toBeNull();
    expect(refresh.config.baseURL).toBe('/api');
    expect(refresh.config.timeout).toBe(15_000);
  });

  it('retries a failed call exactly once: a second 401 is final', async () => {
    const api = new FakeApi();
    api.on('GET /things', fail(401, 'Still not allowed'));
    api.on('POST /auth/refresh-token', ok(authData('new-token')));
    const client = createHttpClient({ adapter: api.adapter, navigate: vi.fn() });
    await expect(client.get('/things')).rejects.toMatchObject({ statusCode: 401, message: 'Still not allowed' });
    expect(api.count('GET /things')).toBe(2);
    expect(api.count('POST /auth/refresh-token')).toBe(1);
  });

  it('does not refresh on a 401 from login or register (wrong credentials) and sends them without a bearer', async () => {
    const api = new FakeApi();
    api.on('POST /auth/login', fail(401, 'Invalid email or password'));
    api.on('POST /auth/register', fail(401, 'Nope'));
    const client = createHttpClient({ adapter: api.adapter });
    await expect(client.post('/auth/login', {})).rejects.toMatchObject({
      statusCode: 401,
      message: 'Invalid email or password',
    });
    await expect(client.post('/auth/register', {})).rejects.toMatchObject({ statusCode: 401 });
    expect(api.count('POST /auth/refresh-token')).toBe(0);
    expect(api.calls.every((c) => c.authorization === null)).toBe(true);
  });

  it('retries without a second refresh when the 401 was for a token already replaced', async () => {
    const api = apiWithProtectedThings();
    const client = createHttpClient({ adapter: api.adapter });
    api.on('GET /things', (call) => {
      saveSession('new-token'); // another call's refresh finished while this one was in flight
      return call.authorization === 'Bearer new-token' ? ok({ id: 1 }) : fail(401);
    });
    await client.get('/things');
    expect(api.count('POST /auth/refresh-token')).toBe(0);
    expect(api.count('GET /things')).toBe(2);
  });

  it('a failed refresh clears the session, marks the attempt and goes to /login remembering the page', async () => {
    const api = apiWithProtectedThings();
    api.on('POST /auth/refresh-token', { ...fail(401, 'Refresh token expired'), delay: 10 });
    const navigate = vi.fn();
    const client = createHttpClient({ adapter: api.adapter, navigate, currentPath: () => '/dashboard/plans?page=2' });

    const outcomes = await Promise.allSettled([1, 2, 3].map(() => client.get('/things')));

    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);
    expect((outcomes[0] as PromiseRejectedResult).reason).toBeInstanceOf(ApiError);
    expect((outcomes[0] as PromiseRejectedResult).reason).toMatchObject({ statusCode: 401 });
    expect(api.count('POST /auth/refresh-token')).toBe(1);
    expect(getToken()).toBeNull();
    expect(hasSessionMarker()).toBe(false);
    expect(getAuthState()).toMatchObject({
      isAuthenticated: false,
      hasAttemptedRefresh: true,
      token: null,
      user: null,
    });
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith(`/login?to=${encodeURIComponent('/dashboard/plans?page=2')}`);
  });

  it('a 429 on the refresh is only logged: the session is kept and nobody is sent to /login', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const api = apiWithProtectedThings();
    api.on('POST /auth/refresh-token', fail(429, 'Too many requests'));
    const navigate = vi.fn();
    const client = createHttpClient({ adapter: api.adapter, navigate });

    await expect(client.get('/things')).rejects.toMatchObject({ statusCode: 401 });

    expect(warn).toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();
    expect(getToken()).toBe('old-token');
    expect(hasSessionMarker()).toBe(true);
  });

  it('puts the stored token on ordinary calls as a bearer', async () => {
    const api = new FakeApi().on('GET /plans', ok({ items: [] }));
    const client = createHttpClient({ adapter: api.adapter });
    await client.get('/plans');
    expect(api.last('GET /plans')!.authorization).toBe('Bearer old-token');
  });
});
