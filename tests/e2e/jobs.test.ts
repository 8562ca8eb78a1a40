/**
 * Background jobs in real Chromium (issue 14): a "forgot password" e-mail goes through the job queue, and an
 * admin finds its delivery job on /dashboard/jobs, done, on a 390 px phone and at 1366 px in light and dark,
 * with axe-core finding nothing (WCAG 2.1 A/AA).
 */
import { describe, expect, it } from 'vitest';
import { portalApi, toastsGone, usePortal } from '../helpers/browser';
import { axeViolations, overflowsViewport } from '../helpers/axe';

const portal = usePortal();
const PHONE = { width: 390, height: 844 };
const { api } = portalApi(portal);

describe('background jobs', () => {
  it('an admin sees the e-mail delivery job done, filtered by kind, on a phone and a desktop, light and dark', async () => {
    await api('POST', '/auth/forgot-password', undefined, { email: 'customer@isp.local' });

    const page = await portal.browser.newPage({ viewport: PHONE });
    try {
      await portal.signIn(page, 'admin@isp.local');
      await portal.open(
        page,
        '/dashboard/jobs?filters[0][field]=name&filters[0][operator]=eq&filters[0][value]=mail-delivery',
      );
      const row = page.locator('tr.ant-table-row', { hasText: 'E-mail delivery' }).first();
      await expect
        .poll(
          async () => {
            await page.reload();
            await row.waitFor({ timeout: 10_000 }).catch(() => undefined);
            return (await row.textContent().catch(() => '')) ?? '';
          },
          { timeout: 30_000, interval: 500 },
        )
        .toContain('Done');
      await toastsGone(page);
      expect(await overflowsViewport(page), '/dashboard/jobs scrolls sideways at 390 px').toBe(false);
      expect(await axeViolations(page), 'axe on /dashboard/jobs at 390 px').toEqual([]);

      await page.setViewportSize({ width: 1366, height: 900 });
      for (const mode of ['light', 'dark']) {
        await page.evaluate((m) => localStorage.setItem('color_mode', m), mode);
        await page.reload();
        await row.waitFor();
        expect(await axeViolations(page), `axe on /dashboard/jobs at 1366 px, ${mode}`).toEqual([]);
      }
    } finally {
      await page.close();
    }
  });
});
