/**
 * The dashboard's bandwidth and activeConnections (issue 8), from RADIUS accounting: bytes booked on the range's
 * UTC days in radius_usage_daily (download = output, upload = input) and the sessions open now. A customer's
 * numbers are their own subscriptions'; staff see the whole network. `devices` counts the registered network
 * devices (the dashboard's networkDevices; only staff roles are sent it).
 */
import { and, count, eq, gte, lte, sql } from 'drizzle-orm';
import type { Role } from '../../../contract/roles';
import type { Db } from '../../db/client';
import { subscriptions } from '../../db/schema';
import { devices } from '../../db/schema/devices';
import { radiusSessions, radiusUsageDaily } from '../../db/schema/radius';

export async function networkStats(
  db: Db,
  window: { startDate: string; endDate: string },
  caller: { id: string; role: Role },
): Promise<{ download: number; upload: number; activeConnections: number; devices: number }> {
  const own = caller.role === 'user';
  const inRange = and(gte(radiusUsageDaily.day, window.startDate), lte(radiusUsageDaily.day, window.endDate));
  const bytes = db
    .select({
      download: sql<string>`coalesce(sum(${radiusUsageDaily.outputOctets}), 0)`,
      upload: sql<string>`coalesce(sum(${radiusUsageDaily.inputOctets}), 0)`,
    })
    .from(radiusUsageDaily);
  const sessions = db.select({ n: count() }).from(radiusSessions);
  const [[b], [s], [d]] = await Promise.all([
    own
      ? bytes
          .innerJoin(subscriptions, eq(subscriptions.id, radiusUsageDaily.subscriptionId))
          .where(and(inRange, eq(subscriptions.userId, caller.id)))
      : bytes.where(inRange),
    own
      ? sessions
          .innerJoin(subscriptions, eq(subscriptions.id, radiusSessions.subscriptionId))
          .where(and(eq(radiusSessions.status, 'open'), eq(subscriptions.userId, caller.id)))
      : sessions.where(eq(radiusSessions.status, 'open')),
    own ? Promise.resolve([{ n: 0 }]) : db.select({ n: count() }).from(devices),
  ]);
  return {
    download: Number(b?.download ?? 0),
    upload: Number(b?.upload ?? 0),
    activeConnections: Number(s?.n ?? 0),
    devices: Number(d?.n ?? 0),
  };
}
