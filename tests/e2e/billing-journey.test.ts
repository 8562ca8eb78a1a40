/**
 * Billing in a real browser, end to end on the real server: a new customer registers, verifies the e-mail
 * (the link read from the outbox), subscribes to a plan, pays through the sandbox's hosted checkout, sees the
 * subscription active and the invoice paid, and downloads the invoice PDF; a billing user then finds that
 * invoice paid in the staff invoice list.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, usePortal } from '../helpers/browser';

const portal = usePortal();

async function adminToken(): Promise<string> {
  const login = await fetch(`${portal.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@isp.local', password: DEMO_PASSWORD, rememberMe: false }),
  });
  return (await login.json()).data.tokens.access.token as string;
}

/** The newest mailed link to an address containing `path`, read from the outbox as the admin would. */
async function mailedLink(to: string, path: string): Promise<string> {
  const token = await adminToken();
  for (let attempt = 0; attempt < 40; attempt++) {
    const res = await fetch(`${portal.url}/api/mail/outbox?limit=50`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const items = (await res.json()).data.items as { to: string; text: string }[];
    const link = items
      .find((m) => m.to === to && m.text.includes(path))
      ?.text.match(/https?:\/\/\S+/g)
      ?.find((u) => u.includes(path));
    if (link) return link;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no mail with ${path} to ${to}`);
}

describe('a new customer pays for a plan', () => {
  it('registers, verifies, subscribes, pays through the sandbox, sees it active and paid, downloads the PDF; billing sees the payment', async () => {
    const context = await portal.browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    const email = `payer.${Date.now()}@example.net`;

    // Register and verify the e-mail address.
    await page.goto(`${portal.url}/register`);
    await page.getByTestId('register-page').waitFor();
    await page.getByLabel('Full name').fill('Petra Payer');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Phone').fill('+1 555 0142');
    await page.getByLabel('Address').fill('7 Meadow Road');
    await page.getByLabel('Password', { exact: true }).fill('a-long-passphrase');
    await page.getByLabel('Confirm password').fill('a-long-passphrase');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${portal.url}/dashboard`);
    await page.goto(await mailedLink(email, '/verify-email?token='));
    await page.getByText('Your e-mail address is verified').waitFor();

    // No plan yet; subscribe to Home 100.
    await portal.open(page, `/dashboard/subscriptions`);
    await page.getByText('You have no active plan').waitFor();
    await page.getByRole('button', { name: 'Subscribe to a plan' }).first().click();
    await page.getByRole('radio', { name: 'Home 100' }).click();
    await page.getByLabel('Location').fill('7 Meadow Road, flat 2');
    await page.getByRole('dialog').getByRole('button', { name: 'Subscribe' }).click();
    await page.getByText('Subscription created successfully!').waitFor();

    // The first invoice, unpaid, with a Pay button.
    await page.waitForURL(/\/invoice\/[0-9a-f-]{36}$/);
    const invoiceUrl = page.url();
    const invoiceId = invoiceUrl.split('/').pop()!;
    await page.getByTestId('invoice-details').waitFor();
    expect(await page.getByTestId('invoice-status').innerText()).toBe('Unpaid');
    const total = await page.getByTestId('invoice-total').innerText();
    expect(total).toMatch(/\$\d+\.\d{2}/);

    // Pay on the sandbox's hosted checkout; the signed webhook marks it paid and we come back.
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.waitForURL(/\/api\/payments\/sandbox\/checkout\//);
    expect(await page.locator('body').innerText()).toContain(total);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(new RegExp(`/invoice/${invoiceId}\\?payment=`));
    await page.getByText('Payment received. Thank you!').waitFor();
    await page.getByTestId('invoice-status').getByText('Paid').waitFor();

    // The PDF downloads as a real PDF named after the invoice number.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByText('Download PDF').click()]);
    expect(download.suggestedFilename()).toMatch(/^INV-\d+\.pdf$/);
    const pdf = readFileSync((await download.path())!);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const invoiceNumber = download.suggestedFilename().replace(/\.pdf$/, '');

    // The subscription is active and the plan is the customer's active plan.
    await portal.open(page, `/dashboard/subscriptions`);
    await page.getByText('Your active plan').waitFor();
    await page.getByText('Home 100').first().waitFor();
    expect(await page.getByText('You have no active plan').count()).toBe(0);
    await page.getByRole('tab', { name: 'Invoices' }).click();
    await page.getByText(invoiceNumber).first().waitFor();
    await context.close();

    // A billing user finds the invoice paid in the staff list.
    const staff = await portal.browser.newContext();
    const billingPage = await staff.newPage();
    await portal.signIn(billingPage, 'billing@isp.local');
    await portal.open(billingPage, `/dashboard/billing/invoices`);
    const row = billingPage.getByRole('row').filter({ hasText: invoiceNumber });
    await row.waitFor();
    expect(await row.innerText()).toContain('Paid');
    expect(await row.innerText()).toContain('Petra Payer');
    await staff.close();
  });
});
