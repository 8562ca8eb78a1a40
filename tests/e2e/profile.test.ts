import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startPortal, type RunningPortal } from '../helpers/browser';

let portal: RunningPortal;
let browser: Browser;

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await portal?.stop();
});

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${portal.url}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${portal.url}/dashboard`);
}

describe('the profile screen', () => {
  it('saves profile changes that survive a reload', async () => {
    const page = await browser.newPage();
    await signIn(page, 'support@isp.local', 'Password123!');
    await page.goto(`${portal.url}/dashboard/profile`);
    await page.getByRole('button', { name: 'Edit profile' }).click();
    await page.getByLabel('Full name').fill('Sue Helpdesk');
    await page.getByLabel('Phone').fill('+1 555 0142');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Profile updated successfully').waitFor();
    await page.reload();
    await page.getByTestId('profile-page').waitFor();
    expect(await page.getByTestId('profile-page').textContent()).toContain('+1 555 0142');
    expect(await page.getByTestId('current-user').textContent()).toContain('Sue Helpdesk');
    await page.close();
  });

  it('changes the password: a wrong current one is refused, the new one signs in', async () => {
    const page = await browser.newPage();
    await signIn(page, 'billing@isp.local', 'Password123!');
    await page.goto(`${portal.url}/dashboard/profile`);
    const form = page.locator('form').filter({ has: page.getByLabel('Current password') });
    await form.getByLabel('Current password').fill('not-my-password');
    await form.getByLabel('New password').fill('billing-secret-2');
    await form.getByLabel('Confirm password').fill('billing-secret-2');
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Current password is incorrect').waitFor();

    await form.getByLabel('Current password').fill('Password123!');
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed successfully').waitFor();

    await page.getByTestId('logout-button').click();
    await page.waitForURL(/\/login/);
    await signIn(page, 'billing@isp.local', 'billing-secret-2');
    await page.close();
  });
});
