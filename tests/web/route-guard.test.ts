import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../contract/roles';
import { redirectAfterLogin } from '../../providers/auth-provider';
import { loginPathFor } from '../../providers/http-client';
import { guardDecision } from '../../src/layout/guard';
import { SPEC_ROUTES } from '../helpers/spec-routes';

const signedIn = (role: Role) => ({ isAuthenticated: true, isLoading: false, isRefreshing: false, role });

// Spec §2: the routes open to every signed-in role, and the restricted ones with who may open them.
const OPEN = Object.keys(SPEC_ROUTES).filter((p) => SPEC_ROUTES[p].length === ROLES.length);
const RESTRICTED = Object.fromEntries(Object.entries(SPEC_ROUTES).filter(([p]) => !OPEN.includes(p)));

describe('route guard', () => {
  it('waits ("Verifying access...") while the session is loading or refreshing', () => {
    expect(
      guardDecision({ isAuthenticated: false, isLoading: true, isRefreshing: false, role: null }, '/dashboard'),
    ).toBe('verifying');
    expect(guardDecision({ ...signedIn('admin'), isRefreshing: true }, '/dashboard/settings')).toBe('verifying');
  });

  it('sends a signed-out visitor of any signed-in route to /login', () => {
    for (const path of [...OPEN, ...Object.keys(RESTRICTED)]) {
      expect(guardDecision({ isAuthenticated: false, isLoading: false, isRefreshing: false, role: null }, path)).toBe(
        'login',
      );
    }
  });

  for (const role of ROLES) {
    it(`lets ${role} open exactly the routes the spec gives it and tells it elsewhere that the page is not its own`, () => {
      for (const path of OPEN) expect(guardDecision(signedIn(role), path), path).toBe('allow');
      for (const [path, allowed] of Object.entries(RESTRICTED)) {
        expect(guardDecision(signedIn(role), path), `${role} ${path}`).toBe(
          allowed.includes(role) ? 'allow' : 'forbidden',
        );
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
