/**
 * The embedded database in its own thread (issue 33): `RemotePGlite` answers the part of PGlite's interface the
 * portal uses — query, exec, transaction, listen, dumpDataDir, close — by messages to server/db/pglite-thread.mjs,
 * where the real PGlite runs. Drizzle's PGlite driver, pg-boss' adapter, the change bus and the backups use it as
 * they used PGlite, while the WebAssembly work of every query runs off the server's event loop, so one heavy
 * request no longer holds up the others' parsing and answering, nor RADIUS.
 *
 * One thread per process (started on first use, and not keeping the process alive once no database is open).
 * If the thread dies, every pending call fails with "embedded database is not running", which the error handler
 * answers as 503 (server/lib/errors.ts). A database on a data folder is then reopened in a new thread at once
 * (PostgreSQL's own crash recovery replays its log), its LISTENs made again; calls made meanwhile fail the same
 * way, so the server answers 503 while it recovers and serves again without a restart. An in-memory database
 * (tests) died with its thread and stays closed.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Results, Transaction } from '@electric-sql/pglite';

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
interface ErrorData {
  message: string;
  name?: string;
  [key: string]: unknown;
}

/** The script that opens, counts and dumps a backup's copy in a process of its own (backups/archive.ts). */
export const PGLITE_DUMP_SCRIPT = fileURLToPath(new URL('./pglite-dump.mjs', import.meta.url));

let thread: DatabaseThread | null = null;
let nextId = 1;

class DatabaseThread {
  readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  readonly listeners = new Map<number, (payload: string) => void>();
  private open = 0;
  dead: Error | null = null;

  constructor() {
    this.worker = new Worker(new URL('./pglite-thread.mjs', import.meta.url));
    this.worker.unref();
    this.worker.on(
      'message',
      (message: {
        id?: number;
        ok?: boolean;
        result?: unknown;
        error?: ErrorData;
        notify?: number;
        payload?: string;
      }) => {
        if (message.notify !== undefined) return this.listeners.get(message.notify)?.(message.payload ?? '');
        const waiting = this.pending.get(message.id!);
        if (!waiting) return;
        this.pending.delete(message.id!);
        if (message.ok) waiting.resolve(message.result);
        else waiting.reject(toError(message.error!));
      },
    );
    const fail = (error: Error) => {
      this.dead = new Error(`The embedded database is not running (${error.message})`, { cause: error });
      for (const waiting of this.pending.values()) waiting.reject(this.dead);
      this.pending.clear();
      if (thread === this) thread = null;
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`its thread exited with ${code}`)));
  }

  call<T>(message: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.dead) return Promise.reject(this.dead);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...message, id }, transfer);
    });
  }

  /** The thread keeps the process alive only while a database is open in it. */
  opened(): void {
    if (this.open++ === 0) this.worker.ref();
  }

  closed(): void {
    if (--this.open === 0) this.worker.unref();
  }
}

function threadOf(): DatabaseThread {
  thread ??= new DatabaseThread();
  return thread;
}

/** Tests: kills the database thread as a crash would (a WebAssembly abort, an out-of-memory). */
export async function killDatabaseThreadForTests(): Promise<void> {
  await thread?.worker.terminate();
}

/** How long after a failed reopen the next try waits. */
const REOPEN_RETRY_MS = 1000;

/** A PGlite error as PGlite threw it: message, code (SQLSTATE), constraint, detail… */
function toError(data: ErrorData): Error {
  const error = new Error(data.message) as Error & Record<string, unknown>;
  for (const [key, value] of Object.entries(data)) if (key !== 'message') error[key] = value;
  if (data.name) error.name = data.name;
  return error;
}

interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
}

/** Type parsers cannot cross threads: Drizzle's (return the text as is) are sent as their type ids. */
function portable(options?: QueryOptions): Record<string, unknown> | undefined {
  if (!options) return undefined;
  const { parsers, ...rest } = options;
  if (!parsers) return rest;
  const identity = Object.entries(parsers)
    .filter(([, parse]) => parse('x', 0) === 'x')
    .map(([oid]) => Number(oid));
  if (identity.length !== Object.keys(parsers).length)
    throw new Error('Only type parsers that return the text as is can be used with the embedded database');
  return { ...rest, identity };
}

/** The PGlite calls the portal makes, answered by the database thread. */
export class RemotePGlite {
  private thread: DatabaseThread;
  private readonly db = nextId++;
  private closing: Promise<void> | null = null;
  /** LISTENs to make again in a new thread: listener id → channel and callback. */
  private readonly listens = new Map<number, { channel: string; callback: (payload: string) => void }>();
  private reopening: Promise<void> | null = null;
  private reopenAfter = 0;

  private constructor(private readonly dataDir: string | undefined) {
    this.thread = threadOf();
  }

  /** The data folder (undefined: in memory). */
  get dataDirectory(): string | undefined {
    return this.dataDir;
  }

  /** Opens PGlite in the database thread: on a data folder, from a dump (loadDataDir), or empty in memory. */
  static async create(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<RemotePGlite> {
    const remote = new RemotePGlite(options.dataDir);
    const dump = options.loadDataDir ? await options.loadDataDir.arrayBuffer() : undefined;
    remote.thread.opened();
    try {
      await remote.thread.call({ op: 'open', db: remote.db, dataDir: options.dataDir, dump }, dump ? [dump] : []);
    } catch (error) {
      remote.thread.closed();
      throw error;
    }
    remote.watch(remote.thread);
    return remote;
  }

  /** A data folder's database is reopened as soon as its thread dies. */
  private watch(on: DatabaseThread): void {
    if (!this.dataDir) return;
    on.worker.once('exit', () => {
      if (!this.closing) void this.reopen();
    });
  }

  /** Opens the data folder again in a new thread and makes its LISTENs again; one try at a time. */
  private reopen(): Promise<void> {
    this.reopening ??= (async () => {
      const wait = this.reopenAfter - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const next = threadOf();
      next.opened();
      try {
        await next.call({ op: 'open', db: this.db, dataDir: this.dataDir });
        for (const [listener, { channel, callback }] of this.listens) {
          next.listeners.set(listener, callback);
          await next.call({ op: 'listen', db: this.db, channel, listener });
        }
      } catch {
        next.closed();
        this.reopenAfter = Date.now() + REOPEN_RETRY_MS;
        return;
      } finally {
        this.reopening = null;
      }
      const dead = this.thread;
      this.thread = next;
      // The dead thread no longer holds the process open.
      if (dead !== next) dead.closed();
      this.watch(next);
    })();
    return this.reopening;
  }

  /** The thread to call: the live one, or the dead one's error (a reopen is then tried in the background). */
  private live(): DatabaseThread {
    if (this.thread.dead && this.dataDir && !this.closing && !this.reopening) void this.reopen();
    return this.thread;
  }

  query<T>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
    tx?: { id: number; on: DatabaseThread },
  ): Promise<Results<T>> {
    return (tx?.on ?? this.live()).call<Results<T>>({
      op: 'query',
      db: this.db,
      sql,
      params,
      options: portable(options),
      tx: tx?.id,
    });
  }

  exec(sql: string, _options?: unknown, tx?: { id: number; on: DatabaseThread }): Promise<Array<Results>> {
    return (tx?.on ?? this.live()).call<Array<Results>>({ op: 'exec', db: this.db, sql, tx: tx?.id });
  }

  /**
   * Runs fn in one transaction: PGlite begins it in its thread and holds its lock until fn's promise settles, then
   * commits (or rolls back when fn throws or called rollback()).
   */
  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = nextId++;
    // A transaction stays on the thread it began in: if that thread dies, its statements fail with it.
    const on = this.live();
    const ref = { id, on };
    await on.call({ op: 'begin', db: this.db, tx: id });
    let closed = false;
    let rolledBack = false;
    const tx = {
      query: <R>(sql: string, params?: unknown[], options?: QueryOptions) => this.query<R>(sql, params, options, ref),
      sql: () => {
        throw new Error('tx.sql is not available on the embedded database thread');
      },
      exec: (sql: string) => this.exec(sql, undefined, ref),
      rollback: async () => {
        rolledBack = true;
        closed = true;
        await on.call({ op: 'end', db: this.db, tx: id, commit: false });
      },
      listen: () => {
        throw new Error('listen inside a transaction is not supported');
      },
      get closed() {
        return closed;
      },
    } as unknown as Transaction;
    let result: T;
    try {
      result = await fn(tx);
    } catch (error) {
      if (!closed) {
        closed = true;
        await on.call({ op: 'end', db: this.db, tx: id, commit: false }).catch(() => {});
      }
      throw error;
    }
    if (!closed) {
      closed = true;
      await on.call({ op: 'end', db: this.db, tx: id, commit: !rolledBack });
    }
    return result;
  }

  /** LISTEN on a channel; the returned function stops listening. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const listener = nextId++;
    const on = this.live();
    on.listeners.set(listener, callback);
    try {
      await on.call({ op: 'listen', db: this.db, channel, listener });
    } catch (error) {
      on.listeners.delete(listener);
      throw error;
    }
    this.listens.set(listener, { channel, callback });
    return async () => {
      this.listens.delete(listener);
      this.thread.listeners.delete(listener);
      await this.thread.call({ op: 'unlisten', db: this.db, listener }).catch(() => {});
    };
  }

  /** PGlite's dumpDataDir: the data folder as a tarball. */
  async dumpDataDir(compression?: 'none' | 'gzip' | 'auto'): Promise<Blob> {
    const bytes = await this.live().call<Uint8Array>({ op: 'dump', db: this.db, compression });
    return new Blob([bytes as Uint8Array<ArrayBuffer>]);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.reopening;
      try {
        if (!this.thread.dead) await this.thread.call({ op: 'close', db: this.db });
      } finally {
        this.thread.closed();
      }
    })();
    return this.closing;
  }
}
