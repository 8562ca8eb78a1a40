import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../contract/roles';
import { redirectAfterLogin } from '../../providers/auth-provider';
import { loginPathFor } from '../../providers/http-client';
import { guardDecision } from '../../src/layout/guard';

const signedIn = (role: Role) => ({ isAuthenticated: true, isLoading: false, isRefreshing: false, role });

// Spec §2, restricted routes: who may open what. Anything absent is open to every signed-in role.
const RESTRICTED: Record<string, Role[]> = {
  '/dashboard/users': ['admin', 'super_admin', 'support'],
  '/dashboard/user/42': ['admin', 'super_admin', 'support'],
  '/dashboard/settings': ['admin', 'super_admin'],
  '/dashboard/plans': ['admin', 'super_admin', 'billing'],
  '/dashboard/plans/create': ['admin', 'super_admin', 'billing'],
  '/dashboard/payments': ['admin', 'super_admin', 'billing'],
  '/dashboard/billing/payment-gateways': ['admin', 'super_admin', 'billing'],
  '/dashboard/subscriptions': ['user', 'admin', 'super_admin', 'billing', 'support'],
  '/dashboard/subscription/7': ['user', 'admin', 'super_admin', 'billing', 'support'],
  '/subscription/7': ['user', 'admin', 'super_admin', 'billing', 'support'],
  '/dashboard/nas/router/devices': ['admin', 'super_admin'],
  '/dashboard/nas/router/usage': ['admin', 'super_admin'],
  '/dashboard/nas/router/interfaces': ['admin', 'super_admin'],
  '/dashboard/nas/router/config': ['admin', 'super_admin'],
  '/dashboard/nas/router/backup': ['admin', 'super_admin'],
  '/dashboard/tickets/shared': ['admin', 'super_admin', 'support', 'technician', 'billing'],
  '/dashboard/installations': ['technician'],
  '/dashboard/installation/3': ['technician'],
  '/dashboard/nas/devices': ['technician'],
};
const OPEN = ['/dashboard', '/dashboard/profile', '/dashboard/tickets', '/dashboard/tickets/12', '/dashboard/usage'];

describe('route guard', () => {
  it('waits ("Verifying access...") while the session is loading or refreshing', () => {
    expect(guardDecision({ isAuthenticated: false, isLoading: true, isRefreshing: false, role: null }, '/dashboard')).toBe('verifying');
    expect(guardDecision({ ...signedIn('admin'), isRefreshing: true }, '/dashboard/settings')).toBe('verifying');
  });

  it('sends a signed-out visitor of any signed-in route to /login', () => {
    for (const path of [...OPEN, ...Object.keys(RESTRICTED)]) {
      expect(guardDecision({ isAuthenticated: false, isLoading: false, isRefreshing: false, role: null }, path)).toBe('login');
    }
  });

  for (const role of ROLES) {
    it(`lets ${role} open exactly the routes the spec gives it and sends it to /dashboard elsewhere`, () => {
      for (const path of OPEN) expect(guardDecision(signedIn(role), path), path).toBe('allow');
      for (const [path, allowed] of Object.entries(RESTRICTED)) {
        expect(guardDecision(signedIn(role), path), `${role} ${path}`).toBe(allowed.includes(role) ? 'allow' : 'dashboard');
      }
    });
  }

  it('remembers the page for after sign-in, and only ever returns to a same-site page', () => {
    expect(loginPathFor('/dashboard/users?page=2')).toBe('/login?to=%2Fdashboard%2Fusers%3Fpage%3D2');
    expect(redirectAfterLogin(undefined, '?to=%2Fdashboard%2Fusers%3Fpage%3D2')).toBe('/dashboard/users?page=2');
    expect(redirectAfterLogin(undefined, '')).toBe('/dashboard');
    expect(redirectAfterLogin(undefined, '?to=https%3A%2F%2Fevil.example')).toBe('/dashboard');
    expect(redirectAfterLogin(undefined, '?to=%2F%2Fevil.example')).toBe('/dashboard');
    expect(redirectAfterLogin(undefined, '?to=%2Flogin')).toBe('/dashboard');
  });
});
