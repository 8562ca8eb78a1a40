/**
 * Compressed answers (issue 15): API answers and the rendered index.html above 1 KB go out brotli- or
 * gzip-encoded, as the client accepts (@fastify/compress; brotli at quality 4, its recommended cost for
 * answers made per request). The web app's own files are compressed once at build time and sent as they are
 * by @fastify/static (preCompressed, server/plugins/static.ts); an answer that is already encoded passes
 * untouched.
 *
 * Downloads are never encoded: an answer with a Content-Disposition (stored attachments and photos, backups,
 * device configurations, exports) keeps the exact bytes and the Content-Length it was sent with, so a saved
 * file is the stored file (a .tar.gz stays a .tar.gz, not a .tar.gz inside a gzip). Event streams are left
 * alone too (a compressor would hold their events back).
 */
import fp from 'fastify-plugin';
import compress from '@fastify/compress';

export const COMPRESS_THRESHOLD_BYTES = 1024;

export default fp(
  async (app) => {
    await app.register(compress, { threshold: COMPRESS_THRESHOLD_BYTES, encodings: ['br', 'gzip'] });
    // Runs before @fastify/compress's own onSend (route-level hooks come last) and uses its per-request
    // opt-out, the x-no-compression header.
    app.addHook('onSend', async (request, reply) => {
      const type = String(reply.getHeader('content-type') ?? '');
      if (reply.hasHeader('content-disposition') || type.startsWith('text/event-stream'))
        request.headers['x-no-compression'] = 'download';
    });
  },
  { name: 'compression' },
);
