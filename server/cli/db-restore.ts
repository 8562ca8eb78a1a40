/**
 * `npm run db:restore -- FILE [--force]`: restores a backup made by db:backup (or the scheduled backups) into
 * the configured database and DATA_DIR. It verifies the archive whole first (checksums, the SECRETS_KEY check),
 * refuses a database or data folder that already holds data unless --force (then the old data is set aside),
 * compares the row counts, and applies migrations newer than the backup.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DatabaseInUseError } from '../db/client';
import { BackupError, restoreBackup } from '../modules/backups/archive';
import { configOrReport, runCommand } from './common';
import { ensurePostgresClient } from './pg-client';

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ options: { force: { type: 'boolean', default: false } }, allowPositionals: true });
  if (positionals.length !== 1) {
    console.error('Usage: npm run db:restore -- <backup.tar.gz> [--force]');
    return 2;
  }
  const config = configOrReport();
  if (!config || (config.databaseUrl && !ensurePostgresClient())) return 1;
  try {
    const result = await restoreBackup({ archive: resolve(positionals[0]), config, force: values.force });
    const rows = Object.values(result.manifest.database.tables).reduce((a, b) => a + b, 0);
    console.log(
      `Restored the backup of ${result.manifest.created_at}: ${rows} rows in ${Object.keys(result.manifest.database.tables).length} tables, ` +
        `${result.manifest.files.length} files, counts checked` +
        (result.migrationsApplied ? `; ${result.migrationsApplied} newer migration(s) applied` : '') +
        (result.setAside ? `. The data that was there is in ${result.setAside}.` : '.'),
    );
    return 0;
  } catch (error) {
    console.error(error instanceof BackupError || error instanceof DatabaseInUseError ? error.message : error);
    return 1;
  }
}

runCommand(main);
