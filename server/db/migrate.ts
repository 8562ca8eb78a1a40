import { join } from 'node:path';
import type { Config } from '../config';
import { openDatabase, type Database } from './client';

/** Opens the configured database (PostgreSQL, or PGlite in DATA_DIR/db) and applies pending migrations. */
export async function openAndMigrate(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: join(config.dataDir, 'db') });
  try {
    await database.migrate();
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
  return database;
}
