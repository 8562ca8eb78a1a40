/**
 * The answer to an Access-Request, as a pure function of the subscriber's entry, the time and the usage:
 *
 *   active                          → accept at the plan's rate, Session-Timeout up to the period end
 *   cancelled, period not yet over  → the same (a cancellation at period end keeps the paid service until then)
 *   suspended                       → accept into the walled-garden pool (Framed-Pool) when one is configured,
 *                                     with a short Session-Timeout so the next login after payment gets full
 *                                     service; otherwise reject
 *   pending, expired, cancelled and over, unknown login, wrong password → reject
 *   data cap reached (bytes this period ≥ cap) → reject, or accept at the throttled rate (plan's choice)
 *
 * Rates: written by the vendor profile of the NAS that asked (nas-profiles.ts): for MikroTik Mikrotik-Rate-Limit,
 * "rx/tx" as the router sees it, i.e. "<upload>M/<download>M", plus the WISPr attributes in bits per second.
 */
import type { RadiusAttribute } from '../../integrations/radius/codec';
import { parseIp, parsePrefix } from '../../../contract/ip';
import type { Subscriber } from './directory';
import { allowanceUsed } from './allowance';
import { DEFAULT_NAS_PROFILE, type NasProfile } from './nas-profiles';
import { fairUse, type CycleUsage } from './fair-use';

export interface AuthContext {
  now: Date;
  walledGardenPool: string | null;
  /** Acct-Interim-Interval sent in every Access-Accept (seconds). */
  interimInterval: number;
  /** Bytes used this period (both directions); only consulted for a plan with a data cap. */
  usageBytes?: number;
  /** The vendor profile of the NAS that asked (issue 36): how the rate is written. Default MikroTik's. */
  profile?: NasProfile;
  /** This cycle's usage and top-ups (fair use, issue 36); when absent, `usageBytes` without top-ups. */
  cycle?: CycleUsage;
}

export type AuthDecision =
  | {
      accept: true;
      reason: 'active' | 'cancelled_until_period_end' | 'walled_garden' | 'throttled';
      attributes: RadiusAttribute[];
    }
  | {
      accept: false;
      reason:
        | 'unknown_user'
        | 'bad_password'
        | 'not_active'
        | 'data_cap'
        | 'sealed_password_unreadable'
        | 'too_many_attempts';
      attributes: RadiusAttribute[];
    };

/** Session-Timeout when the period end is unknown or already past (a subscription in its grace days). */
export const FALLBACK_SESSION_TIMEOUT = 86_400;
/** Session-Timeout in the walled garden: re-login soon, so a payment is noticed. */
export const WALLED_GARDEN_SESSION_TIMEOUT = 300;

const reject = (reason: Extract<AuthDecision, { accept: false }>['reason'], message: string): AuthDecision => ({
  accept: false,
  reason,
  attributes: [['Reply-Message', message]],
});

/** True when the subscriber's status lets them online (before the data cap). */
export function servesNow(sub: Pick<Subscriber, 'status' | 'periodEnd'>, now: Date): boolean {
  if (sub.status === 'active') return true;
  return sub.status === 'cancelled' && sub.periodEnd !== null && sub.periodEnd.getTime() > now.getTime();
}

/** The rate attributes for download/upload in kbit/s, for a NAS of the given profile (default MikroTik's). */
export function rateAttributes(
  downloadKbps: number,
  uploadKbps: number,
  profile: NasProfile = DEFAULT_NAS_PROFILE,
): RadiusAttribute[] {
  return profile.acceptAttributes({ downloadKbps, uploadKbps });
}

function uint32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n, 0);
  return b;
}

/** The plan's rate, or the throttled one once the data cap is reached. */
export function subscriberRate(sub: Subscriber, throttled: boolean): { downloadKbps: number; uploadKbps: number } {
  return throttled
    ? { downloadKbps: sub.throttleDownloadKbps, uploadKbps: sub.throttleUploadKbps }
    : { downloadKbps: sub.downloadMbps * 1000, uploadKbps: sub.uploadMbps * 1000 };
}

export function capReached(sub: Subscriber, usageBytes: number | undefined): boolean {
  return sub.dataCapBytes !== null && (usageBytes ?? 0) >= sub.dataCapBytes;
}

/** Decides for a subscriber whose password already checked out. */
export function authorize(sub: Subscriber, ctx: AuthContext): AuthDecision {
  const now = ctx.now.getTime();
  if (!servesNow(sub, ctx.now)) {
    if (sub.status === 'suspended' && ctx.walledGardenPool) {
      return {
        accept: true,
        reason: 'walled_garden',
        attributes: [
          ['Framed-Pool', ctx.walledGardenPool],
          ['Session-Timeout', WALLED_GARDEN_SESSION_TIMEOUT],
          ['Acct-Interim-Interval', ctx.interimInterval],
          ['Reply-Message', 'Service suspended: please pay your open invoice'],
        ],
      };
    }
    return reject('not_active', sub.status === 'suspended' ? 'Service suspended' : `Subscription ${sub.status}`);
  }
  if (allowanceUsed(sub)) return reject('data_cap', 'Data allowance used');
  // A data line with a time limit ends at it (the billing run marks it expired; until then this refuses it).
  if (sub.dataAllowanceBytes !== null && sub.periodEnd && sub.periodEnd.getTime() <= now)
    return reject('not_active', 'Subscription expired');
  // Which rate: the fair-use tier for this cycle's usage (the data cap alone is its single-tier case).
  const use = fairUse(sub, ctx.cycle ?? { bytes: ctx.usageBytes ?? 0, extraBytes: 0, fullSpeed: false });
  if (use.stop || !use.rate) return reject('data_cap', 'Data cap reached for this period');
  const throttled = use.tier > 0;
  const untilEnd = sub.periodEnd ? Math.floor((sub.periodEnd.getTime() - now) / 1000) : 0;
  const sessionTimeout = untilEnd > 0 ? Math.min(untilEnd, 0x7fff_ffff) : FALLBACK_SESSION_TIMEOUT;
  const rate = use.rate;
  return {
    accept: true,
    reason: throttled ? 'throttled' : sub.status === 'active' ? 'active' : 'cancelled_until_period_end',
    attributes: [
      ...rateAttributes(rate.downloadKbps, rate.uploadKbps, ctx.profile),
      ['Session-Timeout', sessionTimeout],
      ['Acct-Interim-Interval', ctx.interimInterval],
      ['Framed-Protocol', 'PPP'],
      ['Service-Type', 'Framed-User'],
      ...addressAttributes(sub),
    ],
  };
}

// Addressing (issue 22), written in wire format so the PAP fast path sends them as they are.
const FRAMED_IP_ADDRESS = 8;
const FRAMED_IPV6_PREFIX = 97;
const DELEGATED_IPV6_PREFIX = 123;

/** Framed-IP-Address for a static address, else Framed-Pool for a pool; the IPv6 prefixes where set. */
export function addressAttributes(
  sub: Pick<Subscriber, 'framedIp' | 'framedPool' | 'framedIpv6Prefix' | 'delegatedIpv6Prefix'>,
): RadiusAttribute[] {
  const out: RadiusAttribute[] = [];
  const ip = sub.framedIp ? parseIp(sub.framedIp) : null;
  if (ip?.family === 4) out.push([FRAMED_IP_ADDRESS, uint32(Number(ip.value))]);
  else if (sub.framedPool) out.push(['Framed-Pool', sub.framedPool]);
  if (sub.framedIpv6Prefix) pushPrefix(out, FRAMED_IPV6_PREFIX, sub.framedIpv6Prefix);
  if (sub.delegatedIpv6Prefix) pushPrefix(out, DELEGATED_IPV6_PREFIX, sub.delegatedIpv6Prefix);
  return out;
}

/** RFC 3162 §2.3: reserved byte, prefix length, then the prefix's significant octets. */
function pushPrefix(out: RadiusAttribute[], type: number, text: string): void {
  const p = parsePrefix(text, false);
  if (p?.family !== 6) return;
  const octets = Math.ceil(p.length / 8);
  const b = Buffer.alloc(2 + octets);
  b[1] = p.length;
  for (let i = 0; i < octets; i++) b[2 + i] = Number((p.start >> BigInt(8 * (15 - i))) & 0xffn);
  out.push([type, b]);
}
