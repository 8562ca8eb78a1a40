/**
 * Settings of the configuration backups, read from the environment once when the module starts (validated
 * like server/config.ts; kept here so the module stays self-contained):
 *   DEVICE_BACKUP_SCHEDULER       Run the scheduled backup: true | false. Default true, except NODE_ENV=test.
 *   DEVICE_BACKUP_INTERVAL_HOURS  Hours between two scheduled backups of a device (1-720). Default 24 (daily).
 *   DEVICE_BACKUP_CONCURRENCY     Backups running at once (1-32). Default 2.
 *   DEVICE_BACKUP_TIMEOUT_MS      Time allowed for one RouterOS REST call (the export), 200-300000. Default 20000.
 *                                 The configuration view, answered inside the browser's request, waits 12 s at most.
 */
import { z } from 'zod';
import { bool, int } from '../../config';

export interface DeviceBackupConfig {
  scheduler: boolean;
  intervalHours: number;
  concurrency: number;
  timeoutMs: number;
}

const schema = z.object({
  DEVICE_BACKUP_SCHEDULER: bool('DEVICE_BACKUP_SCHEDULER').optional(),
  DEVICE_BACKUP_INTERVAL_HOURS: int('DEVICE_BACKUP_INTERVAL_HOURS', 1, 720).optional(),
  DEVICE_BACKUP_CONCURRENCY: int('DEVICE_BACKUP_CONCURRENCY', 1, 32).optional(),
  DEVICE_BACKUP_TIMEOUT_MS: int('DEVICE_BACKUP_TIMEOUT_MS', 200, 300_000).optional(),
});

export function loadDeviceBackupConfig(env: NodeJS.ProcessEnv, nodeEnv: string): DeviceBackupConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('\n'));
  const e = parsed.data;
  return {
    scheduler: e.DEVICE_BACKUP_SCHEDULER ?? nodeEnv !== 'test',
    intervalHours: e.DEVICE_BACKUP_INTERVAL_HOURS ?? 24,
    concurrency: e.DEVICE_BACKUP_CONCURRENCY ?? 2,
    timeoutMs: e.DEVICE_BACKUP_TIMEOUT_MS ?? 20_000,
  };
}
