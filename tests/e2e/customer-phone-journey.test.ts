/**
 * The customer's journey on a phone (issue 19), in real Chromium at 390×844 with touch, one tap at a time: a new
 * customer (made by the admin through the API, so already verified) signs in, chooses a plan and subscribes, pays
 * the first invoice on the sandbox gateway's hosted checkout, sees the invoice paid and downloads its PDF, finds it
 * under Subscriptions → Invoices, and opens a ticket with a photo from the camera button. Every move between
 * sections goes through the phone layout's menu button and its drawer. On each screen nothing scrolls sideways
 * and the screen's main action lies inside the viewport; the ticket page passes axe (WCAG 2.1 A/AA).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, overflowsViewport } from '../helpers/axe';
import { portalApi, usePortal } from '../helpers/browser';
import { drawnPhoto } from '../helpers/photos';
import { expectOnScreen, PHONE } from '../helpers/on-screen';

const portal = usePortal();
const { api, tokenOf } = portalApi(portal);
const PASSWORD = 'a-long-passphrase';
/** The customer's entries in the drawer, in order (contract/roles: the portal routes a customer may open). */
const CUSTOMER_MENU = ['Dashboard', 'Subscriptions', 'Usage', 'Tickets', 'Profile'];

/** The screen as a phone shows it: nothing wider than the viewport, the menu button in the header. */
async function expectPhoneScreen(page: Page, what: string) {
  expect(await overflowsViewport(page), `${what} scrolls sideways at 390 px`).toBe(false);
  await expectOnScreen(page.getByTestId('menu-button'), `the menu button on ${what}`);
}

/** Moves to a section the way a customer on a phone does: the menu button, then the entry in the drawer. */
async function openSection(page: Page, entry: string, path: string) {
  const button = page.getByRole('button', { name: 'Open the menu' });
  expect(await button.getAttribute('data-testid')).toBe('menu-button');
  await button.tap();
  const drawer = page.locator('#portal-drawer');
  await drawer.waitFor();
  const menu = drawer.getByTestId('portal-menu');
  await expect.poll(() => menu.getByRole('menuitem').allInnerTexts()).toEqual(CUSTOMER_MENU);
  const item = menu.getByRole('menuitem', { name: entry });
  await expectOnScreen(item, `the drawer's ${entry} entry`);
  await item.tap();
  await page.waitForURL((url) => url.pathname === path);
  await drawer.waitFor({ state: 'hidden' });
}

describe('a new customer on a phone', () => {
  it('subscribes, pays on the sandbox, gets the invoice PDF and opens a ticket with a photo, all by taps through the menu', async () => {
    const admin = await tokenOf('admin@isp.local');
    const email = `phone.${Date.now()}@example.net`;
    await api('POST', '/users', admin, {
      name: 'Pia Phone',
      email,
      password: PASSWORD,
      role: 'user',
      phone: '+1 555 0199',
      address: '9 Harbour Street',
    });
    const login = await api<{ tokens: { access: { token: string } } }>('POST', '/auth/login', undefined, {
      email,
      password: PASSWORD,
      rememberMe: false,
    });
    const customer = login.tokens.access.token;

    const context = await portal.browser.newContext({
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      acceptDownloads: true,
    });
    const page = await context.newPage();
    try {
      // Sign in.
      await page.goto(`${portal.url}/login`);
      await page.getByTestId('login-page').waitFor();
      expect(await overflowsViewport(page), 'the sign-in page scrolls sideways').toBe(false);
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      const signIn = page.getByRole('button', { name: 'Sign in' });
      await expectOnScreen(signIn, 'Sign in');
      await signIn.tap();
      await page.waitForURL(`${portal.url}/dashboard`);
      // The customer's home: no service yet, and the way to a plan.
      await page.getByTestId('home-service').getByText('You have no internet service yet.').waitFor();
      await expectPhoneScreen(page, 'the home');
      expect(await page.getByTestId('portal-menu').count(), 'no top navigation on a phone').toBe(0);

      // Choose a plan and subscribe.
      await openSection(page, 'Subscriptions', '/dashboard/subscriptions');
      await page.getByText('You have no active plan').waitFor();
      await expectPhoneScreen(page, 'Subscriptions');
      const subscribe = page.getByRole('button', { name: 'Subscribe to a plan' });
      await expectOnScreen(subscribe, 'Subscribe to a plan');
      await subscribe.tap();
      const dialog = page.getByRole('dialog', { name: 'Subscribe to a plan' });
      const plan = dialog.getByRole('radio', { name: 'Home 100' });
      await plan.waitFor();
      expect(await overflowsViewport(page), 'the plan choice scrolls sideways').toBe(false);
      await plan.tap();
      await dialog.getByLabel('Location').fill('9 Harbour Street, flat 3');
      const confirm = dialog.getByRole('button', { name: 'Subscribe' });
      await expectOnScreen(confirm, 'the dialog’s Subscribe', { scroll: true });
      await confirm.tap();
      await page.getByText('Subscription created successfully!').waitFor();

      // The first invoice, unpaid: its total on screen (not scrolled away in the line items), Pay now at hand.
      await page.waitForURL(/\/invoice\/[0-9a-f-]{36}$/);
      const invoiceId = page.url().split('/').pop()!;
      await page.getByTestId('invoice-details').waitFor();
      expect(await page.getByTestId('invoice-status').innerText()).toBe('Unpaid');
      const total = await page.getByTestId('invoice-total').innerText();
      expect(total).toBe('$39.99');
      expect(await overflowsViewport(page), 'the invoice scrolls sideways').toBe(false);
      await expectOnScreen(page.getByTestId('invoice-total'), 'the invoice total', { scroll: true });
      const pay = page.getByRole('button', { name: 'Pay now' });
      await expectOnScreen(pay, 'Pay now', { scroll: true });

      // Pay on the sandbox's hosted checkout; the signed webhook marks it paid and the customer comes back.
      await pay.tap();
      await page.waitForURL(/\/api\/payments\/sandbox\/checkout\//);
      expect(await page.locator('body').innerText()).toContain(total);
      expect(await overflowsViewport(page), 'the sandbox checkout scrolls sideways').toBe(false);
      const approve = page.getByRole('button', { name: 'Approve' });
      await expectOnScreen(approve, 'Approve');
      await approve.tap();
      await page.waitForURL(new RegExp(`/invoice/${invoiceId}\\?payment=`));
      await page.getByText('Payment received. Thank you!').waitFor();
      await page.getByTestId('invoice-status').getByText('Paid').waitFor();
      expect((await api<{ status: string }>('GET', `/payments/invoices/${invoiceId}`, customer)).status).toBe('paid');

      // The PDF: a real PDF named after the invoice.
      const pdfButton = page
        .getByRole('link', { name: 'Download PDF' })
        .or(page.getByRole('button', { name: 'Download PDF' }));
      await expectOnScreen(pdfButton, 'Download PDF', { scroll: true });
      const [download] = await Promise.all([page.waitForEvent('download'), pdfButton.tap()]);
      expect(download.suggestedFilename()).toMatch(/^INV-\d+\.pdf$/);
      expect(
        readFileSync((await download.path())!)
          .subarray(0, 5)
          .toString('latin1'),
      ).toBe('%PDF-');
      const invoiceNumber = download.suggestedFilename().replace(/\.pdf$/, '');

      // Back into the portal (the invoice page's own link), then through the menu: the plan active, the invoice paid.
      await page.getByRole('link', { name: 'My account' }).tap();
      await page.waitForURL(`${portal.url}/dashboard`);
      // The home now shows the line, nothing left to pay, and the order waiting for its installation visit (the
      // location given asked for one).
      await page.getByTestId('home-service').getByText('Home 100').waitFor();
      await page.getByTestId('home-bill').getByText('Nothing to pay').waitFor();
      await page.getByTestId('home-order').getByText('Your order for Home 100 is waiting for installation.').waitFor();
      expect(
        await page.getByTestId('home-order').getByRole('button', { name: 'Pay now' }).count(),
        'the paid order has nothing to pay',
      ).toBe(0);
      await openSection(page, 'Subscriptions', '/dashboard/subscriptions');
      await page.getByText('Your active plan').waitFor();
      await page.getByTestId('active-plan').getByText('Home 100').waitFor();
      await expectPhoneScreen(page, 'Subscriptions with a plan');
      await page.getByRole('tab', { name: 'Invoices' }).tap();
      // On a phone the invoices are cards (issue 34).
      const invoiceCard = page.getByTestId('invoice-card').filter({ hasText: invoiceNumber });
      await invoiceCard.getByText('Paid').waitFor();
      expect(await overflowsViewport(page), 'the invoice list scrolls sideways').toBe(false);

      // A ticket with a photo from the camera button.
      await openSection(page, 'Tickets', '/dashboard/tickets');
      const newTicket = page.getByRole('button', { name: 'New ticket' });
      await expectOnScreen(newTicket, 'New ticket');
      await expectPhoneScreen(page, 'Tickets');
      await newTicket.tap();
      const form = page.getByRole('dialog', { name: 'New ticket' });
      const subject = `Red light on the router ${Date.now()}`;
      await form.getByLabel('Subject').fill(subject);
      await form.getByLabel('Description').fill('Since this morning the router shows a red light and nothing loads.');
      const camera = form.getByRole('button', { name: 'Take photo' });
      await expectOnScreen(camera, 'Take photo', { scroll: true });
      const photo = await drawnPhoto(page, 1200, 900, 'image/jpeg');
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), camera.tap()]);
      expect(await chooser.element().getAttribute('capture')).toBe('environment');
      await chooser.setFiles({ name: 'router-light.jpg', mimeType: 'image/jpeg', buffer: photo });
      await form.getByText('router-light.jpg').waitFor();
      expect(await overflowsViewport(page), 'the ticket form scrolls sideways').toBe(false);
      const create = form.getByRole('button', { name: 'Create ticket' });
      await expectOnScreen(create, 'Create ticket', { scroll: true });
      await create.tap();
      await page.getByText('Ticket created successfully').waitFor();
      await page.waitForURL(/\/dashboard\/tickets\/[0-9a-f-]{36}$/);
      const ticketId = page.url().split('/').pop()!;

      // The ticket: its subject readable on the phone, the photo attached, nothing sideways, no axe violation.
      await page.getByTestId('attachment-list').getByText('router-light.jpg').waitFor();
      await expectPhoneScreen(page, 'the ticket');
      const heading = page.getByText(subject, { exact: true });
      await expectOnScreen(heading, 'the ticket’s subject');
      expect((await heading.boundingBox())!.width, 'the subject is squeezed').toBeGreaterThan(100);
      const attachments = await api<Array<{ original_name: string; content_type: string; size: number }>>(
        'GET',
        `/tickets/${ticketId}/attachments`,
        customer,
      );
      expect(attachments.map((a) => [a.original_name, a.content_type])).toEqual([['router-light.jpg', 'image/jpeg']]);
      // Toasts fade out first: axe reads the page as it stays.
      await page.waitForFunction(() => document.querySelectorAll('.ant-notification-notice').length === 0, undefined, {
        timeout: 30_000,
      });
      const violations = await axeViolations(page);
      expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
