/**
 * Prepaid vouchers in real Chromium (issue 22): billing creates a batch on the Vouchers screen, prints it (the
 * cards PDF fetched by the page's own button holds the codes of the CSV the other button saves), a customer
 * arrives through a card's QR link (?voucher=CODE), signed out, signs in and finds the code filled in, redeems it and sees the new
 * subscription; the same code again says it was used, a mistyped one says so. The batch's page then shows the
 * used voucher, revokes another after a confirmation, and revokes the batch. Every screen fits 390 px and passes
 * axe-core at 390 and 1366 px, light and dark (VOUCHER_SHOTS_DIR=<dir> keeps screenshots).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkEverywhere } from '../helpers/everywhere';
import { DEMO_PASSWORD, portalApi, toastsGone, usePortal } from '../helpers/browser';
import { pdfText } from '../helpers/pdf-text';

const portal = usePortal();
const { api, tokenOf } = portalApi(portal);
const SHOTS = process.env.VOUCHER_SHOTS_DIR;

describe('prepaid vouchers', () => {
  it('billing creates and prints a batch; a customer redeems a code once; billing revokes', async () => {
    const staff = await portal.browser.newPage({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
    let codes: string[] = [];
    let batchPath = '';
    try {
      await portal.signIn(staff, 'billing@isp.local');
      await staff.getByRole('menuitem', { name: 'Billing' }).click();
      await staff.getByRole('menuitem', { name: 'Vouchers' }).click();
      await staff.waitForURL(`${portal.url}/dashboard/billing/vouchers`);
      // A first attempt that failed later leaves its batch behind: the list is either empty or lists it.
      await staff.getByText('No voucher batches yet').or(staff.locator('tbody tr.ant-table-row').first()).waitFor();
      await staff.getByRole('button', { name: 'Create batch' }).click();
      await staff.waitForURL(`${portal.url}/dashboard/billing/vouchers/create`);
      await checkEverywhere(staff, 'voucher-create', (p) => p.getByLabel('Number of vouchers'), { shotsDir: SHOTS });

      // Plan, 3 cards, 7 days from first use, $5.00 each.
      await staff.getByLabel('Plan').click();
      await staff.locator('.ant-select-dropdown').getByText('Basic 25', { exact: true }).click();
      await staff.getByLabel('Number of vouchers').fill('3');
      await staff.getByLabel('Validity', { exact: true }).fill('7');
      await staff.getByLabel('Price').fill('5.00');
      await staff.getByRole('button', { name: 'Create batch' }).click();
      const created = staff.getByTestId('batch-created');
      await created.getByText('3 vouchers created').waitFor();
      await created.getByText(/can be downloaded for 60 minutes only/).waitFor();

      // Download CSV: the codes, as saved by the browser.
      const [csvFile] = await Promise.all([
        staff.waitForEvent('download'),
        created.getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      expect(csvFile.suggestedFilename()).toMatch(/^vouchers-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.csv$/);
      const csv = readFileSync((await csvFile.path())!, 'utf8')
        .trim()
        .split('\r\n');
      expect(csv[0]).toBe('code,plan,validity_minutes,data_allowance_mb,price,currency');
      codes = csv.slice(1).map((line) => line.split(',')[0]!);
      expect(codes).toHaveLength(3);
      expect(csv[1]).toContain(',Basic 25,10080,,500,USD');

      // Print cards: the PDF the button fetches, read back: one page with the three codes.
      const [pdfResponse, pdfFile] = await Promise.all([
        staff.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/cards.pdf')),
        staff.waitForEvent('download'),
        created.getByRole('button', { name: 'Print cards (PDF)' }).click(),
      ]);
      expect(pdfResponse.status()).toBe(200);
      // In the ISP's default language unless billing picks another (the select beside the button).
      expect(new URL(pdfResponse.url()).searchParams.get('language')).toBe('en');
      expect(pdfResponse.headers()['content-type']).toBe('application/pdf');
      expect(pdfFile.suggestedFilename()).toMatch(/\.pdf$/);
      const pdf = readFileSync((await pdfFile.path())!);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const pages = await pdfText(pdf);
      expect(pages).toHaveLength(1);
      for (const code of codes) expect(pages[0]!.replace(/-/g, '')).toContain(code);
      expect(pages[0]).toContain('Basic 25');
      expect(pages[0]).toContain('$5.00');
      await checkEverywhere(staff, 'voucher-created', (p) => p.getByTestId('batch-created'), { shotsDir: SHOTS });

      await staff.getByRole('button', { name: 'Open the batch' }).click();
      await staff.waitForURL(/\/dashboard\/billing\/vouchers\/show\//);
      batchPath = new URL(staff.url()).pathname;
      await staff.getByTestId('batch-vouchers').locator('tbody tr').nth(2).waitFor();
      expect(await staff.getByTestId('batch-details').textContent()).toContain('Unused 3');
    } finally {
      await staff.close();
    }

    // A customer scans a card: the QR link with the code, as printed (lower case, grouped with a dash). A customer of
    // their own for each attempt: a retry's code then starts a subscription as the first attempt's did, rather than
    // adding to the one the first attempt started.
    const email = `voucher.${Date.now()}@example.net`;
    await api('POST', '/users', await tokenOf('admin@isp.local'), {
      name: 'Vera Voucher',
      email,
      password: DEMO_PASSWORD,
      role: 'user',
    });
    const customer = await portal.browser.newPage({ viewport: { width: 390, height: 844 } });
    const code = codes[0]!;
    const printed = `${code.slice(0, 5)}-${code.slice(5)}`.toLowerCase();
    try {
      // Signed out, the link goes through the sign-in and back to the page with the code.
      await customer.goto(`${portal.url}/dashboard/subscriptions?voucher=${printed}`);
      await customer.getByTestId('login-page').waitFor();
      expect(new URL(customer.url()).searchParams.get('to')).toBe(`/dashboard/subscriptions?voucher=${printed}`);
      await customer.getByLabel('E-mail').fill(email);
      await customer.getByLabel('Password').fill(DEMO_PASSWORD);
      await customer.getByRole('button', { name: 'Sign in' }).click();
      await customer.waitForURL(`${portal.url}/dashboard/subscriptions?voucher=${printed}`);
      await customer.getByTestId('my-subscriptions').waitFor();
      const card = customer.getByTestId('redeem-voucher');
      const input = card.getByLabel('Voucher code');
      await input.waitFor();
      expect(await input.inputValue()).toBe(printed);
      await card.getByRole('button', { name: 'Redeem' }).click();
      await card
        .getByTestId('redeem-done')
        .getByText(
          /Voucher redeemed: your Basic 25 subscription has started and runs until [A-Z][a-z]{2} \d{1,2}, \d{4}\./,
        )
        .waitFor();
      await customer.getByTestId('my-subscriptions').getByRole('link', { name: 'Basic 25' }).first().waitFor();
      expect(await input.inputValue()).toBe('');
      // The used code leaves the address, so a reload does not fill it in again.
      expect(new URL(customer.url()).search).toBe('');

      // The same code again: used. A mistyped one: refused before any look-up.
      await input.fill(code);
      await card.getByRole('button', { name: 'Redeem' }).click();
      await card.getByTestId('redeem-error').getByText('This voucher has already been used').waitFor();
      const typo = `${code.slice(0, 3)}${code[3] === 'A' ? 'B' : 'A'}${code.slice(4)}`;
      await input.fill(typo);
      await card.getByRole('button', { name: 'Redeem' }).click();
      await card
        .getByTestId('redeem-error')
        .getByText('This is not a valid voucher code: please check it and try again')
        .waitFor();
      await checkEverywhere(customer, 'voucher-redeem', (p) => p.getByTestId('redeem-voucher'), { shotsDir: SHOTS });
    } finally {
      await customer.close();
    }

    const back = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    try {
      await portal.signIn(back, 'billing@isp.local');
      await portal.open(back, '/dashboard/billing/vouchers');
      const row = back.locator('tbody tr', { hasText: 'Basic 25' }).first();
      await row.getByText('Used up 1').waitFor();
      await row.getByText('Unused 2').waitFor();
      await checkEverywhere(back, 'voucher-batches', (p) => p.locator('tbody tr', { hasText: 'Basic 25' }).first(), {
        shotsDir: SHOTS,
      });

      await portal.open(back, batchPath);
      const table = back.getByTestId('batch-vouchers');
      await table.locator('tbody tr').nth(2).waitFor();
      // Only the used-up one under "Used up".
      await back.getByTestId('voucher-state-filter').click();
      await back.locator('.ant-select-dropdown').getByText('Used up', { exact: true }).click();
      // The unfiltered list already holds the used-up row: wait for the others to leave, not for it.
      await expect.poll(() => table.locator('tbody tr.ant-table-row').count()).toBe(1);
      expect(await table.locator('tbody tr.ant-table-row').first().textContent()).toContain(code.slice(-3));
      await back.getByTestId('voucher-state-filter').click();
      await back.locator('.ant-select-dropdown').getByText('Unused', { exact: true }).click();
      await table.locator('tbody tr.ant-table-row').nth(1).waitFor();
      await checkEverywhere(
        back,
        'voucher-batch',
        (p) => p.getByTestId('batch-vouchers').locator('tbody tr.ant-table-row').first(),
        { shotsDir: SHOTS },
      );

      // Revoke one unused voucher (confirmed), then the batch.
      const hint = codes[1]!.slice(-3);
      await back.getByTestId('voucher-state-filter').click();
      await back.locator('.ant-select-dropdown').getByText('All', { exact: true }).click();
      await expect.poll(() => table.locator('tbody tr.ant-table-row').count()).toBe(3);
      await table.getByRole('button', { name: `Revoke the voucher ending in ${hint}` }).click();
      await back.locator('.ant-popover').getByRole('button', { name: 'Revoke' }).click();
      await back.getByText('Voucher revoked successfully!').first().waitFor();
      await table.locator('tbody tr', { hasText: hint }).getByText('Revoked').waitFor();
      await toastsGone(back);
      await back.getByRole('button', { name: 'Revoke batch' }).click();
      await back
        .locator('.ant-popover')
        .getByText(/Its 1 unused and active vouchers stop working/)
        .waitFor();
      await back.locator('.ant-popover').getByRole('button', { name: 'Revoke batch' }).click();
      // The toast that comes, success or the server's refusal, so a failure says which.
      const toast = back.locator('.ant-notification-notice').first();
      await toast.waitFor({ timeout: 60_000 });
      expect(await toast.textContent()).toContain('Voucher batch revoked successfully!');
      await back.getByTestId('batch-details').getByText('Revoked 2').waitFor();
      expect(await back.getByRole('button', { name: 'Revoke batch' }).count()).toBe(0);
    } finally {
      await back.close();
    }
    // Four screen checks (390 and 1366 px, light and dark) and a PDF: about 110 s alone, more beside other browser files.
  }, 240_000);
});
