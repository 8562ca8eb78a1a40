/**
 * The billing team's payments screen in real Chromium (issue 31): billing opens Billing → Payments and sees every
 * payment (customer, amount, method, gateway, reference, status), filters by status (the filter kept in the address)
 * and sees just the matching rows; the invoice number leads to the invoice. The screen fits 390 px without sideways
 * scroll and passes axe-core at 390 and 1366 px, light and dark (PAYMENT_SHOTS_DIR=<dir> keeps screenshots).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { checkEverywhere } from '../helpers/everywhere';
import { portalApi, usePortal } from '../helpers/browser';

const portal = usePortal();
const SHOTS = process.env.PAYMENT_SHOTS_DIR;

/** The invoices of the payments made below (the data is made once: a retried test finds it as it was). */
let first: { invoice: { id: string; number: string; total_amount: number } };
let second: { invoice: { id: string; number: string } };

beforeAll(async () => {
  const { api, tokenOf } = portalApi(portal);
  const customer = await tokenOf('customer@isp.local');
  const billing = await tokenOf('billing@isp.local');
  const plans = await api<{ items: Array<{ id: string; status: string }> }>('GET', '/plans?limit=5');
  const planId = plans.items.find((p) => p.status === 'active')!.id;

  // The customer's first order: a checkout left open, then cash recorded by billing.
  first = await api<{ invoice: { id: string; number: string; total_amount: number } }>(
    'POST',
    '/subscriptions',
    customer,
    { plan_id: planId },
  );
  await api('POST', '/payments/initiate', customer, { invoice_id: first.invoice.id });
  await api('POST', `/payments/invoices/${first.invoice.id}/manual`, billing, {
    amount: first.invoice.total_amount,
    payment_method: 'cash',
    reference: 'Receipt-E2E-1',
  });
  // A second order whose card is declined on the sandbox's checkout page.
  second = await api<{ invoice: { id: string; number: string } }>('POST', '/subscriptions', customer, {
    plan_id: planId,
  });
  const declined = await api<{ transactionId: string }>('POST', '/payments/initiate', customer, {
    invoice_id: second.invoice.id,
  });
  const decline = await fetch(`${portal.url}/api/payments/sandbox/checkout/${declined.transactionId}/decline`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  });
  expect(decline.status).toBe(303);
});

describe('payments screen', () => {
  it('billing opens Payments, filters by status and sees the right rows', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    try {
      await portal.signIn(page, 'billing@isp.local');
      await page.getByRole('menuitem', { name: 'Billing' }).click();
      await page.getByRole('menuitem', { name: 'Payments' }).click();
      await page.waitForURL(new RegExp(`${portal.url}/dashboard/billing/payments`));
      const table = page.getByTestId('payments-table');
      const rows = table.locator('tbody tr.ant-table-row');
      await expect.poll(() => rows.count()).toBe(3);
      expect(await table.textContent()).toContain('Receipt-E2E-1');
      // Billing does not open users' pages: the customer is named, not linked.
      expect(await table.locator('a[href^="/dashboard/user/"]').count()).toBe(0);
      for (const text of ['Paid', 'Pending', 'Failed', 'Cash', 'Sandbox', first.invoice.number, second.invoice.number])
        expect(await table.textContent()).toContain(text);
      await checkEverywhere(
        page,
        'payments-list',
        (p) => p.getByTestId('payments-table').locator('tbody tr.ant-table-row').first(),
        { shotsDir: SHOTS },
      );

      // Filter by status: the server answers only the paid one, and the address keeps the filter.
      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.locator('.ant-select-dropdown:visible').getByText('Paid', { exact: true }).click();
      await page.waitForURL(/status/);
      expect(decodeURIComponent(page.url())).toContain('[value]=paid');
      await expect.poll(() => rows.count()).toBe(1);
      const paid = rows.first();
      expect(await paid.textContent()).toContain('Receipt-E2E-1');
      expect(await paid.textContent()).toContain('Cash');
      expect(await paid.textContent()).toContain(first.invoice.number);

      // A select showing a value: its box takes the click (the value's text lies over the search input).
      await page
        .locator('.ant-select')
        .filter({ has: page.getByRole('combobox', { name: 'Status' }) })
        .click();
      await page.locator('.ant-select-dropdown:visible').getByText('Failed', { exact: true }).click();
      await expect
        .poll(
          async () =>
            (await rows.count()) === 1 && ((await rows.first().textContent()) ?? '').includes(second.invoice.number),
        )
        .toBe(true);
      expect(await rows.first().textContent()).toContain('Declined by the payer or the provider');

      // The invoice number opens the invoice (where refunds are made).
      await rows.first().getByRole('link', { name: second.invoice.number }).click();
      await page.waitForURL(new RegExp(`/dashboard/billing/invoices/show/${second.invoice.id}`));
    } finally {
      await page.close();
    }
  });

  it('support reads the same list, with each customer linked to their page', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    try {
      await portal.signIn(page, 'support@isp.local');
      await portal.open(page, '/dashboard/billing/payments');
      const rows = page.getByTestId('payments-table').locator('tbody tr.ant-table-row');
      await expect.poll(() => rows.count()).toBe(3);
      const customer = rows.first().locator('a[href^="/dashboard/user/"]');
      await customer.click();
      await page.waitForURL(/\/dashboard\/user\/[0-9a-f-]{36}$/);
    } finally {
      await page.close();
    }
  });
});
