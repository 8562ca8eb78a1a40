import { canAccessRoute, type Role } from '../../contract/roles';

export interface GuardInput {
  isAuthenticated: boolean;
  isLoading: boolean;
  isRefreshing: boolean;
  role: Role | null | undefined;
}

export type GuardDecision = 'verifying' | 'login' | 'dashboard' | 'allow';

/**
 * The route guard's decision (spec §2): wait while the session is being established, send the signed-out
 * to /login (remembering the page), send a role mismatch to /dashboard, otherwise let the page render.
 */
export function guardDecision(input: GuardInput, pathname: string): GuardDecision {
  if (input.isLoading || input.isRefreshing) return 'verifying';
  if (!input.isAuthenticated || !input.role) return 'login';
  if (!canAccessRoute(input.role, pathname)) return 'dashboard';
  return 'allow';
}

/** Where /login sends the user back to after signing in: only same-site paths, never a loop back to /login. */
export function loginRedirectTarget(search: string): string {
  const to = new URLSearchParams(search).get('to');
  if (!to || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/login') || to.startsWith('/register')) {
    return '/dashboard';
  }
  return to;
}

export function loginPathFor(pathname: string, search = ''): string {
  return `/login?to=${encodeURIComponent(pathname + search)}`;
}
