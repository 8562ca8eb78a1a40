import { createElement } from 'react';
import type { IResourceItem } from '@refinedev/core';
import { t } from '../src/i18n';
import { MENU_GROUPS } from './groups';
import { resourceEntries } from './registry';

/**
 * Refine's resource list, derived from the declarations (resources/registry.ts): every resource with its
 * pages' paths, its label and icon; the menu groups as parents. A resource declared without a menu item is
 * still a resource (meta.hide), so its pages get their title and Refine's hooks find it by route.
 */
export function refineResources(): IResourceItem[] {
  const entries = resourceEntries();
  const groups = MENU_GROUPS.filter((g) => entries.some((e) => e.decl.menu && e.decl.menu.group === g.name)).map(
    (g) => ({
      name: g.name,
      meta: { label: t(g.labelKey), icon: createElement(g.icon), order: g.order },
    }),
  );
  const items = entries.map((e): IResourceItem => {
    const menu = e.decl.menu || undefined;
    return {
      name: e.decl.name,
      ...e.paths,
      meta: {
        label: t(menu?.labelKey ?? e.decl.titleKey),
        ...(menu?.icon ? { icon: createElement(menu.icon) } : {}),
        ...(menu?.group ? { parent: menu.group } : {}),
        ...(menu?.portal ? { portal: true } : {}),
        ...(menu ? { order: menu.order } : { hide: true }),
      },
    };
  });
  // Top-level items and groups in menu order, each group's children after it.
  const top = [...groups, ...items.filter((i) => !i.meta?.parent)].sort(
    (a, b) => Number(a.meta?.order ?? 1e9) - Number(b.meta?.order ?? 1e9),
  );
  return top.flatMap((i) => [i, ...items.filter((c) => c.meta?.parent === i.name)]);
}
