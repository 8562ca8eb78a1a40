import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clearSession,
  decodeJwtExpiry,
  getStoredExpiry,
  getToken,
  hasSessionMarker,
  isStoredTokenExpired,
  isTokenExpired,
  saveSession,
  setClock,
} from '../../providers/session';
import { jwtExpiringIn } from './support/fake-api';

const NOW = 1_700_000_000_000; // a whole second, so exp claims land exactly

describe('token expiry with the 30 s margin (spec §4)', () => {
  beforeEach(() => {
    localStorage.clear();
    setClock(() => NOW);
  });
  afterEach(() => setClock(null));

  it('treats a JWT expiring in 29 s as expired and one expiring in 31 s as valid', () => {
    expect(isTokenExpired(jwtExpiringIn(29, NOW))).toBe(true);
    expect(isTokenExpired(jwtExpiringIn(31, NOW))).toBe(false);
  });

  it('treats exactly 30 s away as not expired ("less than 30 seconds" is expired)', () => {
    expect(isTokenExpired(NOW + 30_000)).toBe(false);
    expect(isTokenExpired(NOW + 29_999)).toBe(true);
  });

  it('accepts an ISO expiry, epoch milliseconds or a Date, and an explicit "now"', () => {
    expect(isTokenExpired(new Date(NOW + 31_000).toISOString())).toBe(false);
    expect(isTokenExpired(new Date(NOW + 29_000))).toBe(true);
    expect(isTokenExpired(NOW + 60_000, NOW + 31_000)).toBe(true);
  });

  it('counts an unreadable expiry as expired', () => {
    for (const bad of [undefined, null, '', 'not-a-token', 'a.b.c', 'x.eyJzdWIiOiJ1MSJ9.y', 'soon', Number.NaN]) {
      expect(isTokenExpired(bad as never)).toBe(true);
    }
    expect(decodeJwtExpiry('x.eyJzdWIiOiJ1MSJ9.y')).toBeNull(); // a payload without exp
  });

  it('stores token, marker and expiry in localStorage and clears them together', () => {
    saveSession('tok', new Date(NOW + 60_000).toISOString());
    expect(localStorage.getItem('token')).toBe('tok');
    expect(localStorage.getItem('auth_state')).toBe('true');
    expect(getStoredExpiry()).toBe(NOW + 60_000);
    expect(hasSessionMarker()).toBe(true);
    clearSession();
    expect(getToken()).toBeNull();
    expect(hasSessionMarker()).toBe(false);
    expect(getStoredExpiry()).toBeNull();
  });

  it('judges the stored session by the JWT exp claim, else by the stored expiry; no token is expired', () => {
    expect(isStoredTokenExpired()).toBe(true);
    saveSession(jwtExpiringIn(10, NOW), new Date(NOW + 3_600_000).toISOString());
    expect(isStoredTokenExpired()).toBe(true); // the claim wins over a later announced expiry
    saveSession('opaque-token', new Date(NOW + 3_600_000).toISOString());
    expect(isStoredTokenExpired()).toBe(false);
    saveSession('opaque-token');
    expect(isStoredTokenExpired()).toBe(true);
  });
});
