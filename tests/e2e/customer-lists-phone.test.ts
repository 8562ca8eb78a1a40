/**
 * The customer's lists on a phone (issue 34), in real Chromium at 390×844 with touch. A new customer's order waiting
 * for payment shows as that order (plan, amount, due date, Pay) with no "Subscribe" and no "You have no active
 * plan"; their invoices are cards with amount, due date and a Pay now inside the screen. Once paid and a second
 * line ordered, the subscriptions are cards whose every action lies inside the viewport, and Cancel names the plan
 * it cancels. On Usage the customer switches between the two lines; an admin opening Usage gets the customers'
 * overview and that customer's lines, not "No subscription yet". No screen scrolls sideways; axe finds nothing.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, overflowsViewport } from '../helpers/axe';
import { portalApi, toastsGone, usePortal } from '../helpers/browser';
import { formatDay } from '../../src/components/dates';
import { expectOnScreen, PHONE } from '../helpers/on-screen';

const portal = usePortal();
const { api, tokenOf } = portalApi(portal);
const PASSWORD = 'a-long-passphrase';

async function expectClean(page: Page, what: string) {
  expect(await overflowsViewport(page), `${what} scrolls sideways at 390 px`).toBe(false);
  await toastsGone(page);
  const violations = await axeViolations(page);
  expect(violations, `axe on ${what}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
}

type Plan = { id: string; name: string };
type Order = {
  subscription: { id: string };
  invoice: { id: string; number: string; amount_due: number; due_date: string };
};

describe('the customer’s lists on a phone', () => {
  it('a waiting order, invoices and lines as cards with their actions on screen, a cancel that names the plan, and usage per line', async () => {
    const admin = await tokenOf('admin@isp.local');
    const billing = await tokenOf('billing@isp.local');
    const email = `lines.${Date.now()}@example.net`;
    await api('POST', '/users', admin, {
      name: 'Lena Lines',
      email,
      password: PASSWORD,
      role: 'user',
      phone: '+1 555 0142',
      address: '3 Quay Street',
    });
    const customer = (
      await api<{ tokens: { access: { token: string } } }>('POST', '/auth/login', undefined, {
        email,
        password: PASSWORD,
        rememberMe: false,
      })
    ).tokens.access.token;
    const listed = await api<Plan[] | { items: Plan[] }>('GET', '/plans', customer);
    const plans = Array.isArray(listed) ? listed : listed.items;
    const first = plans.find((p) => p.name === 'Basic 25') ?? plans[0]!;
    const second =
      plans.find((p) => p.name === 'Home 100' && p.id !== first.id) ?? plans.find((p) => p.id !== first.id)!;
    const order = await api<Order>('POST', '/subscriptions', customer, {
      plan_id: first.id,
      location: '3 Quay Street',
    });

    const context = await portal.browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    try {
      await portal.signIn(page, email, PASSWORD);

      // The waiting order is what the customer has: its plan, amount and due date, Pay at hand, nothing to subscribe.
      await portal.open(page, '/dashboard/subscriptions');
      const waiting = page.getByTestId('pending-order');
      await waiting.getByRole('heading', { name: first.name }).waitFor();
      await waiting
        .getByText(formatDay(order.invoice.due_date.slice(0, 10), 'en-US'))
        .first()
        .waitFor();
      const pay = waiting.getByRole('link', { name: /^Pay \$/ });
      await expectOnScreen(pay, 'the waiting order’s Pay', { scroll: true });
      expect(await pay.getAttribute('href')).toContain(order.invoice.id);
      expect(await page.getByText('You have no active plan').count()).toBe(0);
      expect(await page.getByRole('button', { name: /Subscribe/ }).count()).toBe(0);
      await expectClean(page, 'Subscriptions with a waiting order');

      // Invoices: a card with the amount, the due date and a Pay now inside the screen.
      await page.getByRole('tab', { name: 'Invoices' }).tap();
      const invoiceCard = page.getByTestId('invoice-card').filter({ hasText: order.invoice.number });
      await invoiceCard
        .getByText(formatDay(order.invoice.due_date.slice(0, 10), 'en-US'))
        .first()
        .waitFor();
      expect(await invoiceCard.innerText()).toMatch(/Total\s*\$\d+\.\d{2}/);
      await expectOnScreen(invoiceCard.getByRole('button', { name: 'Pay now' }), 'the invoice card’s Pay now', {
        scroll: true,
      });
      await expectClean(page, 'the invoices as cards');

      // Billing records the payment (the line becomes active); the customer orders a second line.
      await api('POST', `/payments/invoices/${order.invoice.id}/manual`, billing, {
        amount: order.invoice.amount_due,
        payment_method: 'cash',
        reference: 'Desk 1',
      });
      const secondOrder = await api<Order>('POST', '/subscriptions', customer, {
        plan_id: second.id,
        location: '3 Quay Street, shop',
      });

      await page.reload();
      const list = page.getByTestId('my-subscriptions');
      const activeCard = list
        .getByTestId('subscription-card')
        .filter({ has: page.getByRole('link', { name: first.name, exact: true }) });
      await activeCard.getByText('Active').waitFor();
      expect(await list.getByTestId('subscription-card').count()).toBe(2);
      for (const name of ['Change plan', 'Renew', 'Cancel subscription']) {
        await expectOnScreen(activeCard.getByRole('button', { name }), `${name} on the ${first.name} card`, {
          scroll: true,
        });
      }
      // Scrolled down to its buttons, the card still names its plan.
      await expectOnScreen(
        activeCard.getByRole('link', { name: first.name, exact: true }),
        'the plan name above the card’s buttons',
        { scroll: true },
      );
      await expectClean(page, 'the subscriptions as cards');

      await activeCard.getByRole('button', { name: 'Cancel subscription' }).tap();
      const dialog = page.getByRole('dialog', { name: `Cancel your ${first.name} subscription?` });
      await dialog.waitFor();
      await expectOnScreen(dialog.getByRole('button', { name: 'Keep it' }), 'Keep it', { scroll: true });
      await dialog.getByRole('button', { name: 'Keep it' }).tap();
      await dialog.waitFor({ state: 'hidden' });

      // Usage: the active line first; the picker switches to the other one.
      await portal.open(page, '/dashboard/usage');
      const picker = page.getByRole('combobox', { name: 'Line' });
      await picker.waitFor();
      const shown = page.getByTestId('usage-line');
      await shown.getByTitle(`${first.name} (Active)`).waitFor();
      expect(await overflowsViewport(page), 'Usage scrolls sideways at 390 px').toBe(false);
      // The picker as a thumb opens it: on its shown value (which lies over antd's search input).
      await shown.click();
      await Promise.all([
        page.waitForRequest(
          (r) => r.url().includes('/api/usage?') && r.url().includes(`subscription_id=${secondOrder.subscription.id}`),
        ),
        page.locator('.ant-select-item-option', { hasText: `${second.name} (Pending)` }).click(),
      ]);
      await shown.getByTitle(`${second.name} (Pending)`).waitFor();
      // The list closes with a short animation; the screen is checked once it has gone.
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').waitFor({ state: 'detached' });
      await expectClean(page, 'Usage with two lines');

      // An admin opening Usage gets the customers and this customer's lines, not "No subscription yet".
      const staffContext = await portal.browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
      const staff = await staffContext.newPage();
      await portal.signIn(staff, 'admin@isp.local');
      await portal.open(staff, '/dashboard/usage');
      await staff
        .getByTestId('staff-usage-totals')
        .getByText(/This month, since/)
        .waitFor();
      expect(await staff.getByText(/No subscription yet/).count()).toBe(0);
      await staff.getByRole('searchbox', { name: 'Customer name or e-mail' }).fill(email);
      await staff.getByRole('searchbox', { name: 'Customer name or e-mail' }).press('Enter');
      const row = staff.getByTestId('usage-customer-card').filter({ hasText: email });
      await row.waitFor();
      await expectOnScreen(row.getByRole('button', { name: 'Show usage: Lena Lines' }), 'Show usage', { scroll: true });
      await expectClean(staff, 'the staff usage overview');
      await row.getByRole('button', { name: 'Show usage: Lena Lines' }).tap();
      await staff.getByText('Usage of Lena Lines').waitFor();
      await staff.getByTestId('usage-line').getByTitle(`${first.name} (Active)`).waitFor();
      expect(await overflowsViewport(staff), 'a customer’s usage for staff scrolls sideways at 390 px').toBe(false);
      await staffContext.close();
    } finally {
      await context.close();
    }
  });
});
