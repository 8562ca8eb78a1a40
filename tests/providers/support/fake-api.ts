/**
 * An in-process stand-in for the API behind an axios adapter: real axios instances, no network. Answers in the
 * API's wire format ({success, message, data} / {success:false, message, errors}) and records every call.
 */
import type { PublicUser } from '../../../contract/schemas/user';
import {
  AxiosError,
  AxiosHeaders,
  type AxiosAdapter,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';

export interface Reply {
  status: number;
  body?: unknown;
  /** Milliseconds before answering (lets concurrent calls overlap). */
  delay?: number;
  /** No response at all (connection refused, time-out). */
  network?: boolean;
}

export interface Call {
  method: string;
  path: string;
  params: Record<string, unknown>;
  body: unknown;
  authorization: string | null;
  config: InternalAxiosRequestConfig;
}

export type Handler = (call: Call) => Reply | Promise<Reply>;

export function ok(data: unknown, message = 'OK'): Reply {
  return { status: 200, body: { success: true, message, data } };
}

export function fail(status: number, message?: string, errors?: { field: string; message: string }[]): Reply {
  return {
    status,
    body: message === undefined ? { success: false } : { success: false, message, ...(errors ? { errors } : {}) },
  };
}

export class FakeApi {
  readonly calls: Call[] = [];
  private routes: { method: string; path: string; handler: Handler }[] = [];

  /** "GET /auth/profile" → handler; later registrations win. */
  on(route: string, handler: Handler | Reply): this {
    const [method, path] = route.split(' ');
    this.routes.unshift({
      method: method.toLowerCase(),
      path,
      handler: typeof handler === 'function' ? handler : () => handler,
    });
    return this;
  }

  count(route: string): number {
    const [method, path] = route.split(' ');
    return this.calls.filter((c) => c.method === method.toLowerCase() && c.path === path).length;
  }

  last(route: string): Call | undefined {
    const [method, path] = route.split(' ');
    return this.calls.filter((c) => c.method === method.toLowerCase() && c.path === path).pop();
  }

  readonly adapter: AxiosAdapter = async (config) => {
    const headers = AxiosHeaders.from(config.headers);
    const call: Call = {
      method: (config.method ?? 'get').toLowerCase(),
      path: (config.url ?? '').split('?')[0],
      params: { ...(config.params ?? {}) },
      body: typeof config.data === 'string' && config.data !== '' ? JSON.parse(config.data) : config.data,
      authorization: (headers.get('Authorization') as string | undefined) ?? null,
      config,
    };
    this.calls.push(call);
    const route = this.routes.find((r) => r.method === call.method && r.path === call.path);
    const reply = route ? await route.handler(call) : fail(404, `No route ${call.method} ${call.path}`);
    if (reply.delay) await new Promise((r) => setTimeout(r, reply.delay));
    if (reply.network) throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, config);
    const response: AxiosResponse = {
      data: reply.body,
      status: reply.status,
      statusText: String(reply.status),
      headers: {},
      config,
    };
    if (reply.status >= 200 && reply.status < 300) return response;
    throw new AxiosError(
      `Request failed with status code ${reply.status}`,
      AxiosError.ERR_BAD_RESPONSE,
      config,
      null,
      response,
    );
  };
}

function b64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** An unsigned JWT whose exp is `secondsFromNow` after `nowMs` (the client only reads exp). */
export function jwtExpiringIn(secondsFromNow: number, nowMs = Date.now()): string {
  const exp = Math.floor(nowMs / 1000) + secondsFromNow;
  return `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: 'u1', exp })}.signature`;
}

export const sampleUser: PublicUser = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Ada Customer',
  email: 'ada@example.com',
  phone: null,
  address: null,
  company: null,
  role: 'user',
  status: 'active',
  isVerified: false,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
  last_login_at: null,
};

export function authData(token: string, user = sampleUser, expires = new Date(Date.now() + 15 * 60_000).toISOString()) {
  return { user, tokens: { access: { token, expires } } };
}
