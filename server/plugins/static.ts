/**
 * The built web app (dist/) on the same port as the API: files from dist, /assets/* cached for a year (their
 * names carry a content hash), and index.html for every other non-API GET so the SPA handles its own routes
 * (including its not-found screen). Unknown /api paths always get the JSON 404 envelope, never the SPA.
 *
 * The build writes x.br and x.gz next to each text file (vite.config.ts): a browser that accepts brotli or gzip
 * gets that file as it is, with Content-Encoding, the original Content-Type and Vary: Accept-Encoding; the
 * rendered index.html is compressed per answer (server/plugins/compression.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { fail } from '../../contract/envelope';
import type { PublicSettings } from '../../contract/schemas/settings';
import { isApiPath } from './access';
import { isHashedSubresource } from './security-headers';

export interface SpaOptions {
  /** Folder with index.html and assets/; null or missing index.html: the app is not built. */
  distDir: string | null;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * index.html with the public settings: the <title> and the splash's title become the company name and the settings are embedded as
 * JSON (with `<` escaped, so no text in them can close the script element) before </head>.
 */
export function renderIndexHtml(html: string, settings: PublicSettings): string {
  const json = JSON.stringify(settings)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  let out = html.replace(/<title>[\s\S]*?<\/title>/i, () => `<title>${escapeHtml(settings.company.name)}</title>`);
  // The splash in the page (index.html) names the company too, as the app's own splash does.
  out = out.replace(
    /(<h1 id="splash-title">)[\s\S]*?(<\/h1>)/i,
    (_m, open: string, close: string) => `${open}${escapeHtml(settings.company.name)}${close}`,
  );
  const headEnd = out.search(/<\/head>/i);
  if (headEnd !== -1) {
    out = `${out.slice(0, headEnd)}<script id="portal-settings" type="application/json">${json}</script>${out.slice(headEnd)}`;
  }
  return out;
}

export const NOT_BUILT_TEXT =
  'The web app has not been built yet. Run `npm run build` (or `npm start`, which builds it) and reload this page.\n';

export default fp<SpaOptions>(
  async (app, opts) => {
    const distDir = opts.distDir && existsSync(join(opts.distDir, 'index.html')) ? opts.distDir : null;

    if (distDir) {
      await app.register(fastifyStatic, {
        root: distDir,
        wildcard: true,
        // index.html is always rendered with the settings (below), never sent as the raw file (nor its .br/.gz).
        index: false,
        allowedPath: (pathName) => !pathName.startsWith('/index.html'),
        preCompressed: true,
        cacheControl: false,
        setHeaders(res, path) {
          const rel = path.slice(distDir.length).replace(/\\/g, '/');
          res.setHeader(
            'cache-control',
            rel.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
          // Which bytes come back depends on Accept-Encoding (a compressed copy may exist): caches must know.
          res.setHeader('vary', 'Accept-Encoding');
        },
      });
    }

    // A hashed script or style sheet is cached for a year and never revalidated (immutable): a validator would
    // only add bytes to each of the forty-odd scripts a first visit loads.
    app.addHook('onSend', async (request, reply) => {
      if (!isHashedSubresource(request.url)) return;
      reply.removeHeader('etag');
      reply.removeHeader('last-modified');
    });

    // The rendered page, cached until the settings change.
    let rendered: { version: number; html: string } | null = null;
    const indexHtml = async (): Promise<string> => {
      const version = app.settings.version;
      if (rendered && rendered.version === version) return rendered.html;
      const html = renderIndexHtml(
        readFileSync(join(distDir!, 'index.html'), 'utf8'),
        await app.settings.publicSettings(),
      );
      // Cache only if no change happened meanwhile.
      if (app.settings.version === version) rendered = { version, html };
      return html;
    };

    const sendIndex = async (reply: FastifyReply) =>
      reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(await indexHtml());
    // The folder itself ("/") would be refused by the static plugin (no directory index); it is the app.
    if (distDir) app.get('/', async (_request, reply) => sendIndex(reply));

    app.setNotFoundHandler(async (request, reply) => {
      const path = request.url.split('?')[0];
      if (isApiPath(path)) return reply.code(404).send(fail('Route not found'));
      if (request.method !== 'GET' && request.method !== 'HEAD') return reply.code(404).send(fail('Route not found'));
      if (!distDir) return reply.code(404).type('text/plain; charset=utf-8').send(NOT_BUILT_TEXT);
      return sendIndex(reply);
    });
  },
  { name: 'spa', dependencies: ['settings'] },
);
