/**
 * Backups that restore: one .tar.gz holding the database, the uploaded files and a manifest.
 *
 * - The database: PGlite's data folder as dumpDataDir writes it, or a pg_dump custom-format dump of PostgreSQL
 *   taken on an exported snapshot (the row counts in the manifest come from that same snapshot). A PGlite data
 *   folder is copied online, as PostgreSQL's base backups are (issue 33): pg_backup_start, a copy of the files
 *   while the portal goes on writing, pg_backup_stop, the log written meanwhile and the backup label; that copy,
 *   opened by a child process at the lowest CPU priority (server/db/pglite-dump.mjs), replays the log to a
 *   consistent state, and is counted and dumped there. The live database is held only for the checkpoint that starts the backup. (An in-memory database —
 *   tests — has no folder: it is counted and dumped under its transaction lock.)
 * - The files: what the portal stored in DATA_DIR (logo, ticket attachments, installation photos); never
 *   secrets.json: the keys are kept apart from the data they protect.
 * - manifest.json: format, portal version, when, the last migration, rows per table, size and SHA-256 of every
 *   entry, and a value sealed with SECRETS_KEY so a restore can tell whether the current key opens the backup's
 *   sealed credentials.
 *
 * A restore checks all of that in a scratch folder before it writes anything, refuses a target that already
 * holds data (unless forced, and then the old data is set aside, not deleted), restores, compares the row
 * counts, then applies the migrations that are newer than the backup.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, type Dirent, existsSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { setPriority, tmpdir } from 'node:os';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { dirname, join, relative, sep } from 'node:path';
import pg from 'pg';
import * as tar from 'tar';
import type { Config } from '../../config';
import {
  assertDataFolderFree,
  loadPgliteDataDir,
  openDatabase,
  type Database,
  type DatabaseKind,
} from '../../db/client';
import { PGLITE_DUMP_SCRIPT, type RemotePGlite } from '../../db/pglite-remote';
import { VERSION } from '../../lib/paths';
import { createSecretBox } from '../../lib/secret-box';

export const BACKUP_FORMAT = 1;
/** Folders of DATA_DIR whose files are the portal's own uploads (staging folders `.incoming` are left out). */
export const FILE_AREAS = ['uploads', 'tickets', 'installations'] as const;
const KEY_CHECK = 'isp-portal backup key check';
const PG_DUMP_FILE = 'database.pgdump';
const PGLITE_FILE = 'database.pglite.tar.gz';

export interface BackupManifest {
  format: number;
  product: 'isp-portal';
  portal_version: string;
  created_at: string;
  database: {
    kind: DatabaseKind;
    file: string;
    size: number;
    sha256: string;
    /** Migrations applied when the backup was taken (drizzle's journal). */
    migrations: number;
    /** Rows per table of the public schema. */
    tables: Record<string, number>;
  };
  files: Array<{ path: string; size: number; sha256: string }>;
  key_check: string;
}

/** The name the portal gives a backup taken at `now` (BACKUP_NAME_PATTERN in the contract). */
export function backupFileName(now: Date): string {
  return `isp-portal-${now.toISOString().replace(/[:.]/g, '-')}.tar.gz`;
}

/** When a backup named by backupFileName was taken. */
export function backupTime(name: string): Date | null {
  const m = /^isp-portal-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.tar\.gz$/.exec(name);
  return m ? new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`) : null;
}

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

interface Queryable {
  query<T = Record<string, unknown>>(text: string): Promise<{ rows: T[] }>;
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Rows per table of the public schema, and how many migrations are applied. */
export async function countRows(client: Queryable): Promise<{ tables: Record<string, number>; migrations: number }> {
  const { rows } = await client.query<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
  );
  const tables: Record<string, number> = {};
  for (const { table_name } of rows) {
    const counted = await client.query<{ n: string | number }>(
      `select count(*) as n from public."${table_name.replace(/"/g, '""')}"`,
    );
    tables[table_name] = Number(counted.rows[0].n);
  }
  const journal = await client.query<{ present: boolean }>(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as present",
  );
  let migrations = 0;
  if (journal.rows[0]?.present) {
    migrations = Number(
      (await client.query<{ n: string | number }>('select count(*) as n from drizzle.__drizzle_migrations')).rows[0].n,
    );
  }
  return { tables, migrations };
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', (error) =>
      reject(
        new BackupError(`${command} could not be started (${error.message}); install Debian's postgresql-client.`),
      ),
    );
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new BackupError(`${command} failed (exit ${code}): ${err.trim().split('\n').slice(-3).join(' ')}`)),
    );
  });
}

const WAL_SEGMENT = /^[0-9A-F]{24}$/;

/**
 * Copies a folder that PostgreSQL keeps writing: a file that goes away meanwhile (a dropped table, a temporary
 * file) is skipped — the log replayed on the copy makes it right. Top-level names in `skip` are left out.
 */
async function copyLiveFolder(from: string, to: string, skip = new Set<string>()): Promise<void> {
  await mkdir(to, { recursive: true });
  let entries: Dirent[];
  try {
    entries = await readdir(from, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries) {
    if (skip.has(entry.name)) continue;
    if (entry.isDirectory()) await copyLiveFolder(join(from, entry.name), join(to, entry.name));
    else if (entry.isFile())
      await copyFile(join(from, entry.name), join(to, entry.name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
  }
}

/**
 * An online copy of a PGlite data folder (see the top of this file): the files copied between pg_backup_start and
 * pg_backup_stop, the log segments from the backup's start to its end, and the backup label; then, in a process of
 * its own, the copy is opened (PostgreSQL replays the log from the label's checkpoint), counted and dumped.
 */
async function copyPgliteOnline(
  live: RemotePGlite,
  folder: string,
  out: string,
): Promise<{ tables: Record<string, number>; migrations: number }> {
  const source = live.dataDirectory!;
  const copy = join(folder, '.pglite-copy');
  await rm(copy, { recursive: true, force: true });
  // A fast checkpoint: the one moment the live database is held.
  await live.query("select pg_backup_start('isp-portal backup', true)");
  let stopped: { labelfile: string; last_wal: string };
  try {
    await copyLiveFolder(source, copy, new Set(['pg_wal', 'postmaster.pid']));
  } finally {
    stopped = (
      await live.query<{ labelfile: string; last_wal: string }>(
        'select labelfile, pg_walfile_name(lsn) as last_wal from pg_backup_stop(false)',
      )
    ).rows[0]!;
  }
  const first = /\(file ([0-9A-F]{24})\)/.exec(stopped.labelfile)?.[1];
  if (!first) throw new BackupError('The embedded database did not say where its backup starts');
  await mkdir(join(copy, 'pg_wal'), { recursive: true });
  for (const name of await readdir(join(source, 'pg_wal'))) {
    if (WAL_SEGMENT.test(name) && name >= first && name <= stopped.last_wal)
      await cp(join(source, 'pg_wal', name), join(copy, 'pg_wal', name));
  }
  await writeFile(join(copy, 'backup_label'), stopped.labelfile);
  try {
    return await dumpCopy(copy, out);
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}

/**
 * Opens the copy (PostgreSQL replays its log), counts its rows and writes its tarball, in a child process at the
 * lowest CPU priority (server/db/pglite-dump.mjs): minutes of CPU on a large database that give way to requests.
 */
function dumpCopy(copy: string, out: string): Promise<{ tables: Record<string, number>; migrations: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PGLITE_DUMP_SCRIPT, copy, out], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      setPriority(child.pid!, 19);
    } catch {
      // Not allowed here: it runs at the portal's priority.
    }
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (error) =>
      reject(new BackupError(`The backup's copy of the database could not be opened (${error.message})`)),
    );
    child.on('exit', (code) => {
      if (code !== 0)
        return reject(
          new BackupError(
            `The backup's copy of the database could not be opened (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`,
          ),
        );
      try {
        resolve(JSON.parse(stdout.trim().split('\n').pop()!) as { tables: Record<string, number>; migrations: number });
      } catch {
        reject(new BackupError(`The backup's copy of the database gave no row counts: ${stdout.slice(-300)}`));
      }
    });
  });
}

/** Dumps the database into folder; returns the file name and the counts of the very same state. */
async function dumpDatabase(
  database: Database,
  folder: string,
): Promise<{ file: string; tables: Record<string, number>; migrations: number }> {
  if (database.kind === 'pglite' && database.pglite!.dataDirectory) {
    return { file: PGLITE_FILE, ...(await copyPgliteOnline(database.pglite!, folder, join(folder, PGLITE_FILE))) };
  }
  if (database.kind === 'pglite') {
    const client = database.pglite!;
    // Inside PGlite's transaction lock no other transaction is half-way through: the rows counted there and the
    // folder copied there are the same state. (Counting in a throwaway copy opened from the dump was tried: on a
    // busy portal that copy competes with the requests for the one JavaScript thread and took half a minute.
    // Restores check every archive before they touch anything.)
    let dump: Blob | undefined;
    let counted: { tables: Record<string, number>; migrations: number } | undefined;
    await client.transaction(async (tx) => {
      counted = await countRows(tx);
      dump = await client.dumpDataDir('gzip');
    });
    await writeFile(join(folder, PGLITE_FILE), Buffer.from(await dump!.arrayBuffer()));
    return { file: PGLITE_FILE, ...counted! };
  }
  // PostgreSQL: count and dump on one exported snapshot, so both see the same committed state.
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0].id;
    const counts = await countRows(client);
    await run('pg_dump', [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--snapshot=${snapshot}`,
      `--file=${join(folder, PG_DUMP_FILE)}`,
      `--dbname=${database.url}`,
    ]);
    await client.query('commit');
    return { file: PG_DUMP_FILE, ...counts };
  } finally {
    await client.end().catch(() => {});
  }
}

async function listFiles(root: string): Promise<string[]> {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    if (relative(root, full).split(sep).includes('.incoming')) continue;
    out.push(full);
  }
  return out.sort();
}

export interface BackupResult {
  file: string;
  manifest: BackupManifest;
  bytes: number;
}

/** Writes a backup of the open database and DATA_DIR's files to `out` (a .tar.gz). */
export async function createBackup(options: {
  database: Database;
  config: Pick<Config, 'dataDir' | 'secretsKey'>;
  out: string;
  now?: Date;
}): Promise<BackupResult> {
  const { database, config, out } = options;
  const scratch = await mkdtemp(join(tmpdir(), 'isp-backup-'));
  try {
    const dumped = await dumpDatabase(database, scratch);
    const files: BackupManifest['files'] = [];
    for (const area of FILE_AREAS) {
      for (const source of await listFiles(join(config.dataDir, area))) {
        const path = ['files', ...relative(config.dataDir, source).split(sep)].join('/');
        const copy = join(scratch, ...path.split('/'));
        await mkdir(dirname(copy), { recursive: true });
        await cp(source, copy);
        files.push({ path, size: (await stat(copy)).size, sha256: await sha256(copy) });
      }
    }
    const dbFile = join(scratch, dumped.file);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      product: 'isp-portal',
      portal_version: VERSION,
      created_at: (options.now ?? new Date()).toISOString(),
      database: {
        kind: database.kind,
        file: dumped.file,
        size: (await stat(dbFile)).size,
        sha256: await sha256(dbFile),
        migrations: dumped.migrations,
        tables: dumped.tables,
      },
      files,
      key_check: createSecretBox(config.secretsKey).seal(KEY_CHECK),
    };
    await writeFile(join(scratch, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await mkdir(dirname(out), { recursive: true });
    // Written beside its final name first, so a half-written archive never carries the real name.
    const partial = `${out}.partial`;
    // Compressed by Node's zlib stream, which deflates in libuv's thread pool: tar's own gzip deflates on the event
    // loop, 16 MB at a time, and held every request up for a second at a time on a large database (issue 33).
    await pipeline(
      tar.create({ cwd: scratch, portable: true, maxReadSize: 1024 * 1024 }, [
        'manifest.json',
        dumped.file,
        ...(files.length ? ['files'] : []),
      ]),
      // Level 1: the database file in it is compressed already; this mostly wraps it.
      createGzip({ level: 1 }),
      createWriteStream(partial),
    );
    await rename(partial, out);
    return { file: out, manifest, bytes: (await stat(out)).size };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Unpacks an archive into a scratch folder and checks it whole: manifest, checksums, sizes, the key. */
export async function verifyBackup(
  archive: string,
  secretsKey: string,
): Promise<{ scratch: string; manifest: BackupManifest }> {
  if (!existsSync(archive)) throw new BackupError(`No backup at ${archive}.`);
  const scratch = await mkdtemp(join(tmpdir(), 'isp-restore-'));
  try {
    try {
      await tar.extract({ file: archive, cwd: scratch, strict: true });
    } catch (error) {
      throw new BackupError(
        `${archive} is damaged or not a portal backup (${(error as Error).message}). Nothing was restored.`,
      );
    }
    let manifest: BackupManifest;
    try {
      manifest = JSON.parse(await readFile(join(scratch, 'manifest.json'), 'utf8')) as BackupManifest;
    } catch {
      throw new BackupError(`${archive} has no readable manifest.json: not a portal backup. Nothing was restored.`);
    }
    if (manifest.product !== 'isp-portal' || manifest.format !== BACKUP_FORMAT) {
      throw new BackupError(
        `${archive} is not a backup this version can read (format ${manifest.format}). Nothing was restored.`,
      );
    }
    const entries = [
      { path: manifest.database.file, size: manifest.database.size, sha256: manifest.database.sha256 },
      ...manifest.files,
    ];
    for (const entry of entries) {
      const file = join(scratch, ...entry.path.split('/'));
      if (entry.path.split('/').includes('..') || !existsSync(file))
        throw new BackupError(`${archive} lacks ${entry.path}. Nothing was restored.`);
      if ((await stat(file)).size !== entry.size || (await sha256(file)) !== entry.sha256) {
        throw new BackupError(
          `${entry.path} in ${archive} does not match its checksum: the archive is damaged. Nothing was restored.`,
        );
      }
    }
    if (createSecretBox(secretsKey).open(manifest.key_check) !== KEY_CHECK) {
      throw new BackupError(
        'This backup was taken with another SECRETS_KEY: the credentials sealed in it (SMTP password, gateway keys, ' +
          'device and RADIUS secrets, PPPoE passwords) could not be opened. Set SECRETS_KEY to the key that was in use ' +
          'when the backup was taken and try again. Nothing was restored.',
      );
    }
    return { scratch, manifest };
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
}

async function pgTableCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "select count(*) as n from information_schema.tables where table_schema in ('public', 'drizzle', 'pgboss')",
    );
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

async function pgReset(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The job queue's schema (pgboss) is in the dump too: its jobs come back with the data they belong to.
    await client.query(
      'drop schema if exists pgboss cascade; drop schema if exists drizzle cascade; drop schema if exists public cascade; create schema public',
    );
  } finally {
    await client.end();
  }
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Where the data that was there before went (forced restore into a used data folder). */
  setAside: string | null;
  /** Migrations newer than the backup, applied after the restore. */
  migrationsApplied: number;
}

/**
 * Restores an archive into the configured database and DATA_DIR. Refuses a target holding data unless force;
 * with force, PGlite's folder and files are moved to DATA_DIR/before-restore-<time>, PostgreSQL's schemas are
 * dropped. Nothing is written before the archive is verified whole.
 */
export async function restoreBackup(options: {
  archive: string;
  config: Pick<Config, 'dataDir' | 'secretsKey' | 'databaseUrl'>;
  force?: boolean;
  now?: Date;
}): Promise<RestoreResult> {
  const { config } = options;
  const kind: DatabaseKind = config.databaseUrl ? 'postgres' : 'pglite';
  const dbFolder = join(config.dataDir, 'db');
  if (kind === 'pglite') assertDataFolderFree(dbFolder);
  const { scratch, manifest } = await verifyBackup(options.archive, config.secretsKey);
  try {
    if (manifest.database.kind !== kind) {
      throw new BackupError(
        `This backup holds ${manifest.database.kind === 'pglite' ? 'the embedded database' : 'a PostgreSQL database'}; the portal is configured for ` +
          `${kind === 'pglite' ? 'the embedded one' : 'PostgreSQL'}. Restore it with the same kind of database. Nothing was restored.`,
      );
    }
    const usedAreas = [];
    for (const area of FILE_AREAS) if ((await listFiles(join(config.dataDir, area))).length) usedAreas.push(area);
    const dbInUse =
      kind === 'pglite'
        ? existsSync(dbFolder) && (await readdir(dbFolder)).length > 0
        : (await pgTableCount(config.databaseUrl!)) > 0;
    let setAside: string | null = null;
    if (dbInUse || usedAreas.length) {
      const what =
        kind === 'pglite'
          ? `${config.dataDir} already holds a database or files`
          : 'the PostgreSQL database is not empty';
      if (!options.force)
        throw new BackupError(
          `Refusing to restore: ${what}. Restore into an empty one, or add --force to replace it. Nothing was restored.`,
        );
      setAside = join(
        config.dataDir,
        `before-restore-${(options.now ?? new Date()).toISOString().replace(/[:.]/g, '-')}`,
      );
      await mkdir(setAside, { recursive: true });
      for (const name of [...usedAreas, ...(kind === 'pglite' && existsSync(dbFolder) ? ['db'] : [])]) {
        await rename(join(config.dataDir, name), join(setAside, name));
      }
      if (kind === 'postgres') {
        await pgReset(config.databaseUrl!);
        setAside = usedAreas.length ? setAside : null;
      }
    }

    const dump = join(scratch, manifest.database.file);
    if (kind === 'pglite') await loadPgliteDataDir(dbFolder, new Blob([await readFile(dump)]));
    else
      await run('pg_restore', [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        `--dbname=${config.databaseUrl}`,
        dump,
      ]);

    const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: dbFolder });
    let migrationsApplied = 0;
    try {
      const restored = await withQueryable(database, countRows);
      const differences = Object.keys({ ...manifest.database.tables, ...restored.tables }).filter(
        (t) => manifest.database.tables[t] !== restored.tables[t],
      );
      if (differences.length) {
        await database.close();
        // Not what was backed up: take it out again rather than leave a database that looks restored.
        if (kind === 'pglite') await rename(dbFolder, `${dbFolder}.failed-restore-${Date.now()}`);
        else await pgReset(config.databaseUrl!);
        throw new BackupError(
          `The restored database does not hold what the backup counted (tables: ${differences.join(', ')}); it was removed again.`,
        );
      }
      await database.migrate();
      migrationsApplied = (await withQueryable(database, countRows)).migrations - restored.migrations;
    } finally {
      await database.close().catch(() => {});
    }

    for (const file of manifest.files) {
      const target = join(config.dataDir, ...file.path.split('/').slice(1));
      await mkdir(dirname(target), { recursive: true });
      await cp(join(scratch, ...file.path.split('/')), target);
    }
    return { manifest, setAside, migrationsApplied };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Runs fn on a plain query interface of the database: PGlite itself, or one PostgreSQL connection. */
async function withQueryable<T>(database: Database, fn: (client: Queryable) => Promise<T>): Promise<T> {
  if (database.kind === 'pglite') return fn(database.pglite!);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return await fn(client as unknown as Queryable);
  } finally {
    await client.end();
  }
}
