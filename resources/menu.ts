/**
 * The menu of the signed-in area as plain data, derived from the resource declarations (resources/registry.ts)
 * and the menu groups (resources/groups.ts), so the layouts, the access-control provider and the tests all read
 * the same list. A role sees an entry only when contract/roles.ts lets it open the entry's route.
 */
import { MENU_GROUPS } from './groups';
import { registryVersion, resourceEntries } from './registry';

export interface MenuEntry {
  name: string;
  /** The list route; absent for a group that only holds children. */
  route?: string;
  show?: string;
  create?: string;
  edit?: string;
  labelKey: string;
  parent?: string;
  portal?: boolean;
}

let cached: { version: number; entries: MenuEntry[] } | null = null;

/**
 * The menu now (groups that hold an entry, then entries, in menu order; a group's children after it). Made once
 * per set of resources: the access-control provider asks it on every permission check.
 */
export function menuEntries(): MenuEntry[] {
  if (cached?.version !== registryVersion()) cached = { version: registryVersion(), entries: buildMenu() };
  return cached.entries;
}

function buildMenu(): MenuEntry[] {
  const items = resourceEntries().filter((e) => e.decl.menu);
  const top: { order: number; entries: MenuEntry[] }[] = [];
  for (const group of MENU_GROUPS) {
    const children = items.filter((e) => e.decl.menu && e.decl.menu.group === group.name);
    if (!children.length) continue;
    top.push({
      order: group.order,
      entries: [{ name: group.name, labelKey: group.labelKey }, ...children.map((e) => toEntry(e, group.name))],
    });
  }
  for (const e of items) {
    if (e.decl.menu && !e.decl.menu.group) top.push({ order: e.decl.menu.order, entries: [toEntry(e)] });
  }
  return top.sort((a, b) => a.order - b.order).flatMap((t) => t.entries);
}

function toEntry(e: ReturnType<typeof resourceEntries>[number], parent?: string): MenuEntry {
  const menu = e.decl.menu || undefined;
  const { list, ...pages } = e.paths;
  return {
    name: e.decl.name,
    route: list,
    ...pages,
    labelKey: menu?.labelKey ?? e.decl.titleKey,
    ...(parent ? { parent } : {}),
    ...(menu?.portal ? { portal: true } : {}),
  };
}

/** The shipped menu (what the portal shows with no resource added at run time). */
export const MENU: MenuEntry[] = menuEntries();

/** Entries that open a screen (groups left out), in menu order. */
export function menuRoutes(): (MenuEntry & { route: string })[] {
  return menuEntries().filter((m): m is MenuEntry & { route: string } => typeof m.route === 'string');
}
