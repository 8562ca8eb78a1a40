/**
 * The hotspot's external login page in Chromium (issue 22). A local HTTP listener plays the MikroTik hotspot: its
 * address is the page's link-login-only, and it records what the login form posts to it. With chap-id and
 * chap-challenge (octal escapes, as MikroTik writes them) the password posted must be the hex MD5 of the octets
 * chap-id + code + chap-challenge, computed here with Node's crypto; without them (PAP) the code itself. The page
 * passes axe-core at 390 and 1366 px, light and dark, without scrolling sideways, and with no CSP violation.
 * Issue 32: the hotspot is registered under Devices (its hotspot URL); a second listener that is not registered
 * gets no form and nothing posted, and the router's `error` shows only as our text for a known message.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, overflowsViewport } from '../helpers/axe';
import { portalApi, usePortal } from '../helpers/browser';

const portal = usePortal();
const { api, tokenOf } = portalApi(portal);
const SHOTS = process.env.HOTSPOT_SHOTS_DIR;

/** The hotspot: answers every login POST with a small page, keeping the form fields it was sent. */
class FakeHotspot {
  server!: Server;
  readonly posts: Array<Record<string, string>> = [];
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        if (request.method === 'POST') this.posts.push(Object.fromEntries(new URLSearchParams(body)));
        response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end('<!DOCTYPE html><title>logged in</title><p>You are logged in</p>');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/login`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Bytes as MikroTik writes them into login.html: "\ooo" for each. */
const octal = (bytes: Buffer) => [...bytes].map((b) => `\\${b.toString(8).padStart(3, '0')}`).join('');

describe('hotspot login page in the browser', () => {
  const hotspot = new FakeHotspot();
  // A page that is no registered hotspot (someone's laptop on the same Wi-Fi, or a phishing site).
  const stranger = new FakeHotspot();
  beforeAll(async () => {
    await Promise.all([hotspot.start(), stranger.start()]);
    const admin = await tokenOf('admin@isp.local');
    await api('POST', '/devices', admin, {
      name: 'Hotspot (browser test)',
      host: '127.0.0.1',
      snmp_community: 'public',
      hotspot_url: hotspot.url,
    });
  });
  afterAll(() => Promise.all([hotspot.stop(), stranger.stop()]));

  async function openLogin(query: Record<string, string>): Promise<{ page: Page; violations: string[] }> {
    const page = await portal.browser.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    const response = await page.goto(
      `${portal.url}/hotspot/login?${new URLSearchParams({ 'link-login-only': hotspot.url, ...query })}`,
    );
    expect(response?.status()).toBe(200);
    await page.getByLabel('Voucher code').waitFor();
    return { page, violations };
  }

  async function logIn(page: Page, typed: string): Promise<Record<string, string>> {
    const before = hotspot.posts.length;
    await page.getByLabel('Voucher code').fill(typed);
    await Promise.all([page.waitForURL(hotspot.url), page.getByRole('button', { name: 'Connect' }).click()]);
    await page.getByText('You are logged in').waitFor();
    expect(hotspot.posts).toHaveLength(before + 1);
    return hotspot.posts.at(-1)!;
  }

  it('HTTP-CHAP: posts the code as user name and hex MD5(chap-id + code + chap-challenge) as password, to the hotspot', async () => {
    const chapId = Buffer.from([0o371]);
    // Every kind of octet: high ones (not UTF-8 text), a zero, a carriage return, a backslash and a quote.
    const challenge = Buffer.concat([Buffer.from([0xef, 0x00, 0x0d, 0x5c, 0x22, 0x80, 0xff]), randomBytes(9)]);
    const { page, violations } = await openLogin({
      'chap-id': octal(chapId),
      'chap-challenge': octal(challenge),
      'link-orig': 'http://example.com/news',
      mac: '01:23:45:67:89:AB',
    });
    try {
      // Typed as a customer might: lower case, a dash and a space; sent as the portal stores the code.
      const form = await logIn(page, 'k7p4-x9m2 q');
      const code = 'K7P4X9M2Q';
      const expected = createHash('md5')
        .update(Buffer.concat([chapId, Buffer.from(code, 'ascii'), challenge]))
        .digest('hex');
      expect(form).toEqual({ username: code, password: expected, dst: 'http://example.com/news', popup: 'true' });
      expect(violations).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('PAP (no chap-id): posts the code itself as the password', async () => {
    const { page } = await openLogin({ dst: 'http://example.org/' });
    try {
      expect(await logIn(page, 'ABCD2345X')).toEqual({
        username: 'ABCD2345X',
        password: 'ABCD2345X',
        dst: 'http://example.org/',
        popup: 'true',
      });
    } finally {
      await page.close();
    }
  });

  it('with the router’s error: no axe-core violations and no sideways scroll at 390 and 1366 px, light and dark', async () => {
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [390, 1366]) {
        const { page, violations } = await openLogin({
          error: 'Voucher code not accepted',
          'chap-id': '\\371',
          'chap-challenge': '\\357\\015',
        });
        try {
          await page.emulateMedia({ colorScheme });
          await page.setViewportSize({ width, height: 800 });
          await expect(page.getByRole('alert').textContent()).resolves.toBe(
            'That code was not accepted. Check it and try again; a code whose time or data is used up no longer works.',
          );
          await page.getByLabel('Voucher code').fill('K7P4X9M2Q');
          expect(await axeViolations(page), `${colorScheme} ${width}`).toEqual([]);
          expect(await overflowsViewport(page)).toBe(false);
          expect(violations).toEqual([]);
          if (SHOTS)
            await page.screenshot({ path: `${SHOTS}/hotspot-login-${width}-${colorScheme}.png`, fullPage: true });
        } finally {
          await page.close();
        }
      }
    }
  });

  it('a made-up error text is not shown; a link-login-only that is no registered hotspot gets a message and no form', async () => {
    const { page } = await openLogin({ error: 'Your card is blocked: call +1 900 555 0100 now' });
    try {
      await expect(page.getByRole('alert').textContent()).resolves.toBe('The login did not succeed. Please try again.');
      expect(await page.getByText('+1 900 555 0100').count()).toBe(0);
    } finally {
      await page.close();
    }
    const other = await portal.browser.newPage({ viewport: { width: 390, height: 800 } });
    try {
      const response = await other.goto(
        `${portal.url}/hotspot/login?${new URLSearchParams({ 'link-login-only': stranger.url, username: 'K7P4X9M2Q' })}`,
      );
      expect(response?.status()).toBe(403);
      await expect(other.getByRole('alert').textContent()).resolves.toContain('This Wi-Fi hotspot is not one of ours');
      expect(await other.getByLabel('Voucher code').count()).toBe(0);
      expect(await other.getByRole('button', { name: 'Connect' }).count()).toBe(0);
      expect(await axeViolations(other)).toEqual([]);
      expect(stranger.posts).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('opened without a hotspot: a 400 page that says how to get there, accessible at 390 px', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 390, height: 800 } });
    try {
      const response = await page.goto(`${portal.url}/hotspot/login`);
      expect(response?.status()).toBe(400);
      await expect(page.getByRole('alert').textContent()).resolves.toContain(
        'This page is opened by the Wi-Fi hotspot',
      );
      expect(await axeViolations(page)).toEqual([]);
      expect(await overflowsViewport(page)).toBe(false);
    } finally {
      await page.close();
    }
  });
});
