/**
 * Opens the database: embedded PGlite (a data folder, or in memory) by default, PostgreSQL when a URL is
 * given. Both are typed as Drizzle's common PgDatabase, so services do not care which one runs.
 */
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { projectPath } from '../lib/paths';
import { RemotePGlite } from './pglite-remote';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  kind: DatabaseKind;
  /** PostgreSQL: the connection URL (backups run pg_dump on it). */
  url?: string;
  /** PGlite: the embedded instance in its thread (backups dump its data folder, the change bus listens on it). */
  pglite?: RemotePGlite;
  /** PostgreSQL: this process's pool (connections open, idle, requests waiting for one). */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /** Applies pending migrations from server/db/migrations. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The rows of a raw `db.execute(sql…)`: node-postgres answers a QueryResult holding them, PGlite through Drizzle
 * the rows or a result holding them.
 */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return ((result as { rows?: unknown[] }).rows ?? result) as T[];
}

export const MIGRATIONS_FOLDER = projectPath('server/db/migrations');

export interface OpenDatabaseOptions {
  /** postgres:// URL; when set, PostgreSQL through a pg Pool. */
  databaseUrl?: string | null;
  /** PGlite data folder; null or undefined: in memory. Ignored with databaseUrl. */
  pgliteDir?: string | null;
  /**
   * An in-memory PGlite started from this dump (dumpDataDir's tarball) instead of an empty cluster: skips
   * initdb, which is most of PGlite's start. Ignored with databaseUrl or pgliteDir.
   */
  pgliteDump?: Blob;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const { Pool } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    const db = drizzle({ client: pool, schema });
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      url: options.databaseUrl,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      migrate: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
      close: () => pool.end(),
    };
  }
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let release = () => {};
  if (options.pgliteDir) {
    mkdirSync(options.pgliteDir, { recursive: true });
    release = lockDataFolder(options.pgliteDir);
  }
  // PGlite runs in the database thread (pglite-remote.ts), off the server's event loop (issue 33).
  let client: RemotePGlite;
  try {
    client = await RemotePGlite.create(
      options.pgliteDir
        ? { dataDir: options.pgliteDir }
        : options.pgliteDump
          ? { loadDataDir: options.pgliteDump }
          : {},
    );
  } catch (error) {
    release();
    throw error;
  }
  const db = drizzle({ client: client as unknown as import('@electric-sql/pglite').PGlite, schema });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    pglite: client,
    migrate: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: async () => {
      try {
        await client.close();
      } finally {
        release();
      }
    },
  };
}

/**
 * Creates an embedded database folder from a dump of another one (PGlite's dumpDataDir, as a backup holds it),
 * under the same one-process lock. The folder must not hold a database yet.
 */
export async function loadPgliteDataDir(folder: string, dump: Blob): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  mkdirSync(folder, { recursive: true });
  const release = lockDataFolder(folder);
  try {
    const client = await PGlite.create(folder, { loadDataDir: dump });
    await client.close();
  } finally {
    release();
  }
}

export class DatabaseInUseError extends Error {
  constructor(
    readonly folder: string,
    readonly pid: number,
    readonly lockFile: string,
  ) {
    super(
      `The embedded database in ${folder} is in use by process ${pid} (a running portal?). Stop it first and try again; ` +
        `with PostgreSQL (DATABASE_URL) several processes may share the database. If no portal is running, delete ${lockFile}.`,
    );
    this.name = 'DatabaseInUseError';
  }
}

/** Throws DatabaseInUseError when a live process holds the embedded database folder. */
export function assertDataFolderFree(folder: string): void {
  const lockFile = `${folder}.lock`;
  let owner: number;
  try {
    owner = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
  } catch {
    return;
  }
  if (Number.isInteger(owner) && owner > 0 && processIsAlive(owner))
    throw new DatabaseInUseError(folder, owner, lockFile);
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite is PostgreSQL inside this process: a second process opening the same folder would write beside the
 * first and corrupt it (a command such as `npm run admin:create` run while the portal is up). A lock file
 * with the owner's pid keeps the folder to one process; a lock whose process is gone is taken over.
 */
function lockDataFolder(folder: string): () => void {
  const lockFile = `${folder}.lock`;
  const mine = String(process.pid);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lockFile, mine, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const owner = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
      if (Number.isInteger(owner) && owner > 0 && processIsAlive(owner))
        throw new DatabaseInUseError(folder, owner, lockFile);
      unlinkSync(lockFile);
    }
  }
  return () => {
    try {
      if (readFileSync(lockFile, 'utf8') === mine) unlinkSync(lockFile);
    } catch {
      /* already gone */
    }
  };
}
