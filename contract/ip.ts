/**
 * IPv4 and IPv6 addresses and prefixes as integers (BigInt), dependency-free so the zod schemas and the server
 * share them. Canonical text: IPv4 dotted quad without leading zeros; IPv6 lower-case and compressed (RFC 5952).
 */
export type IpFamily = 4 | 6;
export interface ParsedIp {
  family: IpFamily;
  value: bigint;
}
export interface ParsedPrefix {
  family: IpFamily;
  /** The network address (host bits zero). */
  start: bigint;
  end: bigint;
  length: number;
}

const V4_PART = /^(0|[1-9][0-9]{0,2})$/;

function parseV4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const p of parts) {
    if (!V4_PART.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function parseV6(text: string): bigint | null {
  let s = text.toLowerCase();
  // An embedded IPv4 tail (::ffff:192.0.2.1) becomes two groups.
  const lastColon = s.lastIndexOf(':');
  if (s.includes('.') && lastColon >= 0) {
    const v4 = parseV4(s.slice(lastColon + 1));
    if (v4 === null) return null;
    s = `${s.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  let value = 0n;
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
    value = (value << 16n) | BigInt(parseInt(g, 16));
  }
  return value;
}

/** Parses an IPv4 or IPv6 address (no prefix, no zone). */
export function parseIp(text: string): ParsedIp | null {
  const t = text.trim();
  if (!t || t.length > 45) return null;
  if (t.includes(':')) {
    const value = parseV6(t);
    return value === null ? null : { family: 6, value };
  }
  const value = parseV4(t);
  return value === null ? null : { family: 4, value };
}

export const bitsOf = (family: IpFamily) => (family === 4 ? 32 : 128);

export function formatIp(family: IpFamily, value: bigint): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((value >> BigInt(i * 16)) & 0xffffn));
  // RFC 5952: the longest run (≥ 2) of zero groups, the first one on a tie, becomes "::".
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** The canonical text of an address, or null when it is not one. */
export function canonicalIp(text: string): string | null {
  const ip = parseIp(text);
  return ip ? formatIp(ip.family, ip.value) : null;
}

/**
 * Parses "address/length". strict: the address must be the network address (no host bits set), so
 * "203.0.113.5/24" is refused rather than silently read as 203.0.113.0/24.
 */
export function parsePrefix(text: string, strict = true): ParsedPrefix | null {
  const [address, len, ...rest] = text.trim().split('/');
  if (rest.length || len === undefined || !/^[0-9]{1,3}$/.test(len)) return null;
  const ip = parseIp(address);
  if (!ip) return null;
  const bits = bitsOf(ip.family);
  const length = Number(len);
  if (length > bits) return null;
  const hostBits = BigInt(bits - length);
  const hostMask = (1n << hostBits) - 1n;
  if (strict && (ip.value & hostMask) !== 0n) return null;
  const start = ip.value & ~hostMask;
  return { family: ip.family, start, end: start | hostMask, length };
}

export function formatPrefix(p: Pick<ParsedPrefix, 'family' | 'start' | 'length'>): string {
  return `${formatIp(p.family, p.start)}/${p.length}`;
}
