/**
 * Staff screens that prevent mistakes (issue 34), in real Chromium against the built portal: switching off the
 * default payment gateway asks first, naming it, and Cancel leaves it on; a plan's switch asks before it stops
 * selling the plan; a technician's checklist tick is saved as it is ticked, so it survives a reload; a click on
 * an invoice's row opens the invoice.
 */
import { describe, expect, it } from 'vitest';
import { portalApi, usePortal } from '../helpers/browser';

const portal = usePortal();
const { api, tokenOf } = portalApi(portal);

describe('staff safeguards', () => {
  it('the default gateway’s switch asks first, naming it; Cancel leaves it on; a plan’s switch asks too', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await portal.signIn(page, 'admin@isp.local');
    await portal.open(page, '/dashboard/billing/payment-gateways');
    const sandbox = page.locator('tr', { hasText: 'Sandbox' }).first();
    await sandbox.locator('.ant-switch[aria-checked="true"]').waitFor();
    await sandbox.locator('.ant-switch').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Turn off Sandbox?').waitFor();
    // The only active gateway: nothing to switch to, so the dialog says what to do instead.
    await dialog
      .getByText(
        'Sandbox is the only active gateway: without it no customer can pay. Add or turn on another gateway first.',
      )
      .waitFor();
    await dialog.getByRole('button', { name: 'Keep it on' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await sandbox.locator('.ant-switch[aria-checked="true"]').waitFor();
    const admin = await tokenOf('admin@isp.local');
    const gateways = await api<Array<{ name: string; is_active: boolean; is_default: boolean }>>(
      'GET',
      '/payments/gateways',
      admin,
    );
    expect(gateways.find((g) => g.name === 'Sandbox')).toMatchObject({ is_active: true, is_default: true });

    await api('POST', '/plans', admin, {
      name: 'Guarded Plan',
      download_mbps: 50,
      upload_mbps: 10,
      price: 2500,
      billing_cycle: 'monthly',
    });
    await portal.open(page, '/dashboard/plans');
    const row = page.locator('tr', { hasText: 'Guarded Plan' });
    await row.waitFor();
    await row.locator('.ant-switch').click();
    await dialog.getByText('Stop selling Guarded Plan?').waitFor();
    await dialog.getByText('Existing subscribers keep it', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row.locator('.ant-switch[aria-checked="true"]').waitFor();
    // The click on the switch did not open the plan.
    expect(new URL(page.url()).pathname).toBe('/dashboard/plans');
    await page.close();
  });

  it('a technician’s checklist tick is saved at once and survives a reload', async () => {
    const admin = await tokenOf('admin@isp.local');
    const customer = await tokenOf('customer@isp.local');
    // The customer's order with a location makes the job (a retry finds the job its first attempt made).
    const jobs = async () =>
      (
        await api<{ items: Array<{ id: string; status: string }> }>(
          'GET',
          '/installations?search=Checklist%20Lane',
          admin,
        )
      ).items;
    if ((await jobs()).length === 0) {
      const plan = await api<{ id: string }>('POST', '/plans', admin, {
        name: 'Safeguard Fiber',
        download_mbps: 50,
        upload_mbps: 10,
        price: 3000,
        billing_cycle: 'monthly',
      });
      await api('POST', '/subscriptions', customer, { plan_id: plan.id, location: '3 Checklist Lane' });
    }
    const job = (await jobs())[0];
    expect(job).toBeTruthy();
    const tech = (
      await api<{ items: Array<{ id: string; email: string }> }>('GET', '/users?role=technician', admin)
    ).items.find((u) => u.email === 'technician@isp.local')!;
    const start = new Date();
    start.setMinutes(0, 0, 0);
    await api('PATCH', `/installations/${job.id}/assign`, admin, {
      technician_id: tech.id,
      scheduled_start: start.toISOString(),
      scheduled_end: new Date(start.getTime() + 7_200_000).toISOString(),
    });

    const page = await portal.browser.newPage({ viewport: { width: 390, height: 844 } });
    await portal.signIn(page, 'technician@isp.local');
    await portal.open(page, `/dashboard/installation/${job.id}`);
    const item = page.getByRole('checkbox', { name: 'Survey the site and the cable route' });
    await item.waitFor();
    expect(await item.isChecked()).toBe(false);
    const saved = page.waitForResponse(
      (r) => r.url().endsWith(`/api/installations/${job.id}`) && r.request().method() === 'PATCH',
    );
    await item.check();
    expect((await saved).status()).toBe(200);
    // No Save pressed: a reload shows it ticked.
    await page.reload();
    await page.getByRole('checkbox', { name: 'Survey the site and the cable route' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Survey the site and the cable route' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Run and terminate the cable' }).isChecked()).toBe(false);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.close();
  });

  it('a click on an invoice’s row opens the invoice', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await portal.signIn(page, 'admin@isp.local');
    const admin = await tokenOf('admin@isp.local');
    // The order placed above made its first invoice (the minimal demo has none of its own).
    const first = (
      await api<{ items: Array<{ id: string; number: string }> }>('GET', '/payments/invoices?limit=5', admin)
    ).items[0];
    expect(first).toBeTruthy();
    await portal.open(page, '/dashboard/billing/invoices');
    const row = page.locator('tr', { hasText: first.number }).first();
    await row.waitFor();
    // A cell that is no link or button: the row itself opens the invoice.
    await row.getByText(first.number).click();
    await page.waitForURL(`${portal.url}/dashboard/billing/invoices/show/${first.id}`);
    await page.getByText(first.number).first().waitFor();
    await page.close();
  });
});
