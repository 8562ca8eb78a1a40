/**
 * The API's access guard, driven by contract/roles.ts ENDPOINT_ACCESS. Every route under /api must have an
 * entry there, or the app refuses to start, so no endpoint is left unguarded by accident.
 */
import fp from 'fastify-plugin';
import type { onRequestHookHandler } from 'fastify';
import { allows, endpointAudience, type Audience } from '../../contract/roles';
import { API_BASE } from '../../contract/product';
import { forbidden } from '../lib/errors';

export function isApiPath(url: string): boolean {
  return url === API_BASE || url.startsWith(`${API_BASE}/`) || url.startsWith(`${API_BASE}?`);
}

export class UnguardedRouteError extends Error {
  constructor(key: string) {
    super(
      `Route "${key}" under ${API_BASE} has no entry in ENDPOINT_ACCESS (contract/roles.ts); add one to declare who may call it.`,
    );
    this.name = 'UnguardedRouteError';
  }
}

export default fp(
  async (app) => {
    const guard = (audience: Audience): onRequestHookHandler =>
      async function accessGuard(request) {
        if (audience === 'public') {
          // Optional sign-in: a public route still learns who calls it (request.user) when a valid bearer
          // token is sent, e.g. so staff see inactive plans; a missing or bad token just means a visitor.
          if (request.headers.authorization) await app.authenticate(request).catch(() => undefined);
          return;
        }
        const user = await app.authenticate(request);
        if (!allows(audience, user.role)) throw forbidden();
      };

    app.addHook('onRoute', (route) => {
      if (!isApiPath(route.url)) return;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const path = route.url.slice(API_BASE.length) || '/';
      const audiences = methods.map((method) => {
        // HEAD needs no entry of its own (Fastify adds one for every GET); it gets the GET's guard.
        if (method === 'HEAD') return endpointAudience('GET', path) ?? 'authenticated';
        const audience = endpointAudience(method, path);
        if (audience === undefined) throw new UnguardedRouteError(`${method} ${path}`);
        return audience;
      });
      if (new Set(audiences.map((a) => JSON.stringify(a))).size > 1) {
        throw new Error(`Route ${route.url} serves methods with different audiences; register them separately.`);
      }
      const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
      route.onRequest = [guard(audiences[0]), ...existing];
    });
  },
  { name: 'access', dependencies: ['auth'] },
);
