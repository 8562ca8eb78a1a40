/**
 * The customer's home (issue 34) on the real portal in Chromium at 390×844 with touch: a customer with an order
 * waiting for payment, a running line and its unpaid renewal sees all three on /dashboard without scrolling
 * sideways, every control inside the screen, axe finds nothing, and the bill's Pay leads to the payment of that
 * invoice. The same home at 1366 px. Saves the phone screenshot the README shows (docs/customer-home-phone.png).
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, overflowsViewport } from '../helpers/axe';
import { portalApi, usePortal } from '../helpers/browser';

const portal = usePortal();
const { api, tokenOf } = portalApi(portal);
const PHONE = { width: 390, height: 844 };
const PASSWORD = 'a-long-passphrase';
const SCREENSHOT = join(dirname(new URL(import.meta.url).pathname), '..', '..', 'docs', 'customer-home-phone.png');

interface Plan {
  id: string;
  name: string;
}
interface Created {
  subscription: { id: string };
  invoice: { id: string; number: string; amount_due: number };
}

/** A customer with a line running on Home 100 (first invoice paid at the desk), its renewal unpaid, and an order for Pro 300. */
async function customerWithOrderLineAndBill() {
  const admin = await tokenOf('admin@isp.local');
  const email = `home.${Date.now()}@example.net`;
  await api('POST', '/users', admin, { name: 'Hana Home', email, password: PASSWORD, role: 'user' });
  const token = (
    await api<{ tokens: { access: { token: string } } }>('POST', '/auth/login', undefined, {
      email,
      password: PASSWORD,
      rememberMe: false,
    })
  ).tokens.access.token;
  const listed = await api<Plan[] | { items: Plan[] }>('GET', '/plans?status=active', admin);
  const plans = Array.isArray(listed) ? listed : listed.items;
  const plan = (name: string) => plans.find((p) => p.name === name)!.id;

  const line = await api<Created>('POST', '/subscriptions', token, { plan_id: plan('Home 100') });
  await api('POST', `/payments/invoices/${line.invoice.id}/manual`, admin, {
    amount: line.invoice.amount_due,
    payment_method: 'cash',
    reference: 'E2E-HOME',
  });
  const renewal = (
    await api<{ invoice: Created['invoice'] }>('PATCH', `/subscriptions/${line.subscription.id}/renew`, token)
  ).invoice;
  const order = await api<Created>('POST', '/subscriptions', token, { plan_id: plan('Pro 300') });
  return { email, renewal, order };
}

/** Every button and link of the page's content lies within the screen's width. */
async function controlsOutsideWidth(page: Page, width: number): Promise<string[]> {
  return page.locator('main').evaluate((main, w) => {
    const out: string[] = [];
    for (const el of main.querySelectorAll('a, button, [role="button"], [role="progressbar"]')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < 0 || r.right > w + 0.5)
        out.push(
          `${(el.textContent ?? '').trim() || el.outerHTML.slice(0, 60)} (${Math.round(r.left)}–${Math.round(r.right)})`,
        );
    }
    return out;
  }, width);
}

describe('the customer home', () => {
  it('at 390 px: the order, the line and the unpaid bill, all on the screen; Pay goes to the payment', async () => {
    const { email, renewal, order } = await customerWithOrderLineAndBill();
    const context = await portal.browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    try {
      await portal.signIn(page, email, PASSWORD);
      await page.getByTestId('customer-home').waitFor();
      expect(await page.getByRole('heading', { level: 1 }).allInnerTexts()).toEqual(['Welcome, Hana Home']);

      // First: the order and its next step.
      const orderCard = page.getByTestId('home-order');
      await orderCard.getByText('Your order for Pro 300 is waiting for payment').waitFor();
      expect(await orderCard.innerText()).toContain(`Invoice ${order.invoice.number}`);
      const box = await orderCard.boundingBox();
      expect(box && box.y + box.height <= PHONE.height, 'the order is on the first screen').toBe(true);

      // The line and the bill.
      const service = page.getByTestId('home-service');
      await service.getByText('Home 100').waitFor();
      expect(await service.innerText()).toContain('Active');
      expect(await service.innerText()).toContain('Not connected yet');
      const bill = page.getByTestId('home-bill');
      expect(await bill.innerText()).toContain(`Invoice ${renewal.number}`);
      expect(await page.getByTestId('home-bill-amount').innerText()).toBe('$39.99');

      // Pay comes right after the figures (its own chunk): a loading button until then.
      await expect.poll(() => page.locator('[data-testid="customer-home"] button.ant-btn-loading').count()).toBe(0);
      expect(await overflowsViewport(page), 'the home scrolls sideways at 390 px').toBe(false);
      expect(await controlsOutsideWidth(page, PHONE.width)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);

      mkdirSync(dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });

      // Pay the renewal: the payment's checkout for that invoice and amount.
      const pay = bill.getByRole('button', { name: 'Pay now' });
      await pay.scrollIntoViewIfNeeded();
      await pay.tap();
      await page.waitForURL(/\/api\/payments\/sandbox\/checkout\//);
      const checkout = await page.locator('body').innerText();
      expect(checkout).toContain('$39.99');
      expect(checkout).toContain(renewal.number);
    } finally {
      await context.close();
    }
  });

  it('at 1366 px: the same home, one h1, axe clean, nothing sideways', async () => {
    const { email } = await customerWithOrderLineAndBill();
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 800 } });
    try {
      await portal.signIn(page, email, PASSWORD);
      await page.getByTestId('home-order').waitFor();
      await page.getByTestId('home-bill').getByRole('button', { name: 'Pay now' }).waitFor();
      await expect.poll(() => page.locator('[data-testid="customer-home"] button.ant-btn-loading').count()).toBe(0);
      expect(await page.locator('h1').count()).toBe(1);
      expect(await overflowsViewport(page)).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
