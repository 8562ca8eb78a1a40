/**
 * Issue 21 in a real browser. The portal's APP_URL is http://localhost:PORT while the customer uses
 * http://127.0.0.1:PORT (listed in ALLOWED_ORIGINS): subscribe → Pay now → Approve must land on the invoice page of
 * the origin the customer paid from, still signed in (localhost and 127.0.0.1 are two sites: on the other one the
 * refresh cookie is not sent). Then a production portal with ALLOW_SANDBOX_PAYMENTS=true shows the red banner on
 * staff pages (at 390 px too, passing axe), and the first portal (not production) shows none.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { runCli } from '../helpers/cli';
import { DEMO_PASSWORD, portalApi, usePortal } from '../helpers/browser';
import { axeViolations, overflowsViewport } from '../helpers/axe';

const portal = usePortal((port) => ({
  APP_URL: `http://localhost:${port}`,
  ALLOWED_ORIGINS: `http://127.0.0.1:${port}`,
}));

const ADMIN_EMAIL = 'owner@example.com';
const ADMIN_PASSWORD = 'Owner-passphrase-2026';
const PRODUCTION = {
  NODE_ENV: 'production',
  ALLOW_SANDBOX_PAYMENTS: 'true',
  RADIUS_ENABLED: 'false',
  DEVICE_POLLER: 'false',
  BILLING_SCHEDULER: 'false',
  BACKUP_SCHEDULER: 'false',
};
// A production start seeds nothing: its first administrator is made with `npm run admin:create`, as docs/operations.md ("Going live") says.
const production = usePortal(
  (port) => ({ ...PRODUCTION, APP_URL: `http://127.0.0.1:${port}` }),
  async (dataDir, port) => {
    const made = await runCli('admin-create', ['--email', ADMIN_EMAIL, '--name', 'Olga Owner', '--role', 'admin'], {
      ...PRODUCTION,
      APP_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_PASSWORD,
    });
    if (made.code !== 0) throw new Error(`admin:create failed: ${made.err}${made.out}`);
  },
);

const banner = (page: Page) => page.getByTestId('sandbox-payments-banner');

describe('coming back from a checkout', () => {
  it('a customer on http://127.0.0.1 (APP_URL http://localhost) pays through the sandbox and lands on 127.0.0.1’s invoice page, still signed in', async () => {
    const { api, tokenOf } = portalApi(portal);
    const email = `origin.${Date.now()}@example.net`;
    await api('POST', '/users', await tokenOf('admin@isp.local'), {
      name: 'Otto Origin',
      email,
      password: DEMO_PASSWORD,
      role: 'user',
      phone: '+1 555 0177',
      address: '3 Harbour Lane',
    });
    expect(portal.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const context = await portal.browser.newContext();
    const page = await context.newPage();
    await portal.signIn(page, email);

    await portal.open(page, '/dashboard/subscriptions');
    await page.getByRole('button', { name: 'Subscribe to a plan' }).first().click();
    await page.getByRole('radio', { name: 'Home 100' }).click();
    await page.getByLabel('Location').fill('3 Harbour Lane');
    await page.getByRole('dialog').getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL(/\/invoice\/[0-9a-f-]{36}$/);
    const invoiceId = page.url().split('/').pop()!;
    expect(await page.getByTestId('invoice-status').innerText()).toBe('Unpaid');

    await page.getByRole('button', { name: 'Pay now' }).click();
    // The sandbox's checkout page is on the customer's origin too, not APP_URL's localhost.
    await page.waitForURL(/\/api\/payments\/sandbox\/checkout\//);
    expect(new URL(page.url()).origin).toBe(portal.url);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(`${portal.url}/invoice/${invoiceId}?payment=paid`);
    await page.getByText('Payment received. Thank you!').waitFor();
    await page.getByTestId('invoice-status').getByText('Paid').waitFor();
    // Signed in: the page offers "My account" (a visitor sees "Home"), and it opens the dashboard, not the login.
    await page.getByRole('link', { name: 'My account' }).click();
    await page.waitForURL(`${portal.url}/dashboard`);
    await page.getByTestId('current-user').first().waitFor();
    await context.close();
  });

  it('outside production no sandbox banner is shown to staff', async () => {
    const context = await portal.browser.newContext();
    const page = await context.newPage();
    // The staff layout asks the server whether to warn; the answer is in before the banner is looked for.
    const notices = page.waitForResponse((r) => r.url().endsWith('/api/system/notices'));
    await portal.signIn(page, 'admin@isp.local');
    expect((await (await notices).json()).data).toEqual({ sandbox_payments_allowed: false });
    await portal.open(page, '/dashboard/billing/payment-gateways');
    await page.getByText('Sandbox').first().waitFor();
    expect(await banner(page).count()).toBe(0);
    await context.close();
  });
});

describe('ALLOW_SANDBOX_PAYMENTS=true in production', () => {
  it('every staff page shows a red banner naming the setting; it fits a 390 px screen and passes axe', async () => {
    const context = await production.browser.newContext();
    const page = await context.newPage();
    await production.signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await banner(page).waitFor();
    for (const path of ['/dashboard/billing/payment-gateways', '/dashboard/users']) {
      await production.open(page, path);
      await banner(page).waitFor();
      const text = await banner(page).innerText();
      expect(text).toContain('ALLOW_SANDBOX_PAYMENTS');
      expect(text).toMatch(/anyone holding a sandbox checkout link can approve a payment/i);
      expect(await banner(page).evaluate((el) => el.classList.contains('ant-alert-error'))).toBe(true);
    }
    await context.close();

    const phone = await production.browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const small = await phone.newPage();
    await production.signIn(small, ADMIN_EMAIL, ADMIN_PASSWORD);
    await banner(small).waitFor();
    expect(await overflowsViewport(small)).toBe(false);
    expect(await axeViolations(small), 'axe on the dashboard with the banner at 390 px').toEqual([]);
    expect(await axeViolations(small, '[data-testid="sandbox-payments-banner"]')).toEqual([]);
    await phone.close();
  });
});
