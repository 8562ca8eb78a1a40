/**
 * Interfaces with their live status, and an interface's traffic over a range: the series (raw samples for
 * short recent ranges, hourly buckets up to two months, daily beyond), the totals in bytes, and the 95th
 * percentile of the polled rates. Totals and percentiles come from the finest data still kept for the range's
 * start (raw 7 days, hourly 1 year, daily forever), so they are exact whenever raw samples cover the range.
 */
import type {
  DeviceInterface,
  DeviceInterfaceList,
  Traffic,
  TrafficPoint,
  TrafficRange,
  TrafficResolution,
} from '../../../contract/schemas/traffic';
import type { DeviceInterfaceRow } from '../../db/schema/traffic';
import type { Clock } from '../../lib/clock';
import { DAY_MS, HOUR_MS } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { mergeHistograms, percentile95OfHistogram } from './histogram';
import { percentile95 } from './rates';
import type { LatestRate, TrafficRepository } from './repository';
import { HOURLY_RETENTION_MS, RAW_RETENTION_MS } from './rollup';

export const TRAFFIC_MESSAGES = {
  interfaces: 'Interfaces retrieved',
  traffic: 'Traffic retrieved',
  polled: 'Device polled',
  deviceNotFound: 'Device not found',
  interfaceNotFound: 'Interface not found',
} as const;

const RANGE_MS: Record<Exclude<TrafficRange, 'custom'>, number> = {
  hour: HOUR_MS,
  day: DAY_MS,
  week: 7 * DAY_MS,
  month: 30 * DAY_MS,
};

/** Series: raw up to two days, hourly up to ~two months, daily beyond (a chart of a few hundred points). */
export function seriesResolution(from: Date, to: Date, now: Date): TrafficResolution {
  const span = to.getTime() - from.getTime();
  const age = now.getTime() - from.getTime();
  if (span <= 2 * DAY_MS && age <= RAW_RETENTION_MS) return 'raw';
  if (span <= 62 * DAY_MS && age <= HOURLY_RETENTION_MS) return 'hourly';
  return 'daily';
}

/** Totals and percentiles: the finest data kept for the range's start. */
export function statsResolution(from: Date, now: Date): TrafficResolution {
  const age = now.getTime() - from.getTime();
  if (age <= RAW_RETENTION_MS) return 'raw';
  if (age <= HOURLY_RETENTION_MS) return 'hourly';
  return 'daily';
}

export function toInterface(row: DeviceInterfaceRow, latest: LatestRate | undefined): DeviceInterface {
  return {
    id: row.id,
    device_id: row.deviceId,
    if_index: row.ifIndex,
    name: row.name,
    alias: row.alias,
    oper_status: row.operStatus,
    admin_status: row.adminStatus,
    high_speed_mbps: row.highSpeedMbps,
    mac: row.mac,
    counter_bits: row.counterBits,
    last_seen_at: row.lastSeenAt.toISOString(),
    in_bps: latest?.inBps ?? null,
    out_bps: latest?.outBps ?? null,
    last_sample_at: latest?.takenAt.toISOString() ?? null,
  };
}

interface Stats {
  totals: Traffic['totals'];
  p95: Traffic['p95'];
  max: Traffic['max'];
  avg: Traffic['avg'];
}

const floorTo = (d: Date, ms: number) => new Date(Math.floor(d.getTime() / ms) * ms);

export class TrafficService {
  constructor(private readonly deps: { repository: TrafficRepository; clock: Clock }) {}

  async interfaces(deviceId: string): Promise<DeviceInterfaceList> {
    const { repository } = this.deps;
    const device = await repository.device(deviceId);
    if (!device) throw notFound(TRAFFIC_MESSAGES.deviceNotFound);
    const rows = await repository.interfaces(deviceId);
    const latest = await repository.latestRates(rows.map((r) => r.id));
    return {
      device: {
        id: device.id,
        name: device.name,
        status: device.status,
        status_changed_at: device.statusChangedAt?.toISOString() ?? null,
        last_seen_at: device.lastSeenAt?.toISOString() ?? null,
        last_error: device.lastError,
      },
      items: rows.map((r) => toInterface(r, latest.get(r.id))),
    };
  }

  async traffic(
    deviceId: string,
    interfaceId: string,
    query: { range: TrafficRange; from?: string; to?: string },
  ): Promise<Traffic> {
    const { repository } = this.deps;
    const row = await repository.interface(deviceId, interfaceId);
    if (!row) {
      if (!(await repository.device(deviceId))) throw notFound(TRAFFIC_MESSAGES.deviceNotFound);
      throw notFound(TRAFFIC_MESSAGES.interfaceNotFound);
    }
    const now = this.deps.clock.now();
    const to = query.range === 'custom' ? new Date(query.to!) : now;
    const from = query.range === 'custom' ? new Date(query.from!) : new Date(now.getTime() - RANGE_MS[query.range]);
    const resolution = seriesResolution(from, to, now);
    const statsFrom = statsResolution(from, now);

    const points = await this.series(resolution, interfaceId, from, to);
    const stats = await this.stats(statsFrom, interfaceId, from, to);
    const latest = await repository.latestRates([interfaceId]);
    return {
      interface: toInterface(row, latest.get(interfaceId)),
      range: query.range,
      from: from.toISOString(),
      to: to.toISOString(),
      resolution,
      points,
      ...stats,
      stats_resolution: statsFrom,
    };
  }

  private async series(
    resolution: TrafficResolution,
    interfaceId: string,
    from: Date,
    to: Date,
  ): Promise<TrafficPoint[]> {
    if (resolution === 'raw') {
      const samples = await this.deps.repository.samples(interfaceId, from, to);
      // A sample without a rate (first one, missed polls, restart) stays as a null point: the chart breaks there.
      return samples.map((s) => ({
        t: s.takenAt.toISOString(),
        in_bps: s.kind === 'rate' ? s.inBps : null,
        out_bps: s.kind === 'rate' ? s.outBps : null,
      }));
    }
    const unit = resolution === 'hourly' ? HOUR_MS : DAY_MS;
    const rows = await this.deps.repository.rollups(resolution, interfaceId, floorTo(from, unit), to);
    return rows.map((r) => ({ t: r.bucket.toISOString(), in_bps: r.avgInBps, out_bps: r.avgOutBps }));
  }

  private async stats(resolution: TrafficResolution, interfaceId: string, from: Date, to: Date): Promise<Stats> {
    if (resolution === 'raw') {
      const rates = (await this.deps.repository.samples(interfaceId, from, to)).filter((s) => s.kind === 'rate');
      const ins = rates.map((s) => s.inBps ?? 0);
      const outs = rates.map((s) => s.outBps ?? 0);
      const inBytes = rates.reduce((a, s) => a + (s.inBytes ?? 0), 0);
      const outBytes = rates.reduce((a, s) => a + (s.outBytes ?? 0), 0);
      const seconds = rates.reduce((a, s) => a + (s.seconds ?? 0), 0);
      return {
        totals: { in_bytes: inBytes, out_bytes: outBytes },
        p95: { in_bps: percentile95(ins), out_bps: percentile95(outs) },
        max: { in_bps: ins.length ? Math.max(...ins) : null, out_bps: outs.length ? Math.max(...outs) : null },
        avg: {
          in_bps: seconds > 0 ? (inBytes * 8) / seconds : null,
          out_bps: seconds > 0 ? (outBytes * 8) / seconds : null,
        },
      };
    }
    const unit = resolution === 'hourly' ? HOUR_MS : DAY_MS;
    const rows = await this.deps.repository.rollups(resolution, interfaceId, floorTo(from, unit), to);
    const inBytes = rows.reduce((a, r) => a + r.inBytes, 0);
    const outBytes = rows.reduce((a, r) => a + r.outBytes, 0);
    const seconds = rows.reduce((a, r) => a + r.seconds, 0);
    const maxIn = rows.length ? Math.max(...rows.map((r) => r.maxInBps)) : null;
    const maxOut = rows.length ? Math.max(...rows.map((r) => r.maxOutBps)) : null;
    return {
      totals: { in_bytes: inBytes, out_bytes: outBytes },
      p95: {
        in_bps: maxIn === null ? null : percentile95OfHistogram(mergeHistograms(rows.map((r) => r.inHist)), maxIn),
        out_bps: maxOut === null ? null : percentile95OfHistogram(mergeHistograms(rows.map((r) => r.outHist)), maxOut),
      },
      max: { in_bps: maxIn, out_bps: maxOut },
      avg: {
        in_bps: seconds > 0 ? (inBytes * 8) / seconds : null,
        out_bps: seconds > 0 ? (outBytes * 8) / seconds : null,
      },
    };
  }
}
