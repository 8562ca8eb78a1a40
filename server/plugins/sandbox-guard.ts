/**
 * No sandbox money in production: with NODE_ENV=production and without ALLOW_SANDBOX_PAYMENTS=true every route of
 * the Sandbox provider answers 404 as if it did not exist — its hosted checkout and the Approve/Decline behind it,
 * its webhook (POST /api/payments/webhooks/sandbox), and whatever else is added under /api/payments/sandbox/ (the
 * saved-method set-up pages). Decided on the matched route's pattern, not the raw URL, so an encoded path cannot
 * slip past.
 */
import fp from 'fastify-plugin';
import { API_BASE } from '../../contract/product';
import { notFound } from '../lib/errors';

const SANDBOX_PREFIX = `${API_BASE}/payments/sandbox/`;
const WEBHOOK_ROUTE = `${API_BASE}/payments/webhooks/:provider`;

/** Whether a matched route (pattern and params) belongs to the Sandbox provider. */
export function isSandboxRoute(routeUrl: string | undefined, params: unknown): boolean {
  if (!routeUrl) return false;
  if (routeUrl.startsWith(SANDBOX_PREFIX)) return true;
  return routeUrl === WEBHOOK_ROUTE && (params as { provider?: unknown } | undefined)?.provider === 'sandbox';
}

export default fp(
  async (app) => {
    if (app.config.sandboxPaymentsAllowed) return;
    app.addHook('onRequest', async (request) => {
      if (isSandboxRoute(request.routeOptions.url, request.params)) throw notFound();
    });
  },
  { name: 'sandbox-guard', dependencies: ['db'] },
);
