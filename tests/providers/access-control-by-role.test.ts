import { beforeEach, describe, expect, it } from 'vitest';
import { ROLES } from '../../contract/roles';
import { accessControlProvider, canRole } from '../../providers/access-control-provider';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { SPEC_ROUTES } from '../helpers/spec-routes';
import { sampleUser } from './support/fake-api';

const EXPECTED = SPEC_ROUTES;

const asResource = (list: string) => ({ name: list.split('/').pop()!, list });

describe('access control follows the role matrix for every role and route', () => {
  beforeEach(() => {
    localStorage.clear();
    resetAuthState();
  });

  for (const role of ROLES) {
    it(`${role}: list access to every screen route`, async () => {
      setAuthState({ user: { ...sampleUser, role }, isAuthenticated: true });
      for (const [route, allowed] of Object.entries(EXPECTED)) {
        const result = await accessControlProvider.can({ resource: asResource(route).name, action: 'list', params: { resource: asResource(route) } });
        expect({ route, can: result.can }).toEqual({ route, can: allowed.includes(role) });
      }
    });
  }

  it('signed out: nothing is allowed', async () => {
    for (const route of Object.keys(EXPECTED)) {
      const result = await accessControlProvider.can({ resource: 'x', action: 'list', params: { resource: asResource(route) } });
      expect(result.can).toBe(false);
    }
  });

  it("uses the action's own route, and the list route for actions without one (delete)", () => {
    const plans = { name: 'plans', list: '/dashboard/plans', create: '/dashboard/plans/create', edit: '/dashboard/plans/edit/:id' };
    for (const action of ['create', 'edit', 'delete', 'show']) {
      expect(canRole('billing', { resource: 'plans', action, params: { resource: plans, id: 'p1' } }).can).toBe(true);
      expect(canRole('support', { resource: 'plans', action, params: { resource: plans, id: 'p1' } }).can).toBe(false);
    }
  });

  it('denies what the matrix does not know: no route, or a route outside it', () => {
    expect(canRole('admin', { resource: 'reports', action: 'list' })).toMatchObject({ can: false });
    expect(canRole('admin', { resource: 'reports', action: 'list', params: { resource: { name: 'reports', list: '/reports' } } })).toMatchObject({ can: false });
    expect(canRole(null, { resource: 'reports', action: 'list' })).toMatchObject({ can: false });
  });

  it('accepts a route given as the resource or as params.route', () => {
    expect(canRole('technician', { resource: '/dashboard/installations', action: 'list' }).can).toBe(true);
    expect(canRole('user', { resource: 'x', action: 'list', params: { route: '/dashboard/settings' } }).can).toBe(false);
  });

  it('hides buttons the role may not use', () => {
    expect(accessControlProvider.options?.buttons).toEqual({ enableAccessControl: true, hideIfUnauthorized: true });
  });
});
