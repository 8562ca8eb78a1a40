/**
 * A screen checked as users see it: at 390 and 1366 px, light then dark, no sideways scroll and axe-core clean
 * (WCAG 2.1 A/AA), then back to light. The colour mode is switched with the header's own switch, so what is on
 * screen (a message, an open card) stays and the app does not boot again for each mode; `reload: true` applies
 * it by a reload instead (the mode is kept in localStorage), for a test whose next steps want the page's data
 * read fresh from the server (the IP screens: after the header switch the address map's cells moved under a click).
 * `shotsDir`: where to keep a full-page screenshot of each (width, mode), when set.
 */
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations, overflowsViewport } from './axe';
import { toastsGone } from './browser';

/** Waits (up to 10 s) for the page's CSS animations and transitions to end: axe measures colours mid-fade otherwise. */
export const animationsDone = (page: Page) =>
  page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, {
      timeout: 10_000,
    })
    .catch(() => undefined);

export async function checkEverywhere(
  page: Page,
  name: string,
  ready: (p: Page) => Locator,
  options: { shotsDir?: string; reload?: boolean } = {},
): Promise<void> {
  const { shotsDir, reload = false } = options;
  if (shotsDir) mkdirSync(shotsDir, { recursive: true });
  const setMode = async (dark: boolean) => {
    if (reload) {
      await page.evaluate((m) => localStorage.setItem('color_mode', m), dark ? 'dark' : 'light');
      await page.reload();
      return;
    }
    // The switch is in the wide header.
    await page.setViewportSize({ width: 1366, height: 900 });
    const toggle = page.getByRole('switch', { name: /mode/i }).first();
    if ((await toggle.getAttribute('aria-checked')) !== String(dark)) await toggle.click();
    expect(await toggle.getAttribute('aria-checked')).toBe(String(dark));
  };
  for (const mode of ['light', 'dark'] as const) {
    await setMode(mode === 'dark');
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await ready(page).waitFor();
      await toastsGone(page);
      // The theme's colours fade in (CSS transitions): axe reads the colours once they have settled.
      await animationsDone(page);
      expect(await overflowsViewport(page), `${name} scrolls sideways at ${width} px (${mode})`).toBe(false);
      expect(await axeViolations(page), `axe on ${name} at ${width} px, ${mode}`).toEqual([]);
      if (shotsDir) await page.screenshot({ path: `${shotsDir}/${name}-${width}-${mode}.png`, fullPage: true });
    }
  }
  await setMode(false);
  await ready(page).waitFor();
  // What the caller measures next sees the light colours, not a fade between the two.
  await animationsDone(page);
}
