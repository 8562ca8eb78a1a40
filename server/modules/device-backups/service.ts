/**
 * Device configuration and backups (issue 7, spec §2 /dashboard/nas/router/config and /backup):
 * - the running configuration, fetched from the router's REST API (`/export`) and shown with secrets masked;
 * - "back up now" and the scheduled backup, run as jobs (queued → running → succeeded | unchanged | failed)
 *   whose progress the browser polls; a version is stored only when the export differs from the latest one
 *   (sha256), numbered per device under a lock on the device row;
 * - versions listed with size and time, shown masked, diffed line by line, downloaded as stored.
 * A failed run records its reason and touches no stored version.
 */
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type {
  DeviceBackup,
  DeviceBackupDetail,
  DeviceBackupDiff,
  DeviceBackupTrigger,
  DeviceConfig,
  DeviceJob,
  DeviceJobKind,
  DeviceJobStage,
  DeviceJobStatus,
} from '../../../contract/schemas/device-backup';
import { pagePagination, type PagePagination } from '../../../contract/envelope';
import type { Db } from '../../db/client';
import type { DeviceBackupJobRow, DeviceBackupRow } from '../../db/schema/device-backups';
import { RouterOsError, routerOsClientForDevice, type RouterOsClient } from '../../integrations/routeros';
import { AppError, conflict, notFound } from '../../lib/errors';
import type { Clock } from '../../lib/clock';
import type { SecretBox } from '../../lib/secret-box';
import { recordAudit, type AuditContext, type AuditEntry } from '../audit/trail';
import { getDeviceWithSecrets, type DeviceWithSecrets } from '../devices/repository';
import { diffLines, splitLines, toHunks } from './diff';
import { maskRouterOsExport } from './mask';
import type { BackupMeta, DeviceBackupRepository, JobWithNames } from './repository';

export const DEVICE_BACKUP_MESSAGES = {
  config: 'Configuration retrieved successfully',
  backupQueued: 'Backup started',
  backupAlreadyRunning: 'A backup of this device is already in progress',
  versions: 'Backups retrieved successfully',
  version: 'Backup retrieved successfully',
  diff: 'Backup comparison retrieved successfully',
  job: 'Job retrieved successfully',
  jobs: 'Jobs retrieved successfully',
  deviceNotFound: 'Device not found',
  backupNotFound: 'Backup not found',
  jobNotFound: 'Job not found',
  noApi: 'This device has no RouterOS REST API configured: set its management API (REST, user and password) first.',
  notRest:
    'Configuration export needs the RouterOS REST API (www-ssl or www service); this device is set to the API port.',
  interrupted: 'The backup was interrupted (the server stopped before it finished). Run it again.',
  crossDevice: 'Both versions must belong to this device',
} as const;
const M = DEVICE_BACKUP_MESSAGES;

/** Progress shown while a job runs. */
const PROGRESS: Record<DeviceJobStage, number> = { queued: 0, connecting: 10, fetching: 40, saving: 80, done: 100 };

/**
 * The configuration view waits for the router inside the browser's request, whose http client gives up after
 * 15 s: the router gets at most this long, so the staff member reads the router's reason, not a client time-out.
 */
export const INTERACTIVE_TIMEOUT_MS = 12_000;

/** A job still unfinished this long after it was created belongs to a process that is gone. */
export const STALE_JOB_MS = 30 * 60_000;

export interface Caller {
  id: string;
}

export interface DeviceBackupServiceDeps {
  db: Db;
  repository: DeviceBackupRepository;
  clock: Clock;
  box: SecretBox;
  log: FastifyBaseLogger;
  /** Per RouterOS call (the export of a large configuration takes a few seconds). */
  timeoutMs: number;
  /** Hands a queued backup job (its device_backup_jobs id) to the job queue, which calls runQueued with it. */
  enqueue: (jobId: string) => Promise<unknown>;
  /** How a device is reached; default: its REST API settings. Tests may pass another. */
  clientFor?: (device: DeviceWithSecrets, timeoutMs: number) => RouterOsClient;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export function toDeviceJob(
  job: DeviceBackupJobRow & { requestedByName?: string | null; backupVersion?: number | null },
): DeviceJob {
  return {
    id: job.id,
    device_id: job.deviceId,
    kind: job.kind,
    trigger: job.trigger,
    status: job.status,
    stage: job.stage as DeviceJobStage,
    percent: job.percent,
    error: job.error,
    backup_id: job.backupId,
    backup_version: job.backupVersion ?? null,
    requested_by: job.requestedBy,
    requested_by_name: job.requestedByName ?? null,
    created_at: job.createdAt.toISOString(),
    started_at: iso(job.startedAt),
    finished_at: iso(job.finishedAt),
  };
}

function toDeviceBackup(row: BackupMeta | (DeviceBackupRow & { createdByName: string | null })): DeviceBackup {
  return {
    id: row.id,
    device_id: row.deviceId,
    version: row.version,
    sha256: row.sha256,
    size_bytes: row.sizeBytes,
    line_count: row.lineCount,
    trigger: row.trigger,
    created_by: row.createdBy,
    created_by_name: row.createdByName,
    created_at: row.createdAt.toISOString(),
  };
}

/** The reason a run failed, in words for the staff member reading the job. */
function failureReason(error: unknown): string {
  if (error instanceof RouterOsError) return error.message;
  if (error instanceof AppError) return error.message;
  return `Unexpected error: ${error instanceof Error ? error.message : String(error)}`;
}

export class DeviceBackupService {
  constructor(private readonly deps: DeviceBackupServiceDeps) {}

  /** Opens the device and checks it can be asked for its configuration (404 / 409 otherwise). */
  private async reachableDevice(deviceId: string): Promise<DeviceWithSecrets> {
    const device = await getDeviceWithSecrets(this.deps.db, deviceId, this.deps.box);
    if (!device) throw notFound(M.deviceNotFound);
    if (!device.api?.username) throw conflict(M.noApi);
    if (device.api.type !== 'rest') throw conflict(M.notRest);
    return device;
  }

  private client(device: DeviceWithSecrets, timeoutMs = this.deps.timeoutMs): RouterOsClient {
    if (this.deps.clientFor) return this.deps.clientFor(device, timeoutMs);
    return routerOsClientForDevice(device.api!, { timeoutMs });
  }

  /**
   * Records who read a device's configuration (running, stored, compared or downloaded), before the text leaves
   * the server: a read that cannot be recorded fails instead of answering. The device is the target, so one
   * filter shows a device's whole history, its changes and who read its configuration.
   */
  private async recordRead(
    audit: AuditContext | undefined,
    deviceId: string,
    entry: Omit<AuditEntry, 'targetType' | 'targetId'>,
  ): Promise<void> {
    if (audit)
      await recordAudit(this.deps.db, this.deps.clock, audit, { targetType: 'device', targetId: deviceId, ...entry });
  }

  private async deviceExists(deviceId: string): Promise<string> {
    const name = await this.deps.repository.deviceName(deviceId);
    if (name === undefined) throw notFound(M.deviceNotFound);
    return name;
  }

  // ---- The running configuration ------------------------------------------------------------------------

  /**
   * Fetches the running configuration now (one REST call, bounded by the timeout) and returns it masked. The
   * fetch is recorded as a config_fetch job, so a failure is visible later with its reason; a device that
   * fails answers 502 with that reason.
   */
  async runningConfig(caller: Caller, deviceId: string, audit?: AuditContext): Promise<DeviceConfig> {
    const { repository, clock } = this.deps;
    const device = await this.reachableDevice(deviceId);
    const started = clock.now();
    const job = await repository.insertJob({
      deviceId,
      kind: 'config_fetch',
      trigger: 'manual',
      status: 'running',
      stage: 'fetching',
      percent: PROGRESS.fetching,
      requestedBy: caller.id,
      createdAt: started,
      startedAt: started,
    });
    let text: string;
    try {
      text = await this.client(device, Math.min(this.deps.timeoutMs, INTERACTIVE_TIMEOUT_MS)).exportConfig();
    } catch (error) {
      const reason = failureReason(error);
      await repository.updateJob(job.id, {
        status: 'failed',
        stage: 'done',
        percent: PROGRESS.done,
        error: reason,
        finishedAt: clock.now(),
      });
      throw new AppError(502, reason);
    }
    const hash = sha256(text);
    const matches = await repository.versionBySha(deviceId, hash);
    await repository.updateJob(job.id, {
      status: 'succeeded',
      stage: 'done',
      percent: PROGRESS.done,
      finishedAt: clock.now(),
    });
    await this.recordRead(audit, deviceId, {
      action: 'device_config.viewed',
      changes: { source: 'running', matches_backup_version: matches },
    });
    const masked = maskRouterOsExport(text);
    return {
      device_id: deviceId,
      device_name: device.name,
      fetched_at: started.toISOString(),
      content: masked.text,
      size_bytes: Buffer.byteLength(text, 'utf8'),
      line_count: splitLines(text).length,
      masked_count: masked.count,
      sha256: hash,
      matches_backup_version: matches,
    };
  }

  // ---- Backups -------------------------------------------------------------------------------------------

  /**
   * Queues a backup of one device and returns its job at once (the browser polls it). While one is queued or
   * running for the device, that one is returned instead of starting a second.
   */
  async startBackup(
    caller: Caller | null,
    deviceId: string,
    trigger: DeviceBackupTrigger,
  ): Promise<{ job: DeviceJob; created: boolean }> {
    const { repository, clock } = this.deps;
    await this.reachableDevice(deviceId);
    const active = await repository.activeBackupJob(deviceId);
    if (active) return { job: toDeviceJob((await repository.findJob(active.id)) ?? active), created: false };
    const job = await repository.insertJob({
      deviceId,
      kind: 'backup',
      trigger,
      status: 'queued',
      stage: 'queued',
      percent: PROGRESS.queued,
      requestedBy: caller?.id ?? null,
      createdAt: clock.now(),
    });
    try {
      await this.deps.enqueue(job.id);
    } catch (error) {
      await repository.updateJob(job.id, {
        status: 'failed',
        stage: 'done',
        percent: PROGRESS.done,
        error: failureReason(error),
        finishedAt: clock.now(),
      });
      throw error;
    }
    return { job: toDeviceJob((await repository.findJob(job.id)) ?? job), created: true };
  }

  /**
   * The job queue's handler: runs the backup job with this id unless it already ended. A run left unfinished
   * by a node that stopped (status still running) is run again from the start: a version is stored only when
   * the export differs from the latest one, so a retry never stores the same configuration twice.
   */
  async runQueued(jobId: string): Promise<void> {
    const job = await this.deps.repository.findJob(jobId);
    if (!job || (job.status !== 'queued' && job.status !== 'running')) return;
    await this.runBackup(job);
  }

  /** Runs one queued backup job to its end; never throws (the outcome is written to the job). */
  async runBackup(job: DeviceBackupJobRow): Promise<void> {
    const { repository, clock, db, box, log } = this.deps;
    const stage = (s: DeviceJobStage, extra: Partial<DeviceBackupJobRow> = {}) =>
      repository.updateJob(job.id, { stage: s, percent: PROGRESS[s], ...extra });
    try {
      await stage('connecting', { status: 'running', startedAt: clock.now() });
      const device = await this.reachableDevice(job.deviceId);
      const client = this.client(device);
      await stage('fetching');
      const text = await client.exportConfig();
      await stage('saving');
      const hash = sha256(text);
      const outcome = await db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        if (!(await repository.lockDevice(tx, job.deviceId))) throw notFound(M.deviceNotFound);
        const latest = await repository.latestVersion(tx, job.deviceId);
        if (latest && latest.sha256 === hash) return { status: 'unchanged' as const, backupId: latest.id };
        const row = await repository.insertVersion(tx, {
          deviceId: job.deviceId,
          version: (latest?.version ?? 0) + 1,
          sha256: hash,
          sizeBytes: Buffer.byteLength(text, 'utf8'),
          lineCount: splitLines(text).length,
          contentSealed: box.seal(text),
          trigger: job.trigger,
          createdBy: job.requestedBy,
          createdAt: clock.now(),
        });
        return { status: 'succeeded' as const, backupId: row.id };
      });
      await repository.updateJob(job.id, {
        status: outcome.status,
        stage: 'done',
        percent: PROGRESS.done,
        backupId: outcome.backupId,
        finishedAt: clock.now(),
      });
    } catch (error) {
      const reason = failureReason(error);
      if (!(error instanceof RouterOsError) && !(error instanceof AppError))
        log.error({ err: error, jobId: job.id }, 'device backup failed');
      else log.warn({ jobId: job.id, deviceId: job.deviceId, reason }, 'device backup failed');
      await repository
        .updateJob(job.id, {
          status: 'failed',
          stage: 'done',
          percent: PROGRESS.done,
          error: reason,
          finishedAt: clock.now(),
        })
        .catch((e: unknown) => log.error({ err: e, jobId: job.id }, 'could not record the failed backup'));
    }
  }

  async listVersions(
    deviceId: string,
    page: number,
    limit: number,
  ): Promise<{ items: DeviceBackup[]; pagination: PagePagination }> {
    await this.deviceExists(deviceId);
    const { rows, total } = await this.deps.repository.listVersions(deviceId, page, limit);
    return { items: rows.map(toDeviceBackup), pagination: pagePagination(page, limit, total) };
  }

  private async version(deviceId: string, backupId: string) {
    await this.deviceExists(deviceId);
    const row = await this.deps.repository.findVersion(deviceId, backupId);
    if (!row) throw notFound(M.backupNotFound);
    const content = this.deps.box.open(row.contentSealed);
    if (content === null)
      throw new AppError(500, "This backup cannot be opened with the server's current SECRETS_KEY.");
    return { row, content };
  }

  async getVersion(deviceId: string, backupId: string, audit?: AuditContext): Promise<DeviceBackupDetail> {
    const { row, content } = await this.version(deviceId, backupId);
    await this.recordRead(audit, deviceId, {
      action: 'device_config.viewed',
      changes: { source: 'backup', backup_id: row.id, version: row.version },
    });
    const masked = maskRouterOsExport(content);
    return { ...toDeviceBackup(row), content: masked.text, masked_count: masked.count };
  }

  /** The export exactly as stored, with a file name for the download. */
  async download(
    deviceId: string,
    backupId: string,
    audit?: AuditContext,
  ): Promise<{ fileName: string; content: string }> {
    const name = await this.deviceExists(deviceId);
    const { row, content } = await this.version(deviceId, backupId);
    await this.recordRead(audit, deviceId, {
      action: 'device_config.downloaded',
      changes: { backup_id: row.id, version: row.version },
    });
    const safe = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'device';
    const stamp = row.createdAt.toISOString().slice(0, 19).replace(/[:T]/g, '-');
    return { fileName: `${safe}-v${row.version}-${stamp}.rsc`, content };
  }

  /** Line diff of two versions of one device, older → newer as asked, on the masked texts. */
  async diff(
    deviceId: string,
    fromId: string,
    toId: string,
    context: number,
    audit?: AuditContext,
  ): Promise<DeviceBackupDiff> {
    const from = await this.version(deviceId, fromId);
    const to = await this.version(deviceId, toId);
    await this.recordRead(audit, deviceId, {
      action: 'device_config.diff_viewed',
      changes: {
        from_backup_id: from.row.id,
        from_version: from.row.version,
        to_backup_id: to.row.id,
        to_version: to.row.version,
      },
    });
    const lines = diffLines(maskRouterOsExport(from.content).text, maskRouterOsExport(to.content).text);
    const added = lines.filter((l) => l.type === 'added').length;
    const removed = lines.filter((l) => l.type === 'removed').length;
    return {
      from: toDeviceBackup(from.row),
      to: toDeviceBackup(to.row),
      added,
      removed,
      identical: added === 0 && removed === 0,
      hunks: toHunks(lines, context),
    };
  }

  // ---- Jobs ----------------------------------------------------------------------------------------------

  async getJob(jobId: string): Promise<DeviceJob> {
    const job = await this.deps.repository.findJob(jobId);
    if (!job) throw notFound(M.jobNotFound);
    return toDeviceJob(job);
  }

  async listJobs(
    deviceId: string,
    query: { page: number; limit: number; status?: DeviceJobStatus; kind?: DeviceJobKind },
  ): Promise<{ items: DeviceJob[]; pagination: PagePagination }> {
    await this.deviceExists(deviceId);
    const { rows, total } = await this.deps.repository.listJobs(deviceId, query);
    return {
      items: rows.map((r: JobWithNames) => toDeviceJob(r)),
      pagination: pagePagination(query.page, query.limit, total),
    };
  }

  /** Marks jobs of a stopped process failed, so nobody waits on them forever. */
  async failStaleJobs(): Promise<number> {
    const now = this.deps.clock.now();
    return this.deps.repository.failStaleJobs(new Date(now.getTime() - STALE_JOB_MS), now, M.interrupted);
  }
}
