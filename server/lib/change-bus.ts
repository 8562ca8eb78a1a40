/**
 * Change propagation between portal processes (issue 14). A module that changed something other processes cache
 * (settings, the RADIUS subscriber directory, the NAS list) publishes a topic after its change committed; every
 * process's handlers for that topic run: this process's at once, the others' through PostgreSQL's LISTEN/NOTIFY
 * on one dedicated connection (`pg`'s own notifications; a NOTIFY reaches every listening session of the
 * database). On the embedded database (one process by construction) the same handlers run in process only.
 *
 * The listening connection reconnects with backoff; notifications sent while it was away are lost, so after a
 * reconnect every handler of the special topic `resync` runs (caches reload everything). `connected` tells the
 * readiness check whether this process would hear the others.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

export const CHANGE_CHANNEL = 'portal_changes';
/** Handlers of this topic run after the listener (re)connected: whatever was missed must be read again. */
export const RESYNC = 'resync';
/**
 * Notifications sent by the database itself (triggers, at commit, however the row was changed: API, CLI, SQL),
 * by channel, with the topic they are dispatched as ({id: payload}). Listened to on PostgreSQL and PGlite alike.
 */
export const DATABASE_CHANNELS: Readonly<Record<string, string>> = {
  portal_user_changes: 'user.changed',
};
export const USER_CHANGED = DATABASE_CHANNELS.portal_user_changes;

/** `local`: the change was made by this process (which may have applied it already). */
export type ChangeHandler = (data: Record<string, unknown>, meta: { local: boolean }) => void | Promise<void>;

export interface ChangeBusLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

export interface ChangeBus {
  /** This process's id (a notification it sent itself is not handled twice). */
  readonly origin: string;
  /** Whether other processes' changes reach this one (always true in process). */
  readonly connected: boolean;
  /** Runs the topic's handlers here now and in every other process (after the caller's commit). */
  publish(topic: string, data?: Record<string, unknown>): Promise<void>;
  subscribe(topic: string, handler: ChangeHandler): () => void;
  /** Resolves once the handlers started so far have finished (tests, shutdown). */
  idle(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** NOTIFY payloads are limited to 8000 bytes; ours are ids. */
const MAX_PAYLOAD = 7900;

class LocalDispatch {
  private readonly handlers = new Map<string, Set<ChangeHandler>>();
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: ChangeBusLog) {}

  subscribe(topic: string, handler: ChangeHandler): () => void {
    let set = this.handlers.get(topic);
    if (!set) {
      set = new Set();
      this.handlers.set(topic, set);
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  /** Starts every handler of the topic synchronously (a synchronous handler has run when this returns). */
  dispatch(topic: string, data: Record<string, unknown>, local: boolean): void {
    for (const handler of this.handlers.get(topic) ?? []) {
      const run = (async () => {
        try {
          await handler(data, { local });
        } catch (error) {
          this.log.error({ err: error, topic }, 'a change handler failed');
        }
      })();
      this.running.add(run);
      void run.finally(() => this.running.delete(run));
    }
  }

  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }
}

/**
 * One process: handlers run in process. The embedded database (whose own trigger notifications are listened to
 * when `pglite` is given), and PostgreSQL in tests that want no listener.
 */
export function createLocalChangeBus(
  log: ChangeBusLog,
  pglite?: { listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> },
): ChangeBus {
  const local = new LocalDispatch(log);
  const unlisten: Array<() => Promise<void>> = [];
  return {
    origin: randomUUID(),
    connected: true,
    async publish(topic, data = {}) {
      local.dispatch(topic, data, true);
    },
    subscribe: (topic, handler) => local.subscribe(topic, handler),
    idle: () => local.idle(),
    async start() {
      if (!pglite) return;
      for (const [channel, topic] of Object.entries(DATABASE_CHANNELS)) {
        unlisten.push(await pglite.listen(channel, (payload) => local.dispatch(topic, { id: payload }, false)));
      }
    },
    async close() {
      for (const stop of unlisten.splice(0)) await stop().catch(() => {});
      await local.idle();
    },
  };
}

/** Several processes on one PostgreSQL: NOTIFY through the pool, LISTEN on a dedicated, reconnecting client. */
export function createPostgresChangeBus(options: {
  url: string;
  db: Db;
  log: ChangeBusLog;
  reconnectMaxMs?: number;
}): ChangeBus {
  const { url, log } = options;
  const local = new LocalDispatch(log);
  const origin = randomUUID();
  let client: import('pg').Client | null = null;
  let connected = false;
  let closing = false;
  let retryTimer: NodeJS.Timeout | null = null;
  let attempt = 0;
  let everConnected = false;

  async function connect(): Promise<void> {
    const { Client } = await import('pg');
    const c = new Client({ connectionString: url });
    c.on('error', (error) => {
      // The connection broke (server restart, network): reconnect, then resync.
      if (client === c) lost(error);
    });
    c.on('end', () => {
      if (client === c) lost(new Error('listener connection ended'));
    });
    c.on('notification', (message) => {
      const fromDatabase = DATABASE_CHANNELS[message.channel];
      if (fromDatabase) {
        if (message.payload) local.dispatch(fromDatabase, { id: message.payload }, false);
        return;
      }
      if (message.channel !== CHANGE_CHANNEL || !message.payload) return;
      let parsed: { o?: string; t?: string; d?: Record<string, unknown> };
      try {
        parsed = JSON.parse(message.payload);
      } catch {
        return;
      }
      if (!parsed.t || parsed.o === origin) return;
      local.dispatch(parsed.t, parsed.d ?? {}, false);
    });
    await c.connect();
    await c.query(`LISTEN ${CHANGE_CHANNEL}`);
    for (const channel of Object.keys(DATABASE_CHANNELS)) await c.query(`LISTEN ${channel}`);
    client = c;
    connected = true;
    attempt = 0;
    if (everConnected) {
      log.info?.({}, 'change listener reconnected: reloading cached data');
      local.dispatch(RESYNC, {}, false);
    }
    everConnected = true;
  }

  function lost(error: unknown): void {
    if (!connected && client === null) return;
    connected = false;
    const old = client;
    client = null;
    old?.removeAllListeners('notification');
    void old?.end().catch(() => {});
    if (closing) return;
    log.warn({ err: error }, 'change listener lost its connection; reconnecting');
    schedule();
  }

  function schedule(): void {
    if (closing || retryTimer) return;
    const delay = Math.min(options.reconnectMaxMs ?? 5000, 100 * 2 ** attempt++);
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect().catch((error: unknown) => {
        log.warn({ err: error }, 'change listener could not connect; retrying');
        schedule();
      });
    }, delay);
    retryTimer.unref();
  }

  return {
    origin,
    get connected() {
      return connected;
    },
    async publish(topic, data = {}) {
      local.dispatch(topic, data, true);
      const payload = JSON.stringify({ o: origin, t: topic, d: data });
      if (payload.length > MAX_PAYLOAD) throw new Error(`change payload too large for NOTIFY (${topic})`);
      try {
        await options.db.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${payload})`);
      } catch (error) {
        // The change itself committed; the other processes catch up at their periodic reload.
        log.error({ err: error, topic }, 'could not tell the other processes about a change');
      }
    },
    subscribe: (topic, handler) => local.subscribe(topic, handler),
    idle: () => local.idle(),
    async start() {
      try {
        await connect();
      } catch (error) {
        log.warn({ err: error }, 'change listener could not connect; retrying');
        schedule();
      }
    },
    async close() {
      closing = true;
      if (retryTimer) clearTimeout(retryTimer);
      const c = client;
      client = null;
      connected = false;
      await c?.end().catch(() => {});
      await local.idle();
    },
  };
}
