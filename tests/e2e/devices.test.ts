/**
 * Browser test (real Chromium against the built server): an admin adds a device pointing at a real snmpd on
 * loopback through the form, tests the connection before and after saving, and sees its secret only masked; a
 * technician sees the device list read-only, without settings, secrets or edit buttons.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePortal } from '../helpers/browser';
import { startSnmpd, type Snmpd } from '../helpers/snmpd';

const portal = usePortal();
let agent: Snmpd;

beforeAll(async () => {
  agent = await startSnmpd({ community: 'e2e-community-K7Q2' });
});
afterAll(async () => {
  await agent?.stop();
});

describe('network devices screens', () => {
  it('an admin adds a device pointing at snmpd, tests it and sees its community only masked', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await portal.signIn(page, 'admin@isp.local');
    await portal.open(page, `/dashboard/nas/router/devices`);
    await page.getByRole('button', { name: /Create/ }).click();
    await page.waitForURL(`${portal.url}/dashboard/nas/router/devices/create`);

    await page.getByLabel('Name', { exact: true }).fill('lab-router');
    await page.getByLabel('Host / IP address').fill('127.0.0.1');
    await page.getByLabel('Location / site').fill('Test rack');
    await page.getByLabel('SNMP port').fill(String(agent.port));
    await page.getByLabel('SNMP community').fill('wrong-community');

    // Tested before saving: a wrong community is a timeout; the right one answers.
    await page.getByRole('button', { name: /Test connection/ }).click();
    await expect.poll(() => page.getByTestId('test-snmp-status').textContent()).toBe('Timeout');
    await page.getByLabel('SNMP community').fill(agent.community);
    await page.getByRole('button', { name: /Test connection/ }).click();
    await expect.poll(() => page.getByTestId('test-snmp-status').textContent()).toBe('Reachable');
    await page.getByText('sys_name: test-snmpd', { exact: false }).waitFor();

    await page.getByRole('button', { name: /Save/ }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/nas/router/devices'); // the list adds its paging to the query
    const row = page.locator('tr', { hasText: 'lab-router' });
    await row.waitFor();
    await row.getByText('Unknown').waitFor();
    await row.getByText('Test rack').waitFor();

    // The show page: the community only as ••••last4, and the stored settings test reachable.
    await row.getByRole('button').first().click();
    await page.getByTestId('device-details').waitFor();
    await page.getByText('Set (••••K7Q2)').waitFor();
    expect(await page.content()).not.toContain(agent.community);
    await page.getByRole('button', { name: /Test connection/ }).click();
    await expect.poll(() => page.getByTestId('test-snmp-status').textContent()).toBe('Reachable');
    expect(await page.getByTestId('test-api-status').textContent()).toBe('Not configured');
    await page.close();
  });

  it('a technician sees the device list read-only, without settings, secrets or edit buttons', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await portal.signIn(page, 'technician@isp.local');
    await portal.open(page, `/dashboard/nas/devices`);
    const row = page.locator('tr', { hasText: 'lab-router' });
    await row.waitFor();
    await row.getByText('Test rack').waitFor();
    expect(await page.getByRole('button', { name: /Create/ }).count()).toBe(0);
    expect(await row.getByRole('button').count()).toBe(1); // show only
    await row.getByRole('button').click();
    await page.getByTestId('device-details').waitFor();
    await page.getByTestId('device-interfaces').waitFor();
    const html = await page.content();
    for (const text of ['SNMP community', 'K7Q2', agent.community, 'SNMP port', 'Management API', 'RADIUS'])
      expect(html).not.toContain(text);
    expect(await page.getByRole('button', { name: /Edit|Delete|Test connection/ }).count()).toBe(0);

    // The admin screens stay closed to technicians.
    await portal.open(page, `/dashboard/nas/router/devices`);
    // Issue 34: the screen says it is not theirs (no silent redirect), and the address stays.
    await page.getByRole('heading', { level: 1, name: "You don't have access to this page" }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/nas/router/devices');
    await page.close();
  });
});
