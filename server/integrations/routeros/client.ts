/**
 * A small client for the RouterOS v7 REST API (https://help.mikrotik.com/docs/display/ROS/REST+API): HTTP Basic
 * auth against `/rest/...`, JSON in and out, every value a string. It covers only the calls the portal makes.
 *
 * Node's own http/https modules are used rather than fetch so that a device's self-signed certificate can be
 * accepted per device (`rejectUnauthorized: false`) without touching the process-wide TLS settings.
 *
 * Every failure is a RouterOsError whose `kind` a caller can act on (timeout, auth, unreachable, protocol) and
 * whose message a staff user can read ("The router rejected the user name or password (401 Unauthorized)").
 */
import http from 'node:http';
import https from 'node:https';

export type RouterOsErrorKind = 'timeout' | 'auth' | 'unreachable' | 'protocol';

export class RouterOsError extends Error {
  constructor(
    readonly kind: RouterOsErrorKind,
    message: string,
    /** The HTTP status the router answered with, when it answered. */
    readonly status?: number,
    /** RouterOS' own `detail` text from an error body, when it sent one. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'RouterOsError';
  }
}

export interface RouterOsClientOptions {
  host: string;
  /** Default 443 with tls, 80 without. */
  port?: number | null;
  /** true: HTTPS (the www-ssl service); false: plain HTTP (the www service, RouterOS 7.9+). */
  tls: boolean;
  username: string;
  password: string;
  /** Per call: connecting, sending and reading the whole answer. Default 10 s. */
  timeoutMs?: number;
  /** false accepts a self-signed or otherwise unverifiable certificate (common on routers). Default true. */
  rejectUnauthorized?: boolean;
}

/** GET /rest/system/resource (values as RouterOS sends them: strings). */
export interface RouterOsSystemResource {
  'architecture-name'?: string;
  'board-name'?: string;
  'cpu-load'?: string;
  platform?: string;
  uptime?: string;
  version?: string;
  [key: string]: string | undefined;
}

/** One row of GET /rest/interface. */
export interface RouterOsInterface {
  '.id': string;
  name: string;
  type?: string;
  'mac-address'?: string;
  running?: string;
  disabled?: string;
  comment?: string;
  mtu?: string;
  'rx-byte'?: string;
  'tx-byte'?: string;
  [key: string]: string | undefined;
}

/** One row of GET /rest/ip/hotspot/active: a hotspot login (a voucher's code is its user). */
export interface RouterOsHotspotActive {
  '.id': string;
  user: string;
  address?: string;
  'mac-address'?: string;
  uptime?: string;
  'session-time-left'?: string;
  radius?: string;
  [key: string]: string | undefined;
}

/** One row of GET /rest/ppp/active. */
export interface RouterOsPppActive {
  '.id': string;
  name: string;
  service?: string;
  'caller-id'?: string;
  address?: string;
  uptime?: string;
  encoding?: string;
  'session-id'?: string;
  radius?: string;
  [key: string]: string | undefined;
}

export interface RouterOsClient {
  /** A short description of where it talks to, for logs: "https://10.0.0.1:443". */
  readonly target: string;
  systemResource(): Promise<RouterOsSystemResource>;
  interfaces(): Promise<RouterOsInterface[]>;
  /** The running configuration as `/export` prints it (sensitive values hidden by RouterOS itself). */
  exportConfig(): Promise<string>;
  pppActive(): Promise<RouterOsPppActive[]>;
  /** Disconnects one PPP session by its `.id` ("*1A"). */
  removePppActive(id: string): Promise<void>;
  /** GET /rest/ip/hotspot/active: the hotspot's logins. */
  hotspotActive(): Promise<RouterOsHotspotActive[]>;
  /** DELETE /rest/ip/hotspot/active/{id}: logs a hotspot user out. */
  removeHotspotActive(id: string): Promise<void>;
}

export const ROUTEROS_DEFAULT_TIMEOUT_MS = 10_000;

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  406: 'Not Acceptable',
  500: 'Internal Server Error',
};

/** RouterOS' error bodies: {"error":401,"message":"Unauthorized"} or {"error":400,"message":"Bad Request","detail":"..."}. */
export function parseRouterOsErrorBody(body: string): { error?: number; message?: string; detail?: string } | null {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    const o = parsed as Record<string, unknown>;
    if (!('error' in o) && !('message' in o) && !('detail' in o)) return null;
    return {
      error:
        typeof o.error === 'number'
          ? o.error
          : typeof o.error === 'string' && /^\d+$/.test(o.error)
            ? Number(o.error)
            : undefined,
      message: typeof o.message === 'string' ? o.message : undefined,
      detail: typeof o.detail === 'string' ? o.detail : undefined,
    };
  } catch {
    return null;
  }
}

function errorForStatus(status: number, body: string): RouterOsError {
  const parsed = parseRouterOsErrorBody(body);
  const text = parsed?.message ?? STATUS_TEXT[status] ?? 'Error';
  const detail = parsed?.detail;
  const suffix = `(${status} ${text}${detail ? `: ${detail}` : ''})`;
  if (status === 401)
    return new RouterOsError('auth', `The router rejected the user name or password ${suffix}.`, status, detail);
  if (status === 403)
    return new RouterOsError(
      'auth',
      `The router user may not use the REST API or this command; check its group policies (rest-api, read) ${suffix}.`,
      status,
      detail,
    );
  if (status === 404)
    return new RouterOsError(
      'protocol',
      `The router does not offer this REST path; is it RouterOS 7.1 or later? ${suffix}`,
      status,
      detail,
    );
  return new RouterOsError('protocol', `The router answered with an error ${suffix}.`, status, detail);
}

const NETWORK_MESSAGES: Record<string, string> = {
  ECONNREFUSED: 'The router refused the connection; is the REST service (www-ssl or www) enabled on this port?',
  EHOSTUNREACH: 'The router cannot be reached (no route to host).',
  ENETUNREACH: 'The router cannot be reached (network unreachable).',
  ENOTFOUND: "The router's host name could not be resolved.",
  EAI_AGAIN: "The router's host name could not be resolved right now (DNS lookup failed).",
  ECONNRESET: 'The router closed the connection unexpectedly.',
  EPIPE: 'The router closed the connection unexpectedly.',
};

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_NOT_YET_VALID',
]);

function errorForNetwork(error: NodeJS.ErrnoException): RouterOsError {
  const code = error.code ?? '';
  if (TLS_CODES.has(code))
    return new RouterOsError(
      'unreachable',
      `The router's HTTPS certificate could not be verified (${code}); allow self-signed certificates for this device or install a trusted one.`,
    );
  if (code === 'EPROTO' || /wrong version number|packet length too long/i.test(error.message))
    return new RouterOsError(
      'unreachable',
      'The router did not answer HTTPS on this port; is it plain HTTP (the www service)?',
    );
  const known = NETWORK_MESSAGES[code];
  return new RouterOsError('unreachable', known ?? `The router could not be reached (${code || error.message}).`);
}

function encodeId(id: string): string {
  // RouterOS ids look like "*1A"; the star stays literal in the path as the REST docs show (/rest/ip/address/*1).
  return encodeURIComponent(id).replace(/%2A/gi, '*');
}

export function createRouterOsClient(options: RouterOsClientOptions): RouterOsClient {
  const port = options.port ?? (options.tls ? 443 : 80);
  const timeoutMs = options.timeoutMs ?? ROUTEROS_DEFAULT_TIMEOUT_MS;
  const scheme = options.tls ? 'https' : 'http';
  const hostForUrl = options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host;
  const target = `${scheme}://${hostForUrl}:${port}`;
  const authorization = `Basic ${Buffer.from(`${options.username}:${options.password}`, 'utf8').toString('base64')}`;

  function request(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), 'utf8');
      const headers: Record<string, string> = { authorization, accept: 'application/json' };
      if (payload) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(payload.length);
      }
      const requestOptions: https.RequestOptions = {
        host: options.host.replace(/^\[|\]$/g, ''),
        port,
        method,
        path: `/rest${path}`,
        headers,
        // A fresh connection per call: routers are polled rarely, and a kept-alive socket would outlive a test.
        agent: false,
      };
      if (options.tls) requestOptions.rejectUnauthorized = options.rejectUnauthorized ?? true;
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
      };
      const req = (options.tls ? https : http).request(requestOptions, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          finish(() => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') })),
        );
        res.on('error', (e) => finish(() => reject(errorForNetwork(e))));
      });
      const timer = setTimeout(() => {
        finish(() =>
          reject(
            new RouterOsError('timeout', `The router did not answer within ${formatSeconds(timeoutMs)} (${target}).`),
          ),
        );
        req.destroy();
      }, timeoutMs);
      req.on('error', (e: NodeJS.ErrnoException) => finish(() => reject(errorForNetwork(e))));
      if (payload) req.write(payload);
      req.end();
    });
  }

  async function call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const { status, text } = await request(method, path, body);
    if (status < 200 || status >= 300) throw errorForStatus(status, text);
    if (status === 204 || text.trim() === '') return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new RouterOsError(
        'protocol',
        `The router's answer was not the JSON the REST API sends (${status}).`,
        status,
      );
    }
  }

  function expectArray<T>(value: unknown, what: string): T[] {
    if (!Array.isArray(value)) throw new RouterOsError('protocol', `The router's answer for ${what} was not a list.`);
    return value as T[];
  }

  return {
    target,
    async systemResource() {
      const value = await call<unknown>('GET', '/system/resource');
      // RouterOS answers a singleton menu with an object; some versions wrap it in a one-element list.
      const row = Array.isArray(value) ? value[0] : value;
      if (!row || typeof row !== 'object')
        throw new RouterOsError('protocol', "The router's system resource answer was empty.");
      return row as RouterOsSystemResource;
    },
    async interfaces() {
      return expectArray<RouterOsInterface>(await call('GET', '/interface'), '/interface');
    },
    async exportConfig() {
      // The REST API has no /export path: run the console command through /execute; "as-string" makes it wait
      // for the command and return its output as {"ret": "..."} instead of starting a background job.
      const value = await call<unknown>('POST', '/execute', { script: '/export', 'as-string': '' });
      const ret =
        value && typeof value === 'object' && !Array.isArray(value) ? (value as { ret?: unknown }).ret : undefined;
      if (typeof ret !== 'string')
        throw new RouterOsError('protocol', "The router's answer to /export carried no configuration text.");
      return ret;
    },
    async pppActive() {
      return expectArray<RouterOsPppActive>(await call('GET', '/ppp/active'), '/ppp/active');
    },
    async removePppActive(id: string) {
      await call('DELETE', `/ppp/active/${encodeId(id)}`);
    },
    async hotspotActive() {
      return expectArray<RouterOsHotspotActive>(await call('GET', '/ip/hotspot/active'), '/ip/hotspot/active');
    },
    async removeHotspotActive(id: string) {
      await call('DELETE', `/ip/hotspot/active/${encodeId(id)}`);
    },
  };
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
