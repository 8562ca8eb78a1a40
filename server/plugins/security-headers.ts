/**
 * Security headers on every response, through @fastify/helmet:
 * - a Content-Security-Policy the SPA lives with: scripts only from our own origin (index.html has no inline
 *   script; the public settings travel in a non-executable <script type="application/json">), styles from our
 *   origin plus inline ones (antd writes its CSS-in-JS into <style> elements and style attributes), images
 *   from our origin, data: and blob: (upload previews), API calls to our origin only, no plugins, and no
 *   framing by any site (frame-ancestors 'none', X-Frame-Options DENY);
 * - nosniff, Referrer-Policy no-referrer (links carry tokens and invoice ids), the cross-origin isolation
 *   headers helmet sets by default;
 * - HSTS only on requests that came over HTTPS (directly or, with TRUST_PROXY, through the proxy): helmet
 *   would send it on every answer, and a portal first tried over plain HTTP on a LAN must stay reachable;
 * - Cache-Control: no-store on API answers given to a signed-in caller and on every /api/auth answer (tokens),
 *   unless the route chose its own.
 * Routes with stricter needs set their own CSP over this one (the sandbox checkout page, file downloads, the
 * API reference page).
 *
 * The web app's hashed scripts and style sheets (/assets/*.js, *.css) get only the headers that protect a
 * subresource: nosniff (a script is never run as another type) and Cross-Origin-Resource-Policy (no other site
 * embeds it). The rest (CSP, framing, referrer, cross-origin opener, download and DNS-prefetch headers) act only
 * on documents, and at ~600 bytes each on some forty scripts a customer's first visit loads they were 20 KB of
 * the page's bytes on the wire (Lighthouse counts them; issue 34). Every other asset (SVG, images, fonts, which
 * a browser may open as a document) keeps the full set.
 */
import fp from 'fastify-plugin';
import fastifyHelmet from '@fastify/helmet';
import helmet from 'helmet';
import { API_BASE } from '../../contract/product';
import { isApiPath } from './access';

export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** A content-hashed script or style sheet of the web app's build (never a document). */
export const isHashedSubresource = (url: string) => /^\/assets\/[^?#]+\.(js|css)(\?|$)/.test(url);

export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

export default fp(
  async (app) => {
    const options = {
      contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
      xFrameOptions: { action: 'deny' as const },
      referrerPolicy: { policy: 'no-referrer' as const },
      strictTransportSecurity: false,
    };
    // @fastify/helmet builds helmet's middleware again for every request (parsing the whole policy each time: a
    // tenth of an API request in the profile, issue 15). Registered without its global hook, it still gives routes
    // reply.helmet(); the headers of every response come from one middleware built here, once, from the same options.
    await app.register(fastifyHelmet, { ...options, global: false });
    const applyHeaders = helmet(options);
    const applySubresourceHeaders = helmet({
      contentSecurityPolicy: false,
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      referrerPolicy: false,
      strictTransportSecurity: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xFrameOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    });
    app.addHook('onRequest', (request, reply, next) => {
      (isHashedSubresource(request.url) ? applySubresourceHeaders : applyHeaders)(request.raw, reply.raw, () => next());
    });

    app.addHook('onRequest', async (request, reply) => {
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS_VALUE);
    });

    app.addHook('onSend', async (request, reply) => {
      if (reply.hasHeader('cache-control') || !isApiPath(request.url)) return;
      if (request.user || request.headers.authorization || request.url.startsWith(`${API_BASE}/auth/`)) {
        reply.header('cache-control', 'no-store');
      }
    });
  },
  { name: 'security-headers', dependencies: ['auth'] },
);
