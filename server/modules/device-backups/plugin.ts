/**
 * The configuration-backup module's shared parts: one service (and its job queue) for the routes and the
 * scheduler, and (when DEVICE_BACKUP_SCHEDULER is on) the scheduled backup, stopped on close. Jobs still
 * running at close are waited for; queued ones are dropped and later marked failed as interrupted.
 */
import fp from 'fastify-plugin';
import { HOUR_MS } from '../../lib/clock';
import { loadDeviceBackupConfig, type DeviceBackupConfig } from './config';
import { createDeviceBackupRepository, type DeviceBackupRepository } from './repository';
import { DeviceBackupScheduler } from './scheduler';
import { DeviceBackupService } from './service';

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
      concurrency: config.concurrency,
    });
    // Built even when off, so tests (and an admin tool) can run one check with tick().
    const scheduler = new DeviceBackupScheduler({ service, repository, clock: app.clock, log, intervalMs: config.intervalHours * HOUR_MS });
    app.decorate('deviceBackups', { service, repository, scheduler, config });
    if (config.scheduler) app.addHook('onReady', async () => scheduler.start());
    app.addHook('preClose', async () => {
      await scheduler.stop();
      await service.queue.close();
    });
  },
  { name: 'device-backups', dependencies: ['db', 'settings'] },
);
