/**
 * Browser test (real Chromium against the built server): an admin reads a router's configuration with its
 * secrets masked, backs it up twice with a change in between, and sees the diff of the two versions. The
 * router is the local RouterOS REST stand-in (tests/helpers/routeros-fake.ts), reached by the server process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, usePortal } from '../helpers/browser';
import { DEFAULT_EXPORT, startRouterOsFake, type RouterOsFake } from '../helpers/routeros-fake';

const portal = usePortal();
let router: RouterOsFake;
let deviceId: string;

beforeAll(async () => {
  router = await startRouterOsFake();
});
afterAll(async () => {
  await router?.stop();
});

async function adminToken(): Promise<string> {
  const res = await fetch(`${portal.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@isp.local', password: DEMO_PASSWORD, rememberMe: false }),
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return (JSON.parse(text) as { data: { tokens: { access: { token: string } } } }).data.tokens.access.token;
}

describe('network configuration and backup screens', () => {
  it('an admin reads the masked configuration, backs up twice across a change and compares the versions', async () => {
    const token = await adminToken();
    const created = await fetch(`${portal.url}/api/devices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        // A name of its own per attempt: a retry after a loaded CI's time-out finds the first attempt's device.
        name: `core-router-${Date.now()}`,
        vendor: 'mikrotik',
        host: '127.0.0.1',
        snmp_community: 'public',
        api_type: 'rest',
        api_port: router.connection.port,
        api_tls: false,
        api_username: router.username,
        api_password: router.password,
      }),
    });
    const createdBody = await created.text();
    expect(created.status, createdBody).toBe(201);
    deviceId = (JSON.parse(createdBody) as { data: { id: string } }).data.id;

    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await portal.signIn(page, 'admin@isp.local');

    // Configuration: line numbers, search, secrets masked.
    await portal.open(page, `/dashboard/nas/router/config?device=${deviceId}`);
    const text = page.getByTestId('config-text');
    await text.waitFor();
    await page.getByText('5 secrets masked').waitFor();
    expect(await page.content()).not.toContain('RadiusShared123');
    await page.getByPlaceholder('Search the configuration').fill('firewall');
    await page.getByTestId('search-count').getByText('1 matching line', { exact: true }).waitFor();

    // Back up now → version 1.
    await portal.open(page, `/dashboard/nas/router/backup?device=${deviceId}`);
    await page.getByRole('button', { name: /Back up now/ }).click();
    await page.getByText('Backup stored as version 1').waitFor();
    await page.getByTestId('backup-versions').getByText('v1').waitFor();

    // The router's configuration changes; the next backup stores version 2.
    router.exportText = DEFAULT_EXPORT.replace('set name=core-router-1', 'set name=core-router-01');
    await page.getByRole('button', { name: /Back up now/ }).click();
    await page.getByText('Backup stored as version 2').waitFor();
    await page.getByTestId('backup-versions').getByText('v2').waitFor();

    await page.getByRole('button', { name: /^Compare$/ }).click();
    const diff = page.getByTestId('backup-diff');
    await diff.getByText('Changes from version 1 to version 2').waitFor();
    expect(await diff.locator('tr[data-type="removed"]').textContent()).toContain('set name=core-router-1');
    expect(await diff.locator('tr[data-type="added"]').textContent()).toContain('set name=core-router-01');
    await page.close();
  });

  it('keeps a technician out of the backup screen', async () => {
    const page = await portal.browser.newPage();
    await portal.signIn(page, 'technician@isp.local');
    await portal.open(page, `/dashboard/nas/router/backup`);
    // Issue 34: the screen says it is not theirs (no silent redirect), and the address stays.
    await page.getByRole('heading', { level: 1, name: "You don't have access to this page" }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/nas/router/backup');
    await page.close();
  });
});
