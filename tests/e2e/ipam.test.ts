/**
 * IP address management in real Chromium (issue 22), on the living demo (DEMO_DATA=full: its networks, static
 * addresses and accounting sessions): an admin adds a network through the form, a second overlapping one is
 * refused with the server's message on the CIDR field, the new network's address map shows its gateway; the
 * admin gives a demo subscription a chosen address from it on the subscription page, and sees it there and on the
 * map with its customer; the address history answers who had a demo static address now, with a link to the
 * customer, says so when nobody had an address, and refuses a malformed one. Support sees it all read-only. Every
 * screen fits 390 px and passes axe-core at 390 and 1366 px, light and dark (IPAM_SHOTS_DIR=<dir> keeps screenshots).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, overflowsViewport } from '../helpers/axe';
import { checkEverywhere } from '../helpers/everywhere';
import { portalApi, toastsGone, usePortal } from '../helpers/browser';
import { formatDateTime } from '../../src/components/dates';

const portal = usePortal({ DEMO_DATA: 'full' });
const { api, tokenOf } = portalApi(portal);
const SHOTS = process.env.IPAM_SHOTS_DIR;

/** A state a reload would lose (a form open, an address picked): no sideways scroll and axe clean at both widths, light. */
async function openStateIsClean(page: Page, name: string): Promise<void> {
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await toastsGone(page);
    expect(await overflowsViewport(page), `${name} scrolls sideways at ${width} px`).toBe(false);
    expect(await axeViolations(page), `axe on ${name} at ${width} px`).toEqual([]);
  }
}

type Net = { id: string; name: string; cidr: string; purpose: string };

describe('IP address management screens', () => {
  let attempt = 0;
  it('an admin adds a network, is refused an overlapping one, assigns a static address and finds who had an address', async () => {
    // A retry (a loaded CI) works on a network of its own: the first attempt's may already be saved.
    attempt++;
    const net = ['198.51.100', '198.18.0', '198.18.1'][Math.min(attempt, 3) - 1];
    const netName = attempt === 1 ? 'E2E statics' : `E2E statics ${attempt}`;
    const admin = await tokenOf('admin@isp.local');
    const demoNets = (await api<{ items: Net[] }>('GET', '/ipam/networks', admin)).items;
    const demoStatics = demoNets.find((n) => n.name === 'Static customers')!;
    const demoPool = demoNets.find((n) => n.purpose === 'pool')!;
    const held = (
      await api<{ items: Array<{ address: string; state: string; customer_name: string; user_id: string }> }>(
        'GET',
        `/ipam/networks/${demoStatics.id}/addresses`,
        admin,
      )
    ).items.find((i) => i.state === 'static')!;
    const subs = await api<
      | Array<{ id: string; status: string; user_name: string }>
      | { items: Array<{ id: string; status: string; user_name: string }> }
    >('GET', '/subscriptions?status=active&limit=50', admin);
    const list = Array.isArray(subs) ? subs : subs.items;
    // An active subscription without a static address yet.
    let subscription: { id: string; user_name: string } | undefined;
    for (const s of list) {
      const a = await api<{ address: string | null }>('GET', `/subscriptions/${s.id}/address`, admin);
      if (!a.address) {
        subscription = s;
        break;
      }
    }
    expect(subscription).toBeTruthy();

    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    try {
      await portal.signIn(page, 'admin@isp.local');
      await page.getByRole('menuitem', { name: 'Network' }).click();
      await page.getByRole('menuitem', { name: 'IP networks' }).click();
      await page.waitForURL(`${portal.url}/dashboard/nas/ip-networks`);
      const staticRow = page.locator('tr', { hasText: demoStatics.cidr });
      await staticRow.getByTestId('usage-bar').waitFor();
      await checkEverywhere(
        page,
        'ip-networks',
        (p) => p.locator('tr', { hasText: demoPool.cidr }).getByTestId('usage-bar'),
        { shotsDir: SHOTS, reload: true },
      );

      // A new network through the form.
      await page.getByRole('button', { name: 'Add network' }).click();
      await page.waitForURL(`${portal.url}/dashboard/nas/ip-networks/create`);
      await checkEverywhere(page, 'ip-network-create', (p) => p.getByLabel('Network (CIDR)'), {
        shotsDir: SHOTS,
        reload: true,
      });
      await page.getByLabel('Name', { exact: true }).fill(`${netName}`);
      await page.getByLabel('Network (CIDR)').fill(`${net}.0/24`);
      await page.getByLabel('Gateway').fill(`${net}.1`);
      await page.getByRole('button', { name: /Save/ }).click();
      await page.waitForURL((url) => url.pathname === '/dashboard/nas/ip-networks');
      await page.locator('tr', { hasText: `${net}.0/24` }).waitFor();

      // An overlapping one: the server's 409 on the CIDR field, nothing saved.
      await page.getByRole('button', { name: 'Add network' }).click();
      await page.getByLabel('Name', { exact: true }).fill(`${netName} overlap`);
      await page.getByLabel('Network (CIDR)').fill(`${net}.128/25`);
      await page.getByRole('button', { name: /Save/ }).click();
      const cidrItem = page.locator('.ant-form-item', { has: page.getByLabel('Network (CIDR)') });
      await cidrItem.getByText(`${net}.128/25 overlaps the network "${netName}" (${net}.0/24)`).waitFor();
      expect(page.url()).toBe(`${portal.url}/dashboard/nas/ip-networks/create`);
      // A malformed CIDR is refused before it is sent, with the contract's message.
      await page.getByLabel('Network (CIDR)').fill(`${net}.5/24`);
      await cidrItem.getByText(/host bits set/).waitFor();

      // The new network's address map: network address, gateway, free cells.
      const created = (await api<{ items: Net[] }>('GET', '/ipam/networks?limit=100', admin)).items.find(
        (n) => n.cidr === `${net}.0/24`,
      )!;
      await portal.open(page, `/dashboard/nas/ip-networks/show/${created.id}`);
      const grid = page.getByTestId('address-grid');
      await grid.waitFor();
      expect(await grid.locator('button').count()).toBe(256);
      expect(await grid.locator(`[data-address="${net}.0"]`).getAttribute('data-state')).toBe('network');
      expect(await grid.locator(`[data-address="${net}.1"]`).getAttribute('data-state')).toBe('gateway');
      expect(await grid.locator(`[data-address="${net}.255"]`).getAttribute('data-state')).toBe('broadcast');
      expect(await grid.locator(`[data-address="${net}.20"]`).getAttribute('data-state')).toBe('free');

      // The subscription page: assign 198.51.100.20 from the new network.
      await portal.open(page, `/dashboard/subscription/${subscription!.id}`);
      const card = page.getByTestId('address-card');
      await card.getByRole('button', { name: 'Change' }).click();
      await card.getByTestId('address-form').waitFor();
      await openStateIsClean(page, 'the address form');
      await card.getByRole('combobox', { name: 'Network' }).click();
      await page.locator('.ant-select-item-option', { hasText: `${netName}` }).click();
      await card.getByLabel('Address', { exact: true }).fill(`${net}.1`);
      await card.getByRole('button', { name: 'Save' }).click();
      await card.getByTestId('address-error').getByText(`${net}.1 is the gateway of "${netName}"`).waitFor();
      await card.getByLabel('Address', { exact: true }).fill(`${net}.20`);
      // …and the next free /56 of the demo's IPv6 delegation network.
      await card.getByRole('combobox', { name: 'Or delegate the next free prefix of' }).click();
      await page.locator('.ant-select-item-option', { hasText: 'IPv6 delegation' }).click();
      await card.getByRole('button', { name: 'Save' }).click();
      await card.getByTestId('static-address').getByText(`${net}.20`).waitFor();
      await card.getByText(/^2001:db8:100:[0-9a-f:]*\/56$/).waitFor();
      await checkEverywhere(page, 'subscription-address', (p) => p.getByTestId('static-address'), {
        shotsDir: SHOTS,
        reload: true,
      });

      // …and on the map, with its customer.
      await card.getByRole('link', { name: `${netName} (${net}.0/24)` }).click();
      await page.waitForURL(`${portal.url}/dashboard/nas/ip-networks/show/${created.id}`);
      const cell = page.getByTestId('address-grid').locator(`[data-address="${net}.20"]`);
      await expect.poll(() => cell.getAttribute('data-state')).toBe('static');
      const named = page
        .getByTestId('address-grid')
        .getByRole('button', { name: `${net}.20: Static, ${subscription!.user_name}`, exact: true });
      await named.click();
      await page.getByTestId('address-holder').getByRole('link', { name: subscription!.user_name }).waitFor();
      await openStateIsClean(page, 'the address map with a holder shown');

      // A big pool's map pages by /24, with the addresses in open sessions.
      await portal.open(page, `/dashboard/nas/ip-networks/show/${demoPool.id}`);
      await page.getByText('Block 1 of 4').waitFor();
      await expect
        .poll(() => page.getByTestId('address-grid').locator('[data-state="dynamic"]').count())
        .toBeGreaterThan(5);
      await checkEverywhere(
        page,
        'ip-network-map',
        (p) => p.getByTestId('address-grid').locator('[data-state="dynamic"]').first(),
        { shotsDir: SHOTS, reload: true },
      );

      // The address history: who had a demo customer's static address now.
      await page.getByRole('menuitem', { name: 'Address history' }).click();
      await page.waitForURL(`${portal.url}/dashboard/nas/ip-history`);
      await page.getByText('Enter an address (and a time) to search the accounting sessions.').waitFor();
      await page.getByLabel('IP address').fill('not-an-ip');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByText('Enter a valid IPv4 or IPv6 address').waitFor();
      await page.getByLabel('IP address').fill('192.0.2.99');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByText('No accounting session has had 192.0.2.99.').waitFor();

      const now = new Date();
      const pad = (n: number) => String(n).padStart(2, '0');
      const local = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}:${pad(now.getMinutes())}`;
      await page.getByLabel('IP address').fill(held.address);
      await page.getByLabel('Date and time').click();
      await page.getByLabel('Date and time').fill(local);
      await page.getByLabel('Date and time').press('Enter');
      await page.getByRole('button', { name: 'Search' }).click();
      const answer = page.getByTestId('history-answer');
      // The answer names the moment in the portal's one date format (the browser's locale, en-US here).
      const asked = new Date(now.getFullYear(), now.getMonth(), now.getDate(), now.getHours(), now.getMinutes());
      await answer.getByText(`At ${formatDateTime(asked, 'en-US')}, ${held.address} was held by`).waitFor();
      await answer.getByRole('link', { name: held.customer_name }).waitFor();
      await answer.getByText('Still online').waitFor();
      await page.getByTestId('history-recent').getByRole('link', { name: held.customer_name }).first().waitFor();
      await checkEverywhere(
        page,
        'ip-history',
        (p) => p.getByTestId('history-answer').getByRole('link', { name: held.customer_name }),
        { shotsDir: SHOTS, reload: true },
      );
      await answer.getByRole('link', { name: held.customer_name }).click();
      await page.waitForURL(`${portal.url}/dashboard/user/${held.user_id}`);
    } finally {
      await page.close();
    }
    // Five screen checks, each reloading for its colour mode: 220 s alone here, so room for a loaded CI.
  }, 420_000);

  it('support reads the networks, the map and a subscription address without any button to change them', async () => {
    const admin = await tokenOf('admin@isp.local');
    const statics = (await api<{ items: Net[] }>('GET', '/ipam/networks', admin)).items.find(
      (n) => n.name === 'Static customers',
    )!;
    const held = (
      await api<{ items: Array<{ address: string; state: string; subscription_id: string }> }>(
        'GET',
        `/ipam/networks/${statics.id}/addresses`,
        admin,
      )
    ).items.find((i) => i.state === 'static')!;
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    try {
      await portal.signIn(page, 'support@isp.local');
      await portal.open(page, '/dashboard/nas/ip-networks');
      await page.locator('tr', { hasText: statics.cidr }).getByTestId('usage-bar').waitFor();
      await page.getByText('Your role can view the networks but not change them.').waitFor();
      expect(await page.getByRole('button', { name: /Add network|Edit|Delete/ }).count()).toBe(0);
      await portal.open(page, `/dashboard/nas/ip-networks/show/${statics.id}`);
      await page.getByTestId('address-grid').waitFor();
      expect(await page.getByRole('button', { name: /Edit/ }).count()).toBe(0);
      await portal.open(page, `/dashboard/subscription/${held.subscription_id}`);
      const card = page.getByTestId('address-card');
      await card.getByTestId('static-address').getByText(held.address).waitFor();
      expect(await card.getByRole('button', { name: /Change|Release/ }).count()).toBe(0);
    } finally {
      await page.close();
    }
  }, 120_000);
  it('a customer with a static address sees it (and their delegated prefix) on their subscription, and no networks', async () => {
    const admin = await tokenOf('admin@isp.local');
    const statics = (await api<{ items: Net[] }>('GET', '/ipam/networks', admin)).items.find(
      (n) => n.name === 'Static customers',
    )!;
    const held = (
      await api<{ items: Array<{ address: string; state: string; subscription_id: string; user_id: string }> }>(
        'GET',
        `/ipam/networks/${statics.id}/addresses`,
        admin,
      )
    ).items.find((i) => i.state === 'static')!;
    const own = await api<{ delegated_ipv6_prefix: string | null }>(
      'GET',
      `/subscriptions/${held.subscription_id}/address`,
      admin,
    );
    const { email } = await api<{ email: string }>('GET', `/users/${held.user_id}`, admin);
    const page = await portal.browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await portal.signIn(page, email);
      await portal.open(page, `/dashboard/subscription/${held.subscription_id}`);
      const card = page.getByTestId('address-card');
      await card.getByTestId('static-address').getByText(held.address).waitFor();
      await card.getByText('Fixed: your connection keeps this public address every time it connects.').waitFor();
      if (own.delegated_ipv6_prefix) await card.getByText(own.delegated_ipv6_prefix, { exact: true }).waitFor();
      expect(await card.getByRole('button', { name: /Change|Release/ }).count()).toBe(0);
      expect(await card.getByRole('link').count()).toBe(0);
      await checkEverywhere(page, 'customer-subscription-address', (p) => p.getByTestId('static-address'), {
        shotsDir: SHOTS,
        reload: true,
      });
    } finally {
      await page.close();
    }
  });
});
