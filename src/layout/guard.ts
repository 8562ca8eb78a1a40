import { canAccessRoute, type Role } from '../../contract/roles';

export interface GuardInput {
  isAuthenticated: boolean;
  isLoading: boolean;
  isRefreshing: boolean;
  role: Role | null | undefined;
}

export type GuardDecision = 'verifying' | 'login' | 'forbidden' | 'allow';

/**
 * The route guard's decision (spec §2): wait while the session is being established, send the signed-out
 * to /login (remembering the page), tell a role mismatch that the page is not theirs (issue 34: no silent redirect
 * to /dashboard), otherwise let the page render.
 */
export function guardDecision(input: GuardInput, pathname: string): GuardDecision {
  if (input.isLoading || input.isRefreshing) return 'verifying';
  if (!input.isAuthenticated || !input.role) return 'login';
  if (!canAccessRoute(input.role, pathname)) return 'forbidden';
  return 'allow';
}
