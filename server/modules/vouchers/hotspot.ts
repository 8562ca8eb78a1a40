/**
 * Hotspot login with a voucher through the RADIUS server (issue 22): a MikroTik hotspot sends the code as
 * User-Name and as the password (PAP, or CHAP with the code as the secret — which is why the code is kept
 * sealed, not only hashed). The answer:
 *
 *   unknown code, wrong password            → reject
 *   revoked (voucher or batch)              → reject
 *   redeemed to a customer account          → reject
 *   validity over (expires_at ≤ now)        → reject (state → expired)
 *   data allowance used (used_bytes ≥ MB)   → reject (state → used_up)
 *   too many failures from this device      → reject, without looking the code up
 *   otherwise                               → accept: the plan's Mikrotik-Rate-Limit (and WISPr), Session-Timeout
 *                                             = seconds of validity left (else 86 400), Acct-Interim-Interval
 *
 * Every reject carries the same Reply-Message (VOUCHER_REFUSED, issue 32): a guesser cannot tell a code that does
 * not exist from one that was used, so a used card found on the floor teaches nothing, and the reason stays in the
 * log (the decision's reason). Failures count per NAS and device (Calling-Station-Id, the MAC a hotspot sends):
 * after VOUCHER_ATTEMPTS.max in VOUCHER_ATTEMPTS.windowMs every attempt from that device on that NAS is refused,
 * a right code too, until the window ends. The counts are in the rate-limit store, shared by every node.
 *
 * The first accepted login starts the clock: first_used_at and expires_at are set once (a conditional update, so
 * two first logins at once agree on one start). Accounting for a voucher login adds to its used_bytes; an
 * Interim-Update that finds the data allowance used or the validity over has the live session disconnected
 * (RadiusService → CutoffService.voucherRunOut), so a voucher never runs past what was bought.
 */
import type { RadiusAttribute } from '../../integrations/radius/codec';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { RateLimitBackend } from '../../lib/rate-limit-store';
import type { SecretBox } from '../../lib/secret-box';
import { FALLBACK_SESSION_TIMEOUT, rateAttributes, type AuthDecision } from '../radius/authorize';
import type { NasProfile } from '../radius/nas-profiles';
import { voucherCodeHash, voucherCodeToLookUp } from './codes';
import { createVoucherRepository } from './repository';
import type { VoucherState } from '../../../contract/schemas/vouchers';

export interface HotspotVoucher {
  id: string;
  code: string | null;
  state: VoucherState;
  expiresAt: Date | null;
  firstUsedAt: Date | null;
  usedBytes: number;
  redeemedBy: string | null;
  validityMinutes: number | null;
  dataAllowanceMb: number | null;
  batchRevoked: boolean;
  downloadMbps: number;
  uploadMbps: number;
}

/** The one Reply-Message of a refused voucher login, whatever the reason (the hotspot page shows its own text for it). */
export const VOUCHER_REFUSED = 'Voucher code not accepted';

/** How long the hotspot trusts its answer to "are imported cards in use?" (an import or a revoke shows within it). */
const IMPORTED_CHECK_MS = 30_000;

/** Failed voucher logins allowed per NAS and device in one window (as many as the portal's redeem form allows). */
export const VOUCHER_ATTEMPTS = { max: 5, windowMs: 15 * 60_000 } as const;

/** Where a voucher login came from: the NAS (its device id) and the customer's device (Calling-Station-Id). */
export interface VoucherAttemptOrigin {
  nas: string;
  device?: string;
}

/** The rate-limit key of a NAS and device; a MAC is compared without case and separators. */
export function voucherAttemptKey(origin: VoucherAttemptOrigin): string {
  const device =
    (origin.device ?? '')
      .toLowerCase()
      .replace(/[^0-9a-z]/g, '')
      .slice(0, 64) || 'unknown-device';
  return `hotspot-voucher:${origin.nas}:${device}`;
}

const MB = 1_000_000;

type Reject = Extract<AuthDecision, { accept: false }>;
const reject = (reason: Reject['reason']): AuthDecision => ({
  accept: false,
  reason,
  attributes: [['Reply-Message', VOUCHER_REFUSED]],
});

/** The decision for a voucher whose password checked out (pure). `state` the voucher should be moved to, if any. */
export function authorizeVoucher(
  v: HotspotVoucher,
  now: Date,
  interimInterval: number,
  profile?: NasProfile,
): { decision: AuthDecision; state?: 'expired' | 'used_up' } {
  if (v.state === 'revoked' || v.batchRevoked) return { decision: reject('not_active') };
  if (v.redeemedBy) return { decision: reject('not_active') };
  const expiresAt =
    v.expiresAt ?? (v.validityMinutes !== null ? new Date(now.getTime() + v.validityMinutes * 60_000) : null);
  if (v.state === 'expired' || (expiresAt && expiresAt.getTime() <= now.getTime()))
    return { decision: reject('not_active'), state: 'expired' };
  if (v.state === 'used_up' || (v.dataAllowanceMb !== null && v.usedBytes >= v.dataAllowanceMb * MB)) {
    return { decision: reject('data_cap'), state: 'used_up' };
  }
  const left = expiresAt ? Math.floor((expiresAt.getTime() - now.getTime()) / 1000) : FALLBACK_SESSION_TIMEOUT;
  const attributes: RadiusAttribute[] = [
    ...rateAttributes(v.downloadMbps * 1000, v.uploadMbps * 1000, profile),
    ['Session-Timeout', Math.max(1, Math.min(left, 0x7fff_ffff))],
    ['Acct-Interim-Interval', interimInterval],
  ];
  return { decision: { accept: true, reason: 'active', attributes } };
}

export class VoucherAuthenticator {
  constructor(
    private readonly deps: {
      db: Db;
      box: SecretBox;
      clock: Clock;
      interimInterval: number;
      attempts?: RateLimitBackend;
    },
  ) {}

  /**
   * Null when the user name is not shaped like a voucher code (then it is not one of ours either: a mistyped code
   * fails its check character before any look-up, so it is no guess worth counting). While cards imported from
   * another system exist (issue 39), a name of their shape is looked up too, and a miss counts.
   */
  async decide(
    username: string,
    check: (password: string) => boolean,
    from: VoucherAttemptOrigin = { nas: 'unknown' },
    profile?: NasProfile,
  ): Promise<AuthDecision | null> {
    const code = await this.codeOf(username);
    if (!code) return null;
    const { attempts } = this.deps;
    const key = voucherAttemptKey(from);
    if (attempts && (await attempts.read(key, VOUCHER_ATTEMPTS.windowMs)).count >= VOUCHER_ATTEMPTS.max)
      return reject('too_many_attempts');
    const decision = await this.check(username, code, check, profile);
    if (attempts) {
      if (decision.accept) await attempts.clear(key);
      else await attempts.increment(key, VOUCHER_ATTEMPTS.windowMs);
    }
    return decision;
  }

  private codeOf(username: string): Promise<string | null> {
    return voucherCodeToLookUp(username, () => this.importedCardsExist());
  }

  /**
   * Whether imported cards are in use, asked of the database at most every IMPORTED_CHECK_MS: the names it is
   * asked for are every Access-Request and accounting packet whose user name is no subscriber's.
   */
  private importedCardsExist(): Promise<boolean> {
    const now = performance.now();
    if (!this.imported || now - this.imported.at > IMPORTED_CHECK_MS) {
      const value = createVoucherRepository(this.deps.db).importedCardsExist();
      this.imported = { at: now, value };
      value.catch(() => {
        if (this.imported?.value === value) this.imported = undefined;
      });
    }
    return this.imported.value;
  }
  private imported?: { at: number; value: Promise<boolean> };

  private async check(
    username: string,
    code: string,
    check: (password: string) => boolean,
    profile?: NasProfile,
  ): Promise<AuthDecision> {
    const { db, box, clock } = this.deps;
    const repo = createVoucherRepository(db);
    const row = await repo.hotspotLogin(voucherCodeHash(box, code));
    if (!row) return reject('unknown_user');
    const plain = box.open(row.sealed);
    if (plain === null) return reject('sealed_password_unreadable');
    if (!check(plain)) return reject('bad_password');
    const now = clock.now();
    const v: HotspotVoucher = {
      ...row,
      code: plain,
      usedBytes: Number(row.usedBytes),
      batchRevoked: row.batchRevokedAt !== null,
    };
    const { decision, state } = authorizeVoucher(v, now, this.deps.interimInterval, profile);
    if (state && v.state !== state && v.state !== 'revoked') {
      await repo.moveState(v.id, v.state, state);
    }
    if (decision.accept && v.firstUsedAt === null) {
      // The first login starts the voucher's time; a concurrent first login loses the update and reads the winner's.
      const expiresAt = v.validityMinutes !== null ? new Date(now.getTime() + v.validityMinutes * 60_000) : null;
      const started = await repo.startClock(v.id, now, expiresAt);
      if (started.length === 0) return this.check(username, code, check);
    }
    return decision;
  }

  /**
   * Accounting for a voucher login: adds the octets to its used_bytes, then says whether the voucher has run out
   * (data allowance used, or validity over) — the session must then be cut off (issue 22). The voucher's state
   * moves to used_up / expired on the way. Null when the name is no voucher or it still has time and data.
   */
  async recordUsage(username: string, bytes: number): Promise<VoucherRunOut | null> {
    const code = await this.codeOf(username);
    if (!code) return null;
    const { db, box, clock } = this.deps;
    const hash = voucherCodeHash(box, code);
    const repo = createVoucherRepository(db);
    if (bytes > 0) await repo.addUsedBytes(hash, bytes);
    const row = await repo.usageOf(hash);
    if (!row) return null;
    const runOut: VoucherRunOut | null =
      row.dataAllowanceMb !== null && Number(row.usedBytes) >= row.dataAllowanceMb * MB
        ? 'used_up'
        : row.expiresAt && row.expiresAt.getTime() <= clock.now().getTime()
          ? 'expired'
          : null;
    if (runOut && (row.state === 'unused' || row.state === 'active')) {
      await repo.runOut(row.id, runOut);
    }
    return runOut;
  }
}

/** Why a voucher's live session is cut off. */
export type VoucherRunOut = 'used_up' | 'expired';
