import { useSyncExternalStore } from 'react';

/**
 * Whether a media query matches, known at the first render (antd's Grid.useBreakpoint answers only after an
 * effect, so a layout that picks its parts by width would first render, and load the code of, the wrong ones).
 * Without matchMedia (a server, an old test environment) it answers `fallback`.
 */
export function useMediaQuery(query: string, fallback = false): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = typeof window !== 'undefined' ? window.matchMedia?.(query) : undefined;
      list?.addEventListener?.('change', onChange);
      return () => list?.removeEventListener?.('change', onChange);
    },
    () => (typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(query).matches : fallback),
    () => fallback,
  );
}
