/**
 * The demo's prepaid vouchers (issue 22): one batch of 12 hotspot cards for the Basic plan, made by the billing
 * account ten days before "today" through the voucher service (codes hashed and sealed as for real; its 60-minute
 * download window long closed), then used as a MikroTik hotspot would use them: three cards logged in once and
 * running (active), two whose week ran out (expired), two whose data was used up, one revoked by billing; the
 * rest unused. No subscriptions are touched: hotspot use goes through RADIUS, not the portal.
 */
import { asc, eq } from 'drizzle-orm';
import { DAY_MS, HOUR_MS, type ManualClock } from '../../lib/clock';
import type { SecretBox } from '../../lib/secret-box';
import { VoucherService } from '../../modules/vouchers/service';
import type { Db } from '../client';
import { plans } from '../schema';
import { DEMO_ACCOUNTS } from '../seed';
import { vouchers } from '../schema/vouchers';

const MB = 1024 * 1024;
const VALIDITY_MINUTES = 7 * 24 * 60;
const ALLOWANCE_MB = 10 * 1024;

export interface DemoVouchersSummary {
  batches: number;
  vouchers: Record<string, number>;
}

export async function seedDemoVouchers(
  db: Db,
  { clock, box, end, by }: { clock: ManualClock; box: SecretBox; end: Date; by: { id: string } },
): Promise<DemoVouchersSummary> {
  const [plan] = await db.select().from(plans).where(eq(plans.slug, 'basic-25')).limit(1);
  const chosen = plan ?? (await db.select().from(plans).orderBy(asc(plans.sortOrder)).limit(1))[0];
  if (!chosen) return { batches: 0, vouchers: {} };
  const audit = {
    actor: { id: by.id, email: DEMO_ACCOUNTS.find((a) => a.role === 'billing')?.email ?? null, role: 'billing' },
    ip: null,
    requestId: null,
  };
  const service = new VoucherService({ db, clock, box });

  clock.set(end.getTime() - 10 * DAY_MS);
  const batch = await service.createBatch(
    {
      plan_id: chosen.id,
      count: 12,
      validity_minutes: VALIDITY_MINUTES,
      data_allowance_mb: ALLOWANCE_MB,
      price: 500,
      currency: chosen.currency,
      code_length: 10,
    },
    by.id,
    audit,
  );
  const rows = await db
    .select({ id: vouchers.id })
    .from(vouchers)
    .where(eq(vouchers.batchId, batch.id))
    .orderBy(asc(vouchers.id));
  const at = (msBeforeEnd: number) => new Date(end.getTime() - msBeforeEnd);
  // [first login before "today", state, bytes used]
  const uses: Array<[number, 'active' | 'expired' | 'used_up', number]> = [
    [2 * DAY_MS, 'active', 1_800 * MB],
    [5 * DAY_MS + 3 * HOUR_MS, 'active', 6_200 * MB],
    [6 * HOUR_MS, 'active', 140 * MB],
    [9 * DAY_MS, 'expired', 4_900 * MB],
    [8 * DAY_MS + 12 * HOUR_MS, 'expired', 2_300 * MB],
    [4 * DAY_MS, 'used_up', ALLOWANCE_MB * MB],
    [3 * DAY_MS, 'used_up', ALLOWANCE_MB * MB],
  ];
  for (const [i, [before, state, used]] of uses.entries()) {
    const firstUsedAt = at(before);
    const expiresAt = new Date(firstUsedAt.getTime() + VALIDITY_MINUTES * 60_000);
    await db
      .update(vouchers)
      .set({ state, firstUsedAt, expiresAt, usedBytes: used })
      .where(eq(vouchers.id, rows[i]!.id));
  }
  clock.set(end.getTime() - DAY_MS);
  await service.revokeVoucher(rows[uses.length]!.id, audit);
  clock.set(end);
  const counts = (await service.getBatch(batch.id)).states;
  return { batches: 1, vouchers: counts };
}
