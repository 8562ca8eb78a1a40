/**
 * A visitor's browser stays quiet (issue 34): opening the public pages and the sign-in page without a session
 * logs no error or warning in the console and no request fails (the session check finds nothing to refresh
 * and says so with a 204, not a 401). And the pages name themselves: each has its own document title and one h1.
 */
import { describe, expect, it } from 'vitest';
import { usePortal } from '../helpers/browser';

const portal = usePortal();

describe('a visitor without a session', () => {
  it('opens /, /plans and /login with a clean console, no failed request and a title of their own', async () => {
    const context = await portal.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    // A request the test's own next navigation cuts off (ERR_ABORTED) is not one that failed.
    page.on('requestfailed', (r) => {
      if (r.failure()?.errorText !== 'net::ERR_ABORTED')
        problems.push(`request failed: ${r.method()} ${r.url()} (${r.failure()?.errorText})`);
    });
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
    });
    const refreshes: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/api/auth/refresh-token')) refreshes.push(r.status());
    });

    const titles: string[] = [];
    for (const [path, heading, title] of [
      ['/', null, /^ISP Portal$/],
      ['/plans', null, /^Plans · /],
      ['/login', 'Sign in to your account', /^Sign in to your account · /],
    ] as const) {
      await page.goto(`${portal.url}${path}`, { waitUntil: 'networkidle' });
      // The portal's start-up splash (its own h1, the product's name) gives way to the page first.
      if (heading) await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await expect.poll(() => page.title(), { timeout: 5_000 }).toMatch(title);
      const h1 = page.locator('h1');
      await h1.first().waitFor();
      expect(await h1.count(), `${path} has one h1`).toBe(1);
      titles.push(await page.title());
    }
    // The sign-in page asked whether a session exists, and the answer was "none", not an error.
    expect(refreshes.length).toBeGreaterThan(0);
    expect(
      refreshes.every((s) => s === 204),
      `refresh answers: ${refreshes.join(', ')}`,
    ).toBe(true);
    expect(problems, problems.join('\n')).toEqual([]);
    expect(new Set(titles).size, titles.join(' | ')).toBe(3);
    await context.close();
  });
});
