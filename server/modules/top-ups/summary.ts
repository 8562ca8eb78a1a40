/**
 * The fair-use summary of a subscription's current cycle (issue 36) for the customer's home and the usage
 * screens: tier, bytes this cycle, rate, the next threshold, top-ups. Cycles follow the billing period.
 */
import type { FairUseSummary } from '../../../contract/schemas/top-up';
import type { Db } from '../../db/client';
import type { PlanRow, SubscriptionRow } from '../../db/schema';
import { DEFAULT_THROTTLE_KBPS } from '../radius/directory';
import { fairUse, GB, hasFairUse, type FairUsePlan, type Rate } from '../radius/fair-use';
import { cycleUsage } from '../radius/fair-use-store';
import { activePackages } from './service';

/** The plan as the fair-use decision reads it (as the RADIUS directory builds it). */
export function fairUsePlanOf(
  plan: Pick<
    PlanRow,
    | 'downloadMbps'
    | 'uploadMbps'
    | 'dataCapGb'
    | 'dataCapAction'
    | 'throttleDownloadKbps'
    | 'throttleUploadKbps'
    | 'usageTiers'
  >,
): FairUsePlan {
  return {
    downloadMbps: plan.downloadMbps,
    uploadMbps: plan.uploadMbps,
    dataCapBytes: plan.dataCapGb === null ? null : plan.dataCapGb * GB,
    dataCapAction: plan.dataCapAction === 'throttle' ? 'throttle' : 'reject',
    throttleDownloadKbps: plan.throttleDownloadKbps ?? DEFAULT_THROTTLE_KBPS,
    throttleUploadKbps: plan.throttleUploadKbps ?? DEFAULT_THROTTLE_KBPS,
    usageTiers: plan.usageTiers ?? [],
  };
}

/** null for a plan without tiers or cap, or a subscription without a current period. */
export async function fairUseSummary(
  db: Db,
  sub: Pick<SubscriptionRow, 'id' | 'currentPeriodStart'>,
  plan: Parameters<typeof fairUsePlanOf>[0] & Pick<PlanRow, 'currency'>,
): Promise<FairUseSummary | null> {
  const fairPlan = fairUsePlanOf(plan);
  if (!hasFairUse(fairPlan) || !sub.currentPeriodStart) return null;
  const usage = await cycleUsage(db, sub.id, sub.currentPeriodStart);
  const use = fairUse(fairPlan, usage);
  const rate = (r: Rate | null) => (r ? { download_kbps: r.downloadKbps, upload_kbps: r.uploadKbps } : null);
  const packages = (await activePackages(db)).filter((p) => p.currency === plan.currency);
  return {
    tier: use.tier,
    cycle_bytes: usage.bytes,
    rate: rate(use.rate),
    next: use.next ? { after_bytes: use.next.bytes, stop: use.next.kind === 'stop', rate: rate(use.next.rate) } : null,
    extra_bytes: usage.extraBytes,
    full_speed: usage.fullSpeed,
    top_ups: packages.map((p) => ({
      id: p.id,
      name: p.name,
      kind: p.kind,
      data_gb: p.dataGb,
      price: p.price,
      currency: p.currency,
    })),
  };
}
