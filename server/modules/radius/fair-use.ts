/**
 * Fair use (issue 36): WHICH rate a subscriber gets, as a pure function of the plan, the bytes used this cycle
 * (the billing period, usage_cycle_counters) and this cycle's active top-ups.
 *
 * The thresholds of a plan, in order: its usage tiers ("after 500 GB: 10/2 Mbit/s"), then its data cap when it
 * has one — a hard stop (reject plans) or one more tier at the throttled rate (throttle plans). A plan with a cap
 * and no tiers is the single-tier case of before. An extra_data top-up adds its bytes to every threshold; a
 * full_speed top-up puts the subscriber back in tier 0 (plan rate, no stop) until the cycle ends.
 *
 * How the rate is written into RADIUS attributes per NAS vendor is not decided here (authorize.ts, cutoff.ts).
 */
import { USAGE_NOTICE_THRESHOLDS } from '../../db/schema/fair-use';

export const GB = 1_000_000_000;

export interface Rate {
  downloadKbps: number;
  uploadKbps: number;
}

/** What the decision needs of a subscriber (a directory entry has it all). */
export interface FairUsePlan {
  downloadMbps: number;
  uploadMbps: number;
  dataCapBytes: number | null;
  dataCapAction: 'reject' | 'throttle';
  throttleDownloadKbps: number;
  throttleUploadKbps: number;
  /** Absent: none (older callers). */
  usageTiers?: readonly { afterGb: number; downloadKbps: number; uploadKbps: number }[];
}

/** This cycle's usage and top-ups. */
export interface CycleUsage {
  /** Both directions, this cycle. */
  bytes: number;
  /** Sum of the active extra_data top-ups' bytes. */
  extraBytes: number;
  /** An active full_speed top-up. */
  fullSpeed: boolean;
}

export interface Threshold {
  /** 1-based: crossing it puts the subscriber in tier `index`. */
  index: number;
  /** Bytes this cycle at which it applies (top-ups' extra included). */
  bytes: number;
  /** 'stop': the hard stop (no service until the cycle ends or a top-up); 'tier': a slower rate. */
  kind: 'tier' | 'stop';
  rate: Rate | null;
}

export interface FairUseDecision {
  /** 0: full speed; n: past the n-th threshold. */
  tier: number;
  /** The rate now (the plan's in tier 0); null at the hard stop. */
  rate: Rate | null;
  stop: boolean;
  /** The next threshold ahead (null: none, or a full-speed top-up is active). */
  next: Threshold | null;
}

export const planRate = (plan: Pick<FairUsePlan, 'downloadMbps' | 'uploadMbps'>): Rate => ({
  downloadKbps: plan.downloadMbps * 1000,
  uploadKbps: plan.uploadMbps * 1000,
});

/** True when the plan has anything fair use decides (tiers or a cap). */
export const hasFairUse = (plan: Pick<FairUsePlan, 'dataCapBytes' | 'usageTiers'>): boolean =>
  plan.dataCapBytes !== null || (plan.usageTiers?.length ?? 0) > 0;

/** The plan's thresholds in order, each moved up by `extraBytes` (extra_data top-ups). */
export function thresholds(plan: FairUsePlan, extraBytes = 0): Threshold[] {
  const out: Threshold[] = (plan.usageTiers ?? []).map((t, i) => ({
    index: i + 1,
    bytes: t.afterGb * GB + extraBytes,
    kind: 'tier',
    rate: { downloadKbps: t.downloadKbps, uploadKbps: t.uploadKbps },
  }));
  if (plan.dataCapBytes !== null) {
    const stop = plan.dataCapAction === 'reject';
    out.push({
      index: out.length + 1,
      bytes: plan.dataCapBytes + extraBytes,
      kind: stop ? 'stop' : 'tier',
      rate: stop ? null : { downloadKbps: plan.throttleDownloadKbps, uploadKbps: plan.throttleUploadKbps },
    });
  }
  return out;
}

/** The tier and rate for this cycle's usage. */
export function fairUse(plan: FairUsePlan, usage: CycleUsage): FairUseDecision {
  if (usage.fullSpeed) return { tier: 0, rate: planRate(plan), stop: false, next: null };
  const all = thresholds(plan, usage.extraBytes);
  let tier = 0;
  for (const t of all) if (usage.bytes >= t.bytes) tier = t.index;
  const current = all[tier - 1];
  const stop = current?.kind === 'stop';
  return {
    tier,
    rate: current ? current.rate : planRate(plan),
    stop,
    next: all[tier] ?? null,
  };
}

export interface NoticeCandidate {
  tier: number;
  threshold: (typeof USAGE_NOTICE_THRESHOLDS)[number];
  /** The threshold's bytes (what 100 % is). */
  bytes: number;
  what: Threshold;
}

/**
 * Every (threshold, share) this cycle's usage has reached: 80 % and 100 % of each threshold. The caller records
 * them all (ON CONFLICT DO NOTHING) and mails only the highest one it newly recorded, so a jump over several
 * sends one e-mail and nothing repeats within a cycle.
 */
export function noticesReached(plan: FairUsePlan, usage: CycleUsage): NoticeCandidate[] {
  if (usage.fullSpeed) return [];
  const out: NoticeCandidate[] = [];
  for (const t of thresholds(plan, usage.extraBytes))
    for (const share of USAGE_NOTICE_THRESHOLDS)
      if (usage.bytes * 100 >= t.bytes * share) out.push({ tier: t.index, threshold: share, bytes: t.bytes, what: t });
  return out;
}

/** "10/2 Mbit/s", "512 kbit/s / 256 kbit/s". */
export function formatRate(rate: Rate): string {
  const mbit = (k: number) => (k % 1000 === 0 ? `${k / 1000}` : `${(k / 1000).toFixed(1)}`);
  if (rate.downloadKbps >= 1000 && rate.uploadKbps >= 1000)
    return `${mbit(rate.downloadKbps)}/${mbit(rate.uploadKbps)} Mbit/s`;
  return `${rate.downloadKbps}/${rate.uploadKbps} kbit/s`;
}
