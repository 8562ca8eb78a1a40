/**
 * The scheduled backup: every few minutes it looks for RouterOS devices whose last backup attempt is older
 * than the backup interval (DEVICE_BACKUP_INTERVAL_HOURS, daily by default) and queues a backup of each; the
 * service's queue runs them a few at a time. A device whose last attempt failed is tried again after
 * RETRY_AFTER_FAILURE_MS rather than waiting a whole interval. Time comes from the injected clock, so tests
 * call tick() after moving it instead of waiting.
 */
import type { FastifyBaseLogger } from 'fastify';
import { HOUR_MS, type Clock } from '../../lib/clock';
import { PeriodicCheck } from '../../lib/periodic-check';
import type { DeviceBackupRepository } from './repository';
import type { DeviceBackupService } from './service';

export const DEVICE_BACKUP_SCHEDULER_INTERVAL_MS = 5 * 60_000;
export const RETRY_AFTER_FAILURE_MS = HOUR_MS;

export interface DeviceBackupSchedulerDeps {
  service: DeviceBackupService;
  repository: DeviceBackupRepository;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Time between two scheduled backups of one device. */
  intervalMs: number;
}

export class DeviceBackupScheduler {
  private readonly loop: PeriodicCheck<string[]>;

  constructor(private readonly deps: DeviceBackupSchedulerDeps) {
    this.loop = new PeriodicCheck(() => this.check());
  }

  /** One look: queues the due backups and resolves with their device ids (the backups run on in the queue). */
  tick(): Promise<string[]> {
    return this.loop.run();
  }

  private async check(): Promise<string[]> {
    try {
      const { service, repository, clock, intervalMs } = this.deps;
      await service.failStaleJobs();
      const now = clock.now().getTime();
      const candidates = await repository.backupCandidates();
      const latest = await repository.latestBackupJobs(candidates);
      const due = candidates.filter((id) => {
        const last = latest.get(id);
        if (!last) return true;
        if (last.status === 'queued' || last.status === 'running') return false;
        const wait = last.status === 'failed' ? Math.min(intervalMs, RETRY_AFTER_FAILURE_MS) : intervalMs;
        return now - last.createdAt.getTime() >= wait;
      });
      const queued: string[] = [];
      for (const id of due) {
        try {
          const { created } = await service.startBackup(null, id, 'scheduled');
          if (created) queued.push(id);
        } catch (error) {
          // The device changed since it was listed (deleted, API removed): nothing to back up.
          this.deps.log.warn({ deviceId: id, err: error }, 'scheduled backup not started');
        }
      }
      if (queued.length) this.deps.log.info({ devices: queued.length }, 'scheduled device backups queued');
      return queued;
    } catch (error) {
      this.deps.log.error({ err: error }, 'device backup scheduler check failed; retried at the next check');
      return [];
    }
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
