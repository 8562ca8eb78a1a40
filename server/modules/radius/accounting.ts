/**
 * Accounting (RFC 2866): one radius_sessions row per (NAS, Acct-Session-Id), moved on by Start, Interim-Update
 * and Stop, plus each packet's increase over the stored totals added to the subscription's day in
 * radius_usage_daily — all in one transaction per packet, answered only after it committed.
 *
 * Idempotent: totals only ever grow (a counter is kept at the larger of stored and reported), so a
 * retransmitted or late packet adds nothing and changes nothing; a second Start or Stop changes nothing.
 * Robust to lost packets: an Interim or Stop for an unknown session creates it (started Acct-Session-Time
 * before), a session the NAS stopped talking about is closed as stale by the sweep (no update for twice the
 * interim interval), and Accounting-On/Off (NAS restarted) closes all of that NAS's open sessions.
 *
 * Times are the portal clock's, less Acct-Delay-Time (NAS clocks are often wrong).
 */
import type { Db } from '../../db/client';
import type { RadiusSessionRow } from '../../db/schema/radius';
import type { Clock } from '../../lib/clock';
import { ACCT_STATUS } from '../../integrations/radius/codec';
import { createRadiusRepository } from './repository';
import { utcDay } from './usage';
import { addCycleUsage, type CycleCounter } from './fair-use-store';

export interface AccountingRecord {
  statusType: number;
  acctSessionId: string;
  username: string;
  framedIp?: string;
  callingStationId?: string;
  nasPortId?: string;
  /** 64-bit totals (Gigawords included). */
  inputOctets: number;
  outputOctets: number;
  sessionTime: number;
  delaySeconds: number;
  terminateCause?: string;
  /** The policy the packet reports for the session (the NAS profile's reportedPolicy); null/absent: none. */
  reportedPolicy?: string | null;
}

export interface AccountingOutcome {
  session: RadiusSessionRow | null;
  /** false for a duplicate or a packet that added nothing. */
  changed: boolean;
  /** The session ended with this packet (Stop). */
  ended: boolean;
  /** An Interim-Update for a session that was open (it is alive). */
  alive: boolean;
  /** Bytes this packet added, by direction. */
  added: { input: number; output: number };
  /** The subscription's cycle counter after this packet's increase (fair use); absent when it added nothing. */
  cycle?: CycleCounter | null;
}

export interface AccountingDeps {
  db: Db;
  clock: Clock;
  /** Seconds; the default interval for sessions (what Access-Accept asked for). */
  interimInterval: number;
  /** The subscription a login belongs to (the subscriber directory). */
  subscriptionOf(username: string): Promise<string | null>;
}

const clamp64 = (n: number) => (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);

export class AccountingStore {
  constructor(private readonly deps: AccountingDeps) {}

  async record(nas: { deviceId: string; ip: string }, rec: AccountingRecord): Promise<AccountingOutcome> {
    const now = this.deps.clock.now();
    const at = new Date(now.getTime() - Math.max(0, Math.min(rec.delaySeconds, 86_400)) * 1000);
    const subscriptionId = await this.deps.subscriptionOf(rec.username);
    const input = clamp64(rec.inputOctets);
    const output = clamp64(rec.outputOctets);
    const sessionTime = clamp64(rec.sessionTime);
    const isStop = rec.statusType === ACCT_STATUS.STOP;
    const isInterim = rec.statusType === ACCT_STATUS.INTERIM;
    const reportedPolicy = rec.reportedPolicy ? rec.reportedPolicy.slice(0, 255) : null;
    const nothing = (session: RadiusSessionRow | null): AccountingOutcome => ({
      session,
      changed: false,
      ended: false,
      alive: false,
      added: { input: 0, output: 0 },
    });

    return this.deps.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const repo = createRadiusRepository(tx);
      let row = await repo.lockSession(nas.deviceId, rec.acctSessionId);
      if (!row) {
        const inserted = await repo.insertSession({
          acctSessionId: rec.acctSessionId,
          nasDeviceId: nas.deviceId,
          nasIp: nas.ip,
          username: rec.username,
          subscriptionId,
          framedIp: rec.framedIp ?? null,
          callingStationId: rec.callingStationId ?? null,
          nasPortId: rec.nasPortId ?? null,
          startedAt: new Date(at.getTime() - sessionTime * 1000),
          updatedAt: at,
          lastInterimAt: isInterim ? at : null,
          stoppedAt: isStop ? at : null,
          terminateCause: isStop ? (rec.terminateCause ?? 'Unknown') : null,
          sessionTime,
          inputOctets: input,
          outputOctets: output,
          interimInterval: this.deps.interimInterval,
          status: isStop ? 'closed' : 'open',
          reportedPolicy,
        });
        if (inserted) {
          const cycle = await this.addUsage(tx, subscriptionId, at, input, output);
          return { session: inserted, changed: true, ended: isStop, alive: false, added: { input, output }, cycle };
        }
        // Another packet of the same session got there first: continue with its row.
        row = await repo.lockSession(nas.deviceId, rec.acctSessionId);
        if (!row) return nothing(null);
      }

      const addIn = Math.max(0, input - row.inputOctets);
      const addOut = Math.max(0, output - row.outputOctets);
      const grew = addIn > 0 || addOut > 0 || sessionTime > row.sessionTime;
      const patch: Partial<RadiusSessionRow> = {};
      if (rec.framedIp && !row.framedIp) patch.framedIp = rec.framedIp;
      if (!row.subscriptionId && subscriptionId) patch.subscriptionId = subscriptionId;
      let ended = false;
      let alive = false;
      if (isInterim && grew) {
        Object.assign(patch, { updatedAt: at, lastInterimAt: at });
        alive = row.status === 'open';
        // A session closed as stale was only presumed gone: it is back.
        if (row.status === 'stale') Object.assign(patch, { status: 'open', stoppedAt: null, terminateCause: null });
      } else if (isStop && (grew || row.status !== 'closed' || row.terminateCause === null)) {
        Object.assign(patch, {
          updatedAt: at,
          status: 'closed',
          stoppedAt: row.status === 'closed' && row.stoppedAt ? row.stoppedAt : at,
          terminateCause: rec.terminateCause ?? row.terminateCause ?? 'Unknown',
        });
        ended = row.status === 'open';
      }
      // The policy the NAS reports (issue 36), from a packet that moves the session on: a late packet sent before a
      // change does not take it back to the old one.
      // Only a packet that moves the session on (or the first to report one) sets it: a late packet does not set it back.
      if (!isStop && reportedPolicy && reportedPolicy !== row.reportedPolicy && (grew || !row.reportedPolicy))
        patch.reportedPolicy = reportedPolicy;
      if (grew)
        Object.assign(patch, {
          inputOctets: row.inputOctets + addIn,
          outputOctets: row.outputOctets + addOut,
          sessionTime: Math.max(sessionTime, row.sessionTime),
        });
      if (Object.keys(patch).length === 0) return nothing(row);
      const updated = await repo.updateSession(row.id, patch);
      const cycle = await this.addUsage(tx, updated.subscriptionId, at, addIn, addOut);
      return { session: updated, changed: true, ended, alive, added: { input: addIn, output: addOut }, cycle };
    });
  }

  /** Accounting-On/Off: the NAS restarted, none of its sessions survived. Returns the sessions closed. */
  async nasRestarted(deviceId: string): Promise<string[]> {
    const now = this.deps.clock.now();
    const rows = await createRadiusRepository(this.deps.db).closeSessionsOfNas(deviceId, now);
    return rows.map((r) => r.id);
  }

  /**
   * Closes as stale every open session with no accounting for twice its interim interval (a Stop that never
   * came: NAS crash, lost packet). Its stop time is its last update. Returns the sessions closed.
   */
  async sweepStale(now: Date = this.deps.clock.now()): Promise<string[]> {
    const rows = await createRadiusRepository(this.deps.db).closeStaleSessions(now, this.deps.interimInterval);
    return rows.map((r) => r.id);
  }

  private async addUsage(
    tx: Db,
    subscriptionId: string | null,
    at: Date,
    input: number,
    output: number,
  ): Promise<CycleCounter | null> {
    if (!subscriptionId || (input === 0 && output === 0)) return null;
    await createRadiusRepository(tx).addUsage(subscriptionId, utcDay(at), input, output);
    // The same increase, to the subscription's counter for its current cycle (fair use, issue 36).
    return addCycleUsage(tx, subscriptionId, input, output);
  }
}
