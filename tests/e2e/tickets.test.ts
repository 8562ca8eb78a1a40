/**
 * Support tickets in a real browser, end to end on the real server, each step through the screens: the demo
 * customer opens a ticket with a PNG attached; support finds it in the staff view and assigns it to the
 * technician; the technician finds it under "Assigned to me", replies and resolves it; the customer sees the
 * reply, the status Resolved and the attachment, which downloads with the bytes that were uploaded.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { usePortal, type PortalSession } from '../helpers/browser';

const portal = usePortal();

/** A real 1×1 PNG: the server accepts attachments by their content, not their name. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const FILE_NAME = 'router-lights.png';

async function signedIn(
  p: PortalSession,
  browser: Browser,
  email: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await p.signIn(page, email);
  return { context, page };
}

/** Picks an option of an antd select found by its accessible name (clicking the select's box, not its input). */
async function choose(page: Page, label: string, option: string) {
  await page.locator('.ant-select', { has: page.getByRole('combobox', { name: label }) }).click();
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`).click();
}

/** Opens the ticket area from the menu (no reload: the app, its session and its splash stay as they are). */
async function openTicketsFromMenu(page: Page) {
  await page
    .getByRole('menuitem')
    .filter({ hasText: /^Tickets$/ })
    .click();
  // The list writes its paging into the query string (syncWithLocation) as soon as it renders, which with cached
  // rows can be before this wait starts: match the path, not the whole URL.
  await page.waitForURL((url) => url.pathname === '/dashboard/tickets');
}

/** Waits until the ticket header's Status shows `status` (the header also has a "Resolved" date label). */
function statusShown(page: Page, status: string) {
  return page
    .getByTestId('ticket-header')
    .locator('.ant-descriptions-item')
    .filter({ has: page.getByText('Status', { exact: true }) })
    .locator('.ant-tag', { hasText: new RegExp(`^${status}$`) })
    .waitFor();
}

describe('a support ticket from the customer to the technician and back', () => {
  it('customer opens it with an attachment, support assigns it, the technician replies and resolves, the customer sees it all', async () => {
    const subject = `No signal after the storm ${Date.now()}`;
    const replyText = 'We replaced the splitter at the street cabinet; your line is back to full speed.';

    // 1. The customer opens a ticket with a PNG attached.
    const customer = await signedIn(portal, portal.browser, 'customer@isp.local');
    let page = customer.page;
    await openTicketsFromMenu(page);
    await page.getByRole('button', { name: 'New ticket' }).click();
    const modal = page.getByRole('dialog');
    await modal.getByLabel('Subject').fill(subject);
    await modal
      .getByLabel('Description')
      .fill('Since the storm last night the router shows a red light and nothing loads.');
    await modal.locator('input[type="file"]').setInputFiles({ name: FILE_NAME, mimeType: 'image/png', buffer: PNG });
    await modal.getByText(FILE_NAME).waitFor();
    await modal.getByRole('button', { name: 'Create ticket' }).click();
    await page.waitForURL(/\/dashboard\/tickets\/[0-9a-f-]{36}$/);
    const ticketPath = new URL(page.url()).pathname;
    await page.getByTestId('attachment-list').getByText(FILE_NAME).waitFor();
    await statusShown(page, 'Open');

    // 2. Support finds it in the staff view (view one) and assigns it to the technician from the ticket.
    const support = await signedIn(portal, portal.browser, 'support@isp.local');
    page = support.page;
    await openTicketsFromMenu(page);
    await page.getByText('Average first response').waitFor(); // the stats cards of view one
    await page.getByRole('link', { name: subject }).click();
    await page.waitForURL(`${portal.url}${ticketPath}`);
    await page.getByTestId('attachment-list').getByText(FILE_NAME).waitFor();
    await choose(page, 'Assign', 'Tom Technician (technician)');
    await page.getByText('Ticket assigned successfully').waitFor();
    await page.getByTestId('ticket-header').getByText('Tom Technician').waitFor();
    await support.context.close();

    // 3. The technician finds it under "Assigned to me" (view two), replies and resolves it.
    const technician = await signedIn(portal, portal.browser, 'technician@isp.local');
    page = technician.page;
    await openTicketsFromMenu(page);
    await page.getByTestId('assigned-tickets').getByRole('link', { name: subject }).click();
    await page.waitForURL(`${portal.url}${ticketPath}`);
    await page.getByLabel('Your reply').fill(replyText);
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByText('Reply added successfully').waitFor();
    await page.getByTestId('reply-message').getByText(replyText).waitFor();
    await choose(page, 'Change status', 'Resolved');
    await page.getByText('Ticket status updated successfully').waitFor();
    await statusShown(page, 'Resolved');
    await technician.context.close();

    // 4. The customer sees it resolved in the list, then the reply and the attachment on the ticket.
    page = customer.page;
    await openTicketsFromMenu(page);
    const row = page.getByRole('row').filter({ hasText: subject });
    await row.getByText('Resolved', { exact: true }).waitFor();
    await row.getByRole('link', { name: subject }).click();
    await page.waitForURL(`${portal.url}${ticketPath}`);
    await page.getByTestId('reply-message').getByText(replyText).waitFor();
    expect(await page.getByTestId('replies').innerText()).toContain('Tom Technician');
    await statusShown(page, 'Resolved');
    const attachment = page.getByRole('link', { name: `Download ${FILE_NAME}` });
    const [download] = await Promise.all([page.waitForEvent('download'), attachment.click()]);
    expect(download.suggestedFilename()).toBe(FILE_NAME);
    expect(readFileSync((await download.path())!).equals(PNG)).toBe(true);
    await customer.context.close();
  });
});
