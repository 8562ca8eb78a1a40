/**
 * The MikroTik hotspot's external login page (issue 22): GET /hotspot/login with MikroTik's login.html variables.
 * The portal's name, every variable written into the page HTML-escaped, the form posting to the router's
 * link-login-only, a Content-Security-Policy whose form-action is that router and nothing else; a page not opened
 * by a hotspot (no, or no web, link-login-only) is a 400; and the login.html to put on the router.
 * Issue 32: the form posts only to a registered NAS's hotspot (devices' hotspot_url, matched by origin), else the
 * page says so without a form (403); the router's `error` shows only as our text for the router's known messages.
 * Issue 37: the page speaks the phone's language (Accept-Language) among the ISP's offered ones, Arabic right to left.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_ROUTER_ERROR } from '../../server/modules/hotspot/page';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const ROUTER = 'http://10.5.50.1/login';

function csp(header: unknown): Map<string, string> {
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(/\s+/)[0]!, d.split(/\s+/).slice(1).join(' ')] as [string, string]),
  );
}

describe('hotspot login page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { appUrl: 'https://portal.example.net', appUrlExplicit: true } });
    await t.createUser({ email: 'admin@example.com', role: 'admin' });
    const { token } = await t.login('admin@example.com');
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: bearer(token),
      payload: { company: { name: 'Fibre & "Sons" <Net>' } },
    });
    expect(put.statusCode, put.body).toBe(200);
    // The two hotspots this ISP runs, registered under Devices with their login address.
    for (const [name, hotspot_url] of [
      ['hs-main', ROUTER],
      ['hs-cafe', 'https://hotspot.cafe.example:8443/login'],
    ]) {
      const added = await t.app.inject({
        method: 'POST',
        url: '/api/devices',
        headers: bearer(token),
        payload: { name, host: '10.5.50.1', snmp_community: 'public', hotspot_url },
      });
      expect(added.statusCode, added.body).toBe(201);
      expect(added.json().data.hotspot_url).toBe(hotspot_url);
    }
    adminToken = token;
  });
  let adminToken: string;
  afterAll(() => t.close());

  const open = (query: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `/hotspot/login?${new URLSearchParams(query)}` });

  it('shows the portal name and a voucher form posting to the router, every variable escaped; its CSP lets the form reach that router only', async () => {
    const evil = '"><script>alert(1)</script>';
    const res = await open({
      'link-login-only': ROUTER,
      'link-orig': 'http://example.com/news?a=1&b=2',
      'chap-id': '\\371',
      'chap-challenge': '\\357\\015\\330"<x>',
      mac: '01:23:45:67:89:AB',
      error: `RADIUS server is not responding ${evil}`,
      username: evil,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const html = res.body;
    expect(html).toContain('<h1>Fibre &amp; &quot;Sons&quot; &lt;Net&gt;</h1>');
    expect(html).toContain(`<form id="hotspot-login" method="post" action="${ROUTER}"`);
    expect(html).toContain('data-chap-id="\\371" data-chap-challenge="\\357\\015\\330&quot;&lt;x&gt;"');
    expect(html).toContain('<input type="hidden" name="dst" value="http://example.com/news?a=1&amp;b=2">');
    // An error text the router never writes is not shown, only that the login did not succeed.
    expect(html).toContain(`<p class="error" role="alert">${UNKNOWN_ROUTER_ERROR}</p>`);
    expect(html).not.toContain('alert(1)&lt;/script&gt;</p>');
    expect(html).toContain('name="username" value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).not.toContain('<script>alert');
    // Only the page's own script files, not the web app's bundle.
    expect([...html.matchAll(/<script[^>]*>/g)].map((m) => m[0])).toEqual([
      '<script src="/hotspot/md5.min.js">',
      '<script src="/hotspot/login.js">',
    ]);

    const policy = csp(res.headers['content-security-policy']);
    expect(policy.get('form-action')).toBe("'self' http://10.5.50.1");
    expect(policy.get('script-src')).toBe("'self'");
    expect(policy.get('default-src')).toBe("'none'");
    expect(policy.get('frame-ancestors')).toBe("'none'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');

    // A router on another port and over HTTPS: the form-action follows it.
    const https = await open({ 'link-login-only': 'https://hotspot.cafe.example:8443/login' });
    expect(csp(https.headers['content-security-policy']).get('form-action')).toBe(
      "'self' https://hotspot.cafe.example:8443",
    );
    expect(https.body).not.toContain('role="alert"');
  });

  it('answers 400 with a readable page when link-login-only is missing or not a web address, or the CHAP challenge is half there', async () => {
    const queries: Array<Record<string, string>> = [
      {},
      { 'link-login-only': 'javascript:alert(1)' },
      { 'link-login-only': 'ftp://10.5.50.1/login' },
      { 'link-login-only': 'http://admin:secret@10.5.50.1/login' },
      { 'link-login-only': '/login' },
      { 'link-login-only': ROUTER, 'chap-id': '\\371' },
      { 'link-login-only': ROUTER, 'chap-id': '\\371', 'chap-challenge': '\u00e9\u00e9' },
    ];
    for (const query of queries) {
      const res = await open(query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toMatch(
        /class="error" role="alert">(This page is opened by the Wi-Fi hotspot|The hotspot sent an incomplete login challenge)/,
      );
      expect(res.body).not.toContain('<form');
      expect(csp(res.headers['content-security-policy']).get('form-action')).toBe("'self'");
    }
    // A link-orig that is no web address is not sent back to the router as the page to open.
    const res = await open({ 'link-login-only': ROUTER, 'link-orig': 'javascript:alert(1)' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<input type="hidden" name="dst" value="">');
  });

  it('a router that posts its variables gets the same page', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/hotspot/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ 'link-login-only': ROUTER, error: 'invalid username or password' }).toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain(
      'role="alert">That code was not accepted. Check it and try again; a code whose time or data is used up no longer works.</p>',
    );
  });

  it("shows the router's known messages as our own text, and nothing of any other text", async () => {
    const shown = async (error: string) => {
      const res = await open({ 'link-login-only': ROUTER, error });
      expect(res.statusCode).toBe(200);
      return /role="alert">([^<]*)<\/p>/.exec(res.body)?.[1] ?? null;
    };
    expect(await shown('Voucher code not accepted')).toBe(
      'That code was not accepted. Check it and try again; a code whose time or data is used up no longer works.',
    );
    expect(await shown('RADIUS server is not responding')).toBe(
      'The login service is not answering right now. Please try again in a minute.',
    );
    expect(await shown('user 7KQ2MZ9PXA has reached uptime limit')).toBe('The time on this code is used up.');
    expect(await shown('no more sessions are allowed for user 7KQ2MZ9PXA')).toBe(
      'This code is already in use on another device.',
    );
    expect(await shown('Your account is blocked: call 0800 EVIL and read out your card number')).toBe(
      UNKNOWN_ROUTER_ERROR,
    );
    expect(await shown('')).toBeNull();
  });

  it('a link-login-only that is no registered hotspot gets no form: a message instead (403), nothing posted anywhere', async () => {
    for (const link of [
      'https://evil.example/steal',
      'http://10.5.50.2/login',
      'https://10.5.50.1/login',
      'http://10.5.50.1:8080/login',
    ]) {
      const res = await open({ 'link-login-only': link, username: 'ABCD', error: 'invalid username or password' });
      expect(res.statusCode, link).toBe(403);
      expect(res.body).not.toContain('<form');
      expect(res.body).not.toContain('<script');
      expect(res.body).toContain('This Wi-Fi hotspot is not one of ours');
      expect(csp(res.headers['content-security-policy']).get('form-action')).toBe("'self'");
    }
    // Another path on a registered hotspot's origin is that hotspot (MikroTik's login path may change).
    expect((await open({ 'link-login-only': 'http://10.5.50.1/other-login' })).statusCode).toBe(200);
  });

  it('devices: hotspot_url must be an http(s) address, can be cleared, and is not shown to technicians', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: bearer(adminToken),
      payload: { name: 'hs-bad', host: '10.5.50.9', snmp_community: 'public', hotspot_url: 'javascript:alert(1)' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([expect.objectContaining({ field: 'hotspot_url' })]);
    const list = (
      await t.app.inject({ method: 'GET', url: '/api/devices?search=hs-cafe', headers: bearer(adminToken) })
    ).json().data;
    const cafe = (Array.isArray(list) ? list : list.items)[0];
    const cleared = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${cafe.id}`,
      headers: bearer(adminToken),
      payload: { hotspot_url: '' },
    });
    expect([cleared.statusCode, cleared.json().data.hotspot_url]).toEqual([200, null]);
    expect((await open({ 'link-login-only': 'https://hotspot.cafe.example:8443/login' })).statusCode).toBe(403);
    const back = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${cafe.id}`,
      headers: bearer(adminToken),
      payload: { hotspot_url: 'https://hotspot.cafe.example:8443/login' },
    });
    expect(back.statusCode).toBe(200);
    await t.createUser({ email: 'tech@example.com', role: 'technician' });
    const tech = (await t.login('tech@example.com')).token;
    const seen = (await t.app.inject({ method: 'GET', url: `/api/devices/${cafe.id}`, headers: bearer(tech) })).json()
      .data;
    expect(seen).not.toHaveProperty('hotspot_url');
  });

  it('serves its scripts (js-md5 and the page script), and the login.html for the router pointing at this portal', async () => {
    const md5 = await t.app.inject({ method: 'GET', url: '/hotspot/md5.min.js' });
    expect(md5.statusCode).toBe(200);
    expect(md5.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(md5.body).toContain('js-md5');
    const script = await t.app.inject({ method: 'GET', url: '/hotspot/login.js' });
    expect(script.statusCode).toBe(200);
    expect(script.body).toContain("getElementById('hotspot-login')");

    const router = await t.app.inject({ method: 'GET', url: '/hotspot/mikrotik-login.html' });
    expect(router.statusCode).toBe(200);
    expect(router.headers['content-disposition']).toBe('attachment; filename="login.html"');
    expect(router.body).toContain(
      '<meta http-equiv="refresh" content="0; url=https://portal.example.net/hotspot/login?link-login-only=$(link-login-only-esc)&amp;dst=$(link-orig-esc)&amp;chap-id=$(chap-id-esc)&amp;chap-challenge=$(chap-challenge-esc)',
    );
  });
  it("speaks the phone's language among the offered ones (Arabic right to left), else the ISP's default", async () => {
    const locale = (code: string): Record<string, string> =>
      JSON.parse(readFileSync(join(__dirname, '../../src/i18n/locales', `${code}.json`), 'utf8'));
    const es = locale('es');
    const ar = locale('ar');
    const openIn = (acceptLanguage: string, error = '') =>
      t.app.inject({
        method: 'GET',
        url: `/hotspot/login?${new URLSearchParams({ 'link-login-only': ROUTER, error })}`,
        headers: { 'accept-language': acceptLanguage },
      });
    const spanish = (await openIn('es-MX,es;q=0.9,en;q=0.5', 'user x has reached traffic limit')).body;
    expect(spanish).toContain('<html lang="es" dir="ltr">');
    expect(spanish).toContain(`<label for="code">${es['msg.Voucher code']}</label>`);
    expect(spanish).toContain(`<button type="submit">${es['msg.Connect']}</button>`);
    expect(spanish).toContain(es['msg.The data on this code is used up.']);
    expect(spanish).not.toContain('Voucher code');

    const arabic = (await openIn('ar-SA,ar;q=0.9')).body;
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(arabic).toContain(ar['msg.Enter the code printed on your voucher to go online.']);
    // Not opened by a hotspot: the problem is said in the phone's language too.
    const problem = await t.app.inject({ method: 'GET', url: '/hotspot/login', headers: { 'accept-language': 'ar' } });
    expect(problem.statusCode).toBe(400);
    expect(problem.body).toContain('dir="rtl"');

    // A language the ISP does not offer: its default. No header at all: English as before.
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: bearer(adminToken),
      payload: { languages: { default: 'es', offered: ['es', 'en'] } },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await openIn('ar,fr;q=0.8')).body).toContain('<html lang="es" dir="ltr">');
    await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: bearer(adminToken),
      payload: { languages: { default: 'en', offered: ['en', 'es', 'fr', 'id', 'ar'] } },
    });
    const english = (await open({ 'link-login-only': ROUTER })).body;
    expect(english).toContain('<html lang="en" dir="ltr">');
    expect(english).toContain('<button type="submit">Connect</button>');
  });
});
