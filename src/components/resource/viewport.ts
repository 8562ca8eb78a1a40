import { Grid } from 'antd';

/** Which columns a width shows: 1 = key columns only (phones), 2 = from tablet width (md), 3 = all (lg). */
export type ColumnPriority = 1 | 2 | 3;

export interface Viewport {
  /** Below antd's `md` (768 px): phones. Filter bars fold into a drawer, forms keep Save in view. */
  narrow: boolean;
  /** The highest column priority shown at this width. */
  shows: ColumnPriority;
}

/**
 * The current width class from antd's breakpoints. Until a breakpoint has been measured (the first render, or
 * no matchMedia at all) it answers "wide", so nothing that has always been there goes missing on a desktop: in
 * a browser one of xs (≤575 px) and sm (≥576 px) always matches, so a measured width is never mistaken.
 */
export function useViewport(): Viewport {
  const screens = Grid.useBreakpoint();
  const measured = Object.values(screens).some(Boolean);
  if (!measured || screens.lg) return { narrow: false, shows: 3 };
  if (screens.md) return { narrow: false, shows: 2 };
  return { narrow: true, shows: 1 };
}
