/**
 * The built web app (dist/) on the same port as the API: files from dist, /assets/* cached for a year (their
 * names carry a content hash), and index.html for every other non-API GET so the SPA handles its own routes
 * (including its not-found screen). Unknown /api paths always get the JSON 404 envelope, never the SPA.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { fail } from '../../contract/envelope';
import { isApiPath } from './access';

export interface SpaOptions {
  /** Folder with index.html and assets/; null or missing index.html: the app is not built. */
  distDir: string | null;
}

export const NOT_BUILT_TEXT = 'The web app has not been built yet. Run `npm run build` (or `npm start`, which builds it) and reload this page.\n';

export default fp<SpaOptions>(
  async (app, opts) => {
    const distDir = opts.distDir && existsSync(join(opts.distDir, 'index.html')) ? opts.distDir : null;

    if (distDir) {
      await app.register(fastifyStatic, {
        root: distDir,
        wildcard: true,
        index: ['index.html'],
        cacheControl: false,
        setHeaders(res, path) {
          const rel = path.slice(distDir.length).replace(/\\/g, '/');
          res.setHeader('cache-control', rel.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    }

    app.setNotFoundHandler(async (request, reply) => {
      const path = request.url.split('?')[0];
      if (isApiPath(path)) return reply.code(404).send(fail('Route not found'));
      if (request.method !== 'GET' && request.method !== 'HEAD') return reply.code(404).send(fail('Route not found'));
      if (!distDir) return reply.code(404).type('text/plain; charset=utf-8').send(NOT_BUILT_TEXT);
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html', distDir);
    });
  },
  { name: 'spa' },
);
