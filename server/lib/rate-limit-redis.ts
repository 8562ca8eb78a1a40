/**
 * Rate-limit windows in Redis (REDIS_URL), shared by every portal process that uses the same Redis (issue 14).
 * Keys are `isp:rl:<limit name space><key>`; a window is a counter with an expiry: the first increment creates
 * it and sets the expiry, the following ones only add to it, in one Lua script so no two processes can both see
 * a new key. Redis keeps the time itself (PEXPIRE/PTTL): the app's clock does not apply to these windows, so a
 * ManualClock moving in a test does not end them; only the windows' length comes from the app.
 *
 * Commands never wait for a lost connection (no offline queue, a command timeout): they fail at once, and the
 * caller decides what a failure means (the rate-limit plugin counts in memory meanwhile: see FallbackRateLimitBackend).
 */
import { Redis } from 'ioredis';
import type { RateLimitBackend, RateLimitCount } from './rate-limit-store';

export const REDIS_KEY_PREFIX = 'isp:rl:';

/** INCRBY, and PEXPIRE when the key is new (or somehow has no expiry); returns { count, PTTL }. */
const INCREMENT_SCRIPT = `
local n = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { n, ttl }
`;

export interface RedisRateLimitOptions {
  /** Default isp:rl: (tests use their own, to stay apart from a portal using the same Redis). */
  keyPrefix?: string;
  /** Told about connection errors, once per outage (ioredis reconnects by itself). */
  onConnectionError?: (error: Error) => void;
  /** Told when the connection is back after an error. */
  onReconnect?: () => void;
  /** Milliseconds a command may take before it counts as failed. Default 1000. */
  commandTimeoutMs?: number;
}

type IncrementingRedis = Redis & {
  rateLimitIncrement(key: string, windowMs: number, by: number): Promise<[number, number]>;
};

export class RedisRateLimitBackend implements RateLimitBackend {
  readonly redis: IncrementingRedis;
  private failing = false;

  constructor(url: string, options: RedisRateLimitOptions = {}) {
    const redis = new Redis(url, {
      keyPrefix: options.keyPrefix ?? REDIS_KEY_PREFIX,
      // A request must not hang while Redis is away: fail now, count elsewhere.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 1000,
      connectTimeout: 2000,
    });
    redis.defineCommand('rateLimitIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
    redis.on('error', (error: Error) => {
      if (this.failing) return;
      this.failing = true;
      options.onConnectionError?.(error);
    });
    redis.on('ready', () => {
      if (!this.failing) return;
      this.failing = false;
      options.onReconnect?.();
    });
    this.redis = redis as IncrementingRedis;
  }

  /** Resolves once connected, or after `timeoutMs` (then commands fail until ioredis gets through). */
  async ready(timeoutMs = 2000): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.redis.off('ready', onReady);
        resolve(ok);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.redis.once('ready', onReady);
    });
  }

  async increment(key: string, windowMs: number, by = 1): Promise<RateLimitCount> {
    const [count, ttl] = await this.redis.rateLimitIncrement(key, Math.max(1, Math.round(windowMs)), by);
    return { count: Number(count), ttlMs: Math.max(0, Number(ttl)) };
  }

  async read(key: string): Promise<RateLimitCount> {
    const replies = await this.redis.multi().get(key).pttl(key).exec();
    if (!replies) throw new Error('Redis discarded the rate-limit read');
    for (const [error] of replies) if (error) throw error;
    const count = Number(replies[0][1] ?? 0);
    const ttl = Number(replies[1][1]);
    // PTTL -2: no key; -1: no expiry (never written so by us; treated as no window).
    return count > 0 && ttl > 0 ? { count, ttlMs: ttl } : { count: 0, ttlMs: 0 };
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(key);
  }

  /** Closes the connection: QUIT when connected, else just drops it. */
  async close(): Promise<void> {
    if (this.redis.status === 'ready') {
      try {
        await this.redis.quit();
        return;
      } catch {
        // Fall through to disconnect.
      }
    }
    this.redis.disconnect();
  }
}
