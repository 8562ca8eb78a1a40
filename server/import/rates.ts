/**
 * Rates as the old systems write them, in kbit/s. The portal's plans hold whole Mbit/s (what its NAS profiles
 * send), so a rate that is not a whole number of Mbit/s is rounded and reported by the caller.
 */

export interface Rate {
  downloadKbps: number;
  uploadKbps: number;
  /** Something the rate said beyond the two rates (MikroTik's burst, priority, minimum): not carried over. */
  extra: string | null;
}

const UNIT: Record<string, number> = { '': 0.001, k: 1, K: 1, m: 1000, M: 1000, g: 1_000_000, G: 1_000_000 };

/** "10M", "512k", "2000000" (bit/s) → kbit/s; null when unreadable. */
export function rateKbps(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)([kKmMgG]?)$/.exec(text.trim());
  if (!m) return null;
  const kbps = Number(m[1]) * (UNIT[m[2] ?? ''] ?? 0);
  return Number.isFinite(kbps) && kbps > 0 ? Math.round(kbps) : null;
}

/**
 * Mikrotik-Rate-Limit: "rx[/tx] [rx-burst[/tx-burst] [threshold [time [priority [min]]]]]", as the router sees
 * it: rx is what it receives from the customer (their upload), tx what it sends them (their download). One value
 * alone is both.
 */
export function parseMikrotikRateLimit(value: string): Rate | null {
  const parts = value.trim().split(/\s+/);
  const first = parts[0];
  if (!first) return null;
  const [rx, tx = rx] = first.split('/');
  const upload = rx ? rateKbps(rx) : null;
  const download = tx ? rateKbps(tx) : null;
  if (upload === null || download === null) return null;
  return {
    downloadKbps: download,
    uploadKbps: upload,
    extra: parts.length > 1 ? `burst/priority settings "${parts.slice(1).join(' ')}"` : null,
  };
}

/** A rate in kbit/s as the plan's whole Mbit/s (at least 1), and whether that changed it. */
export function wholeMbps(kbps: number): { mbps: number; rounded: boolean } {
  const mbps = Math.max(1, Math.round(kbps / 1000));
  return { mbps, rounded: mbps * 1000 !== kbps };
}

/** "20M/10M" the way people read it: download/upload. */
export function describeRate(rate: Pick<Rate, 'downloadKbps' | 'uploadKbps'>): string {
  const fmt = (kbps: number) => (kbps % 1000 === 0 ? `${kbps / 1000}M` : `${kbps}k`);
  return `${fmt(rate.downloadKbps)}/${fmt(rate.uploadKbps)}`;
}
