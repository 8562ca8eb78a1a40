/** Queries for interfaces and their traffic (samples and roll-ups). */
import { and, asc, eq, gt, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { devices } from '../../db/schema/devices';
import {
  deviceInterfaces,
  interfaceRatesDaily,
  interfaceRatesHourly,
  interfaceSamples,
  type DeviceInterfaceRow,
} from '../../db/schema/traffic';

export interface LatestRate {
  interfaceId: string;
  takenAt: Date;
  inBps: number | null;
  outBps: number | null;
}

export function createTrafficRepository(db: Db) {
  return {
    async device(id: string) {
      const [row] = await db
        .select({
          id: devices.id,
          name: devices.name,
          status: devices.status,
          statusChangedAt: devices.statusChangedAt,
          lastSeenAt: devices.lastSeenAt,
          lastError: devices.lastError,
        })
        .from(devices)
        .where(eq(devices.id, id))
        .limit(1);
      return row;
    },

    interfaces(deviceId: string): Promise<DeviceInterfaceRow[]> {
      return db
        .select()
        .from(deviceInterfaces)
        .where(eq(deviceInterfaces.deviceId, deviceId))
        .orderBy(asc(deviceInterfaces.ifIndex));
    },

    async interface(deviceId: string, interfaceId: string): Promise<DeviceInterfaceRow | undefined> {
      const [row] = await db
        .select()
        .from(deviceInterfaces)
        .where(and(eq(deviceInterfaces.deviceId, deviceId), eq(deviceInterfaces.id, interfaceId)))
        .limit(1);
      return row;
    },

    /** Each interface's newest sample (its rate over the last polled interval). */
    async latestRates(interfaceIds: string[]): Promise<Map<string, LatestRate>> {
      if (!interfaceIds.length) return new Map();
      const rows = await db
        .selectDistinctOn([interfaceSamples.interfaceId], {
          interfaceId: interfaceSamples.interfaceId,
          takenAt: interfaceSamples.takenAt,
          inBps: interfaceSamples.inBps,
          outBps: interfaceSamples.outBps,
        })
        .from(interfaceSamples)
        .where(inArray(interfaceSamples.interfaceId, interfaceIds))
        .orderBy(interfaceSamples.interfaceId, sql`${interfaceSamples.takenAt} desc`);
      return new Map(rows.map((r) => [r.interfaceId, r]));
    },

    /** Samples whose interval ends in (from, to]. */
    samples(interfaceId: string, from: Date, to: Date) {
      return db
        .select({
          takenAt: interfaceSamples.takenAt,
          kind: interfaceSamples.intervalKind,
          seconds: interfaceSamples.intervalSeconds,
          inBps: interfaceSamples.inBps,
          outBps: interfaceSamples.outBps,
          inBytes: interfaceSamples.inBytes,
          outBytes: interfaceSamples.outBytes,
        })
        .from(interfaceSamples)
        .where(
          and(
            eq(interfaceSamples.interfaceId, interfaceId),
            gt(interfaceSamples.takenAt, from),
            lte(interfaceSamples.takenAt, to),
          ),
        )
        .orderBy(asc(interfaceSamples.takenAt));
    },

    /** Roll-up buckets starting in [from, to] (the bucket starting at `to` holds the sample taken at `to`). */
    rollups(table: 'hourly' | 'daily', interfaceId: string, from: Date, to: Date) {
      const t = table === 'hourly' ? interfaceRatesHourly : interfaceRatesDaily;
      return db
        .select()
        .from(t)
        .where(and(eq(t.interfaceId, interfaceId), gte(t.bucket, from), lte(t.bucket, to)))
        .orderBy(asc(t.bucket));
    },
  };
}

export type TrafficRepository = ReturnType<typeof createTrafficRepository>;
