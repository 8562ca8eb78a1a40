/**
 * Browser test (real Chromium against the built server and a real snmpd on loopback): an admin polls a device
 * from the interfaces screen, sees its interfaces with live status, and opens the usage history of the
 * loopback: a drawn traffic chart with totals and 95th percentile cards. The chart library is loaded only
 * there, never by the public home page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalApi, usePortal } from '../helpers/browser';
import { startSnmpd, type Snmpd } from '../helpers/snmpd';

const portal = usePortal();
const { api, tokenOf } = portalApi(portal);
let agent: Snmpd;

beforeAll(async () => {
  agent = await startSnmpd();
});
afterAll(async () => {
  await agent?.stop();
});

describe('interfaces and usage history', () => {
  it('an admin polls a device, sees its interfaces and the traffic chart of the loopback', async () => {
    // The public home page does not load the chart library: note every script it loads.
    const home = await portal.browser.newPage();
    const homeScripts = new Set<string>();
    home.on('request', (r) => {
      if (r.resourceType() === 'script') homeScripts.add(r.url());
    });
    await home.goto(`${portal.url}/`);
    await home.waitForLoadState('networkidle');
    await home.close();

    const token = await tokenOf('admin@isp.local');
    const device = await api<{ id: string }>('POST', '/devices', token, {
      // A name of this attempt's own: a retried test must not trip over the first attempt's device.
      name: `lab-core-${Date.now().toString(36)}`,
      host: '127.0.0.1',
      snmp_port: agent.port,
      snmp_community: agent.community,
    });

    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    // The chart library must draw under the portal's Content-Security-Policy (no eval, no blob: workers).
    const cspRefusals: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspRefusals.push(m.text());
    });
    await portal.signIn(page, 'admin@isp.local');
    await portal.open(page, `/dashboard/nas/router/interfaces?device=${device.id}`);
    const table = page.getByTestId('interfaces-table');
    await table.getByText('No interfaces yet', { exact: false }).waitFor();

    // Two polls through the API (Poll now): interfaces appear, then a rate over the interval between them.
    await page.getByRole('button', { name: /Poll now/ }).click();
    await page
      .getByText(/Device polled: [\d,]+ interfaces?/)
      .first()
      .waitFor();
    const lo = table.locator('tr', { hasText: 'lo' }).first();
    await lo.waitFor();
    await lo.locator('[data-status="up"]').first().waitFor();
    await page.getByTestId('device-state').getByText('Up').waitFor();
    await page.getByRole('button', { name: /Poll now/ }).click();
    await expect.poll(async () => (await lo.textContent()) ?? '').toMatch(/bit\/s/);

    const usageScriptSet = new Set<string>(); // scripts first requested once the usage screen opens
    page.on('request', (r) => {
      if (r.resourceType() === 'script') usageScriptSet.add(r.url());
    });
    await lo.getByRole('link', { name: 'Traffic' }).click();
    await page.waitForURL(/\/dashboard\/nas\/router\/usage\?device=.*&interface=/);
    await page.getByText('Last hour').click();
    await page.waitForURL(/range=hour/);
    const chart = page.getByTestId('traffic-chart');
    // The chart's chunk is the largest of the app: on a loaded machine it takes a while to arrive and parse.
    await chart
      .locator('canvas')
      .first()
      .waitFor({ timeout: 60_000 })
      .catch(async (error: Error) => {
        // Say what the screen shows instead (an empty range, an error, still loading).
        const shown = await page
          .locator('main')
          .innerText()
          .catch(() => '(no main)');
        throw new Error(`${error.message}\nurl: ${page.url()}\nscreen: ${shown.slice(0, 600)}`);
      });
    await chart.getByText('Points: every poll').waitFor();
    expect(cspRefusals).toEqual([]);
    for (const card of ['card-total-in', 'card-total-out', 'card-p95-in', 'card-p95-out']) {
      expect(await page.getByTestId(card).textContent()).toMatch(/\d+(\.\d+)? (B|kB|MB|GB|bit\/s|kbit\/s|Mbit\/s)/);
    }
    expect(await page.getByTestId('card-p95-in').textContent()).toContain('95th percentile in');

    // The chart's code (its own chunk and the chart library's) came with the usage screen; the public home page
    // had loaded none of it.
    const usageScripts = [...usageScriptSet];
    expect(usageScripts.filter((u) => /\/assets\/TrafficChart-[\w-]+\.js$/.test(u))).toHaveLength(1);
    for (const u of usageScripts) expect(homeScripts.has(u)).toBe(false);
    expect(
      [...homeScripts].some((u) => /\/assets\/(TrafficChart|line|makeChartComp|DashboardCharts|UsageChart)-/.test(u)),
    ).toBe(false);
    await page.close();
  });
});
