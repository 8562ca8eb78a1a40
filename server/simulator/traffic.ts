/**
 * How much a simulated customer moves: a steady share of the plan's rate that follows the day (quiet at 4 in
 * the morning, busiest in the evening), with bursts, never above the rate the NAS was given. Each customer has
 * a profile drawn from its login, so a restart of the simulator gives the same customers the same habits.
 */
import { mulberry32 } from '../lib/seeded-random';

/** A small seeded PRNG (mulberry32): the same seed gives the same sequence. */
export const seededRandom = mulberry32;

/** A 32-bit FNV-1a hash of a text (a login → its seed). */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Share of the evening peak in use at each hour of the day, as residential traffic goes. */
const HOURLY = [
  0.7, 0.5, 0.35, 0.25, 0.18, 0.15, 0.2, 0.3, 0.4, 0.45, 0.5, 0.52, 0.55, 0.55, 0.55, 0.57, 0.6, 0.65, 0.75, 0.85, 0.95,
  1, 0.95, 0.85,
];

/** 0.15 around 5:00, 1 at 21:00 (the simulator's local time), linear between the hours. */
export function dayFactor(at: Date): number {
  const hour = at.getHours();
  const next = HOURLY[(hour + 1) % 24];
  return HOURLY[hour] + (next - HOURLY[hour]) * (at.getMinutes() / 60);
}

export interface TrafficProfile {
  /** Mean share of the download rate in use at the busiest hour (0.02–0.12). */
  busyShare: number;
  /** Upload as a share of download (0.06–0.3). */
  uploadRatio: number;
  random: () => number;
}

export function profileFor(username: string): TrafficProfile {
  const random = seededRandom(hashText(username));
  return { busyShare: 0.02 + random() * 0.1, uploadRatio: 0.06 + random() * 0.24, random };
}

export interface Rate {
  downloadKbps: number;
  uploadKbps: number;
}

/** Bytes down and up over `seconds` for one customer at `rate`. */
export function bytesOver(
  profile: TrafficProfile,
  rate: Rate,
  seconds: number,
  at: Date,
): { down: number; up: number } {
  // Bursts: most seconds are quiet, some use a good part of the line (a download, a video starting).
  const burst = profile.random() < 0.1 ? 2 + profile.random() * 6 : 0.4 + profile.random() * 0.8;
  const share = Math.min(1, profile.busyShare * Math.max(0.15, dayFactor(at)) * burst);
  const downBits = rate.downloadKbps * 1000 * share * seconds;
  const upBits = Math.min(rate.uploadKbps * 1000 * seconds, downBits * profile.uploadRatio * (0.5 + profile.random()));
  return { down: Math.floor(downBits / 8), up: Math.floor(upBits / 8) };
}
