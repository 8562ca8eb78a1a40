/**
 * The dashboard in a real browser (issue 6): an admin sees every statistics group and the trend charts drawn
 * from the demo data (the demo tickets); a billing user sees revenue and subscriptions but no customer counts.
 * Issue 15: a signed-in staff member's usable dashboard costs at most 350 KB of compressed script, and the
 * charts' code comes only once a chart is on screen.
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
    for (const group of ['users', 'subscriptions', 'revenue', 'tickets'])
      expect(await page.getByTestId(`stat-group-${group}`).count()).toBe(1);
    // Bandwidth and sessions come from RADIUS accounting, the device count from the inventory (none in the demo).
    expect(await page.getByTestId('stat-totalDownload').count()).toBe(1);
    expect(await page.getByTestId('stat-group-networkDevices').textContent()).toContain('0');
    expect(await page.getByTestId('stat-activeConnections').count()).toBe(1);
    expect(await page.getByText('Network monitoring is not set up yet', { exact: false }).count()).toBe(0);
    // The demo tickets were opened this month: the tickets chart draws on a canvas.
    await page.getByTestId('chart-tickets').locator('canvas').first().waitFor();
    const opened = Number(
      (await page.getByTestId('stat-newTickets').locator('.ant-statistic-content-value').textContent())?.replace(
        /\D/g,
        '',
      ),
    );
    expect(opened).toBeGreaterThan(0);
    // No payments in the demo data: the revenue chart says so instead of a flat line.
    await page.getByText('No payments received in this period yet.').waitFor();
    await page.getByText(/Last updated \d{1,2}:\d\d:\d\d/).waitFor();
    await page.close();
  });

  it("a staff member's dashboard is usable after at most 350 KB of compressed script; the charts load when scrolled to", async () => {
    const signIn = await portal.browser.newPage();
    await portal.signIn(signIn, 'admin@isp.local');
    const session = await signIn.context().storageState();
    await signIn.close();
    // A browser with an empty cache and that session, low enough that the charts start below the fold.
    const context = await portal.browser.newContext({ storageState: session, viewport: { width: 1366, height: 400 } });
    const page = await context.newPage();
    const scripts: Promise<{ url: string; bytes: number; encoding: string }>[] = [];
    page.on('response', (res) => {
      if (!res.url().startsWith(portal.url) || !new URL(res.url()).pathname.endsWith('.js')) return;
      scripts.push(
        res.finished().then(async () => ({
          url: new URL(res.url()).pathname,
          // Bytes as received, before decoding.
          bytes: (await res.request().sizes()).responseBodySize,
          encoding: (await res.allHeaders())['content-encoding'] ?? 'identity',
        })),
      );
    });
    const sum = (list: { bytes: number }[]) => list.reduce((total, s) => total + s.bytes, 0);

    await page.goto(`${portal.url}/dashboard`);
    await page.getByTestId('stat-group-users').waitFor();
    await page.getByTestId('stat-newTickets').waitFor();
    const untilCards = await Promise.all(scripts.slice());
    expect(untilCards.length).toBeGreaterThan(3);
    expect(sum(untilCards), untilCards.map((s) => `${s.url} ${s.bytes}`).join('\n')).toBeLessThanOrEqual(350 * 1024);
    for (const s of untilCards) expect(['br', 'gzip'], s.url).toContain(s.encoding);
    expect(untilCards.filter((s) => s.url.includes('/TrendChart-'))).toEqual([]);

    // The tickets chart (demo tickets this month) brings the chart library once it is scrolled into view.
    const chart = page.getByTestId('chart-tickets');
    await chart.scrollIntoViewIfNeeded();
    await chart.locator('canvas').first().waitFor({ timeout: 60_000 });
    const afterCards = (await Promise.all(scripts)).slice(untilCards.length);
    expect(afterCards.some((s) => s.url.includes('/TrendChart-'))).toBe(true);
    expect(sum(afterCards)).toBeGreaterThan(100 * 1024);
    await context.close();
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
