/**
 * Where @fastify/rate-limit keeps its counters. The library's own LocalStore reads Date.now() and cannot
 * forget a key; ours counts on the app's injected clock (so tests move time instead of sleeping) and can
 * clear a key (a successful sign-in clears the account's failures). The counting itself is a
 * `RateLimitBackend`: in memory for one process (below); shared by several nodes in PostgreSQL
 * (rate-limit-postgres.ts) or Redis (rate-limit-redis.ts), chosen in server/plugins/rate-limit.ts without
 * touching the routes.
 */
import type { Clock } from './clock';

export interface RateLimitCount {
  /** Attempts counted in the current window (0 when none). */
  count: number;
  /** Milliseconds until the current window ends (0 when none). */
  ttlMs: number;
}

export interface RateLimitBackend {
  /** Counts one attempt (or `by`) for the key and returns the window's state after it. */
  increment(key: string, windowMs: number, by?: number): Promise<RateLimitCount>;
  /** The window's state without counting. */
  read(key: string, windowMs: number): Promise<RateLimitCount>;
  /** Forgets the key's window. */
  clear(key: string): Promise<void>;
}

/** Fixed windows in a Map, swept as time passes; bounded so a flood of addresses cannot grow it forever. */
export class MemoryRateLimitBackend implements RateLimitBackend {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = 0;

  constructor(
    private readonly clock: Clock,
    private readonly maxKeys = 100_000,
  ) {}

  async increment(key: string, windowMs: number, by = 1): Promise<RateLimitCount> {
    const now = this.clock.now().getTime();
    this.sweep(now, windowMs);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      if (!w && this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value!);
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count += by;
    return { count: w.count, ttlMs: w.resetAt - now };
  }

  async read(key: string): Promise<RateLimitCount> {
    const now = this.clock.now().getTime();
    const w = this.windows.get(key);
    return w && w.resetAt > now ? { count: w.count, ttlMs: w.resetAt - now } : { count: 0, ttlMs: 0 };
  }

  async clear(key: string): Promise<void> {
    this.windows.delete(key);
  }

  private sweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < Math.min(windowMs, 60_000)) return;
    this.lastSweep = now;
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}

/**
 * Counts in `primary` and, while that fails (Redis unreachable), in `fallback` for the failed calls, telling
 * `onFallback` each time. The fallback's counts are this process's alone, so while it is in use a limit counts
 * per node (at worst the limit times the number of nodes), which still slows a password guesser down; the
 * alternative, refusing every sign-in while Redis is down, would lock everyone out.
 */
export class FallbackRateLimitBackend implements RateLimitBackend {
  constructor(
    private readonly primary: RateLimitBackend,
    private readonly fallback: RateLimitBackend,
    private readonly onFallback: (error: unknown) => void = () => {},
  ) {}

  increment(key: string, windowMs: number, by = 1): Promise<RateLimitCount> {
    return this.primary.increment(key, windowMs, by).catch((error: unknown) => {
      this.onFallback(error);
      return this.fallback.increment(key, windowMs, by);
    });
  }

  read(key: string, windowMs: number): Promise<RateLimitCount> {
    return this.primary.read(key, windowMs).catch((error: unknown) => {
      this.onFallback(error);
      return this.fallback.read(key, windowMs);
    });
  }

  async clear(key: string): Promise<void> {
    // Both: a key counted in memory during an outage is forgotten too.
    await this.fallback.clear(key);
    await this.primary.clear(key).catch(this.onFallback);
  }
}

/**
 * A high-volume limit (the per-minute API limit) over a shared backend without a round trip per request (issue 15):
 * attempts are counted in memory and added to the shared backend every `flushMs`, one write per key and interval;
 * a request is refused once the shared count last seen plus what this process counted since reaches the limit. So
 * the limit still counts across nodes, to within one interval's requests. The sign-in, registration, reset and
 * contact limits stay exact (they use the shared backend directly).
 */
export class BatchedRateLimitBackend implements RateLimitBackend {
  private readonly entries = new Map<string, { windowMs: number; pending: number; shared: number; resetAt: number }>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly shared: RateLimitBackend,
    private readonly clock: Clock,
    private readonly options: { flushMs?: number; onError?: (error: unknown) => void } = {},
  ) {}

  async increment(key: string, windowMs: number, by = 1): Promise<RateLimitCount> {
    const now = this.clock.now().getTime();
    let e = this.entries.get(key);
    if (!e || e.resetAt <= now) {
      e = { windowMs, pending: 0, shared: 0, resetAt: now + windowMs };
      this.entries.set(key, e);
    }
    e.pending += by;
    if (!this.timer) {
      this.timer = setInterval(() => void this.flush(), this.options.flushMs ?? 1000);
      this.timer.unref();
    }
    return { count: e.shared + e.pending, ttlMs: e.resetAt - now };
  }

  async read(key: string): Promise<RateLimitCount> {
    const now = this.clock.now().getTime();
    const e = this.entries.get(key);
    return e && e.resetAt > now ? { count: e.shared + e.pending, ttlMs: e.resetAt - now } : { count: 0, ttlMs: 0 };
  }

  async clear(key: string): Promise<void> {
    this.entries.delete(key);
    await this.shared.clear(key);
  }

  /** Adds what was counted here to the shared backend and takes the shared totals (every node's) back. */
  flush(): Promise<void> {
    this.flushing ??= (async () => {
      try {
        const now = this.clock.now().getTime();
        for (const [key, e] of this.entries) {
          if (e.resetAt <= now && e.pending === 0) {
            this.entries.delete(key);
            continue;
          }
          if (e.pending === 0) {
            // Nothing new here: the other nodes' counts still come back.
            try {
              const r = await this.shared.read(key, e.windowMs);
              if (r.count > e.shared) e.shared = r.count;
            } catch (error) {
              this.options.onError?.(error);
            }
            continue;
          }
          const n = e.pending;
          e.pending = 0;
          try {
            const r = await this.shared.increment(key, e.windowMs, n);
            e.shared = r.count;
            e.resetAt = this.clock.now().getTime() + r.ttlMs;
          } catch (error) {
            e.pending += n;
            this.options.onError?.(error);
          }
        }
      } finally {
        this.flushing = null;
      }
    })();
    return this.flushing;
  }

  /** Stops the timer after a last flush. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }
}

type StoreCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** The options @fastify/rate-limit hands a store's child; `nameSpace` is ours, passed through its options. */
export interface StoreRouteOptions {
  nameSpace?: string;
}

/**
 * A store class for @fastify/rate-limit (it constructs the store itself, so the backend comes in by closure).
 * Each limiter gets a child whose keys are prefixed by its `nameSpace`, so limits never share counters.
 */
/** The store class @fastify/rate-limit is given; `byNameSpace` sends one limit's counting to another backend. */
export function rateLimitStore(shared: RateLimitBackend, byNameSpace: Record<string, RateLimitBackend> = {}) {
  return class PortalRateLimitStore {
    constructor(
      _globalOptions?: unknown,
      readonly prefix = 'api:',
    ) {}

    private get backend(): RateLimitBackend {
      return byNameSpace[this.prefix] ?? shared;
    }

    incr(key: string, callback: StoreCallback, timeWindow: number): void {
      this.backend.increment(this.prefix + key, timeWindow).then(
        (r) => callback(null, { current: r.count, ttl: r.ttlMs }),
        (error: Error) => callback(error),
      );
    }

    read(key: string, callback: StoreCallback, timeWindow: number): void {
      this.backend.read(this.prefix + key, timeWindow).then(
        (r) => callback(null, { current: r.count, ttl: r.ttlMs }),
        (error: Error) => callback(error),
      );
    }

    // The library's types call this argument route options; it also carries the limiter's own options.
    child(routeOptions: object) {
      return new PortalRateLimitStore(undefined, (routeOptions as StoreRouteOptions).nameSpace ?? 'limit:');
    }
  };
}
