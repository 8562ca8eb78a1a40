import { describe, expect, it } from 'vitest';
import { usePortal } from '../helpers/browser';

const portal = usePortal();

describe('payment gateways in the back office', () => {
  it('billing adds a Stripe gateway whose secret never comes back in full, and switches the sandbox off', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await portal.signIn(page, 'billing@isp.local');

    await portal.open(page, `/dashboard/billing/payment-gateways`);
    const sandboxRow = page.locator('tr', { hasText: 'Sandbox' }).first();
    await sandboxRow.waitFor();

    await portal.open(page, `/dashboard/billing/payment-gateways/create`);
    await page.getByLabel('Name').fill('Stripe EU');
    await page.getByRole('combobox', { name: 'Provider' }).click();
    await page.locator('.ant-select-item-option', { hasText: 'Stripe' }).click();
    await page.getByLabel('Secret key').fill('sk_test_51HsecretVALUE9876');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Payment gateway created successfully').waitFor();

    await portal.open(page, `/dashboard/billing/payment-gateways`);
    const stripeRow = page.locator('tr', { hasText: 'Stripe EU' });
    await stripeRow.waitFor();
    expect(await stripeRow.textContent()).toContain('9876');
    expect(await page.content()).not.toContain('sk_test_51HsecretVALUE9876');

    // Sandbox is the default: switching it off offers making the other active gateway the default first.
    await page.locator('tr', { hasText: 'Sandbox' }).first().locator('.ant-switch').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Turn off Sandbox?').waitFor();
    await dialog.getByRole('button', { name: 'Make Stripe EU the default and turn Sandbox off' }).click();
    await page.getByText('Stripe EU is now the default; Sandbox is off').waitFor();
    await page.locator('tr', { hasText: 'Sandbox' }).first().locator('.ant-switch[aria-checked="false"]').waitFor();
    await page.close();
  });

  it('keeps technicians out of the gateways screen', async () => {
    const page = await portal.browser.newPage();
    await portal.signIn(page, 'technician@isp.local');
    await portal.open(page, `/dashboard/billing/payment-gateways`);
    // Issue 34: the screen says it is not theirs (no silent redirect), and the address stays.
    await page.getByRole('heading', { level: 1, name: "You don't have access to this page" }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/billing/payment-gateways');
    await page.close();
  });
});
