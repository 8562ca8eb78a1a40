import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ROLES,
  actionAudience,
  actionEndpoint,
  allows,
  endpointAccessEntries,
  registerResourceAccess,
  resourceAccessEntries,
} from '../../contract/roles';
import { resourceEntries } from '../../resources/registry';
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
        const result = await accessControlProvider.can({
          resource: asResource(route).name,
          action: 'list',
          params: { resource: asResource(route) },
        });
        expect({ route, can: result.can }).toEqual({ route, can: allowed.includes(role) });
      }
    });
  }

  it('signed out: nothing is allowed', async () => {
    for (const route of Object.keys(EXPECTED)) {
      const result = await accessControlProvider.can({
        resource: 'x',
        action: 'list',
        params: { resource: asResource(route) },
      });
      expect(result.can).toBe(false);
    }
  });

  it("decides create, edit and show by the action's own screen and endpoint, and delete by the DELETE endpoint", () => {
    const plans = {
      name: 'plans',
      list: '/dashboard/plans',
      create: '/dashboard/plans/create',
      edit: '/dashboard/plans/edit/:id',
    };
    for (const action of ['create', 'edit', 'delete', 'show']) {
      expect(canRole('billing', { resource: 'plans', action, params: { resource: plans, id: 'p1' } }).can).toBe(true);
      expect(canRole('support', { resource: 'plans', action, params: { resource: plans, id: 'p1' } }).can).toBe(false);
    }
  });
});

/**
 * A resource that some roles may only read (the scaffold's "user:read"): its list and record pages are theirs, its
 * writes are not. Delete used to follow the list route, so every reader was offered Delete and got 403.
 */
describe('access per action from the endpoint the action calls', () => {
  const NAME = 'fixture-readers';
  const ROUTE = '/dashboard/fixture-readers';
  let remove: () => void;
  beforeAll(() => {
    remove = registerResourceAccess(NAME, {
      route: ROUTE,
      api: '/fixture-readers',
      list: ['admin', 'technician', 'user'],
      show: ['admin', 'technician', 'user'],
      create: ['admin'],
      update: ['admin'],
      delete: ['admin'],
    });
  });
  afterAll(() => remove());

  // As Refine's buttons ask: the resource's name, the record's id, and the resource with its routes stripped.
  const ask = (role: Parameters<typeof canRole>[0], action: string, resource = NAME) =>
    canRole(role, { resource, action, params: { id: '7', resource: { name: resource } } }).can;
  const asRefineListRoute = (role: Parameters<typeof canRole>[0], action: string) =>
    canRole(role, { resource: NAME, action, params: { id: '7', resource: { name: NAME, list: ROUTE } } }).can;

  it('a read-only role lists and shows but may not create, edit or delete', () => {
    for (const role of ['technician', 'user'] as const) {
      expect({ role, list: asRefineListRoute(role, 'list'), show: asRefineListRoute(role, 'show') }).toEqual({
        role,
        list: true,
        show: true,
      });
      for (const action of ['create', 'clone', 'edit', 'delete'])
        expect({ role, action, can: asRefineListRoute(role, action) }).toEqual({ role, action, can: false });
    }
    for (const action of ['list', 'show', 'create', 'edit', 'delete'])
      expect({ action, can: asRefineListRoute('admin', action) }).toEqual({ action, can: true });
    // Billing and support may not even open it.
    for (const action of ['list', 'show', 'delete']) expect(asRefineListRoute('support', action)).toBe(false);
  });

  it('delete on shipped resources follows their DELETE endpoint, not their list screen', () => {
    // Invoices: support reads the list; deleting, recording a payment and refunding are admin's and billing's.
    for (const action of ['delete', 'record-payment', 'refund']) {
      expect({ action, can: ask('support', action, 'invoices') }).toEqual({ action, can: false });
      expect({ action, can: ask('billing', action, 'invoices') }).toEqual({ action, can: true });
    }
    expect(ask('support', 'list', 'invoices')).toBe(true);
    // IP networks: support reads, technicians manage.
    expect(ask('support', 'delete', 'ip-networks')).toBe(false);
    expect(ask('technician', 'delete', 'ip-networks')).toBe(true);
    // The technician's device pages are read-only.
    for (const action of ['create', 'edit', 'delete']) expect(ask('technician', action, 'devices')).toBe(false);
    expect(ask('technician', 'show', 'devices')).toBe(true);
    // Contact messages: marked handled (PATCH) by admin and support; nobody deletes one.
    expect(ask('support', 'edit', 'contact-messages')).toBe(true);
    expect(ask('admin', 'delete', 'contact-messages')).toBe(false);
  });

  it("the custom pages' buttons follow the endpoint each calls (users, vouchers, tickets, subscriptions, api-tokens)", () => {
    const cases: Array<[resource: string, action: string, may: string, mayNot: string]> = [
      // Users: support edits and suspends, only admin resets a password or deletes; credit is adjusted by billing and admin.
      ['users', 'change-status', 'support', 'user'],
      ['users', 'change-role', 'support', 'billing'],
      ['users', 'reset-password', 'admin', 'support'],
      ['users', 'delete', 'admin', 'support'],
      ['users', 'view-credit', 'support', 'technician'],
      ['users', 'adjust-credit', 'admin', 'support'],
      // Vouchers: admin and billing generate and revoke.
      ['vouchers', 'create', 'billing', 'support'],
      ['vouchers', 'revoke-batch', 'billing', 'support'],
      ['vouchers', 'revoke', 'admin', 'technician'],
      // Tickets: every signed-in role changes a status; admin and support assign; admin deletes.
      ['tickets', 'change-status', 'user', 'nobody'],
      ['tickets', 'assign', 'support', 'technician'],
      ['tickets', 'delete', 'admin', 'support'],
      // Subscriptions: the owner upgrades, renews and cancels; staff suspend and resume (status); admin deletes.
      ['subscriptions', 'upgrade', 'user', 'technician'],
      ['subscriptions', 'cancel', 'user', 'technician'],
      ['subscriptions', 'change-status', 'billing', 'user'],
      ['subscriptions', 'delete', 'admin', 'billing'],
      // API tokens: the admin's.
      ['api-tokens', 'revoke', 'admin', 'support'],
      ['api-tokens', 'create', 'super_admin', 'billing'],
    ];
    for (const [resource, action, may, mayNot] of cases) {
      expect({ resource, action, role: may, can: ask(may as Parameters<typeof canRole>[0], action, resource) }).toEqual(
        { resource, action, role: may, can: true },
      );
      if (mayNot !== 'nobody')
        expect({
          resource,
          action,
          role: mayNot,
          can: ask(mayNot as Parameters<typeof canRole>[0], action, resource),
        }).toEqual({ resource, action, role: mayNot, can: false });
    }
    expect(
      canRole(null, {
        resource: 'tickets',
        action: 'change-status',
        params: { id: '1', resource: { name: 'tickets' } },
      }),
    ).toMatchObject({ can: false });
  });

  it('denies an action the matrix names no endpoint for', () => {
    expect(
      canRole('admin', { resource: 'plans', action: 'archive', params: { id: '1', resource: { name: 'plans' } } }),
    ).toMatchObject({ can: false });
    expect(
      canRole('admin', { resource: 'audit', action: 'delete', params: { id: '1', resource: { name: 'audit' } } }),
    ).toMatchObject({ can: false });
  });

  it('every endpoint an entry names for an action is one the matrix lists (a typo would deny it silently)', () => {
    const endpoints = endpointAccessEntries();
    for (const [name, entry] of resourceAccessEntries()) {
      for (const action of Object.keys(entry.actions ?? {})) {
        expect({
          name,
          action,
          endpoint: actionEndpoint(entry, action),
          listed: actionAudience(name, action) !== undefined,
        }).toEqual({ name, action, endpoint: entry.actions![action], listed: true });
        expect(Object.keys(endpoints)).toContain(entry.actions![action]);
      }
    }
  });

  it('no declared resource offers any role a delete, edit or create its endpoint refuses', () => {
    for (const { decl } of resourceEntries()) {
      const matrix = decl.access ?? decl.name;
      for (const role of ROLES) {
        for (const action of ['create', 'edit', 'delete']) {
          const can = canRole(role, {
            resource: decl.name,
            action,
            params: { id: '1', resource: { name: decl.name } },
          }).can;
          if (!can) continue;
          const audience = actionAudience(matrix, action);
          // Allowed only by an endpoint that lets the role call it, or (create, edit) by a screen of its own.
          const by =
            audience === undefined
              ? action === 'delete'
                ? 'nothing'
                : 'screen'
              : allows(audience, role)
                ? 'endpoint'
                : 'refused endpoint';
          expect({ resource: decl.name, role, action, by }).toMatchObject({
            by: expect.stringMatching(/^(endpoint|screen)$/),
          });
        }
      }
    }
  });
});

describe('access control: what the matrix does not know', () => {
  it('denies what the matrix does not know: no route, or a route outside it', () => {
    expect(canRole('admin', { resource: 'reports', action: 'list' })).toMatchObject({ can: false });
    expect(
      canRole('admin', {
        resource: 'reports',
        action: 'list',
        params: { resource: { name: 'reports', list: '/reports' } },
      }),
    ).toMatchObject({ can: false });
    expect(canRole(null, { resource: 'reports', action: 'list' })).toMatchObject({ can: false });
  });

  it('accepts a route given as the resource or as params.route', () => {
    expect(canRole('technician', { resource: '/dashboard/installations', action: 'list' }).can).toBe(true);
    expect(canRole('user', { resource: 'x', action: 'list', params: { route: '/dashboard/settings' } }).can).toBe(
      false,
    );
  });

  it('hides buttons the role may not use', () => {
    expect(accessControlProvider.options?.buttons).toEqual({ enableAccessControl: true, hideIfUnauthorized: true });
  });
});
