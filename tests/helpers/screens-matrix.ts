/**
 * Every screen on every size and for every user (issue 19), in real Chromium on the living demo's data:
 * every public route, and every signed-in route of every role (its menu's screens, their create pages and the
 * first record's show and edit pages), at 390×844, 768×1024 and 1366×800:
 * - the document does not scroll sideways;
 * - the header's controls lie inside the viewport and do not cover the page's title;
 * - the role's navigation is reachable: on phones and tablets the menu button opens a drawer listing exactly
 *   the role's entries, on a wide screen the menu shows them;
 * - axe-core (WCAG 2.1 A and AA) finds nothing on a phone and on a desktop, nor its colour rules in dark mode (on a
 *   phone, and on a desktop for the first route: darkSizes);
 * - the page's structure (issue 34: one h1, one main landmark, everything in landmarks, headings in order and
 *   none empty: axe's best-practice rules, in the same axe run) on a phone and on a desktop;
 * - no visible control lies beyond the viewport's right edge, even inside a table that scrolls in its own box;
 * - no two routes of one person share a document title.
 * A screenshot of each route at each size goes to test-results/screens (kept by .ci/run).
 *
 * One signed-in browser context per role, moving between routes inside the app and resizing the viewport
 * rather than reloading (each full load shows the 2 s start-up splash). The browser asks for reduced motion, so
 * the portal turns antd's transitions off (src/layout/theme.tsx) and each screen is checked as it ends up without
 * waiting out a transition at every size and mode (they were most of the matrix's time). Two roles run side by side. Every
 * problem is collected and the test fails once, listing them all (route, size, mode, rule and element).
 *
 * The roles are shared between two test files (tests/e2e/screens-phone-a11y*.test.ts), each with its own portal,
 * so two workers share the work: one file of all the roles took a worker for 10 to 30 minutes, depending on
 * what ran beside it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { canAccessRoute, type Role } from '../../contract/roles';
import { MENU, menuRoutes } from '../../resources/menu';
import { SITE_PATHS } from '../../src/site/paths';
import { axeViolations, controlsBeyondViewport, isStructureRule, overflowsViewport } from './axe';
import { DEMO_PASSWORD, portalApi, usePortal, type PortalSession } from './browser';

// The file's portal (one per test file that calls screensMatrix), set when screensMatrix registers its tests.
let portal!: PortalSession;
let api!: ReturnType<typeof portalApi>['api'];
let tokenOf!: ReturnType<typeof portalApi>['tokenOf'];

// 390 px is the phone the portal is held to; 360 was checked too until the suite outgrew CI's 35 minutes (the two
// matrices were a third of the browser suite's time), and its layouts are the same family as 390's.
const SIZES = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1366, height: 800 },
] as const;
/**
 * Where dark mode's colour rules run: at 390 px on every route, and at 1366 px on a role's first route only, where
 * the wide layout's own parts (the side menu, the wide header) are in view; they are the same on every route, and
 * a route's content has the same colours at both widths. (Both widths on every route took a quarter of the
 * matrices' time, which CI's 35 minutes no longer had.)
 */
function darkSizes(routeIndex: number): readonly (typeof SIZES)[number][] {
  return routeIndex === 0 ? [SIZES[2], SIZES[0]] : [SIZES[0]];
}
/** The sizes axe runs at (the layout at 768 is the same family as at 390 for the menu). */
const AXE_SIZES = new Set([390, 1366]);
/** Below antd's `lg` both layouts put their navigation in a drawer. */
const DRAWER_BELOW = 992;
const SHOTS = join(process.cwd(), 'test-results', 'screens');

export const DEMO: Record<Role, string> = {
  user: 'customer@isp.local',
  admin: 'admin@isp.local',
  super_admin: 'superadmin@isp.local',
  billing: 'billing@isp.local',
  support: 'support@isp.local',
  technician: 'technician@isp.local',
};

type Mode = 'light' | 'dark';

/** Two roles at a time: each is one page of one Chromium, the server is shared. */
function limit(n: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= n) await new Promise<void>((r) => waiting.push(r));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
export const slot = limit(2);

/** The requests each page has under way (data, scripts, styles), to tell when a screen has finished arriving. */
const inflight = new WeakMap<Page, Set<unknown>>();
export function trackRequests(page: Page): void {
  const open = new Set<unknown>();
  inflight.set(page, open);
  const counted = new Set(['fetch', 'xhr', 'script', 'stylesheet', 'image', 'font']);
  page.on('request', (r) => {
    if (counted.has(r.resourceType())) open.add(r);
  });
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));
}

/**
 * The page has finished arriving: for a quarter of a second no request under way, no spinner or skeleton and no
 * animation running (a page still fading in fails contrast: its text is half transparent).
 */
export async function settled(page: Page): Promise<void> {
  const deadline = Date.now() + 20_000;
  let quietSince = 0;
  while (Date.now() < deadline) {
    const quiet =
      (inflight.get(page)?.size ?? 0) === 0 &&
      (await page.evaluate(
        () =>
          !document.querySelector('.ant-spin-spinning, .ant-skeleton-active, .splash') &&
          document
            .getAnimations()
            .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
      ));
    if (!quiet) quietSince = 0;
    else if (!quietSince) quietSince = Date.now();
    else if (Date.now() - quietSince >= 250) return;
    await page.waitForTimeout(50);
  }
  throw new Error(`${page.url()} did not settle in 20 s`);
}

/**
 * Opens a route inside the app and waits for it to arrive. A screen that names itself changes the document's
 * title: when the title is still the last screen's, the new one may not have begun to arrive (its code not yet
 * asked for), so it is given up to 5 s more. Two screens that truly share a title cost those 5 s and are reported.
 */
export async function openScreen(page: Page, route: string): Promise<void> {
  const before = await page.title();
  await portal.open(page, route);
  await settled(page);
  if ((await page.title()) !== before) return;
  await page.waitForFunction((old) => document.title !== old, before, { timeout: 5_000 }).catch(() => {});
  await settled(page);
}

export function slug(route: string): string {
  return route.replace(/^\//, '').replace(/[^a-z0-9]+/gi, '_') || 'home';
}

/** The role's menu entries (routes), as the sign-in test reads them: the menu's own data and the role matrix. */
function expectedMenu(role: Role): string[] {
  return menuRoutes()
    .filter((m) => canAccessRoute(role, m.route))
    .filter((m) => role !== 'user' || m.portal)
    .map((m) => m.route)
    .sort();
}

/**
 * The menu's links in `scope`, as paths: an inline menu's closed groups are opened first; a horizontal menu
 * keeps the entries that do not fit in its "…" pop-up, which are in the document all the same.
 */
async function menuLinks(page: Page, scope: string): Promise<string[]> {
  const menu = page.locator(scope).first();
  await menu.waitFor();
  if (await menu.evaluate((e) => e.classList.contains('ant-menu-inline'))) {
    const groups = menu.locator('.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
    for (let i = (await groups.count()) - 1; i >= 0; i--) await groups.nth(i).click();
    await page.waitForTimeout(300);
  }
  const hrefs = await menu
    .locator('a[href]')
    .evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  return [...new Set(hrefs)].sort();
}

/**
 * The signed-in routes a role opens: its menu's screens, their create pages, and (unless `details` is false) the
 * show and edit pages of the first record each list links to.
 */
export async function routesOf(page: Page, role: Role, { details = true } = {}): Promise<string[]> {
  const entries = MENU.filter((m) => m.route && canAccessRoute(role, m.route) && (role !== 'user' || m.portal)).filter(
    // A super admin's screens are the admin's (the same components on the same demo data), which part one checks:
    // here only the first (where the navigation is checked) and those an admin cannot open. CI's time budget.
    (m, i) => role !== 'super_admin' || i === 0 || !canAccessRoute('admin', m.route!),
  );
  const routes: string[] = [];
  for (const m of entries) {
    routes.push(m.route!);
    if (m.create && canAccessRoute(role, m.create)) routes.push(m.create);
    for (const template of details ? [m.show, m.edit] : []) {
      if (!template) continue;
      await portal.open(page, m.route!);
      await settled(page);
      const pattern = new RegExp(`^${template.replace(':id', '[^/?#]+')}$`);
      const found = await page
        .locator('main a[href]')
        .evaluateAll(
          (as, source) =>
            as.map((a) => new URL((a as HTMLAnchorElement).href).pathname).find((p) => new RegExp(source).test(p)) ??
            null,
          pattern.source,
        );
      const route = found ?? (template === m.show ? await firstRecordRoute(role, m.name, template) : null);
      if (route && canAccessRoute(role, route)) routes.push(route);
    }
  }
  return [...new Set(routes)];
}

/**
 * A detail route for lists whose rows open it by script rather than by a link (the users list opens a drawer,
 * the subscriptions lists navigate on a row's button): the first record the role's own API call returns.
 */
async function firstRecordRoute(role: Role, resource: string, template: string): Promise<string | null> {
  const path =
    resource === 'users'
      ? '/users?limit=1'
      : resource === 'subscriptions'
        ? role === 'user'
          ? '/subscriptions/orders'
          : '/subscriptions?limit=1'
        : null;
  if (!path) return null;
  const data = await api<{ items?: Array<{ id: string }> } | Array<{ id: string }>>(
    'GET',
    path,
    await tokenOf(DEMO[role]),
  );
  const first = Array.isArray(data) ? data[0] : data.items?.[0];
  return first ? template.replace(':id', first.id) : null;
}

/** Problems with the header at this size: controls outside the viewport or over the page's title. */
export async function headerProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const header = document.querySelector('header');
    if (!header) return problems;
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const name = (el: Element) => (el.getAttribute('aria-label') || el.textContent || el.tagName).trim().slice(0, 40);
    const controls = [...header.querySelectorAll('a, button, [role="switch"], input')].filter(visible);
    const title = [
      ...document.querySelectorAll('main h1, main h2, main h3, main h4, main .ant-page-header-heading-title'),
    ].find(visible);
    const titleBox = title?.getBoundingClientRect();
    for (const c of controls) {
      const r = c.getBoundingClientRect();
      if (r.left < -0.5 || r.right > window.innerWidth + 0.5 || r.top < -0.5)
        problems.push(`header control "${name(c)}" lies outside the viewport`);
      if (
        titleBox &&
        r.left < titleBox.right &&
        r.right > titleBox.left &&
        r.top < titleBox.bottom &&
        r.bottom > titleBox.top
      )
        problems.push(`header control "${name(c)}" covers the title "${name(title!)}"`);
    }
    return problems;
  });
}

/** On a narrow screen the menu button opens a drawer with exactly the role's entries; on a wide one the menu shows them. */
async function navigationProblems(page: Page, role: Role, width: number): Promise<string[]> {
  const expected = expectedMenu(role);
  if (width < DRAWER_BELOW) {
    const button = page.getByTestId('menu-button');
    if (!(await button.isVisible())) return ['no menu button'];
    await button.click();
    const drawer = '.ant-drawer-open .ant-drawer-content';
    await page.locator(drawer).waitFor();
    const links = await menuLinks(page, `${drawer} .ant-menu`);
    await page.keyboard.press('Escape');
    // The pointer leaves what it clicked: hover colours are not the page's own.
    await page.mouse.move(0, 0);
    await page
      .locator('.ant-drawer-open')
      .waitFor({ state: 'detached', timeout: 5_000 })
      .catch(() => {});
    await page.waitForFunction(() => !document.querySelector('.ant-drawer-open'), undefined, { timeout: 5_000 });
    return JSON.stringify(links) === JSON.stringify(expected)
      ? []
      : [`the drawer lists ${links.join(', ')}; expected ${expected.join(', ')}`];
  }
  const links = await menuLinks(page, role === 'user' ? '[data-testid="portal-menu"]' : '[data-testid="staff-menu"]');
  return JSON.stringify(links) === JSON.stringify(expected)
    ? []
    : [`the menu lists ${links.join(', ')}; expected ${expected.join(', ')}`];
}

/**
 * axe at this size: in light mode the WCAG rules and the structure rules in one run; in dark mode only the rules a
 * change of colours can break (the rest see the same page).
 */
async function axeProblems(page: Page, mode: Mode): Promise<string[]> {
  const violations = await axeViolations(page, undefined, mode === 'light' ? 'wcag+structure' : 'colour');
  return violations.map(
    (v) =>
      `${isStructureRule(v.id) ? 'structure' : 'axe'} ${v.id} (${v.impact}): ${v.help}\n      ${v.nodes.slice(0, 6).join('\n      ')}`,
  );
}

/** Switches the colour mode with the wide header's switch (the page is left at 1366 px). */
async function setMode(page: Page, mode: Mode): Promise<void> {
  const current = await page.evaluate(() => localStorage.getItem('color_mode'));
  if (current === mode) return;
  await page.setViewportSize({ width: 1366, height: 800 });
  // A click event on the switch itself: a detail drawer (a user's) may lie over the header at that moment.
  await page.getByRole('switch', { name: /mode/i }).first().dispatchEvent('click');
  await page.waitForFunction((m) => localStorage.getItem('color_mode') === m, mode);
  await page.mouse.move(0, 0);
  await settled(page);
}

/** The routes after the first: the navigation is the layout's, checked once. */
const NO_NAVIGATION_CHECK = async (): Promise<string[]> => [];

/**
 * Checks one screen at the given sizes, in this order, in the page's current mode: in light mode the layout and
 * a screenshot at each size; axe at the sizes of AXE_SIZES, in either mode.
 */
async function checkScreen(
  page: Page,
  who: string,
  route: string,
  mode: Mode,
  checkNav: (width: number) => Promise<string[]>,
  sizes: readonly (typeof SIZES)[number][] = SIZES,
): Promise<string[]> {
  const problems: string[] = [];
  for (const size of sizes) {
    await page.setViewportSize(size);
    await page.waitForTimeout(50);
    await settled(page);
    const at = `${who} ${route} ${size.width}×${size.height} ${mode}`;
    if (mode === 'light') {
      // Charts follow their box's new width after a short debounce: the page gets a second to settle.
      if (await overflowsViewport(page))
        await page
          .waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, undefined, {
            timeout: 1_500,
          })
          .catch(() => {});
      if (await overflowsViewport(page)) {
        const wide = await page.evaluate(() =>
          [...document.querySelectorAll('body *')]
            .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
            .slice(0, 3)
            .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].slice(0, 2).join('.')}`),
        );
        problems.push(`${at}: scrolls sideways (${wide.join(', ')})`);
      }
      for (const p of await headerProblems(page)) problems.push(`${at}: ${p}`);
      for (const c of await controlsBeyondViewport(page))
        problems.push(`${at}: control beyond the viewport's right edge: ${c}`);
      if (checkNav !== NO_NAVIGATION_CHECK) {
        for (const p of await checkNav(size.width)) problems.push(`${at}: ${p}`);
        // The drawer the navigation check opened and closed is gone before anything else is measured.
        await settled(page);
      }
      const dir = join(SHOTS, who);
      mkdirSync(dir, { recursive: true });
      await page.screenshot({
        path: join(dir, `${slug(route)}-${size.width}x${size.height}.jpeg`),
        type: 'jpeg',
        quality: 60,
      });
    }
    if (AXE_SIZES.has(size.width)) for (const p of await axeProblems(page, mode)) problems.push(`${at}: ${p}`);
  }
  return problems;
}

/** Notes which routes carry a document title. */
function noteTitle(titles: Map<string, string[]>, title: string, route: string): void {
  titles.set(title, [...(titles.get(title) ?? []), route]);
}

/** Routes of one person that share a document title (tabs and history entries a person cannot tell apart). */
function titleProblems(who: string, titles: Map<string, string[]>): string[] {
  return [...titles]
    .filter(([, routes]) => routes.length > 1)
    .map(([title, routes]) => `${who}: ${routes.join(', ')} share the document title "${title}"`);
}

/** The calling test file's own portal on the living demo, which the helpers above then use. */
export function useMatrixPortal(): { portal: PortalSession; api: typeof api; tokenOf: typeof tokenOf } {
  portal = usePortal({ DEMO_DATA: 'full' });
  ({ api, tokenOf } = portalApi(portal));
  return {
    get portal() {
      return portal;
    },
    api: (...args) => api(...args),
    tokenOf: (email) => tokenOf(email),
  };
}

/** The public routes the matrix opens: the site, the sign-in pages, a public invoice and a missing page. */
export async function publicRoutes(): Promise<string[]> {
  const admin = await tokenOf(DEMO.admin);
  const invoices = await api<{ items: Array<{ id: string }> }>('GET', '/payments/invoices?limit=1', admin);
  const uuid = invoices.items[0]?.id;
  return [
    ...SITE_PATHS,
    '/login',
    '/register',
    '/password-reset',
    ...(uuid ? [`/invoice/${uuid}`] : []),
    '/no-such-page',
  ];
}

/** Registers the matrix for these roles (and the public site) on a portal of the calling test file's own. */
export function screensMatrix(part: { publicSite: boolean; roles: readonly Role[] }): void {
  useMatrixPortal();
  describe.concurrent(`every screen on a phone, a tablet and a desktop: ${[...(part.publicSite ? ['visitors'] : []), ...part.roles].join(', ')}`, () => {
    if (part.publicSite)
      it(
        'the public site and the sign-in pages',
        async () => {
          await slot(async () => {
            const routes = await publicRoutes();
            const problems: string[] = [];
            for (const mode of ['light', 'dark'] as Mode[]) {
              const context: BrowserContext = await portal.browser.newContext({
                viewport: SIZES[2],
                reducedMotion: 'reduce',
              });
              await context.addInitScript((m) => localStorage.setItem('color_mode', m), mode);
              const page = await context.newPage();
              trackRequests(page);
              try {
                const titles = new Map<string, string[]>();
                for (const [i, route] of routes.entries()) {
                  await openScreen(page, route);
                  noteTitle(titles, await page.title(), route);
                  const sizes = mode === 'light' ? SIZES : [...darkSizes(i)].reverse();
                  problems.push(...(await checkScreen(page, 'public', route, mode, NO_NAVIGATION_CHECK, sizes)));
                }
                if (mode === 'light') problems.push(...titleProblems('public', titles));
              } finally {
                await context.close();
              }
            }
            expect(problems, problems.join('\n')).toEqual([]);
          });
        },
        20 * 60_000,
      );

    for (const role of part.roles) {
      it(
        `${role}: every route at every size, light and dark`,
        async () => {
          await slot(async () => {
            const context = await portal.browser.newContext({ viewport: SIZES[2], reducedMotion: 'reduce' });
            const page = await context.newPage();
            trackRequests(page);
            const problems: string[] = [];
            try {
              await portal.signIn(page, DEMO[role], DEMO_PASSWORD);
              await page.mouse.move(0, 0);
              await settled(page);
              await setMode(page, 'light');
              const routes = await routesOf(page, role);
              expect(routes.length).toBeGreaterThan(role === 'super_admin' ? 0 : 2);
              // Each route is opened once and seen in both modes: the mode switches at 1366 px (where the header has
              // its switch), so a route checked light then dark ends dark, and the next is checked dark then light.
              const titles = new Map<string, string[]>();
              for (const [i, route] of routes.entries()) {
                await openScreen(page, route);
                noteTitle(titles, await page.title(), route);
                // The navigation is the layout's, the same on every route: checked on the first one.
                const nav = i === 0 ? (width: number) => navigationProblems(page, role, width) : NO_NAVIGATION_CHECK;
                const none = NO_NAVIGATION_CHECK;
                if (i % 2 === 0) {
                  problems.push(...(await checkScreen(page, role, route, 'light', nav, SIZES)));
                  await setMode(page, 'dark');
                  problems.push(...(await checkScreen(page, role, route, 'dark', none, darkSizes(i))));
                } else {
                  problems.push(...(await checkScreen(page, role, route, 'dark', none, darkSizes(i))));
                  await setMode(page, 'light');
                  problems.push(...(await checkScreen(page, role, route, 'light', nav, [...SIZES].reverse())));
                }
              }
              problems.push(...titleProblems(role, titles));
            } catch (err) {
              // Where the page was and what the server said, for a failure that is not one of the collected problems.
              const health = await fetch(`${portal.url}/api/health`).then(
                (r) => r.status,
                (e: Error) => e.message,
              );
              throw new Error(
                `${(err as Error).message}\n  at ${page.url()} (health: ${health})\n  server output:\n${portal.output().slice(-3000)}`,
              );
            } finally {
              await context.close();
            }
            expect(problems, problems.join('\n')).toEqual([]);
          });
        },
        20 * 60_000,
      );
    }
  });
}
