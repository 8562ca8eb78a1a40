/**
 * Where a customer is sent back to after leaving the portal for a checkout (a provider's hosted page, the sandbox's
 * checkout page). Signed-in state lives on one origin (the refresh cookie, the SPA's stored session), so a customer
 * who paid from http://127.0.0.1:3000 must come back to http://127.0.0.1:3000, not to APP_URL's
 * http://localhost:3000 — there they would be signed out, and from another machine the page would not load.
 *
 * The rule:
 *  - APP_URL unset (development): the origin the request came from.
 *  - APP_URL set: that origin when it is APP_URL's own origin or one of ALLOWED_ORIGINS, else APP_URL.
 * "The origin the request came from" is its Origin header when that is a valid http(s) origin (a browser sends it
 * on every POST; behind a development proxy it names the page's origin, not the proxy's target), else
 * `<protocol>://<host>` of the request, which honour X-Forwarded-* under TRUST_PROXY.
 *
 * Only for where a browser goes next: e-mailed links always use config.appUrl (a Host header never decides what
 * goes into an e-mail).
 */
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';

/** `scheme://host[:port]` of an http(s) URL, or null when it is not one. */
export function httpOrigin(value: string | undefined | null): string | null {
  if (!value || !URL.canParse(value)) return null;
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.origin;
}

/** The origin a request came from: its Origin header when valid, else its own protocol and host. */
export function requestOrigin(request: Pick<FastifyRequest, 'headers' | 'protocol' | 'host'>): string | null {
  const header = request.headers.origin;
  const fromHeader = httpOrigin(Array.isArray(header) ? header[0] : header);
  if (fromHeader) return fromHeader;
  return httpOrigin(`${request.protocol}://${request.host}`);
}

/** The origin to send the customer back to (no trailing slash); see the rule above. */
export function returnOrigin(
  request: Pick<FastifyRequest, 'headers' | 'protocol' | 'host'>,
  config: Pick<Config, 'appUrl' | 'appUrlExplicit' | 'allowedOrigins'>,
): string {
  const appOrigin = httpOrigin(config.appUrl) ?? config.appUrl.replace(/\/+$/, '');
  const origin = requestOrigin(request);
  if (!origin) return appOrigin;
  if (!config.appUrlExplicit) return origin;
  return origin === appOrigin || config.allowedOrigins.includes(origin) ? origin : appOrigin;
}
