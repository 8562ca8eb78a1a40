/**
 * robots.txt and sitemap.xml (issue 34): search engines get a real robots.txt (the public pages allowed, the portal,
 * the API and the hotspot page not) and a sitemap of the public site's pages with APP_URL's absolute addresses —
 * not the web app's HTML, which both paths answered before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_PATHS } from '../../contract/site-paths';
import { fakeDist } from '../helpers/fake-dist';
import { createTestApp, type TestApp } from '../helpers/server';

describe('robots.txt and sitemap.xml', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      config: {
        serveSpa: true,
        distDir: fakeDist('<!doctype html><html><body>app</body></html>'),
        appUrl: 'https://portal.example.net/',
      },
    });
  });
  afterAll(() => t.close());

  it('robots.txt lets crawlers read the public site, keeps them out of the portal and the API, and names the sitemap', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe('User-agent: *');
    for (const path of ['/dashboard', '/api/', '/login', '/invoice', '/hotspot/'])
      expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).toContain('Allow: /');
    expect(lines[lines.length - 1]).toBe('Sitemap: https://portal.example.net/sitemap.xml');
    expect(res.body).not.toContain('<html');
  });

  it("sitemap.xml lists every public page at APP_URL's address, and no portal page", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(
      res.body.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ),
    ).toBe(true);
    const locs = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual(SITE_PATHS.map((p) => `https://portal.example.net${p}`));
    expect(locs).toContain('https://portal.example.net/plans');
    expect(locs.some((l) => l!.includes('/dashboard'))).toBe(false);
    // Any other path is still the web app.
    expect((await t.app.inject({ method: 'GET', url: '/plans' })).body).toContain('app');
  });
});
