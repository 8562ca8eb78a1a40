/**
 * Opens the database: embedded PGlite (a data folder, or in memory) by default, PostgreSQL when a URL is
 * given. Both are typed as Drizzle's common PgDatabase, so services do not care which one runs.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  kind: DatabaseKind;
  /** Applies pending migrations from server/db/migrations. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

export interface OpenDatabaseOptions {
  /** postgres:// URL; when set, PostgreSQL through a pg Pool. */
  databaseUrl?: string | null;
  /** PGlite data folder; null or undefined: in memory. Ignored with databaseUrl. */
  pgliteDir?: string | null;
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
      migrate: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
      close: () => pool.end(),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  if (options.pgliteDir) mkdirSync(options.pgliteDir, { recursive: true });
  const client = options.pgliteDir ? await PGlite.create(options.pgliteDir) : await PGlite.create();
  const db = drizzle({ client, schema });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    migrate: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => client.close(),
  };
}
