/**
 * The backups the running portal keeps under backups/ of the file store: DATA_DIR/backups on the local disk,
 * or the S3 bucket (S3_BUCKET), where every node lists, downloads and prunes the same archives. Taken on schedule
 * (every BACKUP_INTERVAL_HOURS) or on an admin's request, one at a time, the newest BACKUP_KEEP kept. An archive
 * is always written in DATA_DIR/backups first and, with S3, put into the bucket once finished (then removed
 * from the disk). Pruning happens only after a good backup, so a failing schedule never removes the last good
 * one. The last failure is kept in a status file beside the archives (not in this process's memory), logged,
 * and shown to admins until a backup succeeds.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import { BACKUP_NAME_PATTERN, type BackupItem, type BackupList } from '../../../contract/schemas/backup';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { HOUR_MS, type Clock } from '../../lib/clock';
import { createFileStore, readAll, storageConfigOf, type FileStore, type StoredObject } from '../../lib/storage';
import { recordAudit, SYSTEM, type AuditContext } from '../audit/trail';
import { backupFileName, backupTime, createBackup } from './archive';

/** After a failure, the schedule waits this long before trying again. */
const RETRY_AFTER_FAILURE_MS = HOUR_MS;

interface Status {
  last_failure: { at: string; message: string } | null;
}

export class BackupBusyError extends Error {}

/** The store's folder of the kept backups (DATA_DIR/backups on the local disk). */
const FOLDER = 'backups/';
const STATUS_KEY = `${FOLDER}status.json`;

/**
 * Copies a kept backup out of the store into `dir` (for db:restore, which reads a local archive); the path of
 * the copy, or null when the store keeps no backup of that name.
 */
export async function copyKeptBackup(store: FileStore, name: string, dir: string): Promise<string | null> {
  const archive = BACKUP_NAME_PATTERN.test(name) ? await store.get(FOLDER + name) : null;
  if (!archive) return null;
  const path = join(dir, name);
  await pipeline(archive.stream, createWriteStream(path, { mode: 0o600 }));
  return path;
}

export class KeptBackups {
  /** Where archives are written (and, on the local disk, kept). */
  readonly dir: string;
  private readonly store: FileStore;
  private running: Promise<BackupItem> | null = null;

  constructor(
    private readonly deps: {
      database: Database;
      config: Pick<
        Config,
        'dataDir' | 'secretsKey' | 'backupScheduler' | 'backupIntervalHours' | 'backupKeep' | 'storage'
      >;
      clock: Clock;
      log: FastifyBaseLogger;
      /** The app's file store (app.storage); absent: the one the configuration asks for. */
      store?: FileStore;
    },
  ) {
    this.dir = join(deps.config.dataDir, 'backups');
    this.store = deps.store ?? createFileStore(storageConfigOf(deps.config), deps.config.dataDir, deps.log);
  }

  private item(name: string, size: number): BackupItem {
    return { name, size, created_at: backupTime(name)!.toISOString(), download_url: `/api/backups/${name}/download` };
  }

  /** The kept archives, newest first. */
  async items(): Promise<BackupItem[]> {
    return (await this.store.list(FOLDER))
      .map((e) => ({ name: e.key.slice(FOLDER.length), size: e.size }))
      .filter((e) => BACKUP_NAME_PATTERN.test(e.name))
      .sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0))
      .map((e) => this.item(e.name, e.size));
  }

  async list(): Promise<BackupList> {
    const { config } = this.deps;
    return {
      items: await this.items(),
      last_failure: (await this.status()).last_failure,
      schedule: {
        enabled: config.backupScheduler,
        interval_hours: config.backupIntervalHours,
        keep: config.backupKeep,
      },
    };
  }

  /** A kept archive to read, or null for any other name (so nothing outside the backups is ever read). */
  open(name: string): Promise<StoredObject | null> {
    return BACKUP_NAME_PATTERN.test(name) ? this.store.get(FOLDER + name) : Promise.resolve(null);
  }

  /** Takes a backup now (for an admin, or the schedule: SYSTEM); BackupBusyError while one is being taken. */
  take(by: AuditContext = SYSTEM): Promise<BackupItem> {
    if (this.running) return Promise.reject(new BackupBusyError());
    this.running = this.takeNow(by).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** The schedule's check: a backup when the newest is older than the interval (and no failure in the last hour). */
  async takeIfDue(): Promise<BackupItem | null> {
    const now = this.deps.clock.now().getTime();
    const newest = (await this.items())[0];
    if (newest && now - Date.parse(newest.created_at) < this.deps.config.backupIntervalHours * HOUR_MS) return null;
    const failure = (await this.status()).last_failure;
    if (failure && now - Date.parse(failure.at) < RETRY_AFTER_FAILURE_MS) return null;
    if (this.running) return null;
    try {
      return await this.take();
    } catch {
      return null; // recorded and logged by takeNow
    }
  }

  /** Records that an admin downloaded a kept backup. */
  downloaded(name: string, by: AuditContext): Promise<void> {
    return recordAudit(this.deps.database.db, this.deps.clock, by, {
      action: 'backup.downloaded',
      targetType: 'backup',
      targetId: name,
    });
  }

  private async takeNow(by: AuditContext): Promise<BackupItem> {
    const { database, config, clock, log } = this.deps;
    const now = clock.now();
    const name = backupFileName(now);
    const out = join(this.dir, name);
    const elsewhere = this.store.kind !== 'local';
    try {
      const { bytes } = await createBackup({ database, config, out, now });
      // Only a finished archive reaches the bucket (putFile then removes it from this disk).
      if (elsewhere) await this.store.putFile(FOLDER + name, out, { contentType: 'application/gzip', size: bytes });
      await this.writeStatus({ last_failure: null });
      await this.prune();
      await recordAudit(database.db, clock, by, {
        action: 'backup.taken',
        targetType: 'backup',
        targetId: name,
        changes: { size: bytes },
      });
      log.info({ backup: name, bytes }, 'backup taken');
      return this.item(name, bytes);
    } catch (error) {
      const message = (error as Error).message;
      log.error({ err: error, backup: name }, 'backup failed');
      await rm(`${out}.partial`, { recursive: true, force: true }).catch(() => {});
      if (elsewhere) await rm(out, { force: true }).catch(() => {});
      await this.writeStatus({ last_failure: { at: now.toISOString(), message } }).catch(() => {});
      await recordAudit(database.db, clock, by, {
        action: 'backup.failed',
        targetType: 'backup',
        targetId: name,
        changes: { detail: message },
      }).catch(() => {});
      throw error;
    }
  }

  /** Keeps the newest BACKUP_KEEP archives (at least one). */
  private async prune(): Promise<void> {
    const items = await this.items();
    for (const old of items.slice(Math.max(1, this.deps.config.backupKeep))) await this.store.delete(FOLDER + old.name);
  }

  private async status(): Promise<Status> {
    try {
      const object = await this.store.get(STATUS_KEY);
      return object ? (JSON.parse((await readAll(object)).toString('utf8')) as Status) : { last_failure: null };
    } catch {
      return { last_failure: null };
    }
  }

  private async writeStatus(status: Status): Promise<void> {
    const body = Buffer.from(`${JSON.stringify(status)}\n`);
    await this.store.put(STATUS_KEY, body, { contentType: 'application/json', size: body.length });
  }
}
