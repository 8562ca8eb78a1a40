/**
 * `npm run db:backup [-- --out FILE]`: one archive of the configured database and DATA_DIR's uploaded files
 * (server/modules/backups/archive.ts). Default file: DATA_DIR/backups/isp-portal-<time>.tar.gz. With the embedded
 * database the portal must be stopped (its folder belongs to one process); PostgreSQL is backed up live.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError, backupFileName, createBackup } from '../modules/backups/archive';
import { configOrReport, databaseOrReport, runCommand } from './common';
import { ensurePostgresClient } from './pg-client';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const config = configOrReport();
  if (!config || (config.databaseUrl && !ensurePostgresClient())) return 1;
  const database = await databaseOrReport(config);
  if (!database) return 1;
  try {
    const out = resolve(values.out ?? join(config.dataDir, 'backups', backupFileName(new Date())));
    const { manifest, bytes } = await createBackup({ database, config, out });
    const rows = Object.values(manifest.database.tables).reduce((a, b) => a + b, 0);
    console.log(
      `Backup written to ${out} (${(bytes / 1024 / 1024).toFixed(1)} MB): ${database.kind === 'pglite' ? 'embedded database' : 'PostgreSQL'}, ` +
        `${Object.keys(manifest.database.tables).length} tables, ${rows} rows, ${manifest.files.length} files. ` +
        'SECRETS_KEY is not in it: keep the key safe on its own.',
    );
    return 0;
  } catch (error) {
    console.error(error instanceof BackupError ? error.message : error);
    return 1;
  } finally {
    await database.close();
  }
}

runCommand(main);
