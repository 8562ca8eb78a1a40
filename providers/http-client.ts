/**
 * The one way to call the API (spec §4, §7, §9): base /api, 15 s time-out, cookies sent, the bearer token from
 * the session on every call except login and register.
 *
 * A 401 triggers one token refresh shared by every call that fails meanwhile (a single in-flight promise),
 * then each failed call is retried exactly once with the new token. When the refresh fails the session is
 * cleared and the user is sent to /login with the page remembered; a 429 on the refresh is only logged.
 * Every failure leaves here as an ApiError (Refine's HttpError), its message chosen by spec §8's precedence.
 */
import axios, { type AxiosAdapter, type AxiosError, type AxiosInstance, type InternalAxiosRequestConfig } from 'axios';
import { API_BASE, REQUEST_TIMEOUT_MS } from '../contract/product';
import type { ApiSuccess } from '../contract/envelope';
import type { AuthData } from '../contract/schemas/auth';
import { setAuthState } from './auth-store';
import { ApiError, toHttpError } from './http-error';
import { clearSession, getToken, saveSession } from './session';
import { translate, translateMessage } from '../src/i18n';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Spec §8 text shown when the server sends no message of its own. */
    fallbackMessage?: string;
    /** Let a 401 through untouched: no refresh, no retry (the startup sequence handles its own 401s). */
    skipAuthRefresh?: boolean;
    /** Set on the one retry after a refresh, so a second 401 is final. */
    _retried?: boolean;
  }
}

export const REFRESH_PATH = '/auth/refresh-token';
/** Calls that answer 401 for wrong credentials, or are the refresh itself: never refreshed, never bearer. */
const CREDENTIAL_PATHS = ['/auth/login', '/auth/register'];

export type Navigate = (to: string) => void;

function defaultNavigate(to: string): void {
  if (typeof window !== 'undefined') window.location.assign(to);
}

let navigator: Navigate = defaultNavigate;

/**
 * Where the app goes after a failed refresh. The app shell should register the router's navigate once it is
 * mounted (e.g. `setNavigator((to) => navigate(to, { replace: true }))`); until then a full page load is used.
 */
export function setNavigator(fn: Navigate | null): void {
  navigator = fn ?? defaultNavigate;
}

function currentLocation(): string {
  if (typeof window === 'undefined') return '/';
  return window.location.pathname + window.location.search;
}

/** /login remembering the page the user was on (the login screen reads ?to=). */
export function loginPathFor(path: string): string {
  const clean = path.split('#')[0];
  if (clean === '' || clean === '/' || clean.startsWith('/login')) return '/login';
  return `/login?to=${encodeURIComponent(clean)}`;
}

function pathOf(url: string | undefined): string {
  return (url ?? '')
    .split('?')[0]
    .replace(/^https?:\/\/[^/]+/, '')
    .replace(/^\/api(?=\/)/, '');
}

function isCredentialCall(url: string | undefined): boolean {
  const path = pathOf(url);
  return CREDENTIAL_PATHS.includes(path);
}

function isRefreshCall(url: string | undefined): boolean {
  return pathOf(url) === REFRESH_PATH;
}

export interface HttpClientOptions {
  baseURL?: string;
  timeout?: number;
  /** An axios adapter (tests answer requests in-process with one). */
  adapter?: AxiosAdapter;
  /** Overrides the navigator registered with setNavigator() for this client. */
  navigate?: Navigate;
  /** The page to remember when sending the user to /login; defaults to window.location. */
  currentPath?: () => string;
}

export interface HttpClient extends AxiosInstance {
  /** The single shared refresh: concurrent callers get the same promise; resolves with the new session. */
  refreshAccessToken(): Promise<AuthData>;
}

export function createHttpClient(opts: HttpClientOptions = {}): HttpClient {
  const instance = axios.create({
    baseURL: opts.baseURL ?? API_BASE,
    timeout: opts.timeout ?? REQUEST_TIMEOUT_MS,
    withCredentials: true,
    headers: { Accept: 'application/json' },
    ...(opts.adapter ? { adapter: opts.adapter } : {}),
  });
  const client = instance as HttpClient;
  let inFlight: Promise<AuthData> | null = null;
  // The failed refresh we already navigated away for: five calls sharing one failure navigate once.
  let navigatedFor: Promise<AuthData> | null = null;

  // The current token goes on every call, so a retry automatically carries the refreshed one.
  instance.interceptors.request.use((config) => {
    const token = getToken();
    if (isCredentialCall(config.url) || isRefreshCall(config.url) || !token) config.headers.delete('Authorization');
    else config.headers.set('Authorization', `Bearer ${token}`);
    return config;
  });

  async function runRefresh(): Promise<AuthData> {
    const fallbackMessage = translate('errors.auth.refresh');
    setAuthState({ isRefreshing: true });
    try {
      const res = await instance.post<ApiSuccess<AuthData>>(REFRESH_PATH, undefined, {
        skipAuthRefresh: true,
        fallbackMessage,
      });
      // 204: the browser holds no session to refresh (a visitor). Not an error worth a word in the console.
      if (res.status === 204) throw new ApiError(translate('errors.auth.noSession'), 401, undefined, true);
      const data = res.data.data;
      const access = data?.tokens?.access;
      if (!access?.token) throw toHttpError(new Error('refresh response without token'), fallbackMessage);
      saveSession(access.token, access.expires);
      setAuthState({
        token: access.token,
        user: data.user ?? null,
        isAuthenticated: true,
        hasAttemptedRefresh: true,
        isRefreshing: false,
        error: null,
      });
      return data;
    } catch (error) {
      const httpError = toHttpError(error, fallbackMessage);
      if (httpError.statusCode === 429) {
        // Too many refreshes: the session may still be good, so keep it and let the next call try again.
        console.warn('[auth] token refresh rate-limited (429); session kept', httpError.message);
        setAuthState({ isRefreshing: false, hasAttemptedRefresh: true });
      } else {
        clearSession();
        setAuthState({
          token: null,
          user: null,
          isAuthenticated: false,
          hasAttemptedRefresh: true,
          isRefreshing: false,
        });
      }
      throw httpError;
    }
  }

  client.refreshAccessToken = () => {
    if (!inFlight) inFlight = runRefresh().finally(() => (inFlight = null));
    return inFlight;
  };

  // A success's message ("Settings saved", "Ticket created successfully") in the reader's language (issue 37): the
  // API answers in English, the toasts that show it do not.
  instance.interceptors.response.use((response) => {
    const body = response.data as { message?: unknown } | null;
    if (body && typeof body === 'object' && typeof body.message === 'string')
      body.message = translateMessage(body.message);
    return response;
  });

  instance.interceptors.response.use(undefined, async (error: AxiosError) => {
    const config = error.config as InternalAxiosRequestConfig | undefined;
    const eligible =
      error.response?.status === 401 &&
      config &&
      !config.skipAuthRefresh &&
      !config._retried &&
      !isCredentialCall(config.url) &&
      !isRefreshCall(config.url);
    if (!eligible) throw toHttpError(error, config?.fallbackMessage);

    // A call sent with a token that has since been replaced (its 401 arrived after another call's refresh
    // finished) only needs the retry, not a second refresh.
    const sent = String(config.headers.get('Authorization') ?? '').replace(/^Bearer /, '');
    const current = getToken();
    if (!(current && sent && current !== sent)) {
      const attempt = client.refreshAccessToken();
      try {
        await attempt;
      } catch (refreshError) {
        if (toHttpError(refreshError).statusCode !== 429 && navigatedFor !== attempt) {
          navigatedFor = attempt;
          (opts.navigate ?? navigator)(loginPathFor((opts.currentPath ?? currentLocation)()));
        }
        throw toHttpError(error, config.fallbackMessage);
      }
    }
    config._retried = true;
    return instance.request(config);
  });

  return client;
}

/** The app's client. */
export const httpClient: HttpClient = createHttpClient();
