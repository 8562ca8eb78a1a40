/**
 * Refine's access control from the role matrix (contract/roles.ts) and nothing else. An action on a resource is
 * allowed when the role may open the screen it is on and call the API endpoint it calls:
 *
 * - the screen: the action's own route (show, create, edit), else the resource's list route (delete and custom
 *   actions are buttons on the list and record pages);
 * - the endpoint: the one the resource's matrix entry names for the action (contract/resource-access.ts
 *   actionEndpoint; e.g. delete → DELETE /plans/:id). A page (list, show, create, edit) whose entry names no
 *   endpoint is decided by its screen alone; any other action (delete, custom ones) whose entry names none is
 *   denied: a button the matrix cannot vouch for is not offered.
 *
 * It only hides what a role cannot use; the server checks every call again. What the matrix does not know is
 * denied for everybody (an action whose route cannot be found, or whose route is not in the matrix), so a new
 * resource stays hidden until the matrix has it, instead of showing to every role by default.
 */
import type { AccessControlProvider, CanParams, CanReturnType } from '@refinedev/core';
import { actionAudience, isRole, resourceAccess, routeAudience, allows, type Role } from '../contract/roles';
import { menuEntries } from '../resources/menu';
import { findResource } from '../resources/registry';
import { getAuthState } from './auth-store';

const ROUTE_ACTIONS = ['list', 'create', 'edit', 'show', 'clone'] as const;
const isPageAction = (action: string) => (ROUTE_ACTIONS as readonly string[]).includes(action);
const DENIED: CanReturnType = { can: false, reason: 'Your role does not have access' };

/**
 * The screen route of a resource action: the action's own route, else the resource's list route. Refine's
 * useCan strips list/show/… from params.resource before calling can(), so the resource's name is looked up
 * in the declarations (resources/registry.ts) when no route came with the call.
 */
export function routeOf({ resource, action, params }: CanParams): string | null {
  const item = params?.resource as Record<string, unknown> | undefined;
  const own = isPageAction(action) ? item?.[action] : undefined;
  if (typeof own === 'string') return own;
  if (typeof item?.list === 'string') return item.list;
  if (typeof params?.route === 'string') return params.route;
  if (typeof resource === 'string' && resource.startsWith('/')) return resource;
  const entry = typeof resource === 'string' ? findResource(resource) : undefined;
  if (!entry) return null;
  return entry.paths[action as keyof typeof entry.paths] ?? entry.paths.list;
}

/** The role matrix entry's name of the resource asked about (its declaration's `access`, default its name). */
function matrixName({ resource, params }: CanParams): string | undefined {
  const item = params?.resource as Record<string, unknown> | undefined;
  const name =
    typeof resource === 'string' && !resource.startsWith('/')
      ? resource
      : typeof item?.name === 'string'
        ? item.name
        : undefined;
  if (!name) return undefined;
  const access = findResource(name)?.decl.access ?? name;
  return resourceAccess(access) ? access : undefined;
}

/** The decision for one role (null: signed out). A menu group is allowed when one of its entries is. */
export function canRole(role: Role | null, query: CanParams): CanReturnType {
  const children = menuEntries().filter((m) => m.parent !== undefined && m.parent === query.resource);
  if (children.length > 0 && !routeOf(query)) {
    return children.some((c) => canRole(role, { resource: c.name, action: query.action }).can) ? { can: true } : DENIED;
  }
  const route = routeOf(query);
  if (!route) return { can: false, reason: 'No screen route is known for this resource' };
  const screen = routeAudience(route);
  if (screen === null) return { can: false, reason: 'This route is not in the role matrix' };
  if (!allows(screen, role)) return DENIED;
  // A route asked for by itself (params.route, or a path as the resource) is a screen: its audience decides.
  if (typeof query.params?.route === 'string' || (typeof query.resource === 'string' && query.resource.startsWith('/')))
    return { can: true };
  const name = matrixName(query);
  const endpoint = name ? actionAudience(name, query.action) : undefined;
  if (endpoint !== undefined) return allows(endpoint, role) ? { can: true } : DENIED;
  if (isPageAction(query.action)) return { can: true };
  return { can: false, reason: 'The role matrix names no endpoint for this action' };
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
