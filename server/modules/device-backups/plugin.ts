/**
 * The configuration-backup module's shared parts: one service for the routes and the scheduler, the
 * "device-backup" job on the shared queue (app.jobs: a job runs once across nodes, a few at a time per node,
 * and is retried elsewhere when its node dies mid-run), and (when DEVICE_BACKUP_SCHEDULER is on) the scheduled
 * check, a periodic job every five minutes.
 */
import fp from 'fastify-plugin';
import { HOUR_MS } from '../../lib/clock';
import { loadDeviceBackupConfig, type DeviceBackupConfig } from './config';
import { createDeviceBackupRepository, type DeviceBackupRepository } from './repository';
import { DEVICE_BACKUP_SCHEDULER_INTERVAL_MS, DeviceBackupScheduler } from './scheduler';
import { DeviceBackupService } from './service';

export const DEVICE_BACKUP_JOB = 'device-backup';
export const DEVICE_BACKUP_CHECK_JOB = 'device-backup-schedule';

declare module 'fastify' {
  interface FastifyInstance {
    deviceBackups: {
      service: DeviceBackupService;
      repository: DeviceBackupRepository;
      scheduler: DeviceBackupScheduler;
      config: DeviceBackupConfig;
    };
  }
}

export default fp(
  async (app) => {
    const config = loadDeviceBackupConfig(process.env, app.config.nodeEnv);
    const log = app.log.child({ module: 'device-backups' });
    const repository = createDeviceBackupRepository(app.db);
    const service = new DeviceBackupService({
      db: app.db,
      repository,
      clock: app.clock,
      box: app.secretBox,
      log,
      timeoutMs: config.timeoutMs,
      enqueue: (jobId) => app.jobs.send(DEVICE_BACKUP_JOB, { jobId }),
    });
    // A run makes two bounded calls to the router (device check, export) and a few writes: one still active
    // after twice the call time-out and 10 s belongs to a node that is gone, and is run again elsewhere.
    app.jobs.define<{ jobId: string }>(
      DEVICE_BACKUP_JOB,
      {
        retryLimit: 3,
        retryDelay: 2,
        retryBackoff: true,
        expireInSeconds: Math.ceil((2 * config.timeoutMs) / 1000) + 10,
        concurrency: config.concurrency,
      },
      ({ jobId }) => service.runQueued(jobId),
    );
    // Built even when off, so tests (and an admin tool) can run one check with tick().
    const scheduler = new DeviceBackupScheduler({
      service,
      repository,
      clock: app.clock,
      log,
      intervalMs: config.intervalHours * HOUR_MS,
    });
    app.decorate('deviceBackups', { service, repository, scheduler, config });
    app.jobs.every(
      DEVICE_BACKUP_CHECK_JOB,
      DEVICE_BACKUP_SCHEDULER_INTERVAL_MS / 1000,
      {},
      () => scheduler.tick(),
      config.scheduler,
    );
  },
  { name: 'device-backups', dependencies: ['db', 'settings', 'jobs'] },
);
