import { describe, expect, it } from 'vitest';
import { usePortal } from '../helpers/browser';

const portal = usePortal();

/** The newest mailed link to an address, read as the admin reads the outbox (no SMTP configured here). */
async function mailedLink(to: string, path: string): Promise<string> {
  const login = await fetch(`${portal.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@isp.local', password: 'Password123!', rememberMe: false }),
  });
  const token = (await login.json()).data.tokens.access.token as string;
  for (let attempt = 0; attempt < 40; attempt++) {
    const res = await fetch(`${portal.url}/api/mail/outbox?limit=50`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const items = (await res.json()).data.items as { to: string; text: string }[];
    const mail = items.find((m) => m.to === to && m.text.includes(path));
    const link = mail?.text.match(/https?:\/\/\S+/g)?.find((u) => u.includes(path));
    if (link) return link.replace(/^https?:\/\/[^/]+/, portal.url);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no mail with ${path} to ${to}`);
}

describe('a new customer', () => {
  it('registers, is reminded to verify, follows the e-mailed link and is verified', async () => {
    const page = await portal.browser.newPage();
    const email = `new.customer.${Date.now()}@example.net`;
    await page.goto(`${portal.url}/register`);
    await page.getByTestId('register-page').waitFor();
    await page.getByLabel('Full name').fill('Nora Newcomer');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Phone').fill('+1 555 0199');
    await page.getByLabel('Address').fill('12 Orchard Lane');
    await page.getByLabel('Password', { exact: true }).fill('a-long-passphrase');
    await page.getByLabel('Confirm password').fill('a-long-passphrase');
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL(`${portal.url}/dashboard`);
    await page.getByText('Your e-mail address is not verified yet').waitFor();

    await page.goto(await mailedLink(email, '/verify-email?token='));
    await page.waitForURL(`${portal.url}/verification-success`);
    await page.getByText('Your e-mail address is verified').waitFor();

    await page.getByRole('button', { name: 'Continue' }).click();
    // A new customer's home: no service yet, the way to a plan.
    await page.getByTestId('customer-home').getByText('You have no internet service yet.').waitFor();
    expect(await page.getByText('Your e-mail address is not verified yet').count()).toBe(0);
    await page.close();
  });

  it('sees a clear error for a verification link that was already used or is wrong', async () => {
    const page = await portal.browser.newPage();
    await page.goto(`${portal.url}/verify-email?token=not-a-real-token-at-all`);
    await page.getByText('Invalid or expired verification token').waitFor();
    await page.close();
  });
});

describe('a customer who forgot the password', () => {
  it('asks for a link, sets a new password with it, and signs in with the new one only', async () => {
    const page = await portal.browser.newPage();
    await page.goto(`${portal.url}/password-reset`);
    await page.getByTestId('password-reset-request').waitFor();
    await page.getByLabel('E-mail').fill('customer@isp.local');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('If an account exists for that email, a password reset link has been sent.').waitFor();

    await page.goto(await mailedLink('customer@isp.local', '/password-reset/confirm?token='));
    await page.getByTestId('password-reset-confirm').waitFor();
    await page.getByLabel('New password').fill('brand-new-secret');
    await page.getByLabel('Confirm password').fill('brand-new-secret');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.getByText('Your password has been reset. You can now sign in.').waitFor();

    await page.goto(`${portal.url}/login`);
    await page.getByLabel('E-mail').fill('customer@isp.local');
    await page.getByLabel('Password').fill('Password123!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Invalid email or password').first().waitFor();
    expect(page.url()).toContain('/login');

    await page.getByLabel('Password').fill('brand-new-secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${portal.url}/dashboard`);
    await page.close();
  });
});
