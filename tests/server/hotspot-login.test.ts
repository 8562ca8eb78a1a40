/**
 * The MikroTik hotspot's external login page (issue 22): GET /hotspot/login with MikroTik's login.html variables.
 * The portal's name, every variable written into the page HTML-escaped, the form posting to the router's
 * link-login-only, a Content-Security-Policy whose form-action is that router and nothing else; a page not opened
 * by a hotspot (no, or no web, link-login-only) is a 400; and the login.html to put on the router.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    const put = await t.app.inject({ method: 'PUT', url: '/api/settings', headers: bearer(token), payload: { company: { name: 'Fibre & "Sons" <Net>' } } });
    expect(put.statusCode, put.body).toBe(200);
  });
  afterAll(() => t.close());

  const open = (query: Record<string, string>) => t.app.inject({ method: 'GET', url: `/hotspot/login?${new URLSearchParams(query)}` });

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
    expect(html).toContain('<p class="error" role="alert">RADIUS server is not responding &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(html).toContain('name="username" value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).not.toContain('<script>alert');
    // Only the page's own script files, not the web app's bundle.
    expect([...html.matchAll(/<script[^>]*>/g)].map((m) => m[0])).toEqual(['<script src="/hotspot/md5.min.js">', '<script src="/hotspot/login.js">']);

    const policy = csp(res.headers['content-security-policy']);
    expect(policy.get('form-action')).toBe("'self' http://10.5.50.1");
    expect(policy.get('script-src')).toBe("'self'");
    expect(policy.get('default-src')).toBe("'none'");
    expect(policy.get('frame-ancestors')).toBe("'none'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');

    // A router on another port and over HTTPS: the form-action follows it.
    const https = await open({ 'link-login-only': 'https://hotspot.cafe.example:8443/login' });
    expect(csp(https.headers['content-security-policy']).get('form-action')).toBe("'self' https://hotspot.cafe.example:8443");
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
      expect(res.body).toMatch(/class="error" role="alert">(This page is opened by the Wi-Fi hotspot|The hotspot sent an incomplete login challenge)/);
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
    expect(res.body).toContain('role="alert">invalid username or password</p>');
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
});
