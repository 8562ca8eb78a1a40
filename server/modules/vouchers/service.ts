/**
 * Voucher batches and redemption (issue 22).
 *
 * - Creating a batch generates its codes, stores each only as a keyed hash (look-up, unique across all batches:
 *   a collision is regenerated) and sealed (for the hotspot's CHAP), and answers the plain codes once. For
 *   printing, the batch's unused codes can be exported as CSV during EXPORT_WINDOW_MINUTES after creation (an
 *   audited staff action); after that no one gets a plain code out of the portal again.
 * - A batch of more than VOUCHER_INLINE_BATCH codes is made by a job (issue 33), a chunk of INSERT_CHUNK codes per
 *   short transaction that locks the batch row and adds to its `generated` count: no request and no RADIUS
 *   packet waits behind one long transaction (on the embedded database one transaction holds the whole
 *   database), a run that dies is picked up where it stopped, and two runs at once never overshoot the count.
 *   Its export window opens when the last code is made.
 * - Redeeming in the portal: one transaction, the voucher row locked (FOR UPDATE), so of two redemptions at once
 *   one wins and the other is told the voucher was used. A time-only voucher starts a subscription on the batch's
 *   plan (active at once, the period = the voucher's validity) or extends the caller's active one of that plan; a
 *   voucher with a data allowance starts or tops up a data line, which RADIUS ends when the data is used (issue
 *   31; see redeem). No invoice: the card was paid for when it was sold.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../../db/client';
import type { VoucherBatchRow, VoucherRow } from '../../db/schema/vouchers';
import type { Clock } from '../../lib/clock';
import { addMs } from '../../lib/clock';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { Pace } from '../../lib/pace';
import type { SecretBox } from '../../lib/secret-box';
import {
  VOUCHER_INLINE_BATCH,
  type VoucherBatch,
  type Voucher,
  type VoucherBatchCreateParsed,
  type VoucherState,
} from '../../../contract/schemas/vouchers';
import { recordAudit, type AuditContext } from '../audit/trail';
import { provisionCredentials } from '../radius/credentials';
import { generateVoucherCodes, voucherCodeHash, voucherCodeHint, voucherCodeToLookUp } from './codes';
import { createVoucherRepository } from './repository';

export const EXPORT_WINDOW_MINUTES = 60;
/** Codes made per transaction: a few milliseconds of database work each (measured by bench:stall). */
const INSERT_CHUNK = 250;
/** Chunks in a row that made no code (each collided with an existing one) before giving up: a bug, not luck. */
const MAX_IDLE_CHUNKS = 50;
/** Codes opened (decrypted) per event-loop turn for an export. */
const OPEN_CHUNK = 1_000;

export const VOUCHER_MESSAGES = {
  created: 'Voucher batch created successfully!',
  list: 'Voucher batches retrieved successfully',
  detail: 'Voucher batch retrieved successfully',
  vouchers: 'Vouchers retrieved successfully',
  batchNotFound: 'Voucher batch not found',
  voucherNotFound: 'Voucher not found',
  planNotFound: 'Plan not found',
  revoked: 'Voucher revoked successfully!',
  batchRevoked: 'Voucher batch revoked successfully!',
  alreadyRevoked: 'This voucher is already revoked',
  cannotRevoke: (state: string) => `A voucher that is ${state.replace('_', ' ')} cannot be revoked`,
  exportOver: `The codes of a batch can be exported only during the first ${EXPORT_WINDOW_MINUTES} minutes after it was created`,
  generating: 'Voucher batch accepted: its codes are being generated',
  stillGenerating: 'The codes of this batch are still being generated: export them once it is ready',
  invalidCode: 'This is not a valid voucher code: please check it and try again',
  unknownCode: 'Voucher code not found: please check it and try again',
  used: 'This voucher has already been used',
  revokedCode: 'This voucher has been revoked',
  expired: 'This voucher has expired',
  redeemed: 'Voucher redeemed successfully!',
} as const;

interface PreparedCode {
  code: string;
  codeHash: string;
  codeSealed: string;
}

export interface VoucherServiceDeps {
  db: Db;
  clock: Clock;
  box: SecretBox;
  onAccessChanged?: (subscriptionId: string) => void;
  /** The batch job gives way to other requests between its chunks (the embedded database: lib/pace.ts). */
  pace?: boolean;
  /** Queues the job that makes a large batch's codes (generatePending); absent: made in the request whatever the size. */
  enqueueGeneration?: (batchId: string) => Promise<unknown>;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toVoucher(row: VoucherRow): Voucher {
  return {
    id: row.id,
    batch_id: row.batchId,
    code_hint: row.codeHint,
    state: row.state as VoucherState,
    first_used_at: iso(row.firstUsedAt),
    expires_at: iso(row.expiresAt),
    used_bytes: Number(row.usedBytes),
    redeemed_by: row.redeemedBy,
    subscription_id: row.subscriptionId,
    created_at: row.createdAt.toISOString(),
  };
}

export class VoucherService {
  constructor(private readonly deps: VoucherServiceDeps) {}

  /** An hour from when the batch was ready; null while it is being made. */
  private exportUntil(batch: VoucherBatchRow): Date | null {
    return batch.generatedAt ? addMs(batch.generatedAt, EXPORT_WINDOW_MINUTES * 60_000) : null;
  }

  private async toBatch(db: Db, batch: VoucherBatchRow, planName?: string): Promise<VoucherBatch> {
    const repo = createVoucherRepository(db);
    const states = Object.fromEntries((await repo.statesOf(batch.id)).map((r) => [r.state, Number(r.n)]));
    const name = planName ?? (await repo.planName(batch.planId)) ?? '';
    const until = this.exportUntil(batch);
    return {
      id: batch.id,
      plan_id: batch.planId,
      plan_name: name,
      count: batch.count,
      validity_minutes: batch.validityMinutes,
      data_allowance_mb: batch.dataAllowanceMb,
      price: batch.price,
      currency: batch.currency,
      code_length: batch.codeLength,
      created_by: batch.createdBy,
      created_at: batch.createdAt.toISOString(),
      revoked_at: iso(batch.revokedAt),
      imported_from: batch.importedFrom,
      status: batch.generatedAt ? 'ready' : 'generating',
      generated: batch.generated,
      export_until:
        !batch.revokedAt && until && until.getTime() > this.deps.clock.now().getTime() ? until.toISOString() : null,
      states,
    };
  }

  /**
   * Creates a batch. Up to VOUCHER_INLINE_BATCH codes: made in one transaction with the batch, answered with the
   * plain codes (queued: false). More: the batch row is written and a job makes the codes (queued: true, no codes
   * yet); GET shows its progress and the codes are exported once it is ready.
   */
  async createBatch(
    input: VoucherBatchCreateParsed,
    actorId: string,
    audit: AuditContext,
  ): Promise<VoucherBatch & { codes: string[]; queued: boolean }> {
    const { db, clock, enqueueGeneration } = this.deps;
    const now = clock.now();
    const queued = !!enqueueGeneration && input.count > VOUCHER_INLINE_BATCH;
    const result = await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const repo = createVoucherRepository(tx);
      const plan = await repo.findPlan(input.plan_id);
      if (!plan) throw notFound(VOUCHER_MESSAGES.planNotFound);
      const row = await repo.insertBatch({
        planId: plan.id,
        count: input.count,
        validityMinutes: input.validity_minutes ?? null,
        dataAllowanceMb: input.data_allowance_mb ?? null,
        price: input.price,
        currency: input.currency ?? plan.currency,
        codeLength: input.code_length,
        createdBy: actorId,
        createdAt: now,
      });
      await recordAudit(tx, clock, audit, {
        action: 'voucher_batch.created',
        targetType: 'voucher_batch',
        targetId: row!.id,
        changes: {
          plan_id: plan.id,
          count: input.count,
          validity_minutes: row!.validityMinutes,
          data_allowance_mb: row!.dataAllowanceMb,
          price: row!.price,
        },
      });
      if (queued) return { batch: row!, codes: [] as string[], planName: plan.name };
      const codes: string[] = [];
      for (let idle = 0; ; ) {
        const chunk = await this.makeChunk(tx, row!.id);
        if (chunk === null) break;
        codes.push(...chunk);
        idle = chunk.length ? 0 : idle + 1;
        if (idle > MAX_IDLE_CHUNKS)
          throw new Error('Could not generate unique voucher codes: use a longer code length');
      }
      const ready = await repo.batch(row!.id);
      return { batch: ready!, codes, planName: plan.name };
    });
    if (queued) {
      try {
        await enqueueGeneration!(result.batch.id);
      } catch (error) {
        // Without its job the batch would stay "generating" for ever: it goes, and the caller may try again.
        await createVoucherRepository(db).deleteBatch(result.batch.id);
        throw error;
      }
    }
    return { ...(await this.toBatch(db, result.batch, result.planName)), codes: result.codes, queued };
  }

  /**
   * Makes the next chunk of a batch's codes in the caller's transaction: locks the batch row, inserts up to
   * INSERT_CHUNK codes it still lacks (a code some batch already has is skipped: the next chunk makes up for it),
   * adds them to `generated`, and stamps `generated_at` when the count is reached or the batch was revoked
   * meanwhile. Answers the plain codes made, or null when there was nothing left to make.
   */
  private async makeChunk(tx: Db, batchId: string, prepared?: PreparedCode[]): Promise<string[] | null> {
    const { clock } = this.deps;
    const repo = createVoucherRepository(tx);
    const batch = await repo.lockBatch(batchId);
    if (!batch || batch.generatedAt) return null;
    const wanted = batch.revokedAt ? 0 : Math.min(INSERT_CHUNK, batch.count - batch.generated);
    const codes: string[] = [];
    if (wanted > 0) {
      const chosen = (prepared ?? this.prepareCodes(wanted, batch.codeLength)).slice(0, wanted);
      const byHash = new Map(chosen.map((c) => [c.codeHash, c]));
      const now = clock.now();
      const inserted = chosen.length
        ? await repo.insertNewCodes(
            [...byHash.values()].map((c) => ({
              batchId,
              codeHash: c.codeHash,
              codeSealed: c.codeSealed,
              codeHint: voucherCodeHint(c.code),
              createdAt: now,
            })),
          )
        : [];
      for (const r of inserted) codes.push(byHash.get(r.codeHash)!.code);
    }
    const generated = batch.generated + codes.length;
    const done = generated >= batch.count || !!batch.revokedAt;
    await repo.setGenerated(batchId, generated, done ? clock.now() : undefined);
    return codes;
  }

  /** Fresh codes with their look-up hash and sealed copy: the CPU part of a chunk, done before its transaction. */
  private prepareCodes(count: number, length: number): PreparedCode[] {
    const { box } = this.deps;
    return generateVoucherCodes(count, length).map((code) => ({
      code,
      codeHash: voucherCodeHash(box, code),
      codeSealed: box.seal(code),
    }));
  }

  /**
   * The batch job: makes the codes a batch still lacks, a chunk per transaction, letting the event loop turn
   * between chunks. Safe to run again (a retry after a crash goes on from `generated`) and twice at once.
   */
  async generatePending(batchId: string): Promise<void> {
    const { db } = this.deps;
    const pace = new Pace(!!this.deps.pace);
    for (let idle = 0; idle <= MAX_IDLE_CHUNKS; ) {
      // The codes are made, hashed and sealed before the transaction, which then only locks, inserts and counts.
      const batch = await createVoucherRepository(db).batch(batchId);
      if (!batch || batch.generatedAt) return;
      const prepared = this.prepareCodes(
        Math.min(INSERT_CHUNK, Math.max(0, batch.count - batch.generated)),
        batch.codeLength,
      );
      await nextTurn();
      const chunk = await db.transaction((t) => this.makeChunk(t as unknown as Db, batchId, prepared));
      if (chunk === null) return;
      // A chunk whose every code collided with another batch's makes no progress; many in a row is a bug.
      idle = chunk.length ? 0 : idle + 1;
      await pace.step();
    }
    throw new Error(`Could not generate unique voucher codes for batch ${batchId}: use a longer code length`);
  }

  async listBatches(q: { page: number; limit: number }): Promise<{ items: VoucherBatch[]; total: number }> {
    const { db } = this.deps;
    const repo = createVoucherRepository(db);
    const rows = await repo.batchesPage(q.limit, (q.page - 1) * q.limit);
    const n = await repo.countBatches();
    return { items: await Promise.all(rows.map((r) => this.toBatch(db, r.batch, r.planName))), total: Number(n) };
  }

  async getBatch(id: string): Promise<VoucherBatch> {
    return this.toBatch(this.deps.db, await this.batchRow(this.deps.db, id));
  }

  private async batchRow(db: Db, id: string, lock = false): Promise<VoucherBatchRow> {
    if (!UUID.test(id)) throw notFound(VOUCHER_MESSAGES.batchNotFound);
    const repo = createVoucherRepository(db);
    const row = lock ? await repo.lockBatch(id) : await repo.batch(id);
    if (!row) throw notFound(VOUCHER_MESSAGES.batchNotFound);
    return row;
  }

  async listVouchers(
    batchId: string,
    q: { page: number; limit: number; state?: VoucherState },
  ): Promise<{ items: Voucher[]; total: number }> {
    const { db } = this.deps;
    await this.batchRow(db, batchId);
    const repo = createVoucherRepository(db);
    const rows = await repo.vouchersPage(batchId, q.state, q.limit, (q.page - 1) * q.limit);
    const n = await repo.countVouchers(batchId, q.state);
    return { items: rows.map(toVoucher), total: Number(n) };
  }

  /**
   * The plain unused codes of a batch, for an export (CSV or the printed cards), while the export window is open;
   * the export is audited (with its format). After the window (or once revoked): 409.
   */
  async exportCodes(
    batchId: string,
    format: 'csv' | 'pdf',
    audit: AuditContext,
  ): Promise<{ batch: VoucherBatchRow; planName: string; codes: string[] }> {
    const { db, clock, box } = this.deps;
    const batch = await this.batchRow(db, batchId);
    const until = this.exportUntil(batch);
    if (!batch.revokedAt && !until) throw conflict(VOUCHER_MESSAGES.stillGenerating);
    if (batch.revokedAt || until!.getTime() <= clock.now().getTime()) throw conflict(VOUCHER_MESSAGES.exportOver);
    const repo = createVoucherRepository(db);
    const planName = await repo.planName(batch.planId);
    const rows = await repo.unusedSealed(batchId);
    // Opening 100 000 sealed codes is a second of CPU: a chunk per event-loop turn, so other requests go on.
    const codes: string[] = [];
    for (let i = 0; i < rows.length; i++) {
      const code = box.open(rows[i]!.sealed);
      if (code) codes.push(code);
      if (i % OPEN_CHUNK === OPEN_CHUNK - 1) await nextTurn();
    }
    await recordAudit(db, clock, audit, {
      action: 'voucher_batch.exported',
      targetType: 'voucher_batch',
      targetId: batch.id,
      changes: { codes: codes.length, format },
    });
    return { batch, planName: planName ?? '', codes };
  }

  /** A file name for an export of the batch: vouchers-<created day>-<id prefix>.<ext>. */
  static exportFilename(batch: VoucherBatchRow, ext: string): string {
    return `vouchers-${batch.createdAt.toISOString().slice(0, 10)}-${batch.id.slice(0, 8)}.${ext}`;
  }

  /** The batch's unused codes as CSV (code, plan, validity, data, price), while the export window is open. */
  async exportCsv(batchId: string, audit: AuditContext): Promise<{ filename: string; csv: string }> {
    const { batch, planName, codes } = await this.exportCodes(batchId, 'csv', audit);
    const cell = (v: string | number | null) => {
      const s = v === null ? '' : String(v);
      return /[",\n\r]/.test(s) || /^[=+\-@]/.test(s) ? `"${s.replace(/^([=+\-@])/, "'$1").replace(/"/g, '""')}"` : s;
    };
    const lines = ['code,plan,validity_minutes,data_allowance_mb,price,currency'];
    for (const code of codes) {
      lines.push(
        [code, planName, batch.validityMinutes, batch.dataAllowanceMb, batch.price, batch.currency].map(cell).join(','),
      );
    }
    return { filename: VoucherService.exportFilename(batch, 'csv'), csv: `${lines.join('\r\n')}\r\n` };
  }

  /** Revokes every unused or active voucher of the batch (and the batch). */
  async revokeBatch(batchId: string, audit: AuditContext): Promise<VoucherBatch> {
    const { db, clock } = this.deps;
    return db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const batch = await this.batchRow(tx, batchId, true);
      if (batch.revokedAt) return this.toBatch(tx, batch);
      const now = clock.now();
      const repo = createVoucherRepository(tx);
      const updated = await repo.revokeBatch(batchId, now);
      const revoked = await repo.revokeOpenVouchersOf(batchId);
      await recordAudit(tx, clock, audit, {
        action: 'voucher_batch.revoked',
        targetType: 'voucher_batch',
        targetId: batchId,
        changes: { vouchers: revoked.length },
      });
      return this.toBatch(tx, updated!);
    });
  }

  async revokeVoucher(id: string, audit: AuditContext): Promise<Voucher> {
    const { db, clock } = this.deps;
    if (!UUID.test(id)) throw notFound(VOUCHER_MESSAGES.voucherNotFound);
    return db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const repo = createVoucherRepository(tx);
      const row = await repo.lockVoucher(id);
      if (!row) throw notFound(VOUCHER_MESSAGES.voucherNotFound);
      if (row.state === 'revoked') throw conflict(VOUCHER_MESSAGES.alreadyRevoked);
      if (row.state !== 'unused' && row.state !== 'active') throw conflict(VOUCHER_MESSAGES.cannotRevoke(row.state));
      const updated = await repo.revokeVoucher(id);
      await recordAudit(tx, clock, audit, {
        action: 'voucher.revoked',
        targetType: 'voucher',
        targetId: id,
        changes: { state: [row.state, 'revoked'] },
      });
      return toVoucher(updated!);
    });
  }

  /**
   * Redeems a code for the caller. Throws 400 (malformed, typo: the check character), 404 (no such code),
   * 409 (used, revoked, expired). The winner of a race holds the row lock; the loser then reads it as used.
   */
  async redeem(userId: string, input: string, audit: AuditContext) {
    const { db, clock, box } = this.deps;
    const code = await voucherCodeToLookUp(input, () => createVoucherRepository(db).importedCardsExist());
    if (!code)
      throw badRequest(VOUCHER_MESSAGES.invalidCode, [{ field: 'code', message: VOUCHER_MESSAGES.invalidCode }]);
    const hash = voucherCodeHash(box, code);
    const result = await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const now = clock.now();
      const repo = createVoucherRepository(tx);
      const voucher = await repo.lockVoucherByHash(hash);
      if (!voucher) throw notFound(VOUCHER_MESSAGES.unknownCode);
      if (voucher.state === 'revoked') throw conflict(VOUCHER_MESSAGES.revokedCode);
      if (voucher.state === 'expired') throw conflict(VOUCHER_MESSAGES.expired);
      if (voucher.state !== 'unused') throw conflict(VOUCHER_MESSAGES.used);
      const batch = await repo.batch(voucher.batchId);
      if (!batch || batch.revokedAt) throw conflict(VOUCHER_MESSAGES.revokedCode);
      const plan = await repo.plan(batch.planId);
      if (!plan) throw notFound(VOUCHER_MESSAGES.planNotFound);
      // Vouchers keep their terms (issue 31). A time-only voucher adds its validity to the caller's line of the plan
      // that has no data allowance (a paid one, or one of earlier time vouchers). A voucher with data (data-only, or
      // data and time) is a data bundle: it goes to the caller's data line of the plan (one with an allowance, still
      // active), adding its megabytes, or starts one. A data line ends when its data is used (RADIUS accounting,
      // radius/allowance.ts) or its time is over; topping up takes the later of the two ends, no end being later
      // than any (a data-only bundle has no time limit).
      const allowance = batch.dataAllowanceMb !== null ? batch.dataAllowanceMb * MB : null;
      const validityMs = batch.validityMinutes !== null ? batch.validityMinutes * 60_000 : null;
      const current = await repo.lockActiveLine(userId, plan.id, allowance !== null);
      let subscriptionId: string;
      let periodEnd: Date | null;
      let dataAllowanceBytes: number | null = null;
      let dataUsedBytes = 0;
      const extended = current !== undefined;
      if (current) {
        if (allowance === null) {
          const from =
            current.currentPeriodEnd && current.currentPeriodEnd.getTime() > now.getTime()
              ? current.currentPeriodEnd
              : now;
          periodEnd = addMs(from, validityMs!);
        } else {
          periodEnd =
            current.currentPeriodEnd === null || validityMs === null
              ? null
              : new Date(Math.max(current.currentPeriodEnd.getTime(), now.getTime() + validityMs));
          dataAllowanceBytes = (current.dataAllowanceBytes ?? 0) + allowance;
          dataUsedBytes = current.dataUsedBytes;
        }
        await repo.updateLine(current.id, {
          currentPeriodEnd: periodEnd,
          ...(allowance === null ? {} : { dataAllowanceBytes }),
          updatedAt: now,
        });
        subscriptionId = current.id;
      } else {
        periodEnd = validityMs !== null ? addMs(now, validityMs) : null;
        dataAllowanceBytes = allowance;
        const created = await repo.insertLine({
          userId,
          planId: plan.id,
          status: 'active',
          currentPeriodStart: now,
          currentPeriodEnd: periodEnd,
          dataAllowanceBytes,
          note: allowance === null ? 'Prepaid voucher' : 'Prepaid data voucher',
          createdAt: now,
          updatedAt: now,
        });
        subscriptionId = created!.id;
        // A plan the customer sets up themselves has its login at once (an installed plan's comes with the
        // technician's visit, which a voucher does not book).
        if (!plan.requiresInstallation) await provisionCredentials(tx, subscriptionId, box, now);
      }
      await repo.markRedeemed(voucher.id, userId, subscriptionId, now);
      await recordAudit(tx, clock, audit, {
        action: 'voucher.redeemed',
        targetType: 'voucher',
        targetId: voucher.id,
        changes: {
          subscription_id: subscriptionId,
          extended,
          period_end: iso(periodEnd),
          data_allowance_bytes: dataAllowanceBytes,
        },
      });
      return {
        voucher_id: voucher.id,
        subscription_id: subscriptionId,
        plan_id: plan.id,
        extended,
        period_end: iso(periodEnd),
        data_allowance_bytes: dataAllowanceBytes,
        data_used_bytes: dataUsedBytes,
      };
    });
    this.deps.onAccessChanged?.(result.subscription_id);
    return result;
  }
}

const MB = 1_000_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
