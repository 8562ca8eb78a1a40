/**
 * The credit ledger in real Chromium on a 390 px phone (issue 21): an admin adds credit to the demo customer
 * with "Adjust credit" on the customer's page (amount and reason), and the customer finds the balance and the
 * entry in the My credit card of Subscriptions. Both screens fit the phone and pass axe-core.
 */
import { describe, expect, it } from 'vitest';
import { portalApi, toastsGone, usePortal } from '../helpers/browser';
import { axeViolations, overflowsViewport } from '../helpers/axe';

const portal = usePortal();
const PHONE = { width: 390, height: 844 };
const { api, tokenOf } = portalApi(portal);

describe('customer credit', () => {
  it('an admin adjusts the credit with a reason; the customer sees the balance and its history', async () => {
    const admin = await tokenOf('admin@isp.local');
    const customer = (await api<{ items: Array<{ id: string }> }>('GET', '/users?search=customer%40isp.local', admin))
      .items[0];
    const before =
      (
        await api<{ balances: Array<{ currency: string; amount: number }> }>(
          'GET',
          `/users/${customer.id}/credit`,
          admin,
        )
      ).balances.find((b) => b.currency === 'USD')?.amount ?? 0;
    const after = before + 1250;
    const shown = `$${(after / 100).toFixed(2)}`;

    const page = await portal.browser.newPage({ viewport: PHONE });
    try {
      await portal.signIn(page, 'admin@isp.local');
      await portal.open(page, `/dashboard/user/${customer.id}`);
      const panel = page.getByTestId('credit-panel');
      await panel.waitFor();
      const form = panel.getByTestId('adjust-credit');
      await form.getByLabel('Amount (USD)').fill('12.50');
      await form.getByLabel('Reason').fill('Goodwill for the outage');
      await form.getByRole('button', { name: 'Adjust credit' }).click();
      await page.getByText('Credit adjusted').first().waitFor();
      await panel.getByTestId('credit-balance').getByText(shown).waitFor();
      await panel.getByText('Goodwill for the outage').first().waitFor();
      await toastsGone(page);
      expect(await overflowsViewport(page), 'the user page scrolls sideways at 390 px').toBe(false);
      expect(await axeViolations(page, '[data-testid="credit-panel"]'), 'axe on the staff credit panel').toEqual([]);
    } finally {
      await page.close();
    }

    const mine = await portal.browser.newPage({ viewport: PHONE });
    try {
      await portal.signIn(mine, 'customer@isp.local');
      await portal.open(mine, '/dashboard/subscriptions');
      const panel = mine.getByTestId('credit-panel');
      await panel.getByTestId('credit-balance').getByText(shown).waitFor();
      await panel.getByText('Adjustment').first().waitFor();
      await panel.getByText('+$12.50').first().waitFor();
      expect(await panel.getByTestId('adjust-credit').count()).toBe(0);
      expect(await overflowsViewport(mine), 'the credit tab scrolls sideways at 390 px').toBe(false);
      expect(await axeViolations(mine), 'axe on the customer credit tab').toEqual([]);
    } finally {
      await mine.close();
    }
  });
});
