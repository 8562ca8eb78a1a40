/**
 * Refine's auth provider and the startup session sequence (spec §3, §4, §7, §8).
 *
 * The access token lives in the session (providers/session.ts), the user and flags in the auth store; the
 * refresh token is an httpOnly cookie, so a page load restores the session by refreshing. check() waits for
 * the startup sequence, which runs once per page load.
 */
import type { AuthActionResponse, AuthProvider, CheckResponse, OnErrorResponse } from '@refinedev/core';
import type { ApiSuccess } from '../contract/envelope';
import { isLanguage } from '../contract/languages';
import type { AuthData, LoginBody, RegisterBody, UpdateProfileBody } from '../contract/schemas/auth';
import { getLocale, translate } from '../src/i18n';
import { getAuthState, setAuthState, type AuthUser } from './auth-store';
import { httpClient, loginPathFor, type HttpClient } from './http-client';
import { toHttpError } from './http-error';
import { clearSession, hasSessionMarker, isStoredTokenExpired, now, saveSession } from './session';

type UserData = { user: AuthUser };

function storeSession(data: AuthData): void {
  const access = data.tokens.access;
  saveSession(access.token, access.expires);
  setAuthState({ user: data.user, token: access.token, isAuthenticated: true, error: null });
}

function signOutLocally(): void {
  clearSession();
  setAuthState({ user: null, token: null, isAuthenticated: false, isRefreshing: false });
}

/** Where to go after signing in: an explicit target, else ?to= of the current page; same-site paths only. */
export function redirectAfterLogin(explicit?: unknown, search?: string): string {
  const fromQuery = search ?? (typeof window !== 'undefined' ? window.location.search : '');
  const to = typeof explicit === 'string' ? explicit : new URLSearchParams(fromQuery).get('to');
  if (!to?.startsWith('/') || to.startsWith('//') || /^\/(login|register)(\/|\?|$)/.test(to)) return '/dashboard';
  return to;
}

// ---------------------------------------------------------------------------------------------------------
// Startup sequence (spec §4)

export interface BootstrapDeps {
  /** The client for the current-user fetch (GET /auth/profile). */
  client?: HttpClient;
  /** The shared refresh; defaults to the client's. */
  refresh?: () => Promise<unknown>;
  /** Decides "expired" (tests move it). */
  clock?: () => number;
}

/** Loads the current user; a failure clears the token and the authenticated flag (a 401 included). */
async function loadCurrentUser(client: HttpClient): Promise<boolean> {
  try {
    const res = await client.get<ApiSuccess<UserData>>('/auth/profile', {
      skipAuthRefresh: true, // the sequence decides itself whether to refresh
      fallbackMessage: translate('errors.auth.fetchUser'),
    });
    const user = res.data.data.user;
    setAuthState({ user, isAuthenticated: true, error: null });
    return true;
  } catch (error) {
    // Covers both spec rules: a 401 removes the token, and any failure clears token and authenticated flag.
    const httpError = toHttpError(error, translate('errors.auth.fetchUser'));
    clearSession();
    setAuthState({ user: null, token: null, isAuthenticated: false });
    console.warn('[auth] current-user fetch failed:', httpError.message);
    return false;
  }
}

async function tryRefresh(refresh: () => Promise<unknown>): Promise<boolean> {
  setAuthState({ isRefreshing: true });
  try {
    await refresh();
    return true;
  } catch (error) {
    const httpError = toHttpError(error, translate('errors.auth.refresh'));
    // A visitor without a session is the normal case of a public page, not a failure.
    if (!httpError.noSession) console.warn('[auth] session refresh failed:', httpError.message);
    return false;
  } finally {
    setAuthState({ isRefreshing: false, hasAttemptedRefresh: true });
  }
}

/**
 * The startup sequence itself, not memoised (tests run each branch): with a session marker, refresh first
 * when the token has expired, else load the user and on failure refresh and load again; without a marker
 * still try a refresh and on success load the user. Failures are only logged.
 */
export async function runStartupSequence(deps: BootstrapDeps = {}): Promise<void> {
  const client = deps.client ?? httpClient;
  const refresh = deps.refresh ?? (() => client.refreshAccessToken());
  const at = (deps.clock ?? now)();
  setAuthState({ isLoading: true, error: null });
  try {
    if (hasSessionMarker()) {
      if (isStoredTokenExpired(at)) {
        if (await tryRefresh(refresh)) await loadCurrentUser(client);
      } else if (!(await loadCurrentUser(client))) {
        if (await tryRefresh(refresh)) await loadCurrentUser(client);
      }
    } else if (await tryRefresh(refresh)) {
      await loadCurrentUser(client);
    }
  } catch (error) {
    console.warn('[auth] startup sequence failed:', error);
  } finally {
    setAuthState({ isLoading: false, isRefreshing: false });
  }
}

let bootstrap: Promise<void> | null = null;

/** Runs the startup sequence once per page load; every later call (and check()) gets the same promise. */
export function bootstrapSession(deps?: BootstrapDeps): Promise<void> {
  if (!bootstrap) bootstrap = runStartupSequence(deps);
  return bootstrap;
}

/** Forgets the memoised startup (tests only). */
export function resetSessionBootstrap(): void {
  bootstrap = null;
}

// ---------------------------------------------------------------------------------------------------------
// Account calls outside Refine's auth hooks. They resolve with the envelope's data and reject with ApiError.

/** Spec §4: email verification success sets the user's isVerified to true. */
export function markEmailVerified(): void {
  setAuthState((s) => (s.user ? { user: { ...s.user, isVerified: true } } : {}));
}

export function createAccountApi(client: HttpClient = httpClient) {
  return {
    async verifyEmail(token: string | null | undefined): Promise<void> {
      if (!token) throw toHttpError(new Error('missing token'), translate('errors.auth.noToken'));
      await client.get('/auth/verify-email', {
        params: { token },
        skipAuthRefresh: true,
        fallbackMessage: translate('errors.auth.verifyEmail'),
      });
      markEmailVerified();
    },
    /** Follows the link sent to a new e-mail address (issue 32); resolves with the server's message. */
    async confirmEmailChange(token: string | null | undefined): Promise<string> {
      if (!token) throw toHttpError(new Error('missing token'), translate('auth.confirmEmail.failed'));
      const res = await client.post<ApiSuccess<UserData>>(
        '/auth/confirm-email',
        { token },
        {
          skipAuthRefresh: true,
          fallbackMessage: translate('auth.confirmEmail.failed'),
        },
      );
      const user = res.data.data.user;
      setAuthState((s) => (s.user && s.user.id === user.id ? { user } : {}));
      return res.data.message;
    },
    async resendVerification(email: string): Promise<string> {
      const res = await client.post<ApiSuccess<unknown>>(
        '/auth/resend-verification',
        { email },
        {
          fallbackMessage: translate('errors.auth.resendVerification'),
        },
      );
      return res.data.message;
    },
    async updateProfile(values: UpdateProfileBody): Promise<AuthUser> {
      const res = await client.put<ApiSuccess<UserData>>('/auth/profile', values, {
        fallbackMessage: translate('errors.auth.updateProfile'),
      });
      setAuthState({ user: res.data.data.user });
      return res.data.data.user;
    },
    async changePassword(body: { currentPassword: string; newPassword: string }): Promise<string> {
      const res = await client.post<ApiSuccess<unknown>>('/auth/change-password', body, {
        fallbackMessage: translate('errors.auth.changePassword'),
      });
      return res.data.message;
    },
  };
}

export const accountApi = createAccountApi();

// ---------------------------------------------------------------------------------------------------------
// Refine's AuthProvider

function failure(error: unknown, fallbackKey: string): AuthActionResponse {
  const httpError = toHttpError(error, translate(fallbackKey));
  setAuthState({ error: httpError.message });
  // Refine's login/register toast shows error.name as its title; the spec text is the whole message.
  const shown = Object.assign(new Error(httpError.message), {
    name: httpError.message,
    statusCode: httpError.statusCode,
    errors: httpError.errors,
  });
  return { success: false, error: shown };
}

type WithRedirect = { to?: string; redirectTo?: string };

export function createAuthProvider(client: HttpClient = httpClient): AuthProvider {
  const sessionStart = (data: AuthData, target: unknown): AuthActionResponse => {
    storeSession(data);
    return { success: true, redirectTo: redirectAfterLogin(target) };
  };

  return {
    async login(params: LoginBody & WithRedirect) {
      const { email, password, rememberMe } = params;
      try {
        const res = await client.post<ApiSuccess<AuthData>>(
          '/auth/login',
          { email, password, rememberMe: !!rememberMe },
          { fallbackMessage: translate('errors.auth.login') },
        );
        return sessionStart(res.data.data, params.redirectTo ?? params.to);
      } catch (error) {
        return failure(error, 'errors.auth.login');
      }
    },

    // Registration answers alike for a new and a taken address and signs nobody in (issue 32): the new customer is
    // then signed in with the password just chosen. If that is refused (the address already had an account), the
    // registration's own message is shown on the login page; the address's owner has been told by e-mail.
    async register(params: RegisterBody & WithRedirect & { confirmPassword?: string }) {
      const { to, redirectTo, confirmPassword: _confirm, ...fields } = params;
      // The account starts in the language the visitor is reading the site in (its e-mails too: issue 37).
      const locale = getLocale();
      const body: RegisterBody = isLanguage(locale) ? { language: locale, ...fields } : fields;
      let message: string;
      try {
        const res = await client.post<ApiSuccess<null>>('/auth/register', body, {
          fallbackMessage: translate('errors.auth.register'),
        });
        message = res.data.message;
      } catch (error) {
        return failure(error, 'errors.auth.register');
      }
      try {
        const res = await client.post<ApiSuccess<AuthData>>(
          '/auth/login',
          { email: body.email, password: body.password, rememberMe: !!body.rememberMe },
          { fallbackMessage: translate('errors.auth.register'), skipAuthRefresh: true },
        );
        return sessionStart(res.data.data, redirectTo ?? to);
      } catch {
        return { success: true, redirectTo: '/login', successNotification: { message } };
      }
    },

    async logout(params?: { redirectPath?: string }) {
      try {
        await client.post('/auth/logout', undefined, { skipAuthRefresh: true });
      } catch {
        console.warn(`[auth] ${translate('errors.auth.logout')}`);
      }
      signOutLocally();
      return { success: true, redirectTo: params?.redirectPath ?? '/login' };
    },

    async check(): Promise<CheckResponse> {
      await bootstrapSession({ client });
      const { isAuthenticated, user } = getAuthState();
      if (isAuthenticated && user) return { authenticated: true };
      return { authenticated: false, redirectTo: '/login', logout: true };
    },

    async getIdentity() {
      await bootstrapSession({ client });
      return getAuthState().user;
    },

    async getPermissions() {
      await bootstrapSession({ client });
      return getAuthState().user?.role ?? null;
    },

    async onError(error: unknown): Promise<OnErrorResponse> {
      const status =
        (error as { statusCode?: number; status?: number } | null)?.statusCode ??
        (error as { status?: number } | null)?.status;
      // A 401 that reaches Refine survived the client's refresh and retry: the session is gone.
      if (status === 401) {
        const here = typeof window !== 'undefined' ? window.location.pathname + window.location.search : '/';
        return { logout: true, redirectTo: loginPathFor(here), error: error as Error };
      }
      return {}; // 403 and everything else: the page shows its own error
    },

    async forgotPassword({ email }: { email: string }) {
      try {
        const res = await client.post<ApiSuccess<unknown>>(
          '/auth/forgot-password',
          { email },
          {
            fallbackMessage: translate('errors.auth.forgotPassword'),
          },
        );
        return { success: true, successNotification: { message: res.data.message } };
      } catch (error) {
        return failure(error, 'errors.auth.forgotPassword');
      }
    },

    /** With a reset token: reset a forgotten password; signed in: change it (currentPassword, newPassword). */
    async updatePassword(params: {
      token?: string;
      password?: string;
      currentPassword?: string;
      newPassword?: string;
    }) {
      const reset = typeof params.token === 'string' && params.token !== '';
      const fallbackKey = reset ? 'errors.auth.resetPassword' : 'errors.auth.changePassword';
      try {
        const res = reset
          ? await client.post<ApiSuccess<unknown>>(
              '/auth/reset-password',
              { token: params.token, password: params.password },
              {
                fallbackMessage: translate(fallbackKey),
              },
            )
          : await client.post<ApiSuccess<unknown>>(
              '/auth/change-password',
              {
                currentPassword: params.currentPassword,
                newPassword: params.newPassword ?? params.password,
              },
              { fallbackMessage: translate(fallbackKey) },
            );
        return {
          success: true,
          redirectTo: reset ? '/login' : undefined,
          successNotification: { message: res.data.message },
        };
      } catch (error) {
        return failure(error, fallbackKey);
      }
    },
  };
}

export const authProvider: AuthProvider = createAuthProvider();
