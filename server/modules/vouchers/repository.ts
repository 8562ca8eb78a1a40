/**
 * Reading and writing voucher batches and vouchers (issue 22), the plans they sell, the customer lines a redeemed
 * voucher starts or extends (issue 31), and the hotspot's look-ups and state changes.
 */
import { and, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { plans, subscriptions, type PlanRow, type SubscriptionRow } from '../../db/schema';
import { voucherBatches, vouchers, type VoucherBatchRow, type VoucherRow } from '../../db/schema/vouchers';

type VoucherState = VoucherRow['state'];

export function createVoucherRepository(db: Db) {
  const voucherFilter = (batchId: string, state?: VoucherState) =>
    and(eq(vouchers.batchId, batchId), state ? eq(vouchers.state, state) : undefined);
  return {
    /** How many of the batch's vouchers are in each state. */
    async statesOf(batchId: string) {
      return db
        .select({ state: vouchers.state, n: count() })
        .from(vouchers)
        .where(eq(vouchers.batchId, batchId))
        .groupBy(vouchers.state);
    },

    async planName(planId: string): Promise<string | undefined> {
      return (await db.select({ name: plans.name }).from(plans).where(eq(plans.id, planId)))[0]?.name;
    },

    /** The plan (LIMIT 1). */
    async findPlan(planId: string): Promise<PlanRow | undefined> {
      const [plan] = await db.select().from(plans).where(eq(plans.id, planId)).limit(1);
      return plan;
    },

    async plan(planId: string): Promise<PlanRow | undefined> {
      const [plan] = await db.select().from(plans).where(eq(plans.id, planId));
      return plan;
    },

    async insertBatch(values: typeof voucherBatches.$inferInsert): Promise<VoucherBatchRow | undefined> {
      const [row] = await db.insert(voucherBatches).values(values).returning();
      return row;
    },

    async batch(id: string): Promise<VoucherBatchRow | undefined> {
      const [row] = await db.select().from(voucherBatches).where(eq(voucherBatches.id, id));
      return row;
    },

    /** The batch, locked FOR UPDATE until the transaction ends. */
    async lockBatch(id: string): Promise<VoucherBatchRow | undefined> {
      const [row] = await db.select().from(voucherBatches).where(eq(voucherBatches.id, id)).for('update');
      return row;
    },

    async deleteBatch(id: string): Promise<void> {
      await db.delete(voucherBatches).where(eq(voucherBatches.id, id));
    },

    /** Inserts the codes, skipping any whose hash exists already; the hashes inserted. */
    async insertNewCodes(rows: (typeof vouchers.$inferInsert)[]): Promise<{ codeHash: string }[]> {
      return db
        .insert(vouchers)
        .values(rows)
        .onConflictDoNothing({ target: vouchers.codeHash })
        .returning({ codeHash: vouchers.codeHash });
    },

    /** The batch's generated count, and its generated_at when given. */
    async setGenerated(id: string, generated: number, generatedAt?: Date): Promise<void> {
      await db
        .update(voucherBatches)
        .set({ generated, ...(generatedAt ? { generatedAt } : {}) })
        .where(eq(voucherBatches.id, id));
    },

    /** One page of batches with their plan's name, newest first. */
    async batchesPage(limit: number, offset: number) {
      return db
        .select({ batch: voucherBatches, planName: plans.name })
        .from(voucherBatches)
        .innerJoin(plans, eq(plans.id, voucherBatches.planId))
        .orderBy(desc(voucherBatches.createdAt), desc(voucherBatches.id))
        .limit(limit)
        .offset(offset);
    },

    async countBatches(): Promise<number> {
      const [{ n }] = (await db.select({ n: count() }).from(voucherBatches)) as [{ n: number }];
      return Number(n);
    },

    /** One page of the batch's vouchers (in one state, when given), by id. */
    async vouchersPage(batchId: string, state: VoucherState | undefined, limit: number, offset: number) {
      return db
        .select()
        .from(vouchers)
        .where(voucherFilter(batchId, state))
        .orderBy(vouchers.id)
        .limit(limit)
        .offset(offset);
    },

    async countVouchers(batchId: string, state?: VoucherState): Promise<number> {
      const [{ n }] = (await db.select({ n: count() }).from(vouchers).where(voucherFilter(batchId, state))) as [
        { n: number },
      ];
      return Number(n);
    },

    /** The sealed codes of the batch's unused vouchers, by id. */
    async unusedSealed(batchId: string) {
      return db
        .select({ sealed: vouchers.codeSealed })
        .from(vouchers)
        .where(and(eq(vouchers.batchId, batchId), eq(vouchers.state, 'unused')))
        .orderBy(vouchers.id);
    },

    async revokeBatch(id: string, now: Date): Promise<VoucherBatchRow | undefined> {
      const [updated] = await db
        .update(voucherBatches)
        .set({ revokedAt: now })
        .where(eq(voucherBatches.id, id))
        .returning();
      return updated;
    },

    /** The batch's unused and active vouchers become revoked; their ids. */
    async revokeOpenVouchersOf(batchId: string): Promise<{ id: string }[]> {
      return db
        .update(vouchers)
        .set({ state: 'revoked' })
        .where(and(eq(vouchers.batchId, batchId), inArray(vouchers.state, ['unused', 'active'])))
        .returning({ id: vouchers.id });
    },

    async lockVoucher(id: string): Promise<VoucherRow | undefined> {
      const [row] = await db.select().from(vouchers).where(eq(vouchers.id, id)).for('update');
      return row;
    },

    async revokeVoucher(id: string): Promise<VoucherRow | undefined> {
      const [updated] = await db.update(vouchers).set({ state: 'revoked' }).where(eq(vouchers.id, id)).returning();
      return updated;
    },

    async lockVoucherByHash(codeHash: string): Promise<VoucherRow | undefined> {
      const [voucher] = await db.select().from(vouchers).where(eq(vouchers.codeHash, codeHash)).for('update');
      return voucher;
    },

    /**
     * The customer's active line of the plan, a data line (with an allowance) or a time one (without): the one
     * ending last (no end first), then the newest; locked FOR UPDATE.
     */
    async lockActiveLine(userId: string, planId: string, dataLine: boolean): Promise<SubscriptionRow | undefined> {
      const [current] = await db
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.userId, userId),
            eq(subscriptions.planId, planId),
            eq(subscriptions.status, 'active'),
            dataLine ? isNotNull(subscriptions.dataAllowanceBytes) : isNull(subscriptions.dataAllowanceBytes),
          ),
        )
        .orderBy(sql`${subscriptions.currentPeriodEnd} desc nulls first`, desc(subscriptions.createdAt))
        .limit(1)
        .for('update');
      return current;
    },

    async updateLine(id: string, values: Partial<typeof subscriptions.$inferInsert>): Promise<void> {
      await db.update(subscriptions).set(values).where(eq(subscriptions.id, id));
    },

    async insertLine(values: typeof subscriptions.$inferInsert): Promise<{ id: string } | undefined> {
      const [created] = await db.insert(subscriptions).values(values).returning({ id: subscriptions.id });
      return created;
    },

    async markRedeemed(id: string, userId: string, subscriptionId: string, now: Date): Promise<void> {
      await db
        .update(vouchers)
        .set({ state: 'used_up', firstUsedAt: now, redeemedBy: userId, subscriptionId })
        .where(eq(vouchers.id, id));
    },

    /** Whether a batch imported from another system (issue 39) is in use: then its codes' shape is looked up too. */
    async importedCardsExist(): Promise<boolean> {
      const [row] = await db
        .select({ id: voucherBatches.id })
        .from(voucherBatches)
        .where(and(isNotNull(voucherBatches.importedFrom), isNull(voucherBatches.revokedAt)))
        .limit(1);
      return row !== undefined;
    },

    /** A hotspot login's voucher by its code's hash, with its batch's terms and its plan's rates. */
    async hotspotLogin(codeHash: string) {
      const [row] = await db
        .select({
          id: vouchers.id,
          sealed: vouchers.codeSealed,
          state: vouchers.state,
          expiresAt: vouchers.expiresAt,
          firstUsedAt: vouchers.firstUsedAt,
          usedBytes: vouchers.usedBytes,
          redeemedBy: vouchers.redeemedBy,
          validityMinutes: voucherBatches.validityMinutes,
          dataAllowanceMb: voucherBatches.dataAllowanceMb,
          batchRevokedAt: voucherBatches.revokedAt,
          downloadMbps: plans.downloadMbps,
          uploadMbps: plans.uploadMbps,
        })
        .from(vouchers)
        .innerJoin(voucherBatches, eq(voucherBatches.id, vouchers.batchId))
        .innerJoin(plans, eq(plans.id, voucherBatches.planId))
        .where(eq(vouchers.codeHash, codeHash))
        .limit(1);
      return row;
    },

    /** The voucher moves from one state to another (nothing when it is no longer in the first). */
    async moveState(id: string, from: VoucherState, to: VoucherState): Promise<void> {
      await db
        .update(vouchers)
        .set({ state: to })
        .where(and(eq(vouchers.id, id), eq(vouchers.state, from)));
    },

    /** An unused voucher never logged in becomes active from now; empty when another login did it first. */
    async startClock(id: string, now: Date, expiresAt: Date | null): Promise<{ id: string }[]> {
      return db
        .update(vouchers)
        .set({ state: 'active', firstUsedAt: now, expiresAt })
        .where(and(eq(vouchers.id, id), isNull(vouchers.firstUsedAt), eq(vouchers.state, 'unused')))
        .returning({ id: vouchers.id });
    },

    async addUsedBytes(codeHash: string, bytes: number): Promise<void> {
      await db
        .update(vouchers)
        .set({ usedBytes: sql`${vouchers.usedBytes} + ${bytes}` })
        .where(eq(vouchers.codeHash, codeHash));
    },

    /** The voucher's state, use and end, with its batch's data allowance. */
    async usageOf(codeHash: string) {
      const [row] = await db
        .select({
          id: vouchers.id,
          state: vouchers.state,
          usedBytes: vouchers.usedBytes,
          expiresAt: vouchers.expiresAt,
          dataAllowanceMb: voucherBatches.dataAllowanceMb,
        })
        .from(vouchers)
        .innerJoin(voucherBatches, eq(voucherBatches.id, vouchers.batchId))
        .where(eq(vouchers.codeHash, codeHash))
        .limit(1);
      return row;
    },

    /** An unused or active voucher has run out (used_up or expired). */
    async runOut(id: string, state: 'used_up' | 'expired'): Promise<void> {
      await db
        .update(vouchers)
        .set({ state })
        .where(and(eq(vouchers.id, id), inArray(vouchers.state, ['unused', 'active'])));
    },
  };
}
