import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { canAccessRoute, type Role } from '../../contract/roles';
import { menuRoutes } from '../../resources/menu';
import { translate } from '../../src/i18n';
import { usePortal } from '../helpers/browser';

const DEMO: Record<Role, string> = {
  admin: 'admin@isp.local',
  super_admin: 'superadmin@isp.local',
  support: 'support@isp.local',
  technician: 'technician@isp.local',
  billing: 'billing@isp.local',
  user: 'customer@isp.local',
};
const PASSWORD = 'Password123!';

const portal = usePortal();

/** The dashboard links the menu shows (expanding the sider's groups first). */
async function menuLinks(page: Page, role: Role): Promise<string[]> {
  const menu = role === 'user' ? page.getByTestId('portal-menu') : page.locator('.ant-layout-sider');
  await menu.waitFor();
  if (role !== 'user') {
    const groups = menu.locator('.ant-menu-submenu-title');
    for (let i = 0; i < (await groups.count()); i++) await groups.nth(i).click();
    await page.waitForTimeout(300);
  }
  const hrefs = await menu
    .locator(role === 'user' ? 'a[href]' : '.ant-menu a[href]')
    .evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  return [...new Set(hrefs)].sort();
}

describe('signing in as each demo role', () => {
  for (const role of Object.keys(DEMO) as Role[]) {
    it(`${role} lands on /dashboard and sees only the menu entries the role may open`, async () => {
      const page = await portal.browser.newPage();
      try {
        await portal.signIn(page, DEMO[role]);
        const expected = menuRoutes()
          .filter((m) => canAccessRoute(role, m.route))
          .filter((m) => role !== 'user' || m.portal)
          .map((m) => m.route)
          .sort();
        expect(await menuLinks(page, role)).toEqual(expected);
        expect(await page.getByTestId('current-user').textContent()).toContain(translate(`role.${role}`));
      } finally {
        await page.close();
      }
    });
  }
});

describe('a customer session', () => {
  it('is told /dashboard/settings is not theirs (issue 34), goes home from there, survives a reload, and logs out to /login', async () => {
    const context = await portal.browser.newContext();
    const page = await context.newPage();
    await portal.signIn(page, DEMO.user);

    await portal.open(page, `/dashboard/settings`);
    await page.getByRole('heading', { level: 1, name: "You don't have access to this page" }).waitFor();
    expect(page.url()).toBe(`${portal.url}/dashboard/settings`);
    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await page.waitForURL(`${portal.url}/dashboard`);
    await page.getByTestId('customer-home').waitFor();

    await page.reload();
    await page.getByTestId('customer-home').waitFor();
    expect(page.url()).toBe(`${portal.url}/dashboard`);
    expect(await page.getByTestId('current-user').textContent()).toContain('Casey Customer');

    await page.getByTestId('logout-button').click();
    await page.waitForURL(/\/login/);
    await page.getByTestId('login-page').waitFor();

    // The session is really gone: a protected page sends back to /login and remembers where we were going.
    await page.goto(`${portal.url}/dashboard/profile`);
    await page.waitForURL(`${portal.url}/login?to=%2Fdashboard%2Fprofile`);
    await context.close();
  });

  it('is remembered: signing in from a protected page returns to it', async () => {
    const context = await portal.browser.newContext();
    const page = await context.newPage();
    await portal.open(page, `/dashboard/profile`);
    await page.waitForURL(/\/login\?to=/);
    await page.getByLabel('E-mail').fill(DEMO.user);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${portal.url}/dashboard/profile`);
    await page.getByTestId('profile-page').waitFor();
    await context.close();
  });

  it('shows the not-found screen for unknown routes and for /dashboard/payments', async () => {
    const context = await portal.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${portal.url}/no-such-page`);
    await page.getByTestId('not-found').waitFor();
    await portal.signIn(page, DEMO.billing);
    await portal.open(page, `/dashboard/payments`);
    await page.getByTestId('not-found').waitFor();
    expect(page.url()).toBe(`${portal.url}/dashboard/payments`);
    await context.close();
  });
});
