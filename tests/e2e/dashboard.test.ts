/**
 * The dashboard in a real browser (issue 6): an admin sees every statistics group and the trend charts drawn
 * from the demo data (the demo tickets); a billing user sees revenue and subscriptions but no customer counts.
 */
import { describe, expect, it } from 'vitest';
import { usePortal } from '../helpers/browser';

const portal = usePortal();

describe('the dashboard', () => {
  it('an admin sees the statistics and the charts', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await portal.signIn(page, 'admin@isp.local');
    await portal.open(page, `/dashboard`);
    await page.getByTestId('stat-group-users').waitFor();
    for (const group of ['users', 'subscriptions', 'revenue', 'tickets']) expect(await page.getByTestId(`stat-group-${group}`).count()).toBe(1);
    // Bandwidth and sessions come from RADIUS accounting, the device count from the inventory (none in the demo).
    expect(await page.getByTestId('stat-totalDownload').count()).toBe(1);
    expect(await page.getByTestId('stat-group-networkDevices').textContent()).toContain('0');
    expect(await page.getByTestId('stat-activeConnections').count()).toBe(1);
    expect(await page.getByText('Network monitoring is not set up yet', { exact: false }).count()).toBe(0);
    // The demo tickets were opened this month: the tickets chart draws on a canvas.
    await page.getByTestId('chart-tickets').locator('canvas').first().waitFor();
    const opened = Number((await page.getByTestId('stat-newTickets').locator('.ant-statistic-content-value').textContent())?.replace(/\D/g, ''));
    expect(opened).toBeGreaterThan(0);
    // No payments in the demo data: the revenue chart says so instead of a flat line.
    await page.getByText('No payments received in this period yet.').waitFor();
    await page.getByText(/Last updated \d\d:\d\d:\d\d/).waitFor();
    await page.close();
  });

  it('a billing user sees revenue but not customer counts', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await portal.signIn(page, 'billing@isp.local');
    await portal.open(page, `/dashboard`);
    await page.getByTestId('stat-group-revenue').waitFor();
    expect(await page.getByTestId('stat-totalRevenue').count()).toBe(1);
    expect(await page.getByTestId('stat-group-subscriptions').count()).toBe(1);
    expect(await page.getByTestId('stat-group-users').count()).toBe(0);
    expect(await page.getByText('Total customers').count()).toBe(0);
    await page.close();
  });
});
