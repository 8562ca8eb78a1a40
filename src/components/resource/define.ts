import type { ResourceDecl } from './types';

/**
 * Declares a resource (docs/adding-a-resource.md). It returns the declaration as given; what it adds is the
 * marker the build looks for: `resources/<folder>/resource.ts` files are read through scripts/vite-resource-meta.ts,
 * which keeps only the keys the menu and the routes need for the portal's shell and leaves the rest (fields,
 * schemas, renderers) to the resource's own pages, loaded on first use. Dependency-free on purpose.
 */
export function defineResource<D extends ResourceDecl>(decl: D): Declared<D> {
  return decl as unknown as Declared<D>;
}

/** The declaration's type: the keys it gives are known to be there (its fields, its singular title...). */
export type Declared<D> = ResourceDecl & { [K in keyof D & keyof ResourceDecl]-?: NonNullable<ResourceDecl[K]> };
