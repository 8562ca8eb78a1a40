/**
 * Cut-off that really cuts off. When a subscription stops being served (suspended, expired, cancelled with
 * its period over) every open session of it gets a Disconnect-Request (RFC 5176) at its NAS; a plan change
 * sends a CoA-Request with the new rate. Each request is a radius_disconnects row with the NAS's answer (ack,
 * nak + Error-Cause, timeout) and the number of attempts.
 *
 * An ACK is not taken on trust. A disconnect stays open until the session is seen to end (its Stop arrives,
 * or accounting otherwise closes it). When the check falls due (`verifyAfterMs` after sending, or at once
 * when an Interim-Update shows the session still alive) and the session is still open, the request is sent
 * once more; after that, for a NAS whose vendor profile has the API fallback (MikroTik), the PPP active entry is
 * removed through the device's RouterOS API (`fallback_removed`), or, without one, the row is closed as `failed`
 * with the reason. A CoA carries the new rate as the session's NAS profile writes it (nas-profiles.ts). The checks run from the RADIUS sweep
 * (`checkDue`), on the injected clock.
 *
 * A CoA is not taken on trust either (issue 36, verified changes). Its row carries the policy the session must
 * then run under (`expected_policy`, the NAS profile's text of the new rate) and a deadline (`verify_by`): one
 * Interim-Update interval and a half after sending (COA_VERIFY_FACTOR). An accounting packet reporting that policy
 * for the session confirms it (`confirmed`), as does the session's end ("session ended": nothing runs the old
 * policy any more). A NAK or no answer sends a Disconnect-Request at once (reason coa_nak / coa_timeout), and a CoA
 * still unconfirmed at its deadline becomes `unconfirmed` in the sweep and is followed by a Disconnect-Request
 * (reason coa_unconfirmed) with the usual re-checks and the profile's fallback: the customer logs in again and gets
 * the new policy in the Access-Accept. Every CoA sent, confirmed or given up on is an audit event (actor system)
 * and counts in `onCoaOutcome` (the metrics plugin's isp_radius_coa_total).
 *
 * Work starts after the change committed (callers call `accessChanged` after their transaction) and runs in
 * the background; `idle()` waits for it (tests, shutdown).
 */
import type { Db } from '../../db/client';
import type { RadiusDisconnectRow, RadiusSessionRow } from '../../db/schema/radius';
import type { Clock } from '../../lib/clock';
import type { DynAuthAnswer, DynAuthClient, DynAuthKind } from '../../integrations/radius/dynauth';
import type { RadiusAttribute } from '../../integrations/radius/codec';
import type { RouterOsClient } from '../../integrations/routeros/client';
import { servesNow, subscriberRate } from './authorize';
import { allowanceUsed } from './allowance';
import { createRadiusRepository } from './repository';
import { recordAudit, SYSTEM } from '../audit/trail';
import { profileForSession } from './session-profile';
import type { NasClient, NasClientDirectory } from './clients';
import type { Subscriber, SubscriberDirectory } from './directory';
import type { UsageMeter } from './usage';
import { fairUse, hasFairUse, type FairUseDecision, type Rate } from './fair-use';
import { setTier } from './fair-use-store';

/** address: its static address, pool or IPv6 prefixes changed (issue 22); a NAS cannot move a live PPP session
 *  to another address, so its sessions are disconnected and the next login gets the new one.
 *  reactivated: a suspended subscription is active again (its invoice paid, issue 38): the sessions open now were
 *  let into the walled-garden pool, which a CoA cannot move them out of, so they are disconnected too. A `status`
 *  change from suspended to served (staff reactivating it) counts the same. */
export type AccessChange = 'status' | 'plan' | 'address' | 'fair_use' | 'reactivated';

export interface CutoffDeps {
  db: Db;
  clock: Clock;
  subscribers: SubscriberDirectory;
  clients: NasClientDirectory;
  dynauth: DynAuthClient;
  usage: UsageMeter;
  /** The NAS's Disconnect/CoA port. */
  coaPort: number;
  /** How long after a Disconnect the session must have ended. Default 30 s. */
  verifyAfterMs?: number;
  /** Seconds; the Acct-Interim-Interval granted in Access-Accept, for sessions that have none recorded. Default 300. */
  interimInterval?: number;
  /** A RouterOS client for a device's management API (null when it has none usable). */
  routerOs: (client: NasClient) => RouterOsClient | null;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
}

/** Disconnect attempts before the RouterOS fallback. */
export const DISCONNECT_ATTEMPTS = 2;

/**
 * A CoA must be confirmed within this many Interim-Update intervals: the next Interim-Update is due at most one
 * interval after the CoA, the half on top covers a NAS that sends late (a busy BNG batches its accounting), the
 * packet's own delay and the 15 s sweep, without waiting a second full interval for a change that did not happen.
 */
export const COA_VERIFY_FACTOR = 1.5;

/** The session an audit event is about (its row, or what is known of it once it is gone). */
type AuditedSession = Pick<RadiusSessionRow, 'subscriptionId'> & Partial<RadiusSessionRow>;

/** How a CoA ended, as counted in the metrics (isp_radius_coa_total{result}). */
export type CoaOutcome = 'confirmed' | 'unconfirmed' | 'nak' | 'timeout' | 'failed';

export class CutoffService {
  private readonly work = new Set<Promise<unknown>>();
  /** One chain per subscription, so two quick changes are applied in order. */
  private readonly chains = new Map<string, Promise<unknown>>();
  /** Told how each CoA ended (the metrics plugin; in a RADIUS worker process, a report to the app). */
  onCoaOutcome: ((result: CoaOutcome) => void) | null = null;

  constructor(private readonly deps: CutoffDeps) {}

  /** A subscription's status or plan changed (committed). Applies it to its live sessions in the background. */
  accessChanged(subscriptionId: string, change: AccessChange): void {
    const previous = this.chains.get(subscriptionId) ?? Promise.resolve();
    const next = previous
      .catch(() => {})
      .then(() => this.apply(subscriptionId, change))
      .catch((error: unknown) => this.deps.log.error({ err: error, subscriptionId }, 'RADIUS cut-off failed'))
      .finally(() => {
        if (this.chains.get(subscriptionId) === next) this.chains.delete(subscriptionId);
      });
    this.chains.set(subscriptionId, next);
    this.track(next);
  }

  /** Runs work that talks to a NAS without the caller waiting; idle() waits for it, failures are logged. */
  inBackground(work: () => Promise<unknown>): void {
    this.track(work().catch((error: unknown) => this.deps.log.error({ err: error }, 'RADIUS cut-off failed')));
  }

  /** Resolves once every change handed over so far has been applied. */
  async idle(): Promise<void> {
    while (this.work.size) await Promise.allSettled([...this.work]);
  }

  /** Re-reads the subscription and disconnects or re-rates its open sessions. */
  async apply(subscriptionId: string, change: AccessChange): Promise<void> {
    const before = this.deps.subscribers.bySubscription(subscriptionId);
    const sub = await this.deps.subscribers.reload(subscriptionId);
    this.deps.usage.forget(subscriptionId);
    // A deleted subscription's sessions lost their link to it (set null): they are found by its login.
    const sessions =
      sub || !before ? await this.openSessions(subscriptionId) : await this.openSessionsOfLogin(before.username);
    const now = this.deps.clock.now();
    // The fair-use tier after a plan change or a paid top-up (issue 36): recorded even without a live session, so
    // the next accounting packet does not take it for a crossing.
    const use =
      (change === 'plan' || change === 'fair_use') && sub && servesNow(sub, now)
        ? fairUse(
            sub,
            hasFairUse(sub) ? await this.deps.usage.cycleOf(sub, now) : { bytes: 0, extraBytes: 0, fullSpeed: false },
          )
        : null;
    if (use && sub?.periodStart && hasFairUse(sub))
      await setTier(this.deps.db, sub.subscriptionId, sub.periodStart, use.tier);
    if (!sessions.length) return;
    if (!sub || !servesNow(sub, now)) {
      const reason = sub && allowanceUsed(sub) ? 'data_allowance_used' : (sub?.status ?? 'deleted');
      for (const session of sessions) await this.disconnect(session, reason);
      return;
    }
    if (change === 'address') {
      for (const session of sessions) await this.disconnect(session, 'address_change');
      return;
    }
    if (change === 'reactivated' || (change === 'status' && before?.status === 'suspended')) {
      for (const session of sessions) await this.disconnect(session, 'reactivated');
      return;
    }
    // The plan's rate, or its fair-use tier's for this cycle's usage and top-ups.
    if (use) await this.fairUseChanged(sub, use, change === 'plan' ? 'plan_change' : 'fair_use_top_up', sessions);
  }

  /**
   * A subscription's fair-use tier changed (accounting crossed a threshold, a top-up was paid): its open sessions
   * get a CoA-Request with the tier's rate, or are disconnected at the hard stop.
   */
  async fairUseChanged(
    sub: Subscriber,
    use: FairUseDecision,
    reason: string,
    open?: RadiusSessionRow[],
  ): Promise<void> {
    const sessions = open ?? (await this.openSessions(sub.subscriptionId));
    for (const session of sessions) {
      if (use.stop || !use.rate) await this.disconnect(session, 'data_cap');
      else await this.changeRate(session, sub, use.tier > 0, reason, use.rate);
    }
  }

  /** The data cap was reached during a session: cut it (reject plans) or slow it down (throttle plans). */
  async capReachedFor(sub: Subscriber): Promise<void> {
    const sessions = await this.openSessions(sub.subscriptionId);
    for (const session of sessions) {
      if (sub.dataCapAction === 'reject') await this.disconnect(session, 'data_cap');
      else await this.changeRate(session, sub, true, 'data_cap');
    }
  }

  /**
   * A hotspot voucher ran out (data allowance used, validity over) during a session (issue 22): every open
   * session of that login without a disconnect under way gets a Disconnect-Request (reason voucher_used_up or
   * voucher_expired). A session already being disconnected is left to that request's checks.
   */
  async voucherRunOut(username: string, why: 'used_up' | 'expired'): Promise<void> {
    for (const session of await this.openSessionsOfLogin(username)) {
      const pending = await createRadiusRepository(this.deps.db).openDisconnectOf(session.id);
      if (!pending) await this.disconnect(session, `voucher_${why}`);
    }
  }

  /** Sends a Disconnect-Request for one session and records it. */
  async disconnect(session: RadiusSessionRow, reason: string): Promise<RadiusDisconnectRow> {
    const now = this.deps.clock.now();
    const row = await createRadiusRepository(this.deps.db).insertDisconnect({
      sessionId: session.id,
      subscriptionId: session.subscriptionId,
      kind: 'disconnect',
      reason,
      requestedAt: now,
    });
    return this.sendDisconnect(row, session);
  }

  /**
   * Sends a CoA-Request with the subscriber's current rate for one session and records the answer, with the policy
   * the session must then report and by when. A NAK or no answer: a Disconnect-Request follows at once.
   */
  async changeRate(
    session: RadiusSessionRow,
    sub: Subscriber,
    throttled: boolean,
    reason: string,
    /** The rate to set (fair use decided it); default: the plan's or the throttled one. */
    rateNow?: Rate,
  ): Promise<RadiusDisconnectRow> {
    const now = this.deps.clock.now();
    const repo = createRadiusRepository(this.deps.db);
    const profile = profileForSession(session, this.deps.clients);
    const rate = rateNow ?? subscriberRate(sub, throttled);
    const expectedPolicy = profile.policyText(rate);
    const intervalSeconds = session.interimInterval ?? this.deps.interimInterval ?? 300;
    const verifyBy = new Date(now.getTime() + intervalSeconds * COA_VERIFY_FACTOR * 1000);
    // A change still awaiting confirmation is replaced by this one: the session is only expected at the newest policy.
    await repo.supersedeCoas(session.id, now, `Superseded by a later change (${reason}) before it was confirmed.`);
    const row = await repo.insertDisconnect({
      sessionId: session.id,
      subscriptionId: session.subscriptionId,
      kind: 'coa',
      reason,
      requestedAt: now,
      expectedPolicy,
      verifyBy,
    });
    const answer = await this.send('coa', session, () => profile.coaAttributes(rate));
    const final = answer.result !== 'ack';
    // Undefined when an Interim-Update already confirmed it while the answer was on its way.
    const updated =
      (await repo.recordCoaAnswer(row.id, {
        ...answerColumns(answer),
        attempts: 1,
        sentAt: now,
        ...(final ? { completedAt: this.deps.clock.now() } : {}),
      })) ??
      (await repo.disconnectRow(row.id)) ??
      row;
    const nextStep =
      answer.result === 'nak' || answer.result === 'timeout' ? 'disconnect' : final ? 'nothing' : 'await_interim';
    await this.audit(null, 'radius.coa_sent', session, {
      coa_id: row.id,
      reason,
      expected_policy: expectedPolicy,
      result: answer.result,
      ...(answer.result === 'nak' ? { error_cause: answer.errorCause } : {}),
      ...(answer.result === 'failed' ? { detail: answer.detail } : {}),
      verify_by: verifyBy.toISOString(),
      next_step: nextStep,
    });
    this.deps.log.info(
      { session: session.acctSessionId, username: session.username, result: answer.result, expectedPolicy },
      'RADIUS CoA sent',
    );
    if (final && updated.result === answer.result) this.coaOutcome(answer.result);
    if (nextStep === 'disconnect' && updated.result === answer.result)
      await this.disconnect(session, `coa_${answer.result}`);
    return updated;
  }

  /**
   * An accounting packet reported the policy the session runs under: the CoAs that expected it are confirmed.
   * Returns how many.
   */
  async policyReported(session: RadiusSessionRow, policy: string): Promise<number> {
    const now = this.deps.clock.now();
    const confirmed = await this.inTransaction(async (tx) => {
      const rows = await createRadiusRepository(tx).confirmCoas(
        session.id,
        policy,
        now,
        `The session reported ${policy}.`,
      );
      for (const row of rows) await this.auditConfirmed(tx, row, session, 'policy_reported');
      return rows;
    });
    for (const row of confirmed) this.confirmed(row, session, 'policy_reported');
    return confirmed.length;
  }

  /**
   * The sweep: every CoA past its verify_by without confirmation becomes unconfirmed (each taken by one node only),
   * and its session, if still open, gets a Disconnect-Request (reason coa_unconfirmed) and the usual checks.
   */
  async expireUnconfirmed(now: Date = this.deps.clock.now()): Promise<number> {
    // The rows are taken and their events written in one transaction; the Disconnect-Requests go out after it.
    const expired = await this.inTransaction(async (tx) => {
      const repo = createRadiusRepository(tx);
      const rows = await repo.expireUnconfirmedCoas(
        now,
        'No Interim-Update showed the new policy in time: the session is disconnected.',
      );
      const out: Array<{ row: RadiusDisconnectRow; session: RadiusSessionRow | undefined }> = [];
      for (const row of rows) {
        const session = await repo.session(row.sessionId);
        await this.audit(
          tx,
          'radius.coa_unconfirmed',
          session ?? { id: row.sessionId, subscriptionId: row.subscriptionId },
          {
            coa_id: row.id,
            reason: row.reason,
            expected_policy: row.expectedPolicy,
            reported_policy: session?.reportedPolicy ?? null,
            next_step: session?.status === 'open' ? 'disconnect' : 'nothing',
          },
        );
        out.push({ row, session });
      }
      return out;
    });
    for (const { row, session } of expired) {
      this.coaOutcome('unconfirmed');
      this.deps.log.warn(
        { session: session?.acctSessionId, expectedPolicy: row.expectedPolicy, reported: session?.reportedPolicy },
        'RADIUS CoA unconfirmed: disconnecting the session',
      );
      if (session?.status === 'open') await this.disconnect(session, 'coa_unconfirmed');
    }
    return expired.length;
  }

  /** A session ended (Stop, NAS restart, stale): its open disconnects are done. */
  async sessionEnded(sessionId: string): Promise<void> {
    const now = this.deps.clock.now();
    await createRadiusRepository(this.deps.db).completeOpenDisconnectsOf(sessionId, now);
    // A change awaiting confirmation is done too: the session that ran the old policy is gone.
    const confirmed = await this.inTransaction(async (tx) => {
      const repo = createRadiusRepository(tx);
      const rows = await repo.confirmCoasOfEnded(sessionId, now, 'session ended');
      if (!rows.length) return [];
      const session = (await repo.session(sessionId)) ?? { id: sessionId, subscriptionId: rows[0].subscriptionId };
      for (const row of rows) await this.auditConfirmed(tx, row, session, 'session_ended');
      return rows.map((row) => ({ row, session }));
    });
    for (const { row, session } of confirmed) this.confirmed(row, session, 'session_ended');
  }

  /** An Interim-Update showed the session alive: a disconnect for it that is still open is checked now. */
  async sessionAlive(sessionId: string): Promise<void> {
    const open = await createRadiusRepository(this.deps.db).openDisconnectsOf(sessionId);
    for (const row of open) await this.check(row);
  }

  /** Checks every disconnect whose verification is due (called by the sweep). */
  async checkDue(now: Date = this.deps.clock.now()): Promise<void> {
    const due = await createRadiusRepository(this.deps.db).dueDisconnects(now);
    for (const row of due) await this.check(row);
  }

  private auditConfirmed(
    tx: Db,
    row: RadiusDisconnectRow,
    session: AuditedSession,
    how: 'policy_reported' | 'session_ended',
  ): Promise<void> {
    return this.audit(tx, 'radius.coa_confirmed', session, {
      coa_id: row.id,
      reason: row.reason,
      expected_policy: row.expectedPolicy,
      how,
      after_seconds: row.sentAt ? Math.round((this.deps.clock.now().getTime() - row.sentAt.getTime()) / 1000) : null,
    });
  }

  /** After the confirmation committed: counted and logged. */
  private confirmed(row: RadiusDisconnectRow, session: AuditedSession, how: 'policy_reported' | 'session_ended'): void {
    this.coaOutcome('confirmed');
    this.deps.log.info(
      { session: session.acctSessionId, expectedPolicy: row.expectedPolicy, how },
      'RADIUS CoA confirmed',
    );
  }

  private coaOutcome(result: CoaOutcome): void {
    try {
      this.onCoaOutcome?.(result);
    } catch (error) {
      this.deps.log.warn({ err: error }, 'counting a CoA outcome failed');
    }
  }

  private inTransaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    return this.deps.db.transaction((tx) => work(tx as unknown as Db));
  }

  /**
   * An audit event about a session's CoA (actor system, target the subscription). With a transaction it is part of
   * the transition it records (it fails with it); the event of a CoA sent is written after the NAS answered and
   * never fails the work (the request went out either way).
   */
  private async audit(
    db: Db | null,
    action: string,
    session: AuditedSession,
    changes: Record<string, unknown>,
  ): Promise<void> {
    try {
      await recordAudit(db ?? this.deps.db, this.deps.clock, SYSTEM, {
        action,
        targetType: 'subscription',
        targetId: session.subscriptionId,
        changes: {
          session_id: session.id ?? null,
          acct_session_id: session.acctSessionId ?? null,
          username: session.username ?? null,
          nas_ip: session.nasIp ?? null,
          ...changes,
        },
      });
    } catch (error) {
      if (db) throw error;
      this.deps.log.error({ err: error, action }, 'recording a CoA in the audit trail failed');
    }
  }

  private track(p: Promise<unknown>): void {
    this.work.add(p);
    void p.finally(() => this.work.delete(p));
  }

  private async check(row: RadiusDisconnectRow): Promise<void> {
    const repo = createRadiusRepository(this.deps.db);
    const session = await repo.session(row.sessionId);
    const now = this.deps.clock.now();
    if (session?.status !== 'open') {
      await repo.setDisconnect(row.id, { completedAt: now, nextCheckAt: null });
      return;
    }
    if (row.attempts < DISCONNECT_ATTEMPTS) {
      await this.sendDisconnect(row, session);
      return;
    }
    await this.fallback(row, session);
  }

  private async sendDisconnect(row: RadiusDisconnectRow, session: RadiusSessionRow): Promise<RadiusDisconnectRow> {
    const sentAt = this.deps.clock.now();
    const answer = await this.send('disconnect', session, () => []);
    const now = this.deps.clock.now();
    const updated = await createRadiusRepository(this.deps.db).recordSent(row.id, {
      ...answerColumns(answer),
      attempts: row.attempts + 1,
      sentAt,
      nextCheckAt: new Date(now.getTime() + (this.deps.verifyAfterMs ?? 30_000)),
    });
    this.deps.log.info(
      { session: session.acctSessionId, username: session.username, result: answer.result, attempt: row.attempts + 1 },
      'RADIUS Disconnect-Request sent',
    );
    return updated ?? row;
  }

  /**
   * Still up after every Disconnect-Request: for a NAS whose profile has the API fallback (MikroTik), remove the
   * login through the RouterOS API: the PPP active entry of a subscription's session, the hotspot active entry of a
   * voucher's (a session with no subscription). Other vendors have none: the row fails with the reason (the session
   * ends at its Session-Timeout, and the next login is refused).
   */
  private async fallback(row: RadiusDisconnectRow, session: RadiusSessionRow): Promise<void> {
    const client = session.nasDeviceId ? this.deps.clients.device(session.nasDeviceId) : undefined;
    const repo = createRadiusRepository(this.deps.db);
    const finish = (set: Partial<RadiusDisconnectRow>) =>
      repo.setDisconnect(row.id, { ...set, completedAt: this.deps.clock.now(), nextCheckAt: null });
    if (client && client.profile.disconnectFallback !== 'api') {
      await finish({
        result: 'failed',
        detail: `The session is still up and a ${client.profile.label} NAS has no API fallback: it ends at its Session-Timeout, and the next login is refused.`,
      });
      this.deps.log.warn(
        { session: session.acctSessionId, username: session.username, vendor: client.vendor },
        'RADIUS cut-off failed: session still up, the vendor has no API fallback',
      );
      return;
    }
    const ros = client ? this.deps.routerOs(client) : null;
    if (!ros) {
      await finish({
        result: 'failed',
        detail: 'The session is still up and the NAS has no RouterOS API settings for removing it.',
      });
      this.deps.log.warn(
        { session: session.acctSessionId, username: session.username },
        'RADIUS cut-off failed: session still up, no API fallback',
      );
      return;
    }
    try {
      const hotspot = session.subscriptionId === null;
      const entries = hotspot
        ? (await ros.hotspotActive()).filter((e) => e.user === session.username)
        : (await ros.pppActive()).filter((e) => e.name === session.username);
      for (const entry of entries)
        await (hotspot ? ros.removeHotspotActive(entry['.id']) : ros.removePppActive(entry['.id']));
      const what = hotspot ? 'hotspot active entr' : 'PPP active entr';
      const now = this.deps.clock.now();
      await repo.closeOpenSession(session.id, now, 'Admin-Reset');
      await finish({
        result: 'fallback_removed',
        detail: entries.length
          ? `Removed ${entries.length} ${what}${entries.length === 1 ? 'y' : 'ies'} for ${session.username} through ${ros.target}.`
          : `No ${what}y for ${session.username} at ${ros.target}: the session is gone.`,
      });
      this.deps.log.info(
        { session: session.acctSessionId, username: session.username, removed: entries.length },
        `RADIUS cut-off: ${what}y removed through the RouterOS API`,
      );
    } catch (error) {
      await finish({ result: 'failed', detail: `RouterOS API: ${(error as Error).message}` });
      this.deps.log.warn(
        { err: error, session: session.acctSessionId },
        'RADIUS cut-off fallback through the RouterOS API failed',
      );
    }
  }

  private async send(
    kind: DynAuthKind,
    session: RadiusSessionRow,
    extra: (client: NasClient) => RadiusAttribute[],
  ): Promise<SendOutcome> {
    const client =
      (session.nasDeviceId ? this.deps.clients.device(session.nasDeviceId) : undefined) ??
      (await this.deps.clients.find(session.nasIp));
    if (!client) return { result: 'failed', detail: 'The NAS is no longer a registered device with a RADIUS secret.' };
    const attributes: RadiusAttribute[] = [
      ['User-Name', session.username],
      ['Acct-Session-Id', session.acctSessionId],
    ];
    if (session.framedIp) attributes.push(['Framed-IP-Address', session.framedIp]);
    attributes.push(...extra(client));
    return this.deps.dynauth.send(
      kind,
      { host: session.nasIp, port: this.deps.coaPort, secret: client.secret },
      attributes,
    );
  }

  private openSessionsOfLogin(username: string): Promise<RadiusSessionRow[]> {
    return createRadiusRepository(this.deps.db).openSessionsOfLogin(username);
  }

  private openSessions(subscriptionId: string): Promise<RadiusSessionRow[]> {
    return createRadiusRepository(this.deps.db).openSessionsOf(subscriptionId);
  }
}

/** The NAS's answer, or why nothing could be sent. */
type SendOutcome = DynAuthAnswer | { result: 'failed'; detail: string };

function answerColumns(answer: SendOutcome): Pick<RadiusDisconnectRow, 'result' | 'errorCause' | 'detail'> {
  return {
    result: answer.result,
    errorCause: answer.result === 'nak' ? answer.errorCause : null,
    detail: answer.result === 'failed' ? answer.detail : null,
  };
}
