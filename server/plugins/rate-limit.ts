/**
 * Rate limits through @fastify/rate-limit, on the app's clock (server/lib/rate-limit-store.ts):
 * - every /api request counts against its client address (API_RATE_LIMIT a minute; 0 switches it off), with
 *   the usual X-RateLimit-* headers;
 * - `app.limitRequests({...})` gives a hook for a stricter limit on one endpoint (every attempt counts);
 * - `app.limitFailures({...})` counts only the attempts a handler reports as failed (sign-in), peeking at the
 *   count without spending it first, and can clear a key after a success.
 * Each answers 429 in the API's envelope with Retry-After. The counters live in one RateLimitBackend
 * (`app.rateLimitBackend`): memory for one process; a shared one for several nodes.
 */
import fp from 'fastify-plugin';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { tooManyRequests } from '../lib/errors';
import { MemoryRateLimitBackend, rateLimitStore, type RateLimitBackend } from '../lib/rate-limit-store';
import { isApiPath } from './access';

export interface RequestLimitOptions {
  /** Keeps this limit's counters apart from every other limit's. */
  nameSpace: string;
  max: number;
  windowMs: number;
  /** What is counted; default the client's address (IPv6 by its /56, as the library does). */
  key?: (request: FastifyRequest) => string;
  /** The 429 answer's message (limitRequests). */
  message?: string;
}

export interface FailureLimit {
  /** Seconds until the key may try again once it used up its failures in the window, else 0; counts nothing. */
  blockedFor(request: FastifyRequest): Promise<number>;
  /** Counts one failure. */
  failed(request: FastifyRequest): Promise<void>;
  /** Forgets the key's failures (e.g. after a successful sign-in). */
  clear(request: FastifyRequest): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimitBackend: RateLimitBackend;
    /** A hook (onRequest, or preHandler when the key needs the body) that answers 429 past the limit. */
    limitRequests(options: RequestLimitOptions): (request: FastifyRequest) => Promise<void>;
    limitFailures(options: RequestLimitOptions): FailureLimit;
  }
}

export const DEFAULT_RATE_LIMIT_MESSAGE = 'Too many requests. Please try again later.';
const API_WINDOW_MS = 60_000;

export interface RateLimitPluginOptions {
  /** Where the counters live; default in this process's memory. */
  backend?: RateLimitBackend;
}

export default fp<RateLimitPluginOptions>(
  async (app, opts) => {
    const backend = opts.backend ?? new MemoryRateLimitBackend(app.clock);
    app.decorate('rateLimitBackend', backend);
    // global: false: limits apply where this plugin's hooks put them (the API), never to the SPA's files.
    await app.register(fastifyRateLimit, { global: false, store: rateLimitStore(backend), skipOnError: false });

    const limiter = (options: RequestLimitOptions) =>
      app.createRateLimit({
        max: options.max,
        timeWindow: options.windowMs,
        ...(options.key ? { keyGenerator: options.key } : {}),
        // Passed through to the store's child: the key prefix of this limit.
        ...({ nameSpace: options.nameSpace } as object),
      });

    app.decorate('limitRequests', (options: RequestLimitOptions) => {
      const check = limiter(options);
      return async function limitRequests(request: FastifyRequest) {
        const r = await check(request);
        if (!r.isAllowed && r.isExceeded) throw tooManyRequests(options.message ?? DEFAULT_RATE_LIMIT_MESSAGE, r.ttlInSeconds);
      };
    });

    app.decorate('limitFailures', (options: RequestLimitOptions): FailureLimit => {
      const check = limiter(options);
      const keyOf = options.key;
      return {
        async blockedFor(request) {
          const r = await check(request, { increment: false });
          // A peek reports the failures so far: the limit is reached once they equal max.
          return !r.isAllowed && r.remaining === 0 ? Math.max(1, r.ttlInSeconds) : 0;
        },
        async failed(request) {
          await check(request);
        },
        async clear(request) {
          // Only a limit with its own key can be cleared (the default address key is normalised by the library).
          if (!keyOf) throw new Error(`limitFailures(${options.nameSpace}): clear() needs a key function`);
          await backend.clear(options.nameSpace + keyOf(request));
        },
      };
    });

    const perMinute = app.config.apiRateLimit;
    if (perMinute > 0) {
      const check = limiter({ nameSpace: 'api:', max: perMinute, windowMs: API_WINDOW_MS });
      app.addHook('onRequest', async (request, reply) => {
        if (!isApiPath(request.url)) return;
        const r = await check(request);
        if (r.isAllowed) return;
        reply.header('x-ratelimit-limit', r.max);
        reply.header('x-ratelimit-remaining', r.remaining);
        reply.header('x-ratelimit-reset', r.ttlInSeconds);
        if (r.isExceeded) throw tooManyRequests(DEFAULT_RATE_LIMIT_MESSAGE, r.ttlInSeconds);
      });
    }
  },
  { name: 'rate-limit', dependencies: ['db'] },
);
