/**
 * Cut-off that really cuts off. When a subscription stops being served (suspended, expired, cancelled with
 * its period over) every open session of it gets a Disconnect-Request (RFC 5176) at its NAS; a plan change
 * sends a CoA-Request with the new rate. Each request is a radius_disconnects row with the NAS's answer (ack,
 * nak + Error-Cause, timeout) and the number of attempts.
 *
 * An ACK is not taken on trust. A disconnect stays open until the session is seen to end (its Stop arrives,
 * or accounting otherwise closes it). When the check falls due (`verifyAfterMs` after sending, or at once
 * when an Interim-Update shows the session still alive) and the session is still open, the request is sent
 * once more; after that the PPP active entry is removed through the device's RouterOS API (`fallback_removed`),
 * or, without an API, the row is closed as `failed` with the reason. The checks run from the RADIUS sweep
 * (`checkDue`), on the injected clock.
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
import { rateAttributes, servesNow, subscriberRate, capReached } from './authorize';
import { allowanceUsed } from './allowance';
import { createRadiusRepository } from './repository';
import type { NasClient, NasClientDirectory } from './clients';
import type { Subscriber, SubscriberDirectory } from './directory';
import type { UsageMeter } from './usage';
import { periodFirstDay } from './usage';

/** address: its static address, pool or IPv6 prefixes changed (issue 22); a NAS cannot move a live PPP session
 *  to another address, so its sessions are disconnected and the next login gets the new one. */
export type AccessChange = 'status' | 'plan' | 'address';

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

export class CutoffService {
  private readonly work = new Set<Promise<unknown>>();
  /** One chain per subscription, so two quick changes are applied in order. */
  private readonly chains = new Map<string, Promise<unknown>>();

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
    if (!sessions.length) return;
    const now = this.deps.clock.now();
    if (!sub || !servesNow(sub, now)) {
      const reason = sub && allowanceUsed(sub) ? 'data_allowance_used' : (sub?.status ?? 'deleted');
      for (const session of sessions) await this.disconnect(session, reason);
      return;
    }
    if (change === 'address') {
      for (const session of sessions) await this.disconnect(session, 'address_change');
      return;
    }
    if (change === 'plan') {
      const bytes =
        sub.dataCapBytes === null
          ? 0
          : await this.deps.usage.bytesSince(sub.subscriptionId, periodFirstDay(sub.periodStart, now));
      for (const session of sessions) await this.changeRate(session, sub, capReached(sub, bytes), 'plan_change');
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

  /** Sends a CoA-Request with the subscriber's current rate for one session and records the answer. */
  async changeRate(
    session: RadiusSessionRow,
    sub: Subscriber,
    throttled: boolean,
    reason: string,
  ): Promise<RadiusDisconnectRow> {
    const now = this.deps.clock.now();
    const repo = createRadiusRepository(this.deps.db);
    const row = await repo.insertDisconnect({
      sessionId: session.id,
      subscriptionId: session.subscriptionId,
      kind: 'coa',
      reason,
      requestedAt: now,
    });
    const rate = subscriberRate(sub, throttled);
    const answer = await this.send('coa', session, rateAttributes(rate.downloadKbps, rate.uploadKbps));
    const updated = await repo.updateDisconnect(row.id, {
      ...answerColumns(answer),
      attempts: 1,
      sentAt: now,
      completedAt: this.deps.clock.now(),
    });
    this.deps.log.info(
      { session: session.acctSessionId, username: session.username, result: updated.result },
      'RADIUS CoA sent',
    );
    return updated;
  }

  /** A session ended (Stop, NAS restart, stale): its open disconnects are done. */
  async sessionEnded(sessionId: string): Promise<void> {
    const now = this.deps.clock.now();
    await createRadiusRepository(this.deps.db).completeOpenDisconnectsOf(sessionId, now);
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
    const answer = await this.send('disconnect', session, []);
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
   * Still up after every Disconnect-Request: remove the login through the RouterOS API: the PPP active entry of a
   * subscription's session, the hotspot active entry of a voucher's (a session with no subscription).
   */
  private async fallback(row: RadiusDisconnectRow, session: RadiusSessionRow): Promise<void> {
    const client = session.nasDeviceId ? this.deps.clients.device(session.nasDeviceId) : undefined;
    const ros = client ? this.deps.routerOs(client) : null;
    const repo = createRadiusRepository(this.deps.db);
    const finish = (set: Partial<RadiusDisconnectRow>) =>
      repo.setDisconnect(row.id, { ...set, completedAt: this.deps.clock.now(), nextCheckAt: null });
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

  private async send(kind: DynAuthKind, session: RadiusSessionRow, extra: RadiusAttribute[]): Promise<SendOutcome> {
    const client =
      (session.nasDeviceId ? this.deps.clients.device(session.nasDeviceId) : undefined) ??
      (await this.deps.clients.find(session.nasIp));
    if (!client) return { result: 'failed', detail: 'The NAS is no longer a registered device with a RADIUS secret.' };
    const attributes: RadiusAttribute[] = [
      ['User-Name', session.username],
      ['Acct-Session-Id', session.acctSessionId],
    ];
    if (session.framedIp) attributes.push(['Framed-IP-Address', session.framedIp]);
    attributes.push(...extra);
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
