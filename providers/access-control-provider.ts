/**
 * Refine's access control from the role matrix (contract/roles.ts) and nothing else: a resource action is
 * allowed when its screen route is. It only hides what a role cannot use; the server checks every call again.
 *
 * The safe choice for what the matrix does not know: an action whose route cannot be found, or whose route is
 * not in ROUTE_ACCESS, is denied (for everybody). A new resource therefore stays hidden until its routes are
 * added to the matrix, instead of showing to every role by default.
 */
import type { AccessControlProvider, CanParams, CanReturnType } from '@refinedev/core';
import { isRole, routeAudience, allows, type Role } from '../contract/roles';
import { menuEntries } from '../resources/menu';
import { findResource } from '../resources/registry';
import { getAuthState } from './auth-store';

const ROUTE_ACTIONS = ['list', 'create', 'edit', 'show', 'clone'] as const;

/**
 * The screen route of a resource action: the action's own route, else the resource's list route. Refine's
 * useCan strips list/show/… from params.resource before calling can(), so the resource's name is looked up
 * in the declarations (resources/registry.ts) when no route came with the call.
 */
export function routeOf({ resource, action, params }: CanParams): string | null {
  const item = params?.resource as Record<string, unknown> | undefined;
  const own = (ROUTE_ACTIONS as readonly string[]).includes(action) ? item?.[action] : undefined;
  if (typeof own === 'string') return own;
  if (typeof item?.list === 'string') return item.list;
  if (typeof params?.route === 'string') return params.route;
  if (typeof resource === 'string' && resource.startsWith('/')) return resource;
  const entry = typeof resource === 'string' ? findResource(resource) : undefined;
  if (!entry) return null;
  return entry.paths[action as keyof typeof entry.paths] ?? entry.paths.list;
}

/** The decision for one role (null: signed out). A menu group is allowed when one of its entries is. */
export function canRole(role: Role | null, query: CanParams): CanReturnType {
  const children = menuEntries().filter((m) => m.parent !== undefined && m.parent === query.resource);
  if (children.length > 0 && !routeOf(query)) {
    return children.some((c) => canRole(role, { resource: c.name, action: query.action }).can)
      ? { can: true }
      : { can: false, reason: 'Your role does not have access' };
  }
  const route = routeOf(query);
  if (!route) return { can: false, reason: 'No screen route is known for this resource' };
  const audience = routeAudience(route);
  if (audience === null) return { can: false, reason: 'This route is not in the role matrix' };
  return allows(audience, role) ? { can: true } : { can: false, reason: 'Your role does not have access' };
}

function currentRole(): Role | null {
  const role = getAuthState().user?.role;
  return isRole(role) ? role : null;
}

export const accessControlProvider: AccessControlProvider = {
  can: async (query) => canRole(currentRole(), query),
  options: {
    buttons: { enableAccessControl: true, hideIfUnauthorized: true },
  },
};
