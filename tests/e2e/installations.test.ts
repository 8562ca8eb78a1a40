/**
 * Service delivery in real Chromium (issue 8): a customer's new subscription with a location becomes an
 * installation job; support assigns it; the technician works it through on the job screen (en route, in
 * progress, checklist, a photo, completion); the customer then sees their PPPoE login on the subscription
 * page, and once the NAS (radclient, FreeRADIUS' own client) reports accounting with Gigawords to the portal's
 * RADIUS server, their usage page shows the numbers and the open session.
 */
import { describe, expect, it } from 'vitest';
import { portalApi, toastsGone, usePortal } from '../helpers/browser';
import { ensureRadclient, radclient } from '../helpers/radclient';

const ACCT_PORT = 20000 + Math.floor(Math.random() * 20000);
const AUTH_PORT = ACCT_PORT + 1;
const SECRET = 'e2e-radius-secret';
const portal = usePortal({
  RADIUS_ENABLED: 'true',
  RADIUS_HOST: '127.0.0.1',
  RADIUS_AUTH_PORT: String(AUTH_PORT),
  RADIUS_ACCT_PORT: String(ACCT_PORT),
});

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

const { api, tokenOf } = portalApi(portal);

describe('installation to first byte', () => {
  it('a technician completes the installation; the customer sees their PPPoE login and, after accounting, their usage', async () => {
    ensureRadclient();
    const admin = await tokenOf('admin@isp.local');
    const customer = await tokenOf('customer@isp.local');
    const plan = await api<{ id: string }>('POST', '/plans', admin, {
      name: 'E2E Capped 100',
      download_mbps: 50,
      upload_mbps: 10,
      price: 3000,
      setup_fee: 0,
      billing_cycle: 'monthly',
      data_cap_gb: 100,
    });
    const { subscription } = await api<{ subscription: { id: string } }>('POST', '/subscriptions', customer, {
      plan_id: plan.id,
      location: '7 Meadow Road, flat 2',
    });
    const jobs = await api<{ items: Array<{ id: string; number: string; subscription_id: string }> }>(
      'GET',
      '/installations?search=Meadow',
      admin,
    );
    const job = jobs.items.find((i) => i.subscription_id === subscription.id)!;
    expect(job).toBeTruthy();
    const techs = await api<{ items: Array<{ id: string; email: string }> }>('GET', '/users?role=technician', admin);
    const tech = techs.items.find((u) => u.email === 'technician@isp.local')!;
    const start = new Date();
    start.setMinutes(0, 0, 0);
    await api('PATCH', `/installations/${job.id}/assign`, admin, {
      technician_id: tech.id,
      scheduled_start: start.toISOString(),
      scheduled_end: new Date(start.getTime() + 2 * 3600_000).toISOString(),
    });

    // The technician's day.
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await portal.signIn(page, 'technician@isp.local');
    await portal.open(page, `/dashboard/installations`);
    await page.getByText(`${job.number} · Casey Customer`).click();
    await page.waitForURL(`${portal.url}/dashboard/installation/${job.id}`);
    await page.getByTestId('installation-details').getByText('7 Meadow Road, flat 2').waitFor();
    // Each status change asks first (issue 19): the dialog's button confirms it.
    await page.getByTestId('status-actions').getByRole('button', { name: 'On my way' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'On my way' }).click();
    await page.getByTestId('status-actions').getByRole('button', { name: 'Start work' }).waitFor();
    await toastsGone(page);
    await page.getByTestId('status-actions').getByRole('button', { name: 'Start work' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Start work' }).click();
    await page.getByTestId('status-actions').getByRole('button', { name: 'Complete installation' }).waitFor();
    await page.getByRole('checkbox', { name: 'Mount and power the CPE / ONT' }).check();
    await page.getByLabel('Signal (dBm)').fill('-18.5');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved').first().waitFor();
    await page
      .getByTestId('photo-gallery-input')
      .setInputFiles({ name: 'ont.png', mimeType: 'image/png', buffer: PNG });
    await page.getByText('Photos uploaded').waitFor();
    await page.getByTestId('installation-photos').locator('img[alt="ont.png"]').waitFor();
    const completing = page.waitForResponse(
      (r) => r.url().endsWith(`/api/installations/${job.id}/status`) && r.request().method() === 'PATCH',
      { timeout: 90_000 },
    );
    // Should a step below fail first, the page closes under this wait: that is not a second, unhandled error.
    completing.catch(() => undefined);
    await toastsGone(page); // 'Saved' and 'Photos uploaded' lie over the button
    await page.getByTestId('status-actions').getByRole('button', { name: 'Complete installation' }).click();
    // One item of six is ticked: the dialog names the other five; completing without them needs saying so.
    const unticked = page.getByRole('dialog').getByTestId('unticked-items');
    await unticked.getByText('Not ticked yet (5):').waitFor();
    await unticked.getByText('Run and terminate the cable').waitFor();
    await page
      .getByRole('dialog')
      .getByRole('checkbox', { name: /Complete without them/ })
      .check();
    await page.getByRole('dialog').getByRole('button', { name: 'Complete installation' }).click();
    const completed = await completing;
    // On a failure, say what the server answered and logged rather than only that the tag did not change.
    expect(completed.status(), `${await completed.text()}\n${portal.output().slice(-3000)}`).toBe(200);
    await page.locator('.ant-card-head').getByText('Completed').waitFor({ timeout: 60_000 });
    expect(await page.getByRole('button', { name: 'Complete installation' }).count()).toBe(0);
    await page.close();

    // The customer's subscription page: their PPPoE login.
    const access = await api<{ credentials: { username: string; password: string } }>(
      'GET',
      `/subscriptions/${subscription.id}/credentials`,
      customer,
    );
    const mine = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await portal.signIn(mine, 'customer@isp.local');
    await portal.open(mine, `/subscription/${subscription.id}`);
    const card = mine.getByTestId('service-access');
    await card.getByTestId('pppoe-username').getByText(access.credentials.username).waitFor();
    expect(await card.getByText(access.credentials.password).count()).toBe(0);
    await card.getByRole('button', { name: 'Show' }).click();
    await card.getByTestId('pppoe-password').getByText(access.credentials.password).waitFor();

    // The NAS: registered with its RADIUS secret, then reporting a session with Gigaword-sized counters.
    await api('POST', '/devices', admin, {
      name: 'e2e-nas',
      host: '127.0.0.1',
      snmp_community: 'public',
      radius_secret: SECRET,
    });
    const account = (attributes: Record<string, string | number>) =>
      radclient({ port: ACCT_PORT, secret: SECRET, type: 'acct', timeout: 2, retries: 2 }, attributes);
    const base = {
      'User-Name': access.credentials.username,
      'Acct-Session-Id': 'e2e-session-1',
      'Framed-IP-Address': '100.64.0.50',
    };
    expect((await account({ ...base, 'Acct-Status-Type': 'Start' })).code).toBe('Accounting-Response');
    const interim = {
      ...base,
      'Acct-Status-Type': 'Interim-Update',
      'Acct-Session-Time': 300,
      'Acct-Output-Octets': 500_000_000,
      'Acct-Output-Gigawords': 2,
      'Acct-Input-Octets': 0,
      'Acct-Input-Gigawords': 1,
    };
    expect((await account(interim)).code).toBe('Accounting-Response');

    // download 2 × 2^32 + 5×10^8 = 9 089 934 592 B, upload 2^32 = 4 294 967 296 B; 100 GB cap.
    await portal.open(mine, `/dashboard/usage`);
    await mine.getByTestId('usage-remaining').getByText('86.6 GB remaining of 100 GB').waitFor();
    await mine.getByTestId('session-ip').getByText('100.64.0.50').waitFor();
    const cap = mine.getByTestId('usage-cap');
    await cap.getByText('9.09 GB').waitFor();
    await cap.getByText('4.29 GB').waitFor();
    await cap.getByText('13.4 GB').waitFor();
    // The daily chart is drawn (a canvas) and the day's row carries the same numbers.
    await mine.getByTestId('usage-daily').locator('canvas').first().waitFor();
    await mine.getByTestId('usage-daily').getByRole('cell', { name: '9.09 GB' }).waitFor();
    await mine.close();
  });
});
