/** Issue 12: security headers on the web app, the API and over HTTPS behind a trusted proxy. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeDist } from '../helpers/fake-dist';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const INDEX =
  '<!doctype html><html><head><title>x</title></head><body><div id="root"></div><script type="module" src="/assets/app-abc123.js"></script></body></html>';

function directives(header: string | string[] | number | undefined): Map<string, string> {
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(/\s+/)[0], d.split(/\s+/).slice(1).join(' ')] as [string, string]),
  );
}

describe('security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { serveSpa: true, distDir: fakeDist(INDEX) } });
    await t.createUser({ email: 'admin@example.com', role: 'admin' });
  });
  afterAll(() => t.close());

  it.each(['/', '/dashboard/users'])(
    '%s: a CSP with no inline script, no framing, nosniff, no referrer, no HSTS over HTTP',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('script-src')).toBe("'self'");
      expect(csp.get('default-src')).toBe("'self'");
      expect(csp.get('frame-ancestors')).toBe("'none'");
      expect(csp.get('object-src')).toBe("'none'");
      expect(csp.get('connect-src')).toBe("'self'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['strict-transport-security']).toBeUndefined();
      // The settings travel as data the browser never runs, so script-src needs no 'unsafe-inline'.
      expect(res.body).toMatch(/<script id="portal-settings" type="application\/json">/);
      expect(res.body).not.toMatch(/<script>(?!<)/);
    },
  );

  it("a hashed script keeps a subresource's protections and sheds the document-only headers", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log("app");');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Headers that act only on documents, and validators an immutable file is never revalidated with.
    for (const name of [
      'content-security-policy',
      'x-frame-options',
      'referrer-policy',
      'cross-origin-opener-policy',
      'etag',
      'last-modified',
      'x-request-id',
    ]) {
      expect(res.headers[name], name).toBeUndefined();
    }
  });

  it('an SVG, which a browser may open as a document, keeps the full set', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(res.statusCode).toBe(200);
    expect(directives(res.headers['content-security-policy']).get('script-src')).toBe("'self'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers.etag).toBeDefined();
  });

  it('signed-in API answers and every sign-in answer are never stored by a cache; public ones may be', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'admin@example.com', password: 'Correct-Horse-9', rememberMe: false },
    });
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    const users = await t.app.inject({
      method: 'GET',
      url: '/api/users',
      headers: bearer(login.json().data.tokens.access.token),
    });
    expect(users.statusCode).toBe(200);
    expect(users.headers['cache-control']).toBe('no-store');
    expect(users.headers['x-content-type-options']).toBe('nosniff');
    expect(directives(users.headers['content-security-policy']).get('frame-ancestors')).toBe("'none'");

    const refused = await t.app.inject({ method: 'GET', url: '/api/users', headers: bearer('not-a-token') });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');

    const plans = await t.app.inject({ method: 'GET', url: '/api/plans' });
    expect(plans.statusCode).toBe(200);
    expect(plans.headers['cache-control']).toBeUndefined();
  });

  it('the sandbox checkout page keeps its own stricter policy', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/payments/sandbox/checkout/00000000-0000-4000-8000-000000000000',
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('text/html');
    const csp = directives(res.headers['content-security-policy']);
    expect(csp.get('default-src')).toBe("'none'");
    expect(csp.has('script-src')).toBe(false);
  });
});

describe('behind a TLS-terminating proxy (TRUST_PROXY)', () => {
  let trusted: TestApp;
  let untrusted: TestApp;
  beforeAll(async () => {
    trusted = await createTestApp({ config: { trustProxy: true } });
    untrusted = await createTestApp();
  });
  afterAll(async () => {
    await trusted.close();
    await untrusted.close();
  });

  it('sends HSTS when the proxy says the request came over HTTPS', async () => {
    const res = await trusted.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const plain = await trusted.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-forwarded-proto': 'http' },
    });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('ignores the header from an untrusted client', async () => {
    const res = await untrusted.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});
