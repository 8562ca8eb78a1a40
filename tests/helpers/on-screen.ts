import { expect } from 'vitest';
import type { Locator } from 'playwright-core';

/** The phone the customer's screens are held to. */
export const PHONE = { width: 390, height: 844 } as const;

/**
 * Fails unless the element's box lies wholly inside the viewport (`scroll`: once scrolled into view). Drawers
 * slide in and dialogs zoom in: the box is read until it settles inside, for up to 5 s.
 */
export async function expectOnScreen(
  locator: Locator,
  what: string,
  { scroll = false, viewport = PHONE }: { scroll?: boolean; viewport?: { width: number; height: number } } = {},
) {
  await locator.waitFor();
  if (scroll) await locator.scrollIntoViewIfNeeded();
  const sides = async () => {
    const box = await locator.boundingBox();
    if (!box) return `${what}: no box`;
    const { x, y, width, height } = box;
    const out = [
      x < 0 && 'left',
      y < 0 && 'top',
      x + width > viewport.width && 'right',
      y + height > viewport.height && 'bottom',
    ].filter(Boolean);
    return out.length
      ? `${what} sticks out at the ${out.join(', ')} (${Math.round(x)},${Math.round(y)} ${Math.round(width)}×${Math.round(height)})`
      : 'on screen';
  };
  await expect.poll(sides, { timeout: 5_000 }).toBe('on screen');
}
