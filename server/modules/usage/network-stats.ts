/**
 * The dashboard's bandwidth and activeConnections (issue 8), from RADIUS accounting: bytes booked on the range's
 * UTC days in radius_usage_daily (download = output, upload = input) and the sessions open now. A customer's
 * numbers are their own subscriptions'; staff see the whole network. `devices` counts the registered network
 * devices (the dashboard's networkDevices; only staff roles are sent it).
 */
import type { Role } from '../../../contract/roles';
import type { Db } from '../../db/client';
import { createUsageRepository } from './repository';

export async function networkStats(
  db: Db,
  window: { startDate: string; endDate: string },
  caller: { id: string; role: Role },
): Promise<{ download: number; upload: number; activeConnections: number; devices: number }> {
  const own = caller.role === 'user';
  const [[b], [s], [d]] = await createUsageRepository(db).networkStats(window, own ? caller.id : null);
  return {
    download: Number(b?.download ?? 0),
    upload: Number(b?.upload ?? 0),
    activeConnections: Number(s?.n ?? 0),
    devices: Number(d?.n ?? 0),
  };
}
