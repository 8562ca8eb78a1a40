// The embedded database's own thread (issue 33). PGlite is PostgreSQL compiled to WebAssembly: every query is CPU
// work on the thread that runs it. Here, in a worker thread, that work no longer holds up the server's event loop
// (HTTP requests, RADIUS packets); the server talks to it through server/db/pglite-remote.ts.
//
// One thread per process hosts every PGlite instance the process opens (a test run opens hundreds: the WebAssembly
// module is compiled once). Messages from the server, each with a request id: open, query, exec, begin/end of a
// transaction, listen/unlisten, dump, close. Every one is handed to PGlite at once; PGlite's own lock keeps a
// transaction's statements together, exactly as when it ran in the server's thread. Plain JavaScript, so the
// sources and the compiled server load it alike (scripts/build-server.mjs copies it beside server.mjs).
import { parentPort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** @type {Map<number, PGlite>} */
const instances = new Map();
/** Open transactions: id → { tx, queue of pending operations, finish(commit) }. */
const transactions = new Map();
/** Listeners: id → unlisten function. */
const listeners = new Map();

/** A PGlite error as plain data (structured clone keeps only message and stack of an Error). */
function errorData(error) {
  const e = error ?? {};
  const data = { message: String(e.message ?? e), name: e.name };
  for (const key of [
    'code',
    'constraint',
    'detail',
    'hint',
    'severity',
    'schema',
    'table',
    'column',
    'dataType',
    'position',
    'where',
    'routine',
  ]) {
    if (e[key] !== undefined) data[key] = e[key];
  }
  return data;
}

/** Drizzle passes type parsers that return the text as it came (timestamps, dates, intervals): rebuilt from their type ids. */
function queryOptions(options) {
  if (!options) return undefined;
  const { identity, ...rest } = options;
  if (!identity) return rest;
  return { ...rest, parsers: Object.fromEntries(identity.map((oid) => [oid, (value) => value])) };
}

function reply(id, result, transfer) {
  parentPort.postMessage({ id, ok: true, result }, transfer ?? []);
}

async function handle(message) {
  const { op, db: dbId } = message;
  const db = instances.get(dbId);
  if (!db && op !== 'open' && op !== 'close' && !message.tx) throw new Error('PGlite is closed');
  switch (op) {
    case 'open': {
      const options = message.dump ? { loadDataDir: new Blob([message.dump]) } : {};
      const instance = message.dataDir ? await PGlite.create(message.dataDir, options) : await PGlite.create(options);
      instances.set(dbId, instance);
      return undefined;
    }
    case 'query': {
      const target = message.tx ? transactions.get(message.tx).tx : db;
      const result = await target.query(message.sql, message.params, queryOptions(message.options));
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
    }
    case 'exec': {
      const target = message.tx ? transactions.get(message.tx).tx : db;
      const results = await target.exec(message.sql);
      return results.map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows }));
    }
    case 'begin': {
      // Resolves once PGlite has begun the transaction; its callback then waits for the 'end' message.
      return new Promise((begun, failed) => {
        db.transaction(async (tx) => {
          const outcome = new Promise((resolve) => transactions.set(message.tx, { tx, finish: resolve }));
          begun(undefined);
          const commit = await outcome;
          transactions.delete(message.tx);
          if (!commit) await tx.rollback();
        }).then(
          () => {
            const waiting = ended.get(message.tx);
            ended.delete(message.tx);
            waiting?.resolve();
          },
          (error) => {
            const waiting = ended.get(message.tx);
            ended.delete(message.tx);
            if (waiting) waiting.reject(error);
            else failed(error);
          },
        );
      });
    }
    case 'end': {
      const open = transactions.get(message.tx);
      if (!open) return undefined;
      return new Promise((resolve, reject) => {
        ended.set(message.tx, { resolve, reject });
        open.finish(message.commit);
      });
    }
    case 'listen': {
      const unlisten = await db.listen(message.channel, (payload) =>
        parentPort.postMessage({ notify: message.listener, payload }),
      );
      listeners.set(message.listener, unlisten);
      return undefined;
    }
    case 'unlisten': {
      const unlisten = listeners.get(message.listener);
      listeners.delete(message.listener);
      await unlisten?.();
      return undefined;
    }
    case 'dump': {
      const file = await db.dumpDataDir(message.compression);
      return new Uint8Array(await file.arrayBuffer());
    }
    case 'close': {
      instances.delete(dbId);
      await db?.close();
      return undefined;
    }
    default:
      throw new Error(`unknown operation ${op}`);
  }
}

/** Transactions whose 'end' was sent: resolved when PGlite has committed or rolled back. */
const ended = new Map();

parentPort.on('message', (message) => {
  handle(message).then(
    (result) => reply(message.id, result, result instanceof Uint8Array ? [result.buffer] : undefined),
    (error) => parentPort.postMessage({ id: message.id, ok: false, error: errorData(error) }),
  );
});
