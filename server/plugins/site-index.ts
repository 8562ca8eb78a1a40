/**
 * robots.txt and sitemap.xml for search engines (issue 34): the public site's pages are listed and may be crawled;
 * the portal (/dashboard, sign-in and account pages, invoices), the API and the hotspot page may not. Absolute URLs
 * from APP_URL. Before, both paths answered the web app's HTML.
 */
import fp from 'fastify-plugin';
import { SITE_PATHS } from '../../contract/site-paths';

/** Paths crawlers are asked to leave alone (prefixes). */
export const ROBOTS_DISALLOW = [
  '/api/',
  '/dashboard',
  '/login',
  '/register',
  '/password-reset',
  '/verify-email',
  '/confirm-email',
  '/verification-success',
  '/invoice',
  '/hotspot/',
  '/suspended',
];

const xmlEscape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

export default fp(
  async (app) => {
    const origin = app.config.appUrl.replace(/\/+$/, '');
    const robots = [
      'User-agent: *',
      'Allow: /',
      ...ROBOTS_DISALLOW.map((p) => `Disallow: ${p}`),
      '',
      `Sitemap: ${origin}/sitemap.xml`,
      '',
    ].join('\n');
    const sitemap = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...SITE_PATHS.map((path) => `  <url><loc>${xmlEscape(origin + path)}</loc></url>`),
      '</urlset>',
      '',
    ].join('\n');
    app.get('/robots.txt', async (_request, reply) =>
      reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(robots),
    );
    app.get('/sitemap.xml', async (_request, reply) =>
      reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=3600').send(sitemap),
    );
  },
  { name: 'site-index' },
);
