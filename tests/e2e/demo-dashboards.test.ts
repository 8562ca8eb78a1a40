/**
 * The living demo in a real browser (issue 16): a portal started on an empty database with DEMO_DATA=full, then
 * every staff role signs in and its dashboard shows cards with something in them (each card group has a non-zero
 * figure) and trend charts that are drawn (a canvas with coloured pixels, no "nothing yet" placeholder); the demo
 * customer's home (issue 34) shows their line, its usage so far and their tickets.
 */
import { describe, expect, it } from 'vitest';
import { usePortal } from '../helpers/browser';

const portal = usePortal({ DEMO_DATA: 'full' });

const ROLES = [
  {
    email: 'admin@isp.local',
    groups: ['users', 'subscriptions', 'revenue', 'tickets', 'bandwidth', 'networkDevices', 'activeConnections'],
  },
  {
    email: 'superadmin@isp.local',
    groups: ['users', 'subscriptions', 'revenue', 'tickets', 'bandwidth', 'networkDevices', 'activeConnections'],
  },
  { email: 'support@isp.local', groups: ['tickets', 'bandwidth'] },
  { email: 'technician@isp.local', groups: ['tickets', 'bandwidth', 'networkDevices', 'activeConnections'] },
  { email: 'billing@isp.local', groups: ['revenue', 'subscriptions', 'tickets', 'bandwidth'] },
];

/** A figure such as "0", "$0.00" or "0 B" is zero; anything with a non-zero digit is not. */
const nonZero = (text: string) => /[1-9]/.test(text);

describe('the living demo on every dashboard', () => {
  for (const role of ROLES) {
    it(`${role.email} sees non-zero cards and drawn charts`, async () => {
      const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
      await portal.signIn(page, role.email);
      await portal.open(page, '/dashboard');
      await page.getByTestId('dashboard-charts').waitFor();
      for (const group of role.groups) {
        const card = page.getByTestId(`stat-group-${group}`);
        // A group of one figure (devices, connections) is the statistic itself.
        const scope = (await card.count()) ? card : page.getByTestId(`stat-${group}`);
        await scope.first().waitFor();
        const figures = await scope.locator('.ant-statistic-content').allTextContents();
        expect(
          figures.some(nonZero),
          `${role.email}: ${group} shows ${JSON.stringify(figures)}\n${portal.output()}`,
        ).toBe(true);
      }
      expect(
        await page.locator('[data-testid$="-empty"][data-testid^="chart-"]').count(),
        `${role.email}: a chart has nothing to show`,
      ).toBe(0);
      const charts = page.locator('[data-testid^="chart-"]:not([data-testid$="-empty"])');
      const names = await charts.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-testid')));
      expect(names.length, role.email).toBeGreaterThan(0);
      for (const name of names) {
        const chart = page.getByTestId(name!);
        await chart.scrollIntoViewIfNeeded();
        const canvas = chart.locator('canvas').first();
        await canvas.waitFor();
        // Drawn: some pixel of the canvas is not transparent (charts animate in, so give them a moment).
        await expect
          .poll(
            () =>
              canvas.evaluate((c: HTMLCanvasElement) => {
                const ctx = c.getContext('2d');
                if (!ctx || !c.width || !c.height) return 0;
                const data = ctx.getImageData(0, 0, c.width, c.height).data;
                let painted = 0;
                for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
                return painted;
              }),
            { timeout: 10_000, message: `${role.email}: ${name} is blank` },
          )
          .toBeGreaterThan(200);
      }
      await page.close();
    });
  }
});

describe('the living demo on the customer’s home', () => {
  it('Casey sees the Home 100 line, usage above zero this cycle and the open tickets', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await portal.signIn(page, 'customer@isp.local');
    await page.getByTestId('customer-home').waitFor();
    const service = page.getByTestId('home-service');
    await service.getByText('Home 100').waitFor();
    expect(await service.innerText()).toContain('Active');
    const used = (await page.getByTestId('home-usage').innerText()).split(' used')[0].split(' of ')[0];
    expect(nonZero(used), `usage this cycle: ${used}`).toBe(true);
    expect(await page.getByTestId('home-tickets').innerText()).toMatch(/[1-9]\d* open tickets?/);
    expect(await page.getByTestId('dashboard-charts').count()).toBe(0);
    await page.close();
  });
});
