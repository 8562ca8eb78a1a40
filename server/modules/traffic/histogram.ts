/**
 * Rate histograms for the 95th percentile over roll-ups. Raw samples are kept 7 days, but a month's (or a
 * year's) 95th percentile needs the distribution of the 5-minute rates, not hourly averages. Each roll-up row
 * keeps its interval rates as a sparse histogram with log-scale bins 1% wide, so merging the rows of a range
 * gives the percentile within 1% with a few hundred numbers per bucket at most.
 *
 * Bin i holds rates in [BASE^i, BASE^(i+1)); rates under 1 bit/s go to bin -1. binSql (repository.ts)
 * computes the bin in SQL.
 */
import type { RateHistogram } from '../../db/schema/traffic';

export const HISTOGRAM_BASE = 1.01;

/** The value a bin stands for: the geometric middle of its range (0 for the under-1 bit/s bin). */
export function valueOfBin(bin: number): number {
  return bin < 0 ? 0 : HISTOGRAM_BASE ** (bin + 0.5);
}

export function mergeHistograms(histograms: Iterable<RateHistogram>): Map<number, number> {
  const merged = new Map<number, number>();
  for (const h of histograms) {
    for (const [bin, count] of Object.entries(h))
      merged.set(Number(bin), (merged.get(Number(bin)) ?? 0) + Number(count));
  }
  return merged;
}

/** The nearest-rank 95th percentile of a merged histogram, capped at the range's true maximum. */
export function percentile95OfHistogram(merged: Map<number, number>, max: number): number | null {
  const total = [...merged.values()].reduce((a, b) => a + b, 0);
  if (!total) return null;
  const rank = Math.ceil(0.95 * total);
  let seen = 0;
  for (const bin of [...merged.keys()].sort((a, b) => a - b)) {
    seen += merged.get(bin)!;
    if (seen >= rank) return Math.min(valueOfBin(bin), max);
  }
  return max;
}
