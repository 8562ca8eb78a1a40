/**
 * The audit trail in real Chromium (issue 13): an admin changes a plan's price in the back office and finds the
 * change, before → after, on /dashboard/audit and on the event's own page. The audit screens and the pages
 * that show a record's history fit a 390 px phone and pass axe-core (WCAG 2.1 A/AA).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { portalApi, toastsGone, usePortal } from '../helpers/browser';
import { axeViolations, overflowsViewport } from '../helpers/axe';

const portal = usePortal();
const PHONE = { width: 390, height: 844 };

const { api, tokenOf } = portalApi(portal);

/**
 * The page fits the phone and axe finds nothing, on the whole page or in the part `include` picks; failures
 * name the screen and each offending node.
 */
async function expectAccessibleOnPhone(page: Page, screen: string, include?: string): Promise<void> {
  expect(await overflowsViewport(page), `${screen} scrolls sideways at ${PHONE.width} px`).toBe(false);
  expect(await axeViolations(page, include), `axe on ${screen}${include ? ` (${include})` : ''}`).toEqual([]);
}

describe('audit trail', () => {
  it("an admin changes a plan's price and sees it, before → after, on the trail and the event's page", async () => {
    const admin = await tokenOf('admin@isp.local');
    const plans = await api<{ items: Array<{ id: string; name: string; price: number }> }>(
      'GET',
      '/plans?limit=50',
      admin,
    );
    const plan = plans.items.find((p) => p.name === 'Basic 25')!;
    expect(plan).toBeTruthy();
    const newPrice = plan.price + 1000;

    // The change, in the back office's plan form.
    const desk = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await portal.signIn(desk, 'admin@isp.local');
    await portal.open(desk, `/dashboard/plans/edit/${plan.id}`);
    const price = desk.getByLabel('Price');
    await expect.poll(() => price.inputValue(), { timeout: 20_000 }).not.toBe('');
    await price.fill((newPrice / 100).toFixed(2));
    await desk.getByRole('button', { name: 'Save' }).click();
    await desk.getByText('Plan updated successfully').waitFor();
    await desk.close();

    // The trail on a phone: the newest plan.updated event names the plan and its actor.
    const page = await portal.browser.newPage({ viewport: PHONE });
    try {
      await portal.signIn(page, 'admin@isp.local');
      await portal.open(page, `/dashboard/audit`);
      // On a phone the list's filters fold into the "Filters" drawer: open it, type the action, Apply.
      await page.getByRole('button', { name: /^Filters/ }).click();
      const drawer = page.locator('.ant-drawer-open');
      await drawer.getByLabel('Action', { exact: true }).fill('plan.updated');
      await drawer.getByLabel('Target id', { exact: true }).fill(plan.id);
      await drawer.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL(/plan\.updated/);
      const row = page.locator('tr.ant-table-row').first();
      await row.getByText('plan.updated').waitFor();
      // The phone's row keeps the key columns; the actor and the target fold into its expansion.
      await row.getByRole('button', { name: /expand row/i }).click();
      const more = page.locator('tr.ant-table-expanded-row').first();
      await more.getByText('admin@isp.local').waitFor();
      expect(await more.textContent()).toContain('Administrator');
      // The event names no plan (only the price changed): the target shows the plan's short id, not the whole UUID.
      expect(await more.textContent()).toContain(`${plan.id.slice(0, 8)}…`);
      expect(await more.textContent()).not.toContain(plan.id);
      await row.getByText('Plan updated').waitFor();
      await toastsGone(page);
      await expectAccessibleOnPhone(page, '/dashboard/audit');

      // The event's page: the price row of the diff, before → after.
      await row.locator('a[href*="/dashboard/audit/show/"]').first().click();
      await page.waitForURL(/\/dashboard\/audit\/show\//);
      const priceRow = page
        .getByTestId('audit-diff')
        .locator('tr', { has: page.locator('code', { hasText: /^price$/ }) });
      await priceRow.waitFor();
      expect(await priceRow.locator('td').allTextContents()).toEqual(['price', String(plan.price), String(newPrice)]);
      await expectAccessibleOnPhone(page, '/dashboard/audit/show/:id');

      // On a desktop screen too, light and dark: the page and the back office's menu and breadcrumb around it.
      await page.setViewportSize({ width: 1366, height: 900 });
      for (const mode of ['light', 'dark']) {
        await page.evaluate((m) => localStorage.setItem('color_mode', m), mode);
        await page.reload();
        await priceRow.waitFor();
        // The theme switch shows which mode the page is in.
        expect(await page.getByRole('switch').first().getAttribute('aria-checked')).toBe(String(mode === 'dark'));
        // Colours are measured once the page's fade-in has finished (CI once read them halfway: a contrast failure).
        await page
          .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, {
            timeout: 10_000,
          })
          .catch(() => undefined);
        expect(await axeViolations(page), `axe on /dashboard/audit/show/:id at 1366 px, ${mode}`).toEqual([]);
      }
    } finally {
      await page.close();
    }
  });

  it('the user and subscription pages show their history to an admin, fitting a phone and passing axe', async () => {
    const admin = await tokenOf('admin@isp.local');
    const customer = await tokenOf('customer@isp.local');
    const plans = await api<{ items: Array<{ id: string; name: string }> }>('GET', '/plans?limit=50', admin);
    const { subscription } = await api<{ subscription: { id: string } }>('POST', '/subscriptions', customer, {
      plan_id: plans.items[0].id,
    });
    const users = await api<{ items: Array<{ id: string; email: string }> }>(
      'GET',
      '/users?search=customer%40isp.local',
      admin,
    );
    const casey = users.items.find((u) => u.email === 'customer@isp.local')!;
    // Something in the customer's history: an admin suspends them and lets them back in.
    await api('PATCH', `/users/${casey.id}/status`, admin, { status: 'suspended' });
    await api('PATCH', `/users/${casey.id}/status`, admin, { status: 'active' });

    const page = await portal.browser.newPage({ viewport: PHONE });
    try {
      await portal.signIn(page, 'admin@isp.local');
      await portal.open(page, `/dashboard/user/${casey.id}`);
      const userHistory = page.getByTestId('audit-history');
      await userHistory.getByTestId('audit-history-item').first().waitFor();
      expect(await userHistory.getByTestId('audit-history-change').allTextContents()).toEqual(
        expect.arrayContaining(['status: active → suspended', 'status: suspended → active']),
      );
      // The user's detail is a drawer: it fits the phone too, not only the page under it.
      const drawer = await page.locator('.ant-drawer-open .ant-drawer-content-wrapper').boundingBox();
      expect(drawer!.x).toBeGreaterThanOrEqual(0);
      expect(drawer!.width).toBeLessThanOrEqual(PHONE.width);
      await toastsGone(page);
      await expectAccessibleOnPhone(page, '/dashboard/user/:id');

      await portal.open(page, `/dashboard/subscription/${subscription.id}`);
      await page.getByTestId('subscription-details').waitFor();
      await page.getByTestId('audit-history').waitFor();
      await page.waitForLoadState('networkidle');
      await toastsGone(page);
      await expectAccessibleOnPhone(page, '/dashboard/subscription/:id');
    } finally {
      await page.close();
    }
  });
});
