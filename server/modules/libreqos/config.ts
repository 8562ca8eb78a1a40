/**
 * Settings of the LibreQoS shaper export (issue 36), read from the environment once when the module starts (validated
 * like server/config.ts; kept here so the module stays self-contained, as device-backups does):
 *   LIBREQOS_EXPORT_DIR               Folder the scheduled export writes ShapedDevices.csv and network.json into
 *                                     (each written to a temporary file beside it, then renamed). Unset: no
 *                                     scheduled export (the downloads still work).
 *   LIBREQOS_EXPORT_INTERVAL_MINUTES  Minutes between two scheduled exports (1-1440). Default 5.
 */
import path from 'node:path';
import { z } from 'zod';
import { int } from '../../config';

export interface LibreqosConfig {
  /** Absolute folder, or null when the scheduled export is off. */
  exportDir: string | null;
  intervalMinutes: number;
}

const schema = z.object({
  LIBREQOS_EXPORT_DIR: z.string().trim().optional(),
  LIBREQOS_EXPORT_INTERVAL_MINUTES: int('LIBREQOS_EXPORT_INTERVAL_MINUTES', 1, 1440).optional(),
});

export function loadLibreqosConfig(env: NodeJS.ProcessEnv): LibreqosConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('\n'));
  const e = parsed.data;
  return {
    exportDir: e.LIBREQOS_EXPORT_DIR ? path.resolve(e.LIBREQOS_EXPORT_DIR) : null,
    intervalMinutes: e.LIBREQOS_EXPORT_INTERVAL_MINUTES ?? 5,
  };
}
