import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  bootstrapSession,
  createAuthProvider,
  resetSessionBootstrap,
  runStartupSequence,
} from '../../providers/auth-provider';
import { getAuthState, resetAuthState, subscribeAuthState } from '../../providers/auth-store';
import { createHttpClient } from '../../providers/http-client';
import { getToken, hasSessionMarker, saveSession } from '../../providers/session';
import { FakeApi, authData, fail, jwtExpiringIn, ok, sampleUser } from './support/fake-api';

const NOW = 1_700_000_000_000;
const clock = () => NOW;
const PROFILE = 'GET /auth/profile';
const REFRESH = 'POST /auth/refresh-token';

function setup() {
  const api = new FakeApi();
  const navigate = vi.fn();
  const client = createHttpClient({ adapter: api.adapter, navigate });
  return { api, client, navigate };
}

describe('startup sequence (spec §4), every branch with its calls', () => {
  let warn: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    localStorage.clear();
    resetAuthState();
    resetSessionBootstrap();
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it('marker + valid token: loads the user directly, no refresh', async () => {
    const { api, client } = setup();
    const token = jwtExpiringIn(600, NOW);
    saveSession(token);
    api.on(PROFILE, ok({ user: sampleUser }));

    await runStartupSequence({ client, clock });

    expect(api.count(REFRESH)).toBe(0);
    expect(api.count(PROFILE)).toBe(1);
    expect(api.last(PROFILE)!.authorization).toBe(`Bearer ${token}`);
    expect(getAuthState()).toMatchObject({
      user: sampleUser,
      isAuthenticated: true,
      isLoading: false,
      isRefreshing: false,
      hasAttemptedRefresh: false,
    });
  });

  it('marker + expired token: refreshes first, then loads the user with the new token', async () => {
    const { api, client } = setup();
    saveSession(jwtExpiringIn(29, NOW));
    api.on(REFRESH, ok(authData('fresh')));
    api.on(PROFILE, ok({ user: sampleUser }));

    await runStartupSequence({ client, clock });

    expect(api.count(REFRESH)).toBe(1);
    expect(api.count(PROFILE)).toBe(1);
    expect(api.calls.map((c) => c.path)).toEqual(['/auth/refresh-token', '/auth/profile']);
    expect(api.last(PROFILE)!.authorization).toBe('Bearer fresh');
    expect(getAuthState()).toMatchObject({
      isAuthenticated: true,
      token: 'fresh',
      hasAttemptedRefresh: true,
      isLoading: false,
    });
  });

  it('marker + expired token + refresh failure: no user fetch, session cleared, only logged, no navigation', async () => {
    const { api, client, navigate } = setup();
    saveSession(jwtExpiringIn(5, NOW));
    api.on(REFRESH, fail(401, 'Refresh token expired'));

    await expect(runStartupSequence({ client, clock })).resolves.toBeUndefined();

    expect(api.count(REFRESH)).toBe(1);
    expect(api.count(PROFILE)).toBe(0);
    expect(getToken()).toBeNull();
    expect(getAuthState()).toMatchObject({
      isAuthenticated: false,
      hasAttemptedRefresh: true,
      isLoading: false,
      isRefreshing: false,
    });
    expect(warn).toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('marker + valid token + profile failure: refreshes, then loads the user again', async () => {
    const { api, client } = setup();
    saveSession(jwtExpiringIn(600, NOW));
    let profileCalls = 0;
    api.on(PROFILE, () => (++profileCalls === 1 ? fail(500, 'Boom') : ok({ user: sampleUser })));
    api.on(REFRESH, ok(authData('fresh')));

    await runStartupSequence({ client, clock });

    expect(api.count(PROFILE)).toBe(2);
    expect(api.count(REFRESH)).toBe(1);
    expect(api.calls.map((c) => c.path)).toEqual(['/auth/profile', '/auth/refresh-token', '/auth/profile']);
    expect(getAuthState()).toMatchObject({ user: sampleUser, isAuthenticated: true, token: 'fresh' });
  });

  it('marker + valid token + profile 401 removes the token; the failed refresh leaves the user signed out', async () => {
    const { api, client, navigate } = setup();
    saveSession(jwtExpiringIn(600, NOW));
    let tokenWhenRefreshing: string | null = 'unset';
    api.on(PROFILE, fail(401, 'Unauthorized'));
    api.on(REFRESH, () => {
      tokenWhenRefreshing = getToken();
      return fail(401, 'No session');
    });

    await runStartupSequence({ client, clock });

    expect(tokenWhenRefreshing).toBeNull(); // the 401 removed it before the refresh
    expect(api.count(PROFILE)).toBe(1); // no reload after a failed refresh, and no hidden refresh inside the client
    expect(api.count(REFRESH)).toBe(1);
    expect(hasSessionMarker()).toBe(false);
    expect(getAuthState()).toMatchObject({
      isAuthenticated: false,
      user: null,
      hasAttemptedRefresh: true,
      isLoading: false,
    });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('no marker: still tries a refresh and on success loads the user', async () => {
    const { api, client } = setup();
    api.on(REFRESH, ok(authData('from-cookie')));
    api.on(PROFILE, ok({ user: sampleUser }));

    await runStartupSequence({ client, clock });

    expect(api.count(REFRESH)).toBe(1);
    expect(api.count(PROFILE)).toBe(1);
    expect(hasSessionMarker()).toBe(true);
    expect(getAuthState()).toMatchObject({ isAuthenticated: true, user: sampleUser, hasAttemptedRefresh: true });
  });

  it('no marker and no refresh cookie: one refresh, no user fetch, signed out, only logged', async () => {
    const { api, client, navigate } = setup();
    api.on(REFRESH, fail(401, 'No refresh token'));

    await runStartupSequence({ client, clock });

    expect(api.count(REFRESH)).toBe(1);
    expect(api.count(PROFILE)).toBe(0);
    expect(getAuthState()).toMatchObject({
      isAuthenticated: false,
      hasAttemptedRefresh: true,
      isLoading: false,
      isRefreshing: false,
    });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('no marker and the server holds no session (204): one refresh, no user fetch, signed out, nothing logged', async () => {
    const { api, client, navigate } = setup();
    api.on(REFRESH, { status: 204, body: '' });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});

    await runStartupSequence({ client, clock });

    expect(api.count(REFRESH)).toBe(1);
    expect(api.count(PROFILE)).toBe(0);
    expect(getAuthState()).toMatchObject({
      isAuthenticated: false,
      hasAttemptedRefresh: true,
      isLoading: false,
      isRefreshing: false,
    });
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('a call that meets a 401 and then finds no session to refresh (204) ends signed out at the sign-in page', async () => {
    const { api, client, navigate } = setup();
    saveSession(jwtExpiringIn(600, NOW));
    api.on(PROFILE, fail(401, 'Unauthorized'));
    api.on(REFRESH, { status: 204, body: '' });

    await expect(client.get('/auth/profile')).rejects.toMatchObject({ statusCode: 401 });

    expect(api.count(REFRESH)).toBe(1);
    expect(getToken()).toBeNull();
    expect(getAuthState()).toMatchObject({ isAuthenticated: false });
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('shows isLoading for the whole sequence and isRefreshing during the refresh', async () => {
    const { api, client } = setup();
    api.on(REFRESH, { ...ok(authData('fresh')), delay: 5 });
    api.on(PROFILE, ok({ user: sampleUser }));
    const seen: string[] = [];
    const unsubscribe = subscribeAuthState(() => {
      const s = getAuthState();
      seen.push(`${s.isLoading ? 'L' : '-'}${s.isRefreshing ? 'R' : '-'}`);
    });
    await runStartupSequence({ client, clock });
    unsubscribe();
    expect(seen).toContain('LR');
    expect(seen.at(-1)).toBe('--');
  });

  it('runs once: bootstrapSession is memoised and check() waits for it', async () => {
    const { api, client } = setup();
    api.on(REFRESH, { ...ok(authData('fresh')), delay: 10 });
    api.on(PROFILE, ok({ user: sampleUser }));
    const auth = createAuthProvider(client);

    const first = bootstrapSession({ client, clock });
    const second = bootstrapSession({ client, clock });
    const checked = await auth.check();

    expect(second).toBe(first);
    expect(checked).toEqual({ authenticated: true });
    expect(api.count(REFRESH)).toBe(1);
    expect(api.count(PROFILE)).toBe(1);
  });

  it('check() after a failed startup answers unauthenticated with a redirect to /login and logout', async () => {
    const { api, client } = setup();
    api.on(REFRESH, fail(401));
    const auth = createAuthProvider(client);
    expect(await auth.check()).toEqual({ authenticated: false, redirectTo: '/login', logout: true });
  });
});
