/**
 * Fair use on the customer's home (issue 36), in Chromium at 390×844 with touch: a customer on a plan with a
 * fair-use tier sees the speed they have now and what happens after how much ("After 500 GB: 10/2 Mbit/s"), with
 * the ISP's top-ups as buttons inside the screen; buying one opens its invoice with the package's price, and the
 * home (axe) stays clean.
 */
import { describe, expect, it } from 'vitest';
import { axeViolations, overflowsViewport } from '../helpers/axe';
import { portalApi, usePortal } from '../helpers/browser';

const portal = usePortal();
const { api, tokenOf } = portalApi(portal);
const PHONE = { width: 390, height: 844 };
const PASSWORD = 'a-long-passphrase';

describe('fair use on the customer home', () => {
  it('shows the rate now and the next tier, and a top-up bought from the home opens its invoice', async () => {
    const admin = await tokenOf('admin@isp.local');
    const stamp = Date.now();
    const plan = await api<{ id: string }>('POST', '/plans', admin, {
      name: `Fair ${stamp}`,
      price: 4500,
      download_mbps: 100,
      upload_mbps: 20,
      billing_cycle: 'monthly',
      usage_tiers: [{ after_gb: 500, download_kbps: 10_000, upload_kbps: 2_000 }],
    });
    await api('POST', '/top-up-packages', admin, { name: `Full speed ${stamp}`, kind: 'full_speed', price: 750 });
    const email = `fair.${stamp}@example.net`;
    await api('POST', '/users', admin, { name: 'Farah Fair', email, password: PASSWORD, role: 'user' });
    const token = (
      await api<{ tokens: { access: { token: string } } }>('POST', '/auth/login', undefined, {
        email,
        password: PASSWORD,
        rememberMe: false,
      })
    ).tokens.access.token;
    const line = await api<{ invoice: { id: string; amount_due: number } }>('POST', '/subscriptions', token, {
      plan_id: plan.id,
    });
    await api('POST', `/payments/invoices/${line.invoice.id}/manual`, admin, {
      amount: line.invoice.amount_due,
      payment_method: 'cash',
      reference: 'E2E-FAIR',
    });

    const context = await portal.browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    try {
      await portal.signIn(page, email, PASSWORD);
      const fair = page.getByTestId('home-fair-use');
      await fair.waitFor();
      const text = await fair.innerText();
      expect(text).toContain('Full speed (100/20 Mbit/s)');
      expect(text).toContain('After 500 GB: 10/2 Mbit/s');
      const buy = fair.getByRole('button', { name: /Full speed to cycle end for \$7\.50/ });
      await buy.scrollIntoViewIfNeeded();
      const box = await buy.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width, 'the top-up button is within the screen').toBe(
        true,
      );
      expect(await overflowsViewport(page), 'the home scrolls sideways at 390 px').toBe(false);
      expect(await axeViolations(page)).toEqual([]);

      await buy.tap();
      await page.waitForURL(/\/invoice\//);
      await expect.poll(() => page.locator('main').innerText()).toContain('$7.50');
    } finally {
      await context.close();
    }
  });
});
