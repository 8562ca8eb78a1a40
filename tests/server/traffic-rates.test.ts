/**
 * Rates from recorded counter sequences: steady traffic, 64-bit and 32-bit wraps, reboots (sysUpTime going
 * back) and cleared counters, missed polls, and the 95th percentile rule.
 */
import { describe, expect, it } from 'vitest';
import {
  COUNTER32_MODULUS,
  COUNTER64_MODULUS,
  percentile95,
  rateBetween,
  ratesOf,
  restartedBetween,
  type CounterSample,
} from '../../server/modules/traffic/rates';

const FIVE_MIN = 5 * 60_000;
const T0 = Date.parse('2026-03-01T10:00:00Z');

/** A recorded sequence: [minutes after T0, ifHCInOctets, ifHCOutOctets, sysUpTime ticks]. */
function recorded(rows: Array<[number, bigint, bigint, bigint | null]>, width: 32 | 64 = 64): CounterSample[] {
  return rows.map(([min, inOctets, outOctets, ticks]) => ({
    takenAt: new Date(T0 + min * 60_000),
    inOctets,
    outOctets,
    uptimeTicks: ticks,
    width,
  }));
}

const opts = { pollIntervalMs: FIVE_MIN, speedMbps: 1000 };

describe('rates from 64-bit counters', () => {
  it('steady traffic gives bits per second over each interval', () => {
    // 37.5 MB in and 3.75 MB out per 5 minutes: 1 Mbit/s and 100 kbit/s.
    const rates = ratesOf(
      recorded([
        [0, 1_000_000_000n, 500_000_000n, 360_000n],
        [5, 1_037_500_000n, 503_750_000n, 390_000n],
        [10, 1_075_000_000n, 507_500_000n, 420_000n],
      ]),
      opts,
    );
    expect(rates.map((r) => r.kind)).toEqual(['rate', 'rate']);
    expect(rates[0].inBps).toBe(1_000_000);
    expect(rates[0].outBps).toBe(100_000);
    expect(rates[1].inBytes).toBe(37_500_000n);
    expect(rates[1].seconds).toBe(300);
  });

  it('a counter that wraps past 2^64 gives the true rate, not a negative one', () => {
    const nearTop = COUNTER64_MODULUS - 10_000_000n;
    const [r] = ratesOf(
      recorded([
        [0, nearTop, 1000n, 100_000n],
        [5, 27_500_000n, 1000n, 130_000n],
      ]),
      opts,
    );
    expect(r.kind).toBe('rate');
    expect(r.inBytes).toBe(37_500_000n);
    expect(r.inBps).toBe(1_000_000);
    expect(r.outBps).toBe(0);
  });

  it('a reboot (sysUpTime went back) discards the interval: no negative value, no spike', () => {
    const rates = ratesOf(
      recorded([
        [0, 9_000_000_000n, 8_000_000_000n, 50_000_000n],
        [5, 9_037_500_000n, 8_003_750_000n, 50_030_000n],
        [10, 1_200_000n, 300_000n, 12_000n], // rebooted two minutes ago
        [15, 38_700_000n, 4_050_000n, 42_000n],
      ]),
      opts,
    );
    expect(rates.map((r) => r.kind)).toEqual(['rate', 'reset', 'rate']);
    expect(rates[1].reason).toBe('uptime-went-back');
    expect(rates[1].inBps).toBeNull();
    expect(rates[2].inBps).toBe(1_000_000);
    for (const r of rates) if (r.inBps !== null) expect(r.inBps).toBeGreaterThanOrEqual(0);
  });

  it('counters cleared without a reboot (down by a lot) are a reset, not a wrap of 2^64', () => {
    const [r] = ratesOf(
      recorded([
        [0, 9_000_000_000n, 8_000_000_000n, 50_000_000n],
        [5, 4_000n, 2_000n, 50_030_000n],
      ]),
      opts,
    );
    expect(r.kind).toBe('reset');
    expect(r.reason).toBe('counter-went-down');
    expect(r.inBytes).toBeNull();
  });

  it('without sysUpTime a reset is still caught by the counters', () => {
    const [r] = ratesOf(
      recorded([
        [0, 9_000_000_000n, 8_000_000_000n, null],
        [5, 4_000n, 8_100_000_000n, null],
      ]),
      opts,
    );
    expect(r.kind).toBe('reset');
  });

  it('growth faster than the link can carry is not believed', () => {
    // 100 Mbit/s link, 10 GB in five minutes (267 Mbit/s).
    const [r] = ratesOf(
      recorded([
        [0, 0n, 0n, 100n],
        [5, 10_000_000_000n, 0n, 30_100n],
      ]),
      { pollIntervalMs: FIVE_MIN, speedMbps: 100 },
    );
    expect(r.kind).toBe('reset');
    expect(r.reason).toBe('implausible-rate');
  });

  it('missed polls (more than 2.5 intervals) make a gap instead of an average over it', () => {
    const rates = ratesOf(
      recorded([
        [0, 0n, 0n, 1_000n],
        [5, 37_500_000n, 0n, 31_000n],
        [25, 900_000_000n, 0n, 151_000n], // 20 minutes: four polls missed
        [30, 937_500_000n, 0n, 181_000n],
        [42, 1_000_000_000n, 0n, 253_000n], // 12 minutes: 2.4 intervals, still a rate
      ]),
      opts,
    );
    expect(rates.map((r) => r.kind)).toEqual(['rate', 'gap', 'rate', 'rate']);
    expect(rates[1].inBps).toBeNull();
    expect(rates[1].seconds).toBe(1200);
    expect(rates[3].inBps).toBeCloseTo((62_500_000 * 8) / 720, 6);
  });

  it('a sysUpTime wrap after 497 days is not a reboot', () => {
    const top = COUNTER32_MODULUS - 10_000n; // 100 s before the TimeTicks wrap
    expect(restartedBetween(top, 20_000n, FIVE_MIN)).toBe(false);
    expect(restartedBetween(top, 5_000n, FIVE_MIN)).toBe(true); // the uptime says 150 s passed, not 300 s
    expect(restartedBetween(500_000n, 1_000n, FIVE_MIN)).toBe(true);
  });

  it('readings out of order are sorted; a repeated timestamp is not a rate', () => {
    const s = recorded([
      [5, 37_500_000n, 0n, 31_000n],
      [0, 0n, 0n, 1_000n],
    ]);
    expect(ratesOf(s, opts)[0].inBps).toBe(1_000_000);
    expect(rateBetween(s[0], s[0], opts).kind).toBe('reset');
  });
});

describe('rates from 32-bit counters (no ifHC* on the device)', () => {
  it('a wrap of 2^32 gives the true rate', () => {
    const [r] = ratesOf(
      recorded(
        [
          [0, COUNTER32_MODULUS - 1_000_000n, 10n, 500n],
          [5, 36_500_000n, 10n, 30_500n],
        ],
        32,
      ),
      { pollIntervalMs: FIVE_MIN, speedMbps: 100 },
    );
    expect(r.kind).toBe('rate');
    expect(r.inBytes).toBe(37_500_000n);
    expect(r.inBps).toBe(1_000_000);
  });

  it('a device switching between 32- and 64-bit counters starts over', () => {
    const a = recorded([[0, 5_000n, 5_000n, 100n]], 32)[0];
    const b = recorded([[5, 9_000_000_000n, 6_000n, 30_100n]], 64)[0];
    expect(rateBetween(a, b, opts)).toMatchObject({ kind: 'reset', reason: 'counter-width-changed' });
  });
});

describe('95th percentile', () => {
  it('drops the top 5% and takes the highest left (nearest rank)', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => (i + 1) * 1000);
    expect(percentile95(twenty)).toBe(19_000); // rank ceil(19) = 19
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile95(hundred)).toBe(95);
    expect(percentile95([7])).toBe(7);
    expect(percentile95([])).toBeNull();
  });
});
