/**
 * The auth state of spec §3 as a tiny observable store. The http client, the auth provider and the startup
 * sequence write it; the route guard, layouts and access control read it (React through useAuthState()).
 */
import { useSyncExternalStore } from 'react';
import type { PublicUser } from '../contract/schemas/user';
import { getToken } from './session';

export type AuthUser = PublicUser;

export interface AuthState {
  user: AuthUser | null;
  token: string | null;
  isAuthenticated: boolean;
  /** True until the startup sequence has finished: the guard shows 'Verifying access...' meanwhile. */
  isLoading: boolean;
  isRefreshing: boolean;
  hasAttemptedRefresh: boolean;
  error: string | null;
}

function initialState(): AuthState {
  return {
    user: null,
    token: getToken(),
    isAuthenticated: false,
    isLoading: true,
    isRefreshing: false,
    hasAttemptedRefresh: false,
    error: null,
  };
}

let state: AuthState = initialState();
const listeners = new Set<() => void>();

export function getAuthState(): AuthState {
  return state;
}

/** Merges a patch (or the result of a function of the current state) and notifies subscribers. */
export function setAuthState(patch: Partial<AuthState> | ((current: AuthState) => Partial<AuthState>)): void {
  const next = { ...state, ...(typeof patch === 'function' ? patch(state) : patch) };
  const changed = (Object.keys(next) as (keyof AuthState)[]).some((k) => next[k] !== state[k]);
  if (!changed) return;
  state = next;
  for (const fn of listeners) fn();
}

export function subscribeAuthState(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Back to the state of a fresh page load (tests; the stored token is re-read). */
export function resetAuthState(): void {
  state = initialState();
  for (const fn of listeners) fn();
}

/** The whole auth state, re-rendering on every change. */
export function useAuthState(): AuthState;
/** One derived value (return a primitive or a part of the state, not a new object). */
export function useAuthState<T>(select: (s: AuthState) => T): T;
export function useAuthState<T>(select?: (s: AuthState) => T): AuthState | T {
  const pick = () => (select ? select(state) : state);
  return useSyncExternalStore(subscribeAuthState, pick, pick);
}
