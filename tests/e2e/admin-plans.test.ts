import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { usePortal } from '../helpers/browser';

const portal = usePortal();

async function publicPlanNames(page: Page): Promise<string[]> {
  await page.goto(`${portal.url}/plans`);
  await page.getByTestId('plan-cards').waitFor();
  return page.getByTestId('plan-card').locator('h2, h3').allTextContents();
}

describe('an admin managing plans', () => {
  it('creates a plan that visitors then see, toggles it inactive, and it disappears from /plans', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await portal.signIn(page, 'admin@isp.local');

    await portal.open(page, `/dashboard/plans/create`);
    await page.getByLabel('Name').fill('Gigabit Gamer');
    await page.getByLabel('Download', { exact: true }).fill('500');
    await page.getByLabel('Upload', { exact: true }).fill('100');
    await page.getByLabel('Price').fill('79.99');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Plan created successfully').waitFor();

    const visitor = await portal.browser.newPage();
    const names = await publicPlanNames(visitor);
    expect(names).toContain('Gigabit Gamer');
    expect(await visitor.getByTestId('plan-card').filter({ hasText: 'Gigabit Gamer' }).textContent()).toContain(
      '$79.99',
    );

    await portal.open(page, `/dashboard/plans`);
    const row = page.locator('tr', { hasText: 'Gigabit Gamer' });
    await row.waitFor();
    await row.locator('.ant-switch').click();
    // Switching a plan off stops selling it: it asks first, naming the plan.
    await page.getByRole('dialog').getByText('Stop selling Gigabit Gamer?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Stop selling' }).click();
    await page.getByText('Plan deactivated successfully').waitFor();

    expect(await publicPlanNames(visitor)).not.toContain('Gigabit Gamer');
    await visitor.close();
    await page.close();
  });

  it('keeps plan management away from support: the screen tells them it is not theirs', async () => {
    const page = await portal.browser.newPage();
    await portal.signIn(page, 'support@isp.local');
    await portal.open(page, `/dashboard/plans`);
    // Issue 34: the screen says it is not theirs (no silent redirect), and the address stays.
    await page.getByRole('heading', { level: 1, name: "You don't have access to this page" }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/plans');
    await page.close();
  });
});
