/**
 * Autopay in real Chromium on a 390 px phone (issue 21): a customer turns on "Pay automatically" for their
 * subscription, saves a card on the sandbox's hosted set-up page, comes back to the subscription and sees the card
 * (brand, last four, expiry), then removes it and autopay is off. The card fits the phone and passes axe-core.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, portalApi, toastsGone, usePortal } from '../helpers/browser';
import { axeViolations, overflowsViewport } from '../helpers/axe';

const portal = usePortal();
const PHONE = { width: 390, height: 844 };
const { api, tokenOf } = portalApi(portal);

describe('autopay', () => {
  it('the customer saves a card in the sandbox flow, sees it, removes it: autopay is off', async () => {
    const admin = await tokenOf('admin@isp.local');
    const email = `autopay.${Date.now()}@example.net`;
    await api('POST', '/users', admin, {
      name: 'Ava Autopay',
      email,
      password: DEMO_PASSWORD,
      role: 'user',
      phone: '+1 555 0199',
      address: '9 Card Street',
    });
    const customer = await tokenOf(email);
    const plans = await api<Array<{ id: string; name: string }> | { items: Array<{ id: string }> }>(
      'GET',
      '/plans',
      customer,
    );
    const planId = (Array.isArray(plans) ? plans : plans.items)[0].id;
    const created = await api<{ subscription: { id: string } }>('POST', '/subscriptions', customer, {
      plan_id: planId,
      location: '9 Card Street',
    });
    const id = created.subscription.id;

    const page = await portal.browser.newPage({ viewport: PHONE });
    try {
      await portal.signIn(page, email);
      await portal.open(page, `/subscription/${id}`);
      const card = page.getByTestId('autopay-card');
      await card.getByText('Automatic payment is off').waitFor();
      await card.getByRole('button', { name: 'Turn on' }).click();

      await page.waitForURL(/\/api\/payments\/sandbox\/setup\/sbxset_/);
      await page.getByRole('button', { name: /Visa •••• 4242/ }).click();
      await page.waitForURL(new RegExp(`/subscription/${id}\\?autopay=saved$`));
      await card.getByText('Your card was saved and automatic payment is on.').waitFor();
      const saved = card.getByTestId('autopay-saved-card');
      await saved.getByText('Visa •••• 4242').waitFor();
      const year = new Date().getUTCFullYear() + 3;
      const month = String(new Date().getUTCMonth() + 1).padStart(2, '0');
      await saved.getByText(`Expires ${month}/${year}`).waitFor();
      expect(await overflowsViewport(page), 'the subscription page scrolls sideways at 390 px').toBe(false);
      expect(await axeViolations(page, '[data-testid="autopay-card"]'), 'axe on the autopay card').toEqual([]);

      await card.getByRole('button', { name: 'Remove card' }).click();
      // The removal's answer is awaited by itself: CI once saw no toast within 30 s, and could not tell a click
      // that missed the confirmation from a refused request.
      const removal = page.waitForResponse(
        (r) => r.request().method() === 'DELETE' && r.url().includes('/api/payments/methods/'),
      );
      await page.getByRole('tooltip').getByRole('button', { name: 'OK' }).click();
      const answer = await removal;
      expect(answer.status(), await answer.text()).toBe(200);
      await page.getByText('Card removed; automatic payment is off').first().waitFor();
      await card.getByTestId('autopay-off').waitFor();
      expect(await card.getByTestId('autopay-saved-card').count()).toBe(0);
      await toastsGone(page);
      const state = await api<{ autopay: { enabled: boolean; card: unknown } }>(
        'GET',
        `/subscriptions/${id}`,
        customer,
      );
      expect(state.autopay).toMatchObject({ enabled: false, card: null });
      expect(await api<unknown[]>('GET', '/payments/methods', customer)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
