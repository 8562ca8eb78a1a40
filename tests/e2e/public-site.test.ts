import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { portalApi, usePortal } from '../helpers/browser';

const portal = usePortal();

const { api, tokenOf } = portalApi(portal);
const adminToken = () => tokenOf('admin@isp.local');

describe('a visitor on the public site', () => {
  it('sees the active plans from the database on / without downloading the back office', async () => {
    const manifest = JSON.parse(readFileSync(new URL('../../dist/.vite/manifest.json', import.meta.url), 'utf8'));
    const portalChunk: string = manifest['src/App.tsx'].file;
    const page = await portal.browser.newPage({ viewport: { width: 360, height: 740 } });
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));

    await page.goto(`${portal.url}/`);
    await page.getByTestId('plan-cards').waitFor();
    const shown = await page.getByTestId('plan-card').locator('h3').allTextContents();
    const active = (await api<{ items: { name: string; status: string }[] }>('GET', '/plans?limit=100')).items;
    expect(active.length).toBeGreaterThan(0);
    expect(active.every((p) => p.status === 'active')).toBe(true);
    expect(shown.sort()).toEqual(active.map((p) => p.name).sort());
    expect(await page.locator('.plan-card.featured').count()).toBeGreaterThanOrEqual(1);

    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts).not.toContain(`/${portalChunk}`);
    // The page fits a 360 px phone: nothing wider than the viewport.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.close();
  });

  it('sends the contact form and sees the success toast; staff can read the message', async () => {
    const page = await portal.browser.newPage();
    await page.goto(`${portal.url}/contact`);
    await page.getByTestId('contact-form').waitFor();
    expect(await page.title()).toContain('Contact');
    await page.getByLabel('Name').fill('Pat Visitor');
    await page.getByLabel('E-mail').fill('pat@example.net');
    await page.getByLabel('Subject').fill('Coverage on Elm Street');
    await page.getByLabel('Message').fill('Do you already serve Elm Street? I would like the Home plan.');
    await page.getByRole('button', { name: 'Send message' }).click();
    const toast = page.getByTestId('toast-success');
    await toast.waitFor();
    expect(await toast.textContent()).toContain('Contact form submitted successfully');

    const messages = await api<{ items: { subject: string; email: string }[] }>(
      'GET',
      '/contact-messages',
      await adminToken(),
    );
    expect(messages.items.some((m) => m.subject === 'Coverage on Elm Street' && m.email === 'pat@example.net')).toBe(
      true,
    );
    await page.close();
  });

  it('reads the policy the admin wrote, with its own title', async () => {
    const token = await adminToken();
    await api('PUT', '/settings', token, {
      policies: { 'refund-policy': '# Refunds\n\nCancel within **14 days** for a full refund.' },
    });
    const page = await portal.browser.newPage();
    await page.goto(`${portal.url}/refund-policy`);
    await page.getByTestId('policy-page').getByText('Refunds').waitFor();
    expect(await page.getByTestId('policy-page').locator('strong').textContent()).toBe('14 days');
    expect(await page.title()).toMatch(/^Refund policy · /);
    await page.close();
  });
});
