import { useLayoutEffect } from 'react';
import { t } from '../i18n';

/*
 * The document's title, one mechanism for every screen: "<what the screen shows> · <the ISP's name>".
 * A route gives a fallback (the resource's name and action, src/routes.tsx); a page that knows better (an
 * invoice's number, a person's name) names itself with usePageTitle, which wins while the page is mounted.
 */
const owned: { title: string }[] = [];
let routeTitle: string | null = null;

/** The title a screen gets: its own name and the ISP's (the admin's company name, or the product's). */
export function documentTitle(title: string | null | undefined): string {
  const name = t('app.name');
  return title && title !== name ? `${title} · ${name}` : name;
}

function apply(): void {
  if (typeof document === 'undefined') return;
  document.title = documentTitle(owned.at(-1)?.title ?? routeTitle);
}

/** Names the screen while it is mounted (null: not yet known, the route's name stays). */
export function usePageTitle(title: string | null | undefined): void {
  useLayoutEffect(() => {
    if (!title) return;
    const entry = { title };
    owned.push(entry);
    apply();
    return () => {
      owned.splice(owned.indexOf(entry), 1);
      apply();
    };
  }, [title]);
}

/** The route's own name, under any a page gives itself. */
export function useRouteTitle(title: string | null): void {
  useLayoutEffect(() => {
    routeTitle = title;
    apply();
  }, [title]);
}
