/**
 * Rate limiting for any route, on the app's clock: `app.rateLimit({...})` gives an onRequest hook that
 * answers 429 with Retry-After once a key (by default the client IP) used up its attempts in the window.
 * For rules that count only some attempts (failed sign-ins), use `app.createRateLimiter` directly.
 */
import fp from 'fastify-plugin';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { tooManyRequests } from '../lib/errors';
import { RateLimiter } from '../lib/rate-limiter';

export interface RateLimitOptions {
  limit: number;
  windowMs: number;
  /** What is counted; default the client's IP address. */
  key?: (request: FastifyRequest) => string;
  message?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    createRateLimiter(options: { limit: number; windowMs: number }): RateLimiter;
    rateLimit(options: RateLimitOptions): onRequestHookHandler;
  }
}

export const DEFAULT_RATE_LIMIT_MESSAGE = 'Too many requests. Please try again later.';

export default fp(
  async (app) => {
    app.decorate('createRateLimiter', (options: { limit: number; windowMs: number }) => new RateLimiter({ ...options, clock: app.clock }));
    app.decorate('rateLimit', (options: RateLimitOptions): onRequestHookHandler => {
      const limiter = app.createRateLimiter(options);
      const keyOf = options.key ?? ((request: FastifyRequest) => request.ip);
      return async function rateLimit(request) {
        const result = limiter.consume(keyOf(request));
        if (!result.allowed) throw tooManyRequests(options.message ?? DEFAULT_RATE_LIMIT_MESSAGE, result.retryAfterSeconds);
      };
    });
  },
  { name: 'rate-limit', dependencies: ['db'] },
);
