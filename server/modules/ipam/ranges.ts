/** Address ranges of a network as bigint intervals (IPv4 and IPv6 alike): what may be handed out, what is blocked. */
import { parseIp } from '../../../contract/ip';
import type { IpNetworkRow } from '../../db/schema/ipam';

export interface Interval {
  from: bigint;
  to: bigint;
}

/** The addresses of a network that may be handed out: IPv4 without network and broadcast (/30 and larger),
 *  IPv6 without the subnet-router anycast address (shorter than /127). */
export function usableRange(row: Pick<IpNetworkRow, 'family' | 'prefixLength' | 'rangeStart' | 'rangeEnd'>): Interval {
  const start = BigInt(row.rangeStart);
  const end = BigInt(row.rangeEnd);
  if (row.family === 4) return row.prefixLength <= 30 ? { from: start + 1n, to: end - 1n } : { from: start, to: end };
  return row.prefixLength < 127 ? { from: start + 1n, to: end } : { from: start, to: end };
}

/** Gateway and reserved ranges as sorted, merged intervals. */
export function blockedIntervals(row: Pick<IpNetworkRow, 'family' | 'gateway' | 'reservedRanges'>): Interval[] {
  const list: Interval[] = [];
  if (row.gateway) {
    const g = parseIp(row.gateway);
    if (g) list.push({ from: g.value, to: g.value });
  }
  for (const r of row.reservedRanges) {
    const a = parseIp(r.from);
    const b = parseIp(r.to);
    if (a && b) list.push({ from: a.value, to: b.value });
  }
  return merge(list);
}

export function merge(list: Interval[]): Interval[] {
  const sorted = [...list].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.from <= last.to + 1n) {
      if (i.to > last.to) last.to = i.to;
    } else out.push({ ...i });
  }
  return out;
}

export function clippedSize(list: Interval[], range: Interval): bigint {
  let n = 0n;
  for (const i of list) {
    // biome-ignore lint/complexity/useMathMinMax: bigint, which Math.max does not take
    const from = i.from > range.from ? i.from : range.from;
    // biome-ignore lint/complexity/useMathMinMax: bigint, which Math.min does not take
    const to = i.to < range.to ? i.to : range.to;
    if (from <= to) n += to - from + 1n;
  }
  return n;
}
