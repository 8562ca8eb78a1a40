/**
 * The suspended customer pays without signing in (issue 38), in real Chromium: their PPPoE login (radclient, the
 * NAS) is accepted into the walled-garden pool and its Accounting-Start reports the address the browser connects
 * from (127.0.0.1); any web page they open is redirected by the NAS to /suspended, which finds them through that
 * session, says why and offers to pay. They pay on the sandbox's hosted checkout; within 60 s the NAS (a UDP
 * listener speaking RFC 5176) gets the Disconnect-Request for the walled-garden session, and the next
 * Access-Request is accepted at the plan's rate, outside the walled-garden pool. The page passes axe-core at 390 px,
 * light and dark, and is right to left in Arabic.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, overflowsViewport } from '../helpers/axe';
import { portalApi, usePortal } from '../helpers/browser';
import { ensureRadclient, radclient } from '../helpers/radclient';
import { TestNas } from '../helpers/test-nas';

const ACCT_PORT = 20000 + Math.floor(Math.random() * 20000);
const AUTH_PORT = ACCT_PORT + 1;
const SECRET = 'e2e-suspended-secret';
const nas = new TestNas(SECRET);
beforeAll(async () => {
  ensureRadclient();
  await nas.start();
});
const portal = usePortal(() => ({
  RADIUS_ENABLED: 'true',
  RADIUS_HOST: '127.0.0.1',
  RADIUS_AUTH_PORT: String(AUTH_PORT),
  RADIUS_ACCT_PORT: String(ACCT_PORT),
  RADIUS_COA_PORT: String(nas.port),
  RADIUS_WALLED_GARDEN_POOL: 'walled-garden',
}));
const { api, tokenOf } = portalApi(portal);

describe('a suspended customer', () => {
  it('finds the page from the walled garden, pays in the browser, and the next login gets the plan', async () => {
    const admin = await tokenOf('admin@isp.local');
    // Each attempt its own customer (a retried test starts over).
    const tag = Math.random().toString(36).slice(2, 8);
    const plan = await api<{ id: string }>('POST', '/plans', admin, {
      name: `E2E Fiber 40 ${tag}`,
      download_mbps: 40,
      upload_mbps: 8,
      price: 2500,
      setup_fee: 0,
      billing_cycle: 'monthly',
    });
    const user = await api<{ id: string }>('POST', '/users', admin, {
      name: 'Samir Okafor',
      email: `samir.${tag}@example.com`,
      password: 'Long-enough-pass-1',
    });
    const { subscription, invoice } = await api<{
      subscription: { id: string };
      invoice: { id: string; total_amount: number };
    }>('POST', '/subscriptions', admin, { plan_id: plan.id, user_id: user.id, location: `3 Harbour Lane ${tag}` });
    // Installed (the PPPoE login is made) and the first month paid at the counter: active.
    const jobs = await api<{ items: Array<{ id: string; subscription_id: string }> }>(
      'GET',
      `/installations?search=${tag}`,
      admin,
    );
    const job = jobs.items.find((i) => i.subscription_id === subscription.id)!;
    const techs = await api<{ items: Array<{ id: string; email: string }> }>('GET', '/users?role=technician', admin);
    const start = new Date();
    await api('PATCH', `/installations/${job.id}/assign`, admin, {
      technician_id: techs.items.find((u) => u.email === 'technician@isp.local')!.id,
      scheduled_start: start.toISOString(),
      scheduled_end: new Date(start.getTime() + 3600_000).toISOString(),
    });
    await api('PATCH', `/installations/${job.id}/status`, admin, { status: 'in_progress' });
    await api('PATCH', `/installations/${job.id}/status`, admin, { status: 'completed', confirm_unticked: true });
    await api('POST', `/payments/invoices/${invoice.id}/manual`, admin, {
      amount: invoice.total_amount,
      payment_method: 'cash',
      reference: 'counter receipt 1',
    });
    const { credentials } = await api<{ credentials: { username: string; password: string } }>(
      'GET',
      `/subscriptions/${subscription.id}/credentials`,
      admin,
    );
    // The next month is billed and not paid: suspended.
    const renewal = await api<{ invoice: { number: string } }>(
      'PATCH',
      `/subscriptions/${subscription.id}/renew`,
      admin,
    );
    await api('PATCH', `/subscriptions/${subscription.id}/status`, admin, {
      status: 'suspended',
      suspension_reason: 'Overdue invoice',
    });
    // The NAS (once: a retried attempt finds it registered).
    const nasDevices = await api<{ items: Array<{ host: string }> }>('GET', '/devices', admin);
    if (!nasDevices.items.some((d) => d.host === '127.0.0.1'))
      await api('POST', '/devices', admin, {
        name: 'e2e-bng',
        vendor: 'mikrotik',
        host: '127.0.0.1',
        snmp_community: 'public',
        radius_secret: SECRET,
      });

    const login = () =>
      radclient(
        { port: AUTH_PORT, secret: SECRET, type: 'auth', timeout: 2, retries: 2 },
        { 'User-Name': credentials.username, 'User-Password': credentials.password },
      );
    const account = (attributes: Record<string, string | number>) =>
      radclient({ port: ACCT_PORT, secret: SECRET, type: 'acct', timeout: 2, retries: 2 }, attributes);
    const garden = await login();
    expect(garden.code, garden.output).toBe('Access-Accept');
    expect(garden.attributes['Framed-Pool']).toBe('walled-garden');
    // The walled-garden address is the one the browser below connects from.
    const session = {
      'User-Name': credentials.username,
      'Acct-Session-Id': `e2e-garden-${tag}`,
      'Framed-IP-Address': '127.0.0.1',
    };
    expect((await account({ ...session, 'Acct-Status-Type': 'Start' })).code).toBe('Accounting-Response');

    const page = await portal.browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${portal.url}/suspended`);
    await page.waitForURL(/\/suspended\/[0-9a-f]{32}\./);
    await page.getByRole('heading', { name: 'Your internet service is suspended' }).waitFor();
    await page.getByText('Hello Samir,').waitFor();
    await page.getByTestId('suspended-lead').getByText(renewal.invoice.number, { exact: false }).waitFor();
    expect(await page.getByText('Okafor').count()).toBe(0);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      expect(await axeViolations(page), colorScheme).toEqual([]);
      expect(await overflowsViewport(page)).toBe(false);
    }
    // In a browser that asks for Arabic: right to left, still readable at 390 px.
    const arabic = await portal.browser.newPage({ locale: 'ar', viewport: { width: 390, height: 844 } });
    await arabic.goto(page.url());
    await arabic.getByRole('heading', { name: 'خدمة الإنترنت لديك موقوفة' }).waitFor();
    expect(await arabic.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await axeViolations(arabic)).toEqual([]);
    expect(await overflowsViewport(arabic)).toBe(false);
    await arabic.close();
    nas.received.length = 0;
    await page.getByRole('button', { name: /^Pay .* now$/ }).click();
    await page.waitForURL(/\/api\/payments\/sandbox\/checkout\//);
    const paidAt = Date.now();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(/\/invoice\/.*payment=paid/);

    // Within 60 s of the payment the NAS is told to end the walled-garden session.
    while (!nas.received.some((r) => r.code === 'Disconnect-Request')) {
      expect(Date.now() - paidAt, portal.output().slice(-2000)).toBeLessThan(60_000);
      await new Promise((r) => setTimeout(r, 200));
    }
    const disconnect = nas.received.find((r) => r.code === 'Disconnect-Request')!;
    expect(disconnect.attributes['Acct-Session-Id']).toBe(`e2e-garden-${tag}`);
    expect((await account({ ...session, 'Acct-Status-Type': 'Stop', 'Acct-Session-Time': 60 })).code).toBe(
      'Accounting-Response',
    );
    const back = await login();
    expect(back.code, back.output).toBe('Access-Accept');
    expect(back.attributes['Mikrotik-Rate-Limit']).toBe('8M/40M');
    expect(back.attributes['Framed-Pool']).toBeUndefined();
    await page.close();
  });
});
