/**
 * Every resource of the signed-in area, from its declaration alone (issue 20; docs/adding-a-resource.md). The
 * declarations are the `resources/<folder>/resource.ts` files: the shell reads their light part (name, access,
 * menu, routes, pages; scripts/vite-resource-meta.ts) to build the menu, Refine's resource list and the routes,
 * and a resource's whole declaration (fields, schemas, renderers) loads with its first page.
 *
 * A resource's paths come from the role matrix entry it names (contract/roles.ts): the list at the entry's
 * route, show/create/edit below it (…/show/:id, …/create, …/edit/:id) unless the declaration moves one. Plain
 * data and functions, no React rendering: the layouts, the access control and the tests read the same list.
 */
import { resourceAccess } from '../contract/roles';
import type { PageAction, ResourceDecl } from '../src/components/resource/types';

/** What the shell knows of a declaration before its pages load. */
export type LightDecl = Pick<
  ResourceDecl,
  | 'name'
  | 'access'
  | 'titleKey'
  | 'singularKey'
  | 'menu'
  | 'routes'
  | 'pages'
  | 'canCreate'
  | 'actions'
  | 'auditTargets'
> & {
  /** Has fields: its pages are generated (those it does not replace). */
  generic: boolean;
};

export interface ResourceEntry {
  decl: LightDecl;
  /** The paths of the pages it has. */
  paths: Partial<Record<PageAction, string>> & { list: string };
  /** More paths showing one of its pages. */
  also: Record<string, PageAction>;
  /** The whole declaration. */
  load: () => Promise<ResourceDecl>;
}

const PAGE_ACTIONS: PageAction[] = ['list', 'show', 'create', 'edit'];

const lightModules = import.meta.glob<LightDecl[]>('./*/resource.{ts,tsx}', {
  eager: true,
  import: 'default',
  query: '?meta',
});
const fullModules = import.meta.glob<Record<string, unknown>>('./*/resource.{ts,tsx}');

const isDecl = (value: unknown): value is ResourceDecl =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ResourceDecl).name === 'string' &&
  typeof (value as ResourceDecl).titleKey === 'string';

/** Which pages a declaration has: those it gives, and with fields the generated ones its actions allow. */
export function pageActions(decl: LightDecl): PageAction[] {
  const own = (a: PageAction) => decl.pages?.[a] !== undefined;
  // A resource with a list screen of its own has only the pages it names (the screen does the rest itself).
  const generated = decl.generic && !own('list');
  const actions = decl.actions ?? ['show', 'edit', 'delete'];
  const allowed: Record<PageAction, boolean> = {
    list: true,
    show: actions.includes('show'),
    create: decl.canCreate !== false,
    edit: actions.includes('edit'),
  };
  return PAGE_ACTIONS.filter((a) => own(a) || (generated && allowed[a]));
}

function entryOf(decl: LightDecl, load: () => Promise<ResourceDecl>, where: string): ResourceEntry {
  const accessName = decl.access ?? decl.name;
  const access = resourceAccess(accessName);
  if (!access) {
    throw new Error(
      `${where}: resource "${decl.name}" names the role matrix entry "${accessName}", which contract/roles.ts does not have.`,
    );
  }
  const route = access.route;
  const paths: ResourceEntry['paths'] = { list: route };
  for (const action of pageActions(decl)) {
    if (action === 'show') paths.show = decl.routes?.show ?? `${route}/show/:id`;
    if (action === 'create') paths.create = `${route}/create`;
    if (action === 'edit') paths.edit = `${route}/edit/:id`;
  }
  return { decl, paths, also: decl.routes?.also ?? {}, load };
}

const shipped: ResourceEntry[] = Object.entries(lightModules).flatMap(([file, decls]) =>
  decls.map((decl) =>
    entryOf(
      decl,
      async () => {
        const module = await fullModules[file]();
        const found = Object.values(module)
          .flat()
          .find((d): d is ResourceDecl => isDecl(d) && d.name === decl.name);
        if (!found) throw new Error(`${file} no longer exports resource "${decl.name}"`);
        return found;
      },
      file,
    ),
  ),
);

const added: ResourceEntry[] = [];
let version = 0;
let sorted: ResourceEntry[] | null = null;

const orderOf = (e: ResourceEntry) => (e.decl.menu ? e.decl.menu.order : Number.MAX_SAFE_INTEGER);

/** Every resource, in menu order (those without a menu item last). */
export function resourceEntries(): ResourceEntry[] {
  if (!sorted) {
    const all = [...shipped, ...added];
    const names = new Set<string>();
    for (const e of all) {
      if (names.has(e.decl.name)) throw new Error(`Two resource declarations are named "${e.decl.name}".`);
      names.add(e.decl.name);
    }
    // Array.prototype.sort is stable: equal orders keep the files' order.
    sorted = all.sort((a, b) => orderOf(a) - orderOf(b));
  }
  return sorted;
}

/** Changes whenever a resource is added or removed at run time (the menu's memo key). */
export function registryVersion(): number {
  return version;
}

/**
 * Adds a whole declaration at run time (a test's fixture resource that is never shipped, or a plugin's); its
 * matrix entry must exist (contract/roles.ts registerResourceAccess). Returns the function that removes it.
 */
export function registerResource(decl: ResourceDecl): () => void {
  const light: LightDecl = { ...decl, generic: Array.isArray(decl.fields) };
  const entry = entryOf(light, async () => decl, `registerResource(${decl.name})`);
  added.push(entry);
  sorted = null;
  version++;
  return () => {
    const i = added.indexOf(entry);
    if (i >= 0) added.splice(i, 1);
    sorted = null;
    version++;
  };
}

/**
 * The audit trail's target types, from the declarations (`auditTargets`, or a crudModule resource's matrix entry
 * name), each with the resource that declares it, in menu order; a type two resources declare, once.
 */
export function auditTargetTypes(): { type: string; resource: ResourceEntry }[] {
  const seen = new Map<string, ResourceEntry>();
  for (const e of resourceEntries()) {
    const accessName = e.decl.access ?? e.decl.name;
    const types = e.decl.auditTargets ?? (resourceAccess(accessName)?.api ? [accessName] : []);
    for (const type of types) if (!seen.has(type)) seen.set(type, e);
  }
  return [...seen].map(([type, resource]) => ({ type, resource }));
}

export function findResource(name: string): ResourceEntry | undefined {
  return resourceEntries().find((e) => e.decl.name === name);
}

export type { PageAction };
