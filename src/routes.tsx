import { createElement, lazy, Suspense, useEffect, useReducer, type ComponentType, type ReactNode } from 'react';
import { Spin } from 'antd';
import { Route } from 'react-router';
import type { PageAction, PageSpec, ResourceDecl } from './components/resource/types';
import { resourceEntries, type ResourceEntry } from '../resources/registry';
import { useRouteTitle } from './components/page-title';
import { onLocaleChange, t } from './i18n';

const fallback = <Spin style={{ display: 'block', margin: '64px auto' }} />;

/** A lazily loaded screen; the screens' texts come first (one chunk, fetched once): some screens read them while they load. */
function lazyScreen(load: () => Promise<ComponentType>): ReactNode {
  const Page = lazy(async () => {
    await import('./i18n/screens');
    return { default: await load() };
  });
  return (
    <Suspense fallback={fallback}>
      <Page />
    </Suspense>
  );
}

/**
 * Back-office screens load on first use, one chunk per resource, so signing in does not download every
 * screen's code (forms, uploads, schemas) at once.
 */
export function lazyPage<T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T) {
  return lazyScreen(async () => (await load())[name] as ComponentType);
}

/** The not-found screen (antd's Result with its illustrations) is code no working page needs. */
export const notFoundPage = lazyPage(() => import('./components/NotFound'), 'NotFound');

const isComponent = (value: unknown): value is ComponentType =>
  typeof value === 'function' || (typeof value === 'object' && value !== null && '$$typeof' in value);

/** The component a page loader gave: itself, the module's default export, or the module's only component. */
function componentOf(loaded: unknown, where: string): ComponentType {
  if (isComponent(loaded)) return loaded;
  const module = loaded as Record<string, unknown>;
  if (isComponent(module.default)) return module.default;
  const components = Object.entries(module).filter(([name, v]) => /^[A-Z]/.test(name) && isComponent(v));
  if (components.length === 1) return components[0][1] as ComponentType;
  throw new Error(
    `${where}: the page's module has ${components.length} components and no default export; pick one with .then((m) => m.Name)`,
  );
}

/** The generated page of an action, for the whole declaration. */
async function generatedPage(entry: ResourceEntry, action: PageAction): Promise<ComponentType> {
  const [decl, generic] = await Promise.all([entry.load(), import('./components/resource')]);
  const by: Record<PageAction, (d: ResourceDecl) => ComponentType> = {
    list: (d) => () => createElement(generic.ResourceList, { decl: d }),
    show: (d) => () => createElement(generic.ResourceShow, { decl: d }),
    create: (d) => () => createElement(generic.ResourceForm, { decl: d, action: 'create' }),
    edit: (d) => () => createElement(generic.ResourceForm, { decl: d, action: 'edit' }),
  };
  return by[action](decl);
}

const elementCache = new WeakMap<ResourceEntry, Partial<Record<PageAction, ReactNode>>>();

/**
 * One element per page, made once per resource (a page shared by two actions is one element, so it stays
 * mounted between them; and the routes can be built on every render without remounting a screen).
 */
function pageElements(entry: ResourceEntry): Partial<Record<PageAction, ReactNode>> {
  const cached = elementCache.get(entry);
  if (cached) return cached;
  const elements: Partial<Record<PageAction, ReactNode>> = {};
  elementCache.set(entry, elements);
  const where = `resource "${entry.decl.name}"`;
  const elementOf = (action: PageAction, seen: PageAction[] = []): ReactNode => {
    if (elements[action]) return elements[action];
    const spec: PageSpec | undefined = entry.decl.pages?.[action];
    let element: ReactNode;
    if (typeof spec === 'string') {
      if (seen.includes(spec)) throw new Error(`${where}: pages refer to each other in a circle`);
      element = elementOf(spec, [...seen, action]);
    } else if (spec && typeof spec === 'object' && 'component' in spec) {
      element = createElement(spec.component);
    } else if (typeof spec === 'function') {
      const load = spec;
      element = lazyScreen(async () => componentOf(await load(), where));
    } else {
      element = lazyScreen(() => generatedPage(entry, action));
    }
    elements[action] = element;
    return element;
  };
  for (const action of Object.keys(entry.paths) as PageAction[]) elementOf(action);
  for (const action of Object.values(entry.also)) elementOf(action);
  return elements;
}

/** What a resource's page is called when it does not name itself: "Invoices", "Invoice", "New invoice", "Edit invoice". */
export function routeTitle(decl: ResourceEntry['decl'], action: PageAction): string {
  const plural = t(decl.titleKey);
  const singular = decl.singularKey ? t(decl.singularKey) : null;
  if (action === 'list') return plural;
  if (action === 'show') return singular ?? t('resource.detailsTitle', { name: plural });
  return t(action === 'create' ? 'resource.createTitle' : 'resource.editTitle', { name: singular ?? plural });
}

function RouteTitle({ entry, action }: { entry: ResourceEntry; action: PageAction }) {
  // The screens' texts (and the company's name) may arrive after the route: the title follows them.
  const [, textsChanged] = useReducer((n: number) => n + 1, 0);
  useEffect(() => onLocaleChange(textsChanged), []);
  useRouteTitle(routeTitle(entry.decl, action));
  return null;
}

/** The routes of every declared resource (resources/registry.ts): nothing here names a resource. */
export function resourceRoutes(entries: ResourceEntry[] = resourceEntries()): ReactNode[] {
  return entries.flatMap((entry) => {
    const elements = pageElements(entry);
    const paths = [
      ...(Object.entries(entry.paths) as [PageAction, string][]),
      ...(Object.entries(entry.also) as [string, PageAction][]).map(
        ([path, action]) => [action, path] as [PageAction, string],
      ),
    ];
    // The title beside the page (not around it): a page shared by two actions stays mounted between them.
    return paths.map(([action, path]) => (
      <Route
        key={`${entry.decl.name}:${path}`}
        path={path}
        element={
          <>
            <RouteTitle entry={entry} action={action} />
            {elements[action]}
          </>
        }
      />
    ));
  });
}

/** Every signed-in route of spec §2, rendered inside the role's layout and behind the route guard. */
export function dashboardRoutes(): ReactNode {
  return (
    <>
      {resourceRoutes()}
      {/* Spec §2: /dashboard/payments is not built yet and shows the not-found screen. */}
      <Route path="/dashboard/payments" element={notFoundPage} />
      <Route path="/dashboard/*" element={notFoundPage} />
    </>
  );
}

/** A resource's page as its route shows it, e.g. for a screen test: `const PlanList = resourcePage('plans', 'list')`. */
export function resourcePage(name: string, action: PageAction): ComponentType {
  const entry = resourceEntries().find((e) => e.decl.name === name);
  if (!entry) throw new Error(`No resource named "${name}"`);
  const element = pageElements(entry)[action];
  if (!element) throw new Error(`Resource "${name}" has no ${action} page`);
  return () => element;
}
