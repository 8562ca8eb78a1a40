/**
 * The system page in real Chromium (issue 18): an admin opens /dashboard/system from the menu and reads the
 * figures the API gives (version, migrations, this node responding, database kind); on a 390 px phone and at
 * 1366 px in light and dark, with nothing scrolling sideways and axe-core finding nothing (WCAG 2.1 A/AA).
 */
import { describe, expect, it } from 'vitest';
import { portalApi, toastsGone, usePortal } from '../helpers/browser';
import { axeViolations, overflowsViewport } from '../helpers/axe';

const portal = usePortal();
const PHONE = { width: 390, height: 844 };
const { api, tokenOf } = portalApi(portal);

interface Status {
  version: string;
  database: { kind: string; migrations: { applied: number; known: number } };
  node: { id: string; hostname: string; pid: number };
  nodes: Array<{ id: string; responding: boolean }>;
}

describe('system page', () => {
  it('an admin reads the version, the migrations and this node on a phone and a desktop, light and dark', async () => {
    const status = await api<Status>('GET', '/system', await tokenOf('admin@isp.local'));
    expect(status.nodes.find((n) => n.id === status.node.id)?.responding).toBe(true);

    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    try {
      await portal.signIn(page, 'admin@isp.local');
      await page
        .getByRole('menuitem')
        .filter({ hasText: /^System$/ })
        .click();
      await page.waitForURL(/\/dashboard\/system$/);
      await expect.poll(() => page.getByTestId('system-version').textContent()).toBe(status.version);
      expect(await page.getByTestId('system-migrations').textContent()).toBe(
        `${status.database.migrations.applied} of ${status.database.migrations.known} applied`,
      );
      expect(await page.getByTestId('system-database').textContent()).toBe(
        status.database.kind === 'postgres' ? 'PostgreSQL' : 'Embedded (PGlite)',
      );
      const self = page
        .getByTestId('system-nodes')
        .locator('tr', { hasText: `${status.node.hostname} (pid ${status.node.pid})` });
      await expect.poll(() => self.textContent()).toContain('This node');
      expect(await self.textContent()).toContain('Responding');
      await toastsGone(page);
      for (const mode of ['light', 'dark']) {
        await page.evaluate((m) => localStorage.setItem('color_mode', m), mode);
        await page.reload();
        await page.getByTestId('system-version').waitFor();
        expect(await axeViolations(page), `axe on /dashboard/system at 1366 px, ${mode}`).toEqual([]);
      }

      await page.setViewportSize(PHONE);
      await page.evaluate(() => localStorage.setItem('color_mode', 'light'));
      await page.reload();
      await page.getByTestId('system-version').waitFor();
      expect(await overflowsViewport(page), '/dashboard/system scrolls sideways at 390 px').toBe(false);
      expect(await axeViolations(page), 'axe on /dashboard/system at 390 px').toEqual([]);
    } finally {
      await page.close();
    }
  });
});
