import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD, portalApi, usePortal } from '../helpers/browser';

const portal = usePortal();
const { api, tokenOf } = portalApi(portal);

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`).click();
}

describe('an admin managing users', () => {
  it('filters by role and status, suspends the demo customer, and the customer can no longer sign in', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    // The demo customer starts active, also when this test runs a second time (a retried browser test).
    const casey = (
      await api<{ items: Array<{ id: string; status: string }> }>(
        'GET',
        '/users?search=customer%40isp.local',
        await tokenOf('admin@isp.local'),
      )
    ).items[0];
    if (casey.status !== 'active')
      await api('PATCH', `/users/${casey.id}/status`, await tokenOf('admin@isp.local'), { status: 'active' });
    const requests: string[] = [];
    const t0 = Date.now();
    page.on('response', (r) => {
      if (r.url().includes('/api/'))
        requests.push(`${Date.now() - t0} ${r.request().method()} ${r.status()} ${r.url().replace(portal.url, '')}`);
    });
    await portal.signIn(page, 'admin@isp.local');
    await portal.open(page, `/dashboard/users`);
    await page.getByRole('cell', { name: 'customer@isp.local' }).waitFor();
    // Staff are listed too before filtering.
    await page.getByRole('cell', { name: 'support@isp.local' }).waitFor();

    await choose(page, 'Role', 'Customer');
    await page.waitForURL(/filters.*=user/);
    await page.getByRole('cell', { name: 'support@isp.local' }).waitFor({ state: 'detached' });
    await choose(page, 'Status', 'Active');
    await page.waitForURL(/=active/);
    const row = page.locator('tbody tr.ant-table-row', { hasText: 'customer@isp.local' });
    await row.waitFor();
    expect(await page.locator('tbody tr.ant-table-row').count()).toBeGreaterThan(0);
    for (const text of await page.locator('tbody tr.ant-table-row').allTextContents())
      expect(text).toContain('Customer');
    expect(await row.textContent()).toMatch(/C-\d{6}/);

    await row.click();
    await page.waitForURL(/\/dashboard\/user\/[0-9a-f-]{36}/);
    const drawer = page.getByTestId('user-drawer');
    await drawer.getByText('Casey Customer', { exact: false }).first().waitFor();
    await drawer.getByRole('button', { name: 'Set suspended' }).click();
    await page.getByText('Set Casey Customer to suspended?', { exact: false }).waitFor();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await page.getByText('User suspended successfully').waitFor();

    // With the status filter still "active", the suspended customer leaves the list.
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await page.waitForURL(/\/dashboard\/users/);
    await row.waitFor({ state: 'detached', timeout: 20_000 }).catch(async (error: Error) => {
      // What the API says of Casey now, what the page asked for and shows: enough to tell a stale screen from stale data.
      const listed = await api<{ items: Array<{ email: string; status: string }> }>(
        'GET',
        '/users?role=user&status=active&page=1&limit=20',
        await tokenOf('admin@isp.local'),
      );
      await page.screenshot({ path: 'test-results/users-stale-row.png' }).catch(() => {});
      throw new Error(
        `${error.message}\nurl: ${page.url()}\nrow: ${await row.textContent()}\napi now: ${JSON.stringify(listed.items)}\nrequests: ${requests.join('\n')}`,
      );
    });

    const customer = await portal.browser.newPage();
    await customer.goto(`${portal.url}/login`);
    await customer.getByTestId('login-page').waitFor();
    await customer.getByLabel('E-mail').fill('customer@isp.local');
    await customer.getByLabel('Password').fill(DEMO_PASSWORD);
    await customer.getByRole('button', { name: 'Sign in' }).click();
    await customer.getByText('Your account is suspended. Please contact support.').waitFor();
    expect(new URL(customer.url()).pathname).toBe('/login');
    await customer.close();
    await page.close();
  });
});
