/**
 * The browser side of the session (spec §4): the access token in localStorage under 'token', an 'auth_state'
 * marker that says "a session was established here" (the startup sequence keys off it), and the token's expiry
 * as the server announced it. The refresh token is an httpOnly cookie and never visible here.
 */
import { TOKEN_EXPIRY_MARGIN_MS } from '../contract/product';

export const TOKEN_KEY = 'token';
export const AUTH_STATE_KEY = 'auth_state';
export const TOKEN_EXPIRES_KEY = 'token_expires';

/** Milliseconds since the epoch. Injected wherever a rule depends on the time (tests move it). */
export type Clock = () => number;

let clock: Clock = () => Date.now();

export function setClock(next: Clock | null): void {
  clock = next ?? (() => Date.now());
}

export function now(): number {
  return clock();
}

// Storage can throw (private browsing, disabled storage); a session that cannot be stored is simply absent.
function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key);
    else globalThis.localStorage?.setItem(key, value);
  } catch {
    /* storage unavailable: nothing to keep */
  }
}

/** Stores a fresh access token (after login, registration or refresh) and sets the session marker. */
export function saveSession(token: string, expires?: string | number | Date | null): void {
  write(TOKEN_KEY, token);
  write(AUTH_STATE_KEY, 'true');
  const at = expires === undefined || expires === null ? null : toEpochMs(expires);
  write(TOKEN_EXPIRES_KEY, at === null ? null : String(at));
}

/** Removes the token, its expiry and the marker. */
export function clearSession(): void {
  write(TOKEN_KEY, null);
  write(TOKEN_EXPIRES_KEY, null);
  write(AUTH_STATE_KEY, null);
}

export function getToken(): string | null {
  return read(TOKEN_KEY);
}

export function hasSessionMarker(): boolean {
  return read(AUTH_STATE_KEY) === 'true';
}

/** The stored expiry in epoch milliseconds, or null when none (or an unreadable one) was stored. */
export function getStoredExpiry(): number | null {
  const raw = read(TOKEN_EXPIRES_KEY);
  if (raw === null) return null;
  const n = Number(raw);
  return Number.isFinite(n) ? n : null;
}

function toEpochMs(value: string | number | Date): number | null {
  if (value instanceof Date) return Number.isFinite(value.getTime()) ? value.getTime() : null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const parsed = Date.parse(value);
  return Number.isFinite(parsed) ? parsed : null;
}

function base64UrlDecode(part: string): string {
  const b64 = part
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(part.length / 4) * 4, '=');
  const binary = atob(b64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * The `exp` claim of a JWT in epoch milliseconds, read without verifying the signature (the server verifies;
 * the client only wants to know whether to refresh first). Null when the token is not a readable JWT.
 */
export function decodeJwtExpiry(token: string): number | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const payload: unknown = JSON.parse(base64UrlDecode(parts[1]));
    const exp = (payload as { exp?: unknown } | null)?.exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/**
 * When a token or an expiry runs out, in epoch milliseconds. Accepts a JWT (its exp claim), an ISO date string,
 * epoch milliseconds or a Date. Null when nothing readable is given.
 */
export function expiryOf(tokenOrExpiry: string | number | Date | null | undefined): number | null {
  if (tokenOrExpiry === null || tokenOrExpiry === undefined || tokenOrExpiry === '') return null;
  if (typeof tokenOrExpiry === 'string' && tokenOrExpiry.split('.').length === 3) return decodeJwtExpiry(tokenOrExpiry);
  return toEpochMs(tokenOrExpiry);
}

/**
 * Spec §4: a token counts as expired when its expiry is less than 30 seconds away; a token with no readable
 * expiry counts as expired.
 */
export function isTokenExpired(tokenOrExpiry: string | number | Date | null | undefined, at: number = now()): boolean {
  const expiry = expiryOf(tokenOrExpiry);
  return expiry === null || expiry - at < TOKEN_EXPIRY_MARGIN_MS;
}

/**
 * Whether the stored session needs a refresh before use: the token's own exp claim when it is a readable JWT,
 * otherwise the expiry the server announced with it; no token at all counts as expired.
 */
export function isStoredTokenExpired(at: number = now()): boolean {
  const token = getToken();
  if (!token) return true;
  return isTokenExpired(decodeJwtExpiry(token) ?? getStoredExpiry(), at);
}
