/**
 * A viewport width for jsdom. antd's breakpoints (Grid.useBreakpoint, hence every responsive component) ask
 * window.matchMedia with queries like "(min-width: 768px)"; jsdom has no layout, and tests/helpers/jsdom-setup.ts
 * installs a matchMedia that never matches. setViewportWidth installs one that answers min-width/max-width
 * queries for the given width (and tells the components already listening when the width changes);
 * the function it returns puts the previous matchMedia and innerWidth back.
 */

type ChangeListener = (event: MediaQueryListEvent) => void;

interface FakeList {
  query: string;
  matches: boolean;
  listeners: Set<ChangeListener>;
}

let width: number | null = null;
let lists: FakeList[] = [];
let original: { matchMedia: typeof window.matchMedia; innerWidth: number } | null = null;

/** Whether every (min-width: Npx) / (max-width: Npx) clause of the query holds at width px. */
export function mediaMatches(query: string, px: number): boolean {
  const clauses = [...query.matchAll(/\((min|max)-width:\s*([\d.]+)px\)/g)];
  if (clauses.length === 0) return false;
  return clauses.every(([, kind, size]) => (kind === 'min' ? px >= Number(size) : px <= Number(size)));
}

function fakeMatchMedia(query: string): MediaQueryList {
  const list: FakeList = { query, matches: mediaMatches(query, width ?? 0), listeners: new Set() };
  lists.push(list);
  const mql = {
    media: query,
    get matches() {
      return list.matches;
    },
    onchange: null,
    addListener: (fn: ChangeListener) => list.listeners.add(fn),
    removeListener: (fn: ChangeListener) => list.listeners.delete(fn),
    addEventListener: (_type: string, fn: ChangeListener) => list.listeners.add(fn),
    removeEventListener: (_type: string, fn: ChangeListener) => list.listeners.delete(fn),
    dispatchEvent: () => false,
  };
  return mql as unknown as MediaQueryList;
}

/** Makes the window px wide for antd's breakpoints; returns a function restoring the previous matchMedia. */
export function setViewportWidth(px: number): () => void {
  if (!original) original = { matchMedia: window.matchMedia, innerWidth: window.innerWidth };
  width = px;
  window.matchMedia = fakeMatchMedia;
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: px });
  for (const list of lists) {
    const next = mediaMatches(list.query, px);
    if (next === list.matches) continue;
    list.matches = next;
    const event = { matches: next, media: list.query } as MediaQueryListEvent;
    for (const fn of list.listeners) fn(event);
  }
  return resetViewport;
}

/** Back to the matchMedia and innerWidth from before the first setViewportWidth. */
export function resetViewport(): void {
  if (!original) return;
  window.matchMedia = original.matchMedia;
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: original.innerWidth });
  original = null;
  width = null;
  lists = [];
}
