/**
 * `npm run db:restore -- FILE [--force]`: restores a backup made by db:backup (or the scheduled backups) into
 * the configured database and DATA_DIR. FILE may also be the name of a backup the portal keeps in its S3 bucket
 * (S3_BUCKET; listed on the Backups screen): it is copied out of the bucket first. It verifies the archive whole first (checksums, the SECRETS_KEY check),
 * refuses a database or data folder that already holds data unless --force (then the old data is set aside),
 * compares the row counts, and applies migrations newer than the backup.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from '../config';
import { DatabaseInUseError } from '../db/client';
import { createFileStore, loadStorageConfig } from '../lib/storage';
import { BackupError, restoreBackup } from '../modules/backups/archive';
import { copyKeptBackup } from '../modules/backups/service';
import { configOrReport, runCommand } from './common';
import { ensurePostgresClient } from './pg-client';

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: { force: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) {
    console.error('Usage: npm run db:restore -- <backup.tar.gz> [--force]');
    return 2;
  }
  const config = configOrReport();
  if (!config || (config.databaseUrl && !ensurePostgresClient())) return 1;
  let copied: string | null = null;
  try {
    let archive = resolve(positionals[0]);
    const storage = loadStorageConfig();
    if (!existsSync(archive) && storage.kind === 's3') {
      // Not a file here: a backup kept in the bucket by that name?
      const store = createFileStore(storage, config.dataDir);
      copied = await mkdtemp(join(tmpdir(), 'isp-restore-s3-'));
      try {
        archive = (await copyKeptBackup(store, basename(positionals[0]), copied)) ?? archive;
      } finally {
        await store.close();
      }
    }
    const result = await restoreBackup({ archive, config, force: values.force });
    const rows = Object.values(result.manifest.database.tables).reduce((a, b) => a + b, 0);
    console.log(
      `Restored the backup of ${result.manifest.created_at}: ${rows} rows in ${Object.keys(result.manifest.database.tables).length} tables, ` +
        `${result.manifest.files.length} files, counts checked` +
        (result.migrationsApplied ? `; ${result.migrationsApplied} newer migration(s) applied` : '') +
        (result.setAside ? `. The data that was there is in ${result.setAside}.` : '.'),
    );
    return 0;
  } catch (error) {
    console.error(
      error instanceof BackupError || error instanceof DatabaseInUseError || error instanceof ConfigError
        ? error.message
        : error,
    );
    return 1;
  } finally {
    if (copied) await rm(copied, { recursive: true, force: true });
  }
}

runCommand(main);
