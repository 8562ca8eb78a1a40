/**
 * Imports the old system's unused prepaid cards (issue 39) as vouchers, so cards already sold still work. Cards
 * with the same terms (plan, validity, data, price) go into one batch per source, made by the first of them and
 * grown by the others: its count and generated grow together (generated = count: nothing is left for the
 * generation job to make), and import_mappings remembers it (kind `voucher_batch`), so a later run adds new
 * cards to it instead of making another batch.
 *
 * Another system's codes mostly lack the portal's check character (phpnuxbill's are plain random letters and
 * digits). They come in as they are: an imported batch is marked (`imported_from`), and while one is in use,
 * redemption and the hotspot login (vouchers/codes.ts voucherCodeToLookUp) also look up codes of 4–32 letters and
 * digits, so a card already sold works here as it did there. A code of any other shape is skipped and reported.
 * The code is sealed as the source had it (a hotspot's CHAP login checks the password as the customer types it,
 * as the old system did) and looked up in capitals, so the portal's redeem form takes it in any case.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { importMappings, voucherBatches, vouchers } from '../../db/schema';
import { voucherCodeHash, voucherCodeHint, voucherCodeToLookUp } from '../../modules/vouchers/codes';
import type { SourceVoucher } from '../model';
import { type ImportContext, isDryTarget, type Step, targetOf } from './types';

const BATCH_KIND = 'voucher_batch';

/** The mapping key of the batch for a card's terms. */
export const batchKeyOf = (item: SourceVoucher) =>
  `batch:${item.planKey}:${item.validityMinutes ?? '-'}:${item.dataAllowanceMb ?? '-'}:${item.price}`;

export const vouchersStep: Step<SourceVoucher> = {
  kind: 'voucher',
  auditTarget: 'voucher',
  items: (snapshot) => snapshot.vouchers,

  async decide(db, ctx, item) {
    if (!targetOf(ctx, 'plan', item.planKey))
      return { action: 'skip', reason: `Its plan (${item.planKey}) was not imported.` };
    if (item.validityMinutes === null && item.dataAllowanceMb === null)
      return { action: 'skip', reason: 'It has neither a validity nor a data allowance.' };
    const code = await importableCode(item.code);
    if (!code)
      return {
        action: 'skip',
        reason: `The code ${item.code} is not one this portal can take (4–32 letters and digits; spaces and dashes are ignored), so it could not be redeemed here.`,
      };
    const [taken] = await db
      .select({ id: vouchers.id })
      .from(vouchers)
      .where(eq(vouchers.codeHash, voucherCodeHash(ctx.box, code)))
      .limit(1);
    if (taken)
      return {
        action: 'skip',
        reason: `The code ${item.code} already exists here (codes are compared in capitals, without spaces or dashes).`,
      };
    return { action: 'create' };
  },

  async create(tx, ctx, item) {
    const planId = targetOf(ctx, 'plan', item.planKey);
    const code = await importableCode(item.code);
    if (!planId || isDryTarget(planId) || !code) throw new Error(`Voucher ${item.key} cannot be imported`);
    const batchId = await batchFor(tx, ctx, item, planId, code.length);
    const [voucher] = await tx
      .insert(vouchers)
      .values({
        batchId,
        codeHash: voucherCodeHash(ctx.box, code),
        codeSealed: ctx.box.seal(item.code.trim()),
        codeHint: voucherCodeHint(code),
        state: 'unused',
        createdAt: ctx.now,
      })
      .returning({ id: vouchers.id });
    return voucher!.id;
  },
};

/**
 * The code as it is looked up here (capitals, no spaces or dashes), or null when the portal could not take it:
 * redemption's own rule, with the imported cards this import makes.
 */
const importableCode = (source: string): Promise<string | null> => voucherCodeToLookUp(source, async () => true);

/**
 * The batch for this card's terms, one more card counted in it: the one this source made before (unless it was
 * deleted or revoked since), else a new one.
 */
async function batchFor(
  tx: Db,
  ctx: ImportContext,
  item: SourceVoucher,
  planId: string,
  codeLength: number,
): Promise<string> {
  if (!ctx.runId) throw new Error('Vouchers are only created in a real run');
  const key = batchKeyOf(item);
  const [mapping] = await tx
    .select({ targetId: importMappings.targetId })
    .from(importMappings)
    .where(
      and(
        eq(importMappings.source, ctx.source),
        eq(importMappings.kind, BATCH_KIND),
        eq(importMappings.sourceKey, key),
      ),
    )
    .limit(1);
  if (mapping?.targetId) {
    const [batch] = await tx
      .select({ id: voucherBatches.id, revokedAt: voucherBatches.revokedAt, count: voucherBatches.count })
      .from(voucherBatches)
      .where(eq(voucherBatches.id, mapping.targetId))
      .for('update');
    if (batch && !batch.revokedAt) {
      await tx
        .update(voucherBatches)
        .set({ count: batch.count + 1, generated: batch.count + 1, generatedAt: ctx.now, importedFrom: ctx.source })
        .where(eq(voucherBatches.id, batch.id));
      return batch.id;
    }
  }
  const [batch] = await tx
    .insert(voucherBatches)
    .values({
      planId,
      count: 1,
      validityMinutes: item.validityMinutes,
      dataAllowanceMb: item.dataAllowanceMb,
      price: item.price,
      currency: ctx.currency,
      // The first card's length; a batch's code length only matters for codes the portal generates, and an
      // imported batch is complete (generated = count), so it never generates any.
      codeLength,
      createdBy: null,
      createdAt: ctx.now,
      generated: 1,
      generatedAt: ctx.now,
      importedFrom: ctx.source,
    })
    .returning({ id: voucherBatches.id });
  await tx
    .insert(importMappings)
    .values({ source: ctx.source, kind: BATCH_KIND, sourceKey: key, targetId: batch!.id, runId: ctx.runId })
    .onConflictDoUpdate({
      target: [importMappings.source, importMappings.kind, importMappings.sourceKey],
      set: { targetId: batch!.id, runId: ctx.runId },
    });
  return batch!.id;
}
