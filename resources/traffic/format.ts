/**
 * Human units for traffic: rates in bits per second and volumes in bytes, both in powers of 1000 (the way
 * links and transfer volumes are sold), with three significant digits.
 */
import type { TrafficPoint } from '../../contract/schemas/traffic';
import { t } from '../../src/i18n';

const RATE_UNITS = ['bit/s', 'kbit/s', 'Mbit/s', 'Gbit/s', 'Tbit/s'];
const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];

function scaled(value: number, units: string[]): string {
  let i = 0;
  let v = Math.abs(value);
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  // Below 10 bit/s (or bytes) a fraction still says something; whole units above.
  const digits = i === 0 ? (v < 10 && !Number.isInteger(v) ? 1 : 0) : v >= 100 ? 0 : v >= 10 ? 1 : 2;
  return `${(Math.sign(value) * v).toFixed(digits)} ${units[i]}`;
}

export const NO_VALUE = '—';

/** 1234567 → "1.23 Mbit/s"; null → "—". */
export function formatBps(bps: number | null | undefined): string {
  return bps === null || bps === undefined || !Number.isFinite(bps) ? NO_VALUE : scaled(bps, RATE_UNITS);
}

/** 71000000 → "71.0 MB"; null → "—". */
export function formatBytes(bytes: number | null | undefined): string {
  return bytes === null || bytes === undefined || !Number.isFinite(bytes) ? NO_VALUE : scaled(bytes, BYTE_UNITS);
}

/** ifHighSpeed in Mbit/s → "1 Gbit/s", "100 Mbit/s"; 0 (unknown) → "—". */
export function formatSpeed(mbps: number): string {
  if (!mbps) return NO_VALUE;
  return mbps >= 1000 && mbps % 1000 === 0 ? `${mbps / 1000} Gbit/s` : `${mbps} Mbit/s`;
}

/** The chart's time labels for a range of this length: times of day up to two days, dates beyond. */
export function timeFormatFor(spanMs: number): string {
  if (spanMs <= 2 * 86_400_000) return 'HH:mm';
  if (spanMs <= 14 * 86_400_000) return 'MMM D HH:mm';
  return 'MMM D';
}

export interface ChartDatum {
  t: Date;
  bps: number | null;
  direction: string;
}

/** The chart's rows: one per point and direction; a point without a rate stays null (a break in the line). */
export function chartData(points: TrafficPoint[]): ChartDatum[] {
  const inLabel = t('traffic.in');
  const outLabel = t('traffic.out');
  return points.flatMap((p) => [
    { t: new Date(p.t), bps: p.in_bps, direction: inLabel },
    { t: new Date(p.t), bps: p.out_bps, direction: outLabel },
  ]);
}
