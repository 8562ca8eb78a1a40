/**
 * The backups the running portal keeps in DATA_DIR/backups: taken on schedule (every BACKUP_INTERVAL_HOURS)
 * or on an admin's request, one at a time, the newest BACKUP_KEEP kept. Pruning happens only after a good
 * backup, so a failing schedule never removes the last good one. The last failure is kept in a status file
 * beside the archives (not in this process's memory), logged, and shown to admins until a backup succeeds.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { BACKUP_NAME_PATTERN, type BackupItem, type BackupList } from '../../../contract/schemas/backup';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { HOUR_MS, type Clock } from '../../lib/clock';
import { recordAudit, SYSTEM, type AuditContext } from '../audit/trail';
import { backupFileName, backupTime, createBackup } from './archive';

/** After a failure, the schedule waits this long before trying again. */
const RETRY_AFTER_FAILURE_MS = HOUR_MS;

interface Status {
  last_failure: { at: string; message: string } | null;
}

export class BackupBusyError extends Error {}

export class KeptBackups {
  readonly dir: string;
  private running: Promise<BackupItem> | null = null;

  constructor(
    private readonly deps: {
      database: Database;
      config: Pick<Config, 'dataDir' | 'secretsKey' | 'backupScheduler' | 'backupIntervalHours' | 'backupKeep'>;
      clock: Clock;
      log: FastifyBaseLogger;
    },
  ) {
    this.dir = join(deps.config.dataDir, 'backups');
  }

  private item(name: string, size: number): BackupItem {
    return { name, size, created_at: backupTime(name)!.toISOString(), download_url: `/api/backups/${name}/download` };
  }

  /** The kept archives, newest first. */
  async items(): Promise<BackupItem[]> {
    if (!existsSync(this.dir)) return [];
    const names = (await readdir(this.dir)).filter((n) => BACKUP_NAME_PATTERN.test(n)).sort().reverse();
    return Promise.all(names.map(async (n) => this.item(n, (await stat(join(this.dir, n))).size)));
  }

  async list(): Promise<BackupList> {
    const { config } = this.deps;
    return {
      items: await this.items(),
      last_failure: (await this.status()).last_failure,
      schedule: { enabled: config.backupScheduler, interval_hours: config.backupIntervalHours, keep: config.backupKeep },
    };
  }

  /** The path of a kept archive, or null for any other name (so no path outside the folder is ever read). */
  pathOf(name: string): string | null {
    return BACKUP_NAME_PATTERN.test(name) && existsSync(join(this.dir, name)) ? join(this.dir, name) : null;
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
    return recordAudit(this.deps.database.db, this.deps.clock, by, { action: 'backup.downloaded', targetType: 'backup', targetId: name });
  }

  private async takeNow(by: AuditContext): Promise<BackupItem> {
    const { database, config, clock, log } = this.deps;
    const now = clock.now();
    const name = backupFileName(now);
    try {
      await mkdir(this.dir, { recursive: true });
      const { bytes } = await createBackup({ database, config, out: join(this.dir, name), now });
      await this.writeStatus({ last_failure: null });
      await this.prune();
      await recordAudit(database.db, clock, by, { action: 'backup.taken', targetType: 'backup', targetId: name, changes: { size: bytes } });
      log.info({ backup: name, bytes }, 'backup taken');
      return this.item(name, bytes);
    } catch (error) {
      const message = (error as Error).message;
      log.error({ err: error, backup: name }, 'backup failed');
      await rm(join(this.dir, `${name}.partial`), { recursive: true, force: true }).catch(() => {});
      await this.writeStatus({ last_failure: { at: now.toISOString(), message } }).catch(() => {});
      await recordAudit(database.db, clock, by, { action: 'backup.failed', targetType: 'backup', targetId: name, changes: { detail: message } }).catch(() => {});
      throw error;
    }
  }

  /** Keeps the newest BACKUP_KEEP archives (at least one). */
  private async prune(): Promise<void> {
    const items = await this.items();
    for (const old of items.slice(Math.max(1, this.deps.config.backupKeep))) await rm(join(this.dir, old.name), { force: true });
  }

  private async status(): Promise<Status> {
    try {
      return JSON.parse(await readFile(join(this.dir, 'status.json'), 'utf8')) as Status;
    } catch {
      return { last_failure: null };
    }
  }

  private async writeStatus(status: Status): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await writeFile(join(this.dir, 'status.json'), `${JSON.stringify(status)}\n`);
  }
}
