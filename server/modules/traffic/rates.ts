/**
 * Turning consecutive octet-counter readings into bits per second (no database, no I/O).
 *
 * An interval between two readings of one interface is one of:
 *  - rate:  both readings usable; the counters' growth (modulo their width, when the growth is a plausible
 *           wrap) divided by the elapsed time.
 *  - reset: the device restarted or its counters were cleared (sysUpTime went back, or a counter went down by
 *           more than a wrap could explain): no rate, never a negative value or a spike of 2^64 bytes.
 *  - gap:   polls were missed (more than GAP_FACTOR poll intervals between the readings): the traffic of that
 *           stretch is not averaged over it, so a chart shows a hole instead of a flat line.
 * A 32-bit counter (ifInOctets, used when a device has no ifHCInOctets) wraps every 34 s at 1 Gbit/s, so more
 * than one wrap per interval cannot be seen; its rates are right only for links slow enough to wrap at most once.
 */

export const COUNTER64_MODULUS = 1n << 64n;
export const COUNTER32_MODULUS = 1n << 32n;
/** sysUpTime is TimeTicks: hundredths of a second in 32 bits, so it wraps after ~497 days of uptime. */
export const TIMETICKS_MODULUS = 1n << 32n;
/** A reading later than this many poll intervals after the previous one starts a gap. */
export const GAP_FACTOR = 2.5;
/** Without a known interface speed, growth faster than this (bit/s) is not believed (400 Gbit/s). */
export const DEFAULT_MAX_BPS = 400e9;
/** Counters may run slightly ahead of the nominal speed (framing, bursts, timing of the poll). */
export const SPEED_SLACK = 1.5;

export type CounterWidth = 32 | 64;

/** One reading of an interface's counters. */
export interface CounterSample {
  takenAt: Date;
  inOctets: bigint;
  outOctets: bigint;
  /** sysUpTime in hundredths of a second, as read from the device with the counters; null if unknown. */
  uptimeTicks: bigint | null;
  /** 64 for ifHCInOctets/ifHCOutOctets, 32 for the ifInOctets/ifOutOctets fallback. */
  width: CounterWidth;
}

export type IntervalKind = 'rate' | 'gap' | 'reset';

export interface RateInterval {
  kind: IntervalKind;
  start: Date;
  end: Date;
  seconds: number;
  /** Present only for kind 'rate'. */
  inBps: number | null;
  outBps: number | null;
  inBytes: bigint | null;
  outBytes: bigint | null;
  /** Why an interval has no rate (for logs and tests). */
  reason?:
    | 'uptime-went-back'
    | 'counter-went-down'
    | 'implausible-rate'
    | 'missed-polls'
    | 'not-after-previous'
    | 'counter-width-changed';
}

export interface RateOptions {
  /** The poll interval in milliseconds (the gap rule is relative to it). */
  pollIntervalMs: number;
  /** The interface's speed in Mbit/s (ifHighSpeed); 0 or null when unknown. */
  speedMbps?: number | null;
}

/** The largest rate believed for an interface: its speed with some slack, else DEFAULT_MAX_BPS. */
export function maxPlausibleBps(speedMbps: number | null | undefined): number {
  return speedMbps && speedMbps > 0 ? speedMbps * 1e6 * SPEED_SLACK : DEFAULT_MAX_BPS;
}

/**
 * The growth of one counter between two readings, or null when it cannot be known (a reset). A counter that
 * went down is taken as one wrap only when the wrapped growth fits under maxBytes; otherwise it was reset.
 */
export function counterDelta(previous: bigint, current: bigint, width: CounterWidth, maxBytes: bigint): bigint | null {
  if (current >= previous) return current - previous;
  const wrapped = current + (width === 64 ? COUNTER64_MODULUS : COUNTER32_MODULUS) - previous;
  return wrapped <= maxBytes ? wrapped : null;
}

/**
 * Whether sysUpTime shows a restart between two readings. It went back, unless that is the 497-day TimeTicks
 * wrap: then the wrapped difference is about the elapsed time.
 */
export function restartedBetween(
  previousTicks: bigint | null,
  currentTicks: bigint | null,
  elapsedMs: number,
): boolean {
  if (previousTicks === null || currentTicks === null) return false;
  if (currentTicks >= previousTicks) return false;
  const wrappedMs = Number(currentTicks + TIMETICKS_MODULUS - previousTicks) * 10;
  // A wrap: the uptime moved on by about the wall-clock time (allow a minute or 10% for poll latency and drift).
  return Math.abs(wrappedMs - elapsedMs) > Math.max(60_000, elapsedMs * 0.1);
}

/** The interval between two consecutive readings of one interface. */
export function rateBetween(previous: CounterSample, current: CounterSample, options: RateOptions): RateInterval {
  const elapsedMs = current.takenAt.getTime() - previous.takenAt.getTime();
  const base = {
    start: previous.takenAt,
    end: current.takenAt,
    seconds: elapsedMs / 1000,
    inBps: null,
    outBps: null,
    inBytes: null,
    outBytes: null,
  };
  if (elapsedMs <= 0) return { ...base, kind: 'reset', reason: 'not-after-previous' };
  if (restartedBetween(previous.uptimeTicks, current.uptimeTicks, elapsedMs))
    return { ...base, kind: 'reset', reason: 'uptime-went-back' };
  // A device that started answering ifHCInOctets (or stopped) gives readings of another counter: start again.
  if (previous.width !== current.width) return { ...base, kind: 'reset', reason: 'counter-width-changed' };
  if (elapsedMs > options.pollIntervalMs * GAP_FACTOR) return { ...base, kind: 'gap', reason: 'missed-polls' };

  const maxBps = maxPlausibleBps(options.speedMbps);
  const maxBytes = BigInt(Math.ceil((maxBps * (elapsedMs / 1000)) / 8));
  const inBytes = counterDelta(previous.inOctets, current.inOctets, current.width, maxBytes);
  const outBytes = counterDelta(previous.outOctets, current.outOctets, current.width, maxBytes);
  if (inBytes === null || outBytes === null) return { ...base, kind: 'reset', reason: 'counter-went-down' };
  // Growth beyond the link's speed is a counter that was cleared and refilled, or a bad reading: not a rate.
  if (inBytes > maxBytes || outBytes > maxBytes) return { ...base, kind: 'reset', reason: 'implausible-rate' };

  const seconds = elapsedMs / 1000;
  return {
    ...base,
    kind: 'rate',
    inBytes,
    outBytes,
    inBps: (Number(inBytes) * 8) / seconds,
    outBps: (Number(outBytes) * 8) / seconds,
  };
}

/** The intervals between each reading and the next (readings in any order; sorted by time first). */
export function ratesOf(samples: readonly CounterSample[], options: RateOptions): RateInterval[] {
  const sorted = [...samples].sort((a, b) => a.takenAt.getTime() - b.takenAt.getTime());
  const out: RateInterval[] = [];
  for (let i = 1; i < sorted.length; i++) out.push(rateBetween(sorted[i - 1], sorted[i], options));
  return out;
}

/**
 * The 95th percentile by the nearest-rank rule used for burstable billing: sort the rates, drop the top 5%,
 * take the highest left (the value at rank ceil(0.95 n)). null for no rates.
 */
export function percentile95(values: readonly number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(0.95 * sorted.length) - 1];
}
