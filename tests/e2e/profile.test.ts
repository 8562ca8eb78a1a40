import { describe, expect, it } from 'vitest';
import { toastsGone, usePortal } from '../helpers/browser';

const portal = usePortal();

describe('the profile screen', () => {
  it('saves profile changes that survive a reload', async () => {
    const page = await portal.browser.newPage();
    await portal.signIn(page, 'support@isp.local', 'Password123!');
    await portal.open(page, `/dashboard/profile`);
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
    const page = await portal.browser.newPage();
    await portal.signIn(page, 'billing@isp.local', 'Password123!');
    await portal.open(page, `/dashboard/profile`);
    const form = page.locator('form').filter({ has: page.getByLabel('Current password') });
    await form.getByLabel('Current password').fill('not-my-password');
    await form.getByLabel('New password').fill('billing-secret-2');
    await form.getByLabel('Confirm password').fill('billing-secret-2');
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Current password is incorrect').waitFor();

    await form.getByLabel('Current password').fill('Password123!');
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed successfully').waitFor();

    // The toasts sit over the header's sign-out button (and a pointer resting on them keeps them open): let them go.
    await page.mouse.move(0, 400);
    await toastsGone(page);
    await page.getByTestId('logout-button').click();
    await page.waitForURL(/\/login/);
    await portal.signIn(page, 'billing@isp.local', 'billing-secret-2');
    await page.close();
  });
});
