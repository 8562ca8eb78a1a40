/**
 * The portal's RADIUS service: answers the NAS devices' Access-Requests (PAP and CHAP) from the in-memory
 * subscriber directory, stores their accounting, and hands subscription changes to the cut-off. The UDP side
 * is server/integrations/radius/server.ts; this file decides.
 */
import type { RemoteInfo } from 'node:dgram';
import {
  ACCT_STATUS,
  ATTR,
  counter64,
  integerAttribute,
  rawAttribute,
  samePassword,
  stringAttribute,
  verifyChap,
  type RadiusPacket,
} from '../../integrations/radius/codec';
import type { RadiusHandlers, RadiusReply } from '../../integrations/radius/server';
import type { Clock } from '../../lib/clock';
import type { Db } from '../../db/client';
import type { AccountingStore } from './accounting';
import { authorize, capReached, type AuthDecision } from './authorize';
import { fairUse, hasFairUse, noticesReached, type CycleUsage, type FairUseDecision } from './fair-use';
import { cycleUsage, moveTier, recordNotices, type CycleCounter } from './fair-use-store';
import { plainAddress, type NasClient, type NasClientDirectory } from './clients';
import type { CutoffService } from './cutoff';
import type { Subscriber, SubscriberDirectory } from './directory';
import { periodFirstDay, utcDay, type UsageMeter } from './usage';
import type { VoucherAttemptOrigin, VoucherAuthenticator } from '../vouchers/hotspot';
import type { DataAllowanceMeter } from './allowance';
import type { NasProfile } from './nas-profiles';

export interface RadiusServiceDeps {
  db: Db;
  clock: Clock;
  subscribers: SubscriberDirectory;
  clients: NasClientDirectory;
  accounting: AccountingStore;
  usage: UsageMeter;
  cutoff: CutoffService;
  walledGardenPool: () => string | null;
  interimInterval: number;
  /** Data-voucher lines' allowances (issue 31): accounting adds to their use and ends a line that used it. */
  allowance?: DataAllowanceMeter;
  /** Hotspot logins with a prepaid voucher code (issue 22), tried when the name is no PPPoE login. */
  vouchers?: VoucherAuthenticator;
  /**
   * Told about a usage notice recorded now (80 % / 100 % of a fair-use threshold, once per subscription, cycle,
   * threshold and share across the nodes): the app mails it. Without one (worker processes) none are recorded.
   */
  usageNotice?: (notice: UsageNotice) => Promise<void> | void;
  log: RadiusHandlers<NasClient & { secret: string; name: string }>['log'] & {
    debug(obj: object, msg: string): void;
    info(obj: object, msg: string): void;
  };
}

type ClientWithSecret = NasClient;

export interface UsageNotice {
  subscriptionId: string;
  cycleStart: Date;
  /** 1-based threshold index and the share reached (80, 100). */
  tier: number;
  threshold: number;
  /** The threshold's bytes (100 %), the cycle's bytes now. */
  thresholdBytes: number;
  bytes: number;
  /** What happens at the threshold: a slower rate, or the hard stop. */
  kind: 'tier' | 'stop';
  rate: { downloadKbps: number; uploadKbps: number } | null;
}

/** The same answer for an unknown login and a wrong password: nothing to learn from which. */
const loginIncorrect = (reason: 'unknown_user' | 'bad_password' | 'sealed_password_unreadable'): AuthDecision => ({
  accept: false,
  reason,
  attributes: [['Reply-Message', 'Login incorrect']],
});

export class RadiusService implements RadiusHandlers<ClientWithSecret> {
  readonly log: RadiusServiceDeps['log'];
  /** Mails a usage notice recorded now (the app sets it; see RadiusServiceDeps.usageNotice). */
  usageNotice: RadiusServiceDeps['usageNotice'];
  /** Access decisions by reason since start (logs and the bench). */
  readonly decisions: Record<string, number> = {};
  /** Told about every answered request (the metrics plugin): its type, result and time taken. */
  observe: ((type: 'access' | 'accounting', result: string, seconds: number) => void) | null = null;
  /**
   * Told when accounting ended a line (its data allowance used, committed): its sessions must be disconnected and
   * every RADIUS process must re-read it. The app sets it to its accessChanged; a worker process to its own cut-off
   * plus a report to the app. Without one, this process's cut-off alone.
   */
  onEnded: ((subscriptionId: string) => void) | null = null;
  /**
   * Told when this process moved a subscription's fair-use tier (it won the compare-and-set): the other RADIUS
   * processes must drop their cached usage of it. The app publishes it on its change bus.
   */
  onFairUseTier: ((subscriptionId: string) => void) | null = null;

  constructor(private readonly deps: RadiusServiceDeps) {
    this.log = deps.log;
    this.usageNotice = deps.usageNotice;
  }

  client(address: string): ClientWithSecret | undefined | Promise<ClientWithSecret | undefined> {
    return this.deps.clients.find(address);
  }

  access(request: RadiusPacket, client: ClientWithSecret): RadiusReply | Promise<RadiusReply> {
    const pap = stringAttribute(request, 'User-Password');
    const check =
      pap !== undefined
        ? (password: string) => samePassword(pap, password)
        : rawAttribute(request, ATTR.CHAP_PASSWORD)
          ? (password: string) => verifyChap(request, password)
          : () => false;
    return this.login(
      stringAttribute(request, 'User-Name'),
      check,
      client,
      stringAttribute(request, 'Calling-Station-Id'),
    );
  }

  /** A PAP login from the server's fast path (already decoded). */
  accessPap(
    username: string,
    password: string,
    client: ClientWithSecret,
    _from?: RemoteInfo,
    callingStationId?: string,
  ): RadiusReply | Promise<RadiusReply> {
    return this.login(username, (stored) => samePassword(password, stored), client, callingStationId);
  }

  private login(
    username: string | undefined,
    check: (password: string) => boolean,
    client: ClientWithSecret,
    callingStationId: string | undefined,
  ): RadiusReply | Promise<RadiusReply> {
    const started = this.observe ? performance.now() : 0;
    // The reconnect-storm path: an active subscriber in memory on a plan without a cap needs no I/O at all.
    const cached = username === undefined ? undefined : this.deps.subscribers.cachedActive(username);
    if (cached && !hasFairUse(cached))
      return this.reply(username, client, this.judge(cached, check, 0, undefined, client.profile), started);
    return this.decide(username, check, { nas: client.deviceId, device: callingStationId }, client.profile).then(
      (decision) => this.reply(username, client, decision, started),
    );
  }

  private reply(
    username: string | undefined,
    client: ClientWithSecret,
    decision: AuthDecision,
    started: number,
  ): RadiusReply {
    this.decisions[decision.reason] = (this.decisions[decision.reason] ?? 0) + 1;
    this.observe?.('access', decision.accept ? 'accept' : 'reject', (performance.now() - started) / 1000);
    if (!decision.accept)
      this.deps.log.debug({ nas: client.name, username, reason: decision.reason }, 'RADIUS Access-Reject');
    return { code: decision.accept ? 'Access-Accept' : 'Access-Reject', attributes: decision.attributes };
  }

  /**
   * The decision for a login, reading the database when memory has no active entry for it; rates written for a NAS
   * of `profile` (the asking NAS's vendor; default MikroTik's).
   */
  async decide(
    username: string | undefined,
    check: (password: string) => boolean,
    from: VoucherAttemptOrigin = { nas: 'unknown' },
    profile?: NasProfile,
  ): Promise<AuthDecision> {
    if (!username) return loginIncorrect('unknown_user');
    const sub = await this.deps.subscribers.get(username);
    if (!sub)
      return (await this.deps.vouchers?.decide(username, check, from, profile)) ?? loginIncorrect('unknown_user');
    // Fair use (issue 36): this cycle's counter and top-ups, one row (cached), for a plan with tiers or a cap.
    const cycle =
      !hasFairUse(sub) || sub.password === null ? undefined : await this.deps.usage.cycleOf(sub, this.deps.clock.now());
    return this.judge(sub, check, cycle?.bytes ?? 0, cycle, profile);
  }

  /** Password (PAP or CHAP), then the subscriber's status, period and data cap. */
  private judge(
    sub: Subscriber,
    check: (password: string) => boolean,
    usageBytes: number,
    cycle?: CycleUsage,
    profile?: NasProfile,
  ): AuthDecision {
    if (sub.password === null) return loginIncorrect('sealed_password_unreadable');
    if (!check(sub.password)) return loginIncorrect('bad_password');
    return authorize(sub, {
      now: this.deps.clock.now(),
      walledGardenPool: this.deps.walledGardenPool(),
      interimInterval: this.deps.interimInterval,
      usageBytes,
      cycle,
      profile,
    });
  }

  async accounting(request: RadiusPacket, client: ClientWithSecret, from: RemoteInfo): Promise<RadiusReply | null> {
    if (!this.observe) return this.recordAccounting(request, client, from);
    const started = performance.now();
    let result = 'failed';
    try {
      const reply = await this.recordAccounting(request, client, from);
      result = reply ? 'answered' : 'dropped';
      return reply;
    } finally {
      this.observe?.('accounting', result, (performance.now() - started) / 1000);
    }
  }

  private async recordAccounting(
    request: RadiusPacket,
    client: ClientWithSecret,
    from: RemoteInfo,
  ): Promise<RadiusReply | null> {
    const statusType = integerAttribute(request, ATTR.ACCT_STATUS_TYPE);
    const ack: RadiusReply = { code: 'Accounting-Response' };
    if (statusType === ACCT_STATUS.ACCOUNTING_ON || statusType === ACCT_STATUS.ACCOUNTING_OFF) {
      const closed = await this.deps.accounting.nasRestarted(client.deviceId);
      for (const id of closed) await this.deps.cutoff.sessionEnded(id);
      if (closed.length)
        this.deps.log.info({ nas: client.name, closed: closed.length }, 'RADIUS NAS restarted: its sessions closed');
      return ack;
    }
    const acctSessionId = stringAttribute(request, 'Acct-Session-Id');
    const username = stringAttribute(request, 'User-Name');
    if (
      statusType === undefined ||
      !acctSessionId ||
      !username ||
      ![ACCT_STATUS.START, ACCT_STATUS.STOP, ACCT_STATUS.INTERIM].includes(statusType as 1 | 2 | 3)
    ) {
      // Nothing we keep (e.g. a status type we do not use): still answered, or the NAS retries for ever.
      return ack;
    }
    // The policy the NAS says the session runs under (its vendor profile reads it), stored on the session and
    // compared with what a CoA awaiting confirmation expects (issue 36).
    const reportedPolicy = statusType === ACCT_STATUS.STOP ? null : client.profile.reportedPolicy(request);
    const outcome = await this.deps.accounting.record(
      { deviceId: client.deviceId, ip: plainAddress(from.address) },
      {
        statusType,
        acctSessionId,
        username,
        framedIp: stringAttribute(request, 'Framed-IP-Address'),
        callingStationId: stringAttribute(request, 'Calling-Station-Id'),
        nasPortId: stringAttribute(request, 'NAS-Port-Id'),
        inputOctets: counter64(request, ATTR.ACCT_INPUT_OCTETS, ATTR.ACCT_INPUT_GIGAWORDS),
        outputOctets: counter64(request, ATTR.ACCT_OUTPUT_OCTETS, ATTR.ACCT_OUTPUT_GIGAWORDS),
        sessionTime: integerAttribute(request, ATTR.ACCT_SESSION_TIME) ?? 0,
        delaySeconds: integerAttribute(request, ATTR.ACCT_DELAY_TIME) ?? 0,
        terminateCause: stringAttribute(request, 'Acct-Terminate-Cause'),
        reportedPolicy,
      },
    );
    const session = outcome.session;
    // A change it confirms is recorded before the answer (the packet is stored either way: a failure is logged, and
    // the next Interim-Update confirms it).
    if (reportedPolicy && session?.status === 'open')
      await this.deps.cutoff
        .policyReported(session, reportedPolicy)
        .catch((error: unknown) => this.log.error({ err: error }, 'confirming a CoA failed'));
    if (session && outcome.changed) {
      const subId = session.subscriptionId;
      const added = outcome.added.input + outcome.added.output;
      if (subId && added > 0) this.deps.usage.add(subId, utcDay(this.deps.clock.now()), added);
      // A data-voucher line: the packet that uses up its allowance ends it (only lines with one are written to).
      if (
        subId &&
        added > 0 &&
        this.deps.allowance &&
        this.deps.subscribers.bySubscription(subId)?.dataAllowanceBytes != null
      ) {
        if (await this.deps.allowance.record(subId, added)) {
          this.log.info({ subscriptionId: subId, username }, 'Data allowance used: the line ends');
          if (this.onEnded) this.onEnded(subId);
          else this.deps.cutoff.accessChanged(subId, 'status');
        }
      }
      // A hotspot voucher's login: its usage counts, and a voucher that ran out has its live sessions cut off.
      const runOut = !subId && this.deps.vouchers ? await this.deps.vouchers.recordUsage(username, added) : null;
      if (runOut && session.status === 'open')
        this.deps.cutoff.inBackground(() => this.deps.cutoff.voucherRunOut(username, runOut));
      if (outcome.ended || session.status !== 'open') await this.deps.cutoff.sessionEnded(session.id);
      // What talks to the NAS runs after the Accounting-Response: the NAS must not wait on its own answer to us.
      else if (outcome.alive) this.deps.cutoff.inBackground(() => this.deps.cutoff.sessionAlive(session.id));
      if (subId && added > 0) {
        const counter = outcome.cycle;
        if (counter)
          this.deps.cutoff.inBackground(() => this.enforceFairUse(subId, counter, session.status === 'open'));
        else if (session.status === 'open') this.deps.cutoff.inBackground(() => this.enforceCap(subId, added));
      }
    }
    return ack;
  }

  /**
   * Fair use after a packet's increase was counted for the cycle (issue 36): when the cycle's usage puts the
   * subscription in another tier than the one recorded, the node that moves the recorded tier (compare-and-set)
   * re-rates its open sessions (CoA) or, at the hard stop, disconnects them; the 80 % / 100 % notices reached are
   * recorded once and the newest one mailed.
   */
  private async enforceFairUse(subscriptionId: string, counter: CycleCounter, open: boolean): Promise<void> {
    const sub = this.deps.subscribers.bySubscription(subscriptionId);
    if (!sub || !hasFairUse(sub)) return;
    const { tier: _tier, ...topUps } = await cycleUsage(this.db(), subscriptionId, counter.cycleStart);
    const usage: CycleUsage = { ...topUps, bytes: counter.bytes };
    const use: FairUseDecision = fairUse(sub, usage);
    if (
      use.tier !== counter.tier &&
      (await moveTier(this.db(), subscriptionId, counter.cycleStart, counter.tier, use.tier))
    ) {
      this.log.info({ subscriptionId, from: counter.tier, to: use.tier }, 'Fair use: tier changed');
      this.onFairUseTier?.(subscriptionId);
      if (open) {
        const reason = use.stop ? 'data_cap' : sub.usageTiers?.length ? 'fair_use_tier' : 'data_cap';
        await this.deps.cutoff.fairUseChanged(sub, use, reason);
      }
    }
    if (!this.usageNotice) return;
    const reached = noticesReached(sub, usage);
    const recorded = await recordNotices(this.db(), subscriptionId, counter.cycleStart, reached, this.deps.clock.now());
    const newest = reached.filter((r) => recorded.some((n) => n.tier === r.tier && n.threshold === r.threshold)).at(-1);
    if (newest)
      await this.usageNotice({
        subscriptionId,
        cycleStart: counter.cycleStart,
        tier: newest.tier,
        threshold: newest.threshold,
        thresholdBytes: newest.bytes,
        bytes: counter.bytes,
        kind: newest.what.kind,
        rate: newest.what.rate,
      });
  }

  private db() {
    return this.deps.db;
  }

  /** Interim accounting pushed a capped subscription over its cap: cut or throttle its sessions now. */
  private async enforceCap(subscriptionId: string, added: number): Promise<void> {
    const sub = this.deps.subscribers.bySubscription(subscriptionId);
    if (!sub || sub.dataCapBytes === null) return;
    const now = this.deps.clock.now();
    const bytes = await this.deps.usage.bytesSince(subscriptionId, periodFirstDay(sub.periodStart, now));
    // Only the packet that crossed the line acts (before it: under the cap; with it: at or over).
    if (capReached(sub, bytes) && !capReached(sub, bytes - added)) await this.deps.cutoff.capReachedFor(sub);
  }
}
