/**
 * The Dunning settings in real Chromium (issue 38): on a 390 px phone an admin opens the Dunning section, turns
 * reminders on with a fixed late fee, saves and finds it after a reload; the section fits the phone and passes
 * axe-core (WCAG 2.1 A/AA), in English and, right to left, in Arabic.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, overflowsViewport } from '../helpers/axe';
import { portalApi, usePortal } from '../helpers/browser';
import { animationsDone } from '../helpers/everywhere';

const portal = usePortal();
const { api, tokenOf } = portalApi(portal);
const PHONE = { width: 390, height: 844 };
const ar: Record<string, string> = JSON.parse(readFileSync(join(__dirname, '../../src/i18n/locales/ar.json'), 'utf8'));

async function openDunning(page: Page, label: string) {
  await portal.open(page, '/dashboard/settings');
  await page.getByTestId('settings-page').waitFor();
  await page.getByRole('button', { name: label }).click();
  await animationsDone(page);
}

async function accessible(page: Page, what: string) {
  expect(await overflowsViewport(page), `${what} scrolls sideways at 390 px`).toBe(false);
  expect(await axeViolations(page), `axe on ${what}`).toEqual([]);
}

describe('settings: Dunning on a phone', () => {
  it('an admin turns reminders on with a fixed late fee; kept after a reload; fits and passes axe', async () => {
    const page = await portal.browser.newPage({ viewport: PHONE });
    try {
      await portal.signIn(page, 'admin@isp.local');
      await openDunning(page, 'Dunning');
      expect(await page.getByLabel('Reminder days').inputValue()).toBe('-3, 0, 3, 7');
      await accessible(page, 'the Dunning section');
      await page.getByRole('switch', { name: 'Send reminders and late fees' }).click();
      await page.getByLabel('Reminder days').fill('-5, 0, 5');
      await page.getByRole('radio', { name: 'Fixed amount' }).check();
      await page.getByLabel('Late fee amount').fill('2.50');
      await page.getByLabel('Days late before the fee').fill('10');
      await accessible(page, 'the Dunning section with a fixed fee');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Settings saved').waitFor();
      await page.reload();
      await openDunning(page, 'Dunning');
      expect(await page.getByLabel('Reminder days').inputValue()).toBe('-5, 0, 5');
      expect(await page.getByLabel('Late fee amount').inputValue()).toBe('2.50');
      const stored = await api<{ dunning: unknown }>('GET', '/settings', await tokenOf('admin@isp.local'));
      expect(stored.dunning).toEqual({
        enabled: true,
        steps: [{ offset_days: -5 }, { offset_days: 0 }, { offset_days: 5 }],
        late_fee: { type: 'fixed', amount: 250, percent_bp: 0, after_days: 10 },
      });
    } finally {
      await page.close();
    }
  }, 180_000);

  it('in Arabic the section reads right to left and passes axe', async () => {
    // The super admin reads the portal in Arabic (their account's language).
    const email = 'superadmin@isp.local';
    await api('PUT', '/auth/profile', await tokenOf(email), { language: 'ar' });
    const page = await portal.browser.newPage({ viewport: PHONE });
    try {
      await portal.signIn(page, email);
      await openDunning(page, ar['settings.tabs.dunning']);
      expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await page.getByLabel(ar['settings.dunning.steps']).waitFor();
      await accessible(page, 'the Dunning section in Arabic');
    } finally {
      await page.close();
    }
  }, 180_000);
});
