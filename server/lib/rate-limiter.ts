import type { Clock } from './clock';

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  /** Seconds until the window of this key ends (0 when allowed and nothing counted yet). */
  retryAfterSeconds: number;
}

/**
 * A small in-process fixed-window limiter keyed by any string (an IP address, an account). Enough for one
 * server process; a cluster would need a shared store. Time comes from the injected clock.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = 0;

  constructor(
    private readonly options: { limit: number; windowMs: number; clock: Clock },
  ) {}

  private current(key: string, now: number) {
    this.sweep(now);
    const w = this.windows.get(key);
    return w && w.resetAt > now ? w : undefined;
  }

  /** Whether another attempt for this key is allowed now, without counting one. */
  check(key: string): RateLimitResult {
    const now = this.options.clock.now().getTime();
    const w = this.current(key, now);
    const count = w?.count ?? 0;
    return {
      allowed: count < this.options.limit,
      remaining: Math.max(0, this.options.limit - count),
      retryAfterSeconds: w ? Math.ceil((w.resetAt - now) / 1000) : 0,
    };
  }

  /** Counts one attempt for this key. */
  hit(key: string): void {
    const now = this.options.clock.now().getTime();
    const w = this.current(key, now);
    if (w) w.count += 1;
    else this.windows.set(key, { count: 1, resetAt: now + this.options.windowMs });
  }

  /** Checks and, when allowed, counts: the usual call for endpoints where every attempt counts. */
  consume(key: string): RateLimitResult {
    const result = this.check(key);
    if (!result.allowed) return result;
    this.hit(key);
    return { ...this.check(key), allowed: true };
  }

  /** Forgets a key (e.g. an account after a successful sign-in). */
  reset(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < this.options.windowMs) return;
    this.lastSweep = now;
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}
