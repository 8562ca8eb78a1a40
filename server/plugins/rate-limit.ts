/**
 * Rate limits through @fastify/rate-limit, on the app's clock (server/lib/rate-limit-store.ts):
 * - every /api request counts against its client address (API_RATE_LIMIT a minute; 0 switches it off), with
 *   the usual X-RateLimit-* headers;
 * - `app.limitRequests({...})` gives a hook for a stricter limit on one endpoint (every attempt counts);
 * - `app.limitFailures({...})` counts only the attempts a handler reports as failed (sign-in), peeking at the
 *   count without spending it first, and can clear a key after a success.
 * Each answers 429 in the API's envelope with Retry-After. The counters live in one RateLimitBackend
 * (`app.rateLimitBackend`), so that several portal processes count the same attempts (issue 14):
 * - REDIS_URL set: Redis. When Redis cannot be reached, the failed calls count in this process's memory instead
 *   (logged as a warning, at most once a minute) rather than failing the request: a careful operator wants
 *   sign-in to keep working during a Redis outage, still limited per node, not every login refused (fail
 *   closed) nor unlimited (fail open, the library's skipOnError);
 * - else PostgreSQL (DATABASE_URL): the rate_limits table. No fallback there: without its database the
 *   portal cannot sign anyone in anyway;
 * - else (the embedded database, one process): memory.
 */
import fp from 'fastify-plugin';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tooManyRequests } from '../lib/errors';
import { PostgresRateLimitBackend } from '../lib/rate-limit-postgres';
import { RedisRateLimitBackend } from '../lib/rate-limit-redis';
import {
  BatchedRateLimitBackend,
  FallbackRateLimitBackend,
  MemoryRateLimitBackend,
  rateLimitStore,
  type RateLimitBackend,
} from '../lib/rate-limit-store';

const API_NAME_SPACE = 'api:';
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
  /** Where the counters live; default chosen from the configuration (see above). */
  backend?: RateLimitBackend;
  /** Redis keys' prefix (tests keep theirs apart); default isp:rl:. */
  redisKeyPrefix?: string;
}

const FALLBACK_WARNING_EVERY_MS = 60_000;

async function chooseBackend(app: FastifyInstance, opts: RateLimitPluginOptions): Promise<RateLimitBackend> {
  if (opts.backend) return opts.backend;
  const redisUrl = app.config.redisUrl;
  if (redisUrl) {
    const log = app.log.child({ component: 'rate-limit' });
    const redis = new RedisRateLimitBackend(redisUrl, {
      keyPrefix: opts.redisKeyPrefix,
      onConnectionError: (error) =>
        log.warn({ err: error }, 'Redis unreachable: rate limits count in this process meanwhile'),
      onReconnect: () => log.info('Redis reachable again: rate limits shared again'),
    });
    app.addHook('onClose', () => redis.close());
    if (!(await redis.ready())) log.warn('Redis not reachable at start: rate limits count in this process until it is');
    let lastWarning = -Infinity;
    return new FallbackRateLimitBackend(redis, new MemoryRateLimitBackend(app.clock), (error) => {
      const now = app.clock.now().getTime();
      if (now - lastWarning < FALLBACK_WARNING_EVERY_MS) return;
      lastWarning = now;
      log.warn({ err: error }, 'rate limit counted in memory: Redis failed');
    });
  }
  if (app.dbKind === 'postgres') {
    return new PostgresRateLimitBackend(app.db, app.clock, (error) =>
      app.log.warn({ err: error }, 'sweeping ended rate-limit windows failed'),
    );
  }
  return new MemoryRateLimitBackend(app.clock);
}

export default fp<RateLimitPluginOptions>(
  async (app, opts) => {
    const backend = await chooseBackend(app, opts);
    app.decorate('rateLimitBackend', backend);
    // The per-minute API limit counts every request: over a shared backend it is batched (one write per second and
    // client, not one per request); in memory there is nothing to save.
    const apiBackend =
      backend instanceof MemoryRateLimitBackend
        ? backend
        : new BatchedRateLimitBackend(backend, app.clock, {
            onError: (error) => app.log.warn({ err: error }, 'API rate-limit counts not shared; kept and retried'),
          });
    if (apiBackend instanceof BatchedRateLimitBackend) app.addHook('onClose', () => apiBackend.close());
    // global: false: limits apply where this plugin's hooks put them (the API), never to the SPA's files.
    await app.register(fastifyRateLimit, {
      global: false,
      store: rateLimitStore(backend, { [API_NAME_SPACE]: apiBackend }),
      skipOnError: false,
    });

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
        if (!r.isAllowed && r.isExceeded)
          throw tooManyRequests(options.message ?? DEFAULT_RATE_LIMIT_MESSAGE, r.ttlInSeconds);
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
      const check = limiter({ nameSpace: API_NAME_SPACE, max: perMinute, windowMs: API_WINDOW_MS });
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
