/**
 * Bulk messages in real Chromium (issue 38): support opens the create screen, sees how many customers the segment
 * reaches, sends after the confirmation and follows the message on its page until it is done, with its messages.
 * The create and show screens fit 390 px and pass axe-core at 390 and 1366 px, light and dark (the list is in the
 * screens matrix with every other screen).
 */
import { describe, it } from 'vitest';
import { checkEverywhere } from '../helpers/everywhere';
import { usePortal } from '../helpers/browser';

const portal = usePortal();

describe('bulk messages', () => {
  it('support counts a segment, sends to it after confirming, and follows it to done', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    try {
      await portal.signIn(page, 'support@isp.local');
      await page.getByRole('menuitem', { name: 'Bulk messages' }).click();
      await page.waitForURL(`${portal.url}/dashboard/bulk-messages`);
      await page.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL(`${portal.url}/dashboard/bulk-messages/create`);
      const preview = page.getByTestId('bulk-preview');
      await preview.getByText(/customers? will receive this/).waitFor();
      await checkEverywhere(page, 'bulk-create', (p) => p.getByTestId('bulk-preview').getByText(/will receive this/));

      await page.getByLabel('Subject').fill('Maintenance on Sunday');
      await page.getByLabel('Message').fill('The network is upgraded on Sunday from 2 to 4 am.');
      await page.getByRole('button', { name: 'Send' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(/will receive “Maintenance on Sunday”/).waitFor();
      await dialog.getByRole('button', { name: 'Send' }).click();
      await page.waitForURL(/\/dashboard\/bulk-messages\/show\//);
      const progress = page.getByTestId('bulk-progress');
      await progress.getByRole('progressbar').waitFor();
      await page.getByTestId('bulk-items').locator('tbody tr.ant-table-row').first().waitFor({ timeout: 30_000 });
      // Done: the status on the page reads Done once the job went through every customer (read every 2 s).
      await page.locator('.ant-descriptions').getByText('Done', { exact: true }).waitFor({ timeout: 60_000 });
      await checkEverywhere(page, 'bulk-show', (p) => p.getByTestId('bulk-progress'));
    } finally {
      await page.close();
    }
  }, 240_000);
});
