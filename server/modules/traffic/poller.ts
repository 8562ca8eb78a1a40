/**
 * The device poller: every poll interval (DEVICE_POLL_MINUTES, default 5) it reads each due device's
 * interfaces over SNMP, upserts them, stores one counter sample per interface (with the rate over the interval
 * since the previous one) and marks the device up or down. At most `concurrency` devices at once, each under
 * its own deadline; an unreachable device is retried after the poll interval × 2^(failures − 1), up to
 * MAX_BACKOFF_MS. Due devices are claimed with one UPDATE, so two processes never poll the same device at once.
 * pollOnce(now) does one round: the "device-poll" job (traffic plugin) runs it every minute, tests call it directly.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { createSnmpSession, SnmpError } from '../../integrations/snmp';
import type { Clock } from '../../lib/clock';
import { HOUR_MS, MINUTE_MS } from '../../lib/clock';
import type { SecretBox } from '../../lib/secret-box';
import { getDeviceWithSecrets, type DeviceWithSecrets } from '../devices/repository';
import { limitingSpeedMbps, readInterfaces, type DeviceReading } from './if-mib';
import { rateBetween, type CounterSample } from './rates';
import { createTrafficRepository } from './repository';

export const MAX_BACKOFF_MS = HOUR_MS;
export const DEFAULT_CONCURRENCY = 4;
/** How often the poll job looks for due devices (each device keeps its own next_poll_at). */
export const POLLER_TICK_MS = MINUTE_MS;

export interface DevicePollerDeps {
  db: Db;
  clock: Clock;
  box: SecretBox;
  log: FastifyBaseLogger;
  pollIntervalMinutes: number;
  concurrency?: number;
  /** Deadline for one device's whole poll (GET + two walks). Default 20 s. */
  deviceTimeoutMs?: number;
  /** One SNMP request's timeout and resends. Default 2000 ms, 1 retry. */
  snmpTimeoutMs?: number;
  snmpRetries?: number;
}

export interface DevicePollOutcome {
  deviceId: string;
  status: 'up' | 'down';
  interfaces: number;
  samples: number;
  error: string | null;
  nextPollAt: Date;
}

/**
 * What one device's poll found, for whoever watches devices (the outages module, issue 38): the device as it was
 * before this poll (its previous status and tags), its status now and, when it answered, each interface's
 * operational status before this poll (null: first seen) and now.
 */
export interface DevicePolled {
  device: DeviceWithSecrets;
  status: 'up' | 'down';
  at: Date;
  interfaces: { name: string; before: string | null; now: string }[];
}
export type DevicePolledListener = (event: DevicePolled) => Promise<void>;

export interface PollRound {
  polled: number;
  up: number;
  down: number;
  outcomes: DevicePollOutcome[];
}

/** The wait before the next try after `failures` failed polls in a row. */
export function backoffMs(pollIntervalMs: number, failures: number): number {
  if (failures <= 0) return pollIntervalMs;
  return Math.min(pollIntervalMs * 2 ** (failures - 1), Math.max(MAX_BACKOFF_MS, pollIntervalMs));
}

function deadline<T>(ms: number, message: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SnmpError('timeout', message)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export class DevicePoller {
  private round: Promise<PollRound> | null = null;
  private readonly listeners: DevicePolledListener[] = [];

  constructor(private readonly deps: DevicePollerDeps) {}

  /** Calls `listener` after each device's poll is stored (its failure is logged, never spoils the poll). */
  onPolled(listener: DevicePolledListener): void {
    this.listeners.push(listener);
  }

  private async tell(event: DevicePolled): Promise<void> {
    for (const listener of this.listeners) {
      try {
        await listener(event);
      } catch (error) {
        this.deps.log.error({ deviceId: event.device.id, err: error }, 'a device poll listener failed');
      }
    }
  }

  get pollIntervalMs(): number {
    return this.deps.pollIntervalMinutes * MINUTE_MS;
  }

  /** One round: every device due at `now` (never polled, or next_poll_at reached), `concurrency` at a time. */
  pollOnce(now: Date = this.deps.clock.now()): Promise<PollRound> {
    if (this.round) return this.round;
    this.round = this.runRound(now).finally(() => {
      this.round = null;
    });
    return this.round;
  }

  private async runRound(now: Date): Promise<PollRound> {
    const { db } = this.deps;
    // Claim the due devices: push their next_poll_at past this round so another process skips them.
    const claimedUntil = new Date(now.getTime() + this.deviceTimeoutMs() + MINUTE_MS);
    const claimed = await createTrafficRepository(db).claimDueDevices(now, claimedUntil);
    const ids = claimed.map((c) => c.id);
    const outcomes: DevicePollOutcome[] = [];
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++];
        try {
          const outcome = await this.pollDevice(id, now);
          if (outcome) outcomes.push(outcome);
        } catch (error) {
          // A database failure (or the device deleted meanwhile) spoils this device's poll, not the round.
          this.deps.log.error({ deviceId: id, err: error }, 'storing a device poll failed');
        }
      }
    };
    await Promise.all(
      Array.from({ length: Math.min(this.deps.concurrency ?? DEFAULT_CONCURRENCY, ids.length) }, worker),
    );
    return {
      polled: outcomes.length,
      up: outcomes.filter((o) => o.status === 'up').length,
      down: outcomes.filter((o) => o.status === 'down').length,
      outcomes,
    };
  }

  private deviceTimeoutMs(): number {
    return this.deps.deviceTimeoutMs ?? 20_000;
  }

  /** Polls one device now (also "poll now" from the API, regardless of its backoff). undefined: no such device. */
  async pollDevice(
    deviceId: string,
    now: Date = this.deps.clock.now(),
    options: { timeoutMs?: number } = {},
  ): Promise<DevicePollOutcome | undefined> {
    const device = await getDeviceWithSecrets(this.deps.db, deviceId, this.deps.box);
    if (!device) return undefined;
    let reading: DeviceReading;
    // The reading's time is when the device answered: in a long round, later devices are read minutes after its
    // start, and their rates must use the real interval (a test's clock stands still, so it stays `now`).
    const answeredAt = () => new Date(Math.max(now.getTime(), this.deps.clock.now().getTime()));
    try {
      reading = await this.read(device, options.timeoutMs ?? this.deviceTimeoutMs());
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.deps.log.warn(
        { deviceId, kind: error instanceof SnmpError ? error.kind : 'error', err: message },
        'device poll failed',
      );
      const at = answeredAt();
      const outcome = await this.markDown(device, at, message);
      await this.tell({ device, status: 'down', at, interfaces: [] });
      return outcome;
    }
    const at = answeredAt();
    // The interfaces' statuses before this poll overwrites them (an uplink going down is a change, not a state).
    const before = this.listeners.length
      ? await createTrafficRepository(this.deps.db).interfaceStatuses(device.id)
      : new Map<string, string>();
    const outcome = await this.store(device, reading, at);
    await this.tell({
      device,
      status: 'up',
      at,
      interfaces: reading.interfaces.map((i) => ({
        name: i.name,
        before: before.get(i.name) ?? null,
        now: i.operStatus,
      })),
    });
    return outcome;
  }

  private async read(device: DeviceWithSecrets, timeoutMs: number): Promise<DeviceReading> {
    const session = createSnmpSession({
      ...device.snmp,
      timeoutMs: this.deps.snmpTimeoutMs ?? 2000,
      retries: this.deps.snmpRetries ?? 1,
    });
    try {
      return await deadline(
        timeoutMs,
        `Polling ${device.name} (${device.host}) took longer than ${timeoutMs} ms`,
        readInterfaces(session),
      );
    } finally {
      session.close();
    }
  }

  private async markDown(device: DeviceWithSecrets, now: Date, error: string): Promise<DevicePollOutcome> {
    const failures = device.pollFailures + 1;
    const nextPollAt = new Date(now.getTime() + backoffMs(this.pollIntervalMs, failures));
    await createTrafficRepository(this.deps.db).updateDevice(device.id, {
      status: 'down',
      statusChangedAt: device.status === 'down' ? device.statusChangedAt : now,
      pollFailures: failures,
      nextPollAt,
      lastError: error,
    });
    return { deviceId: device.id, status: 'down', interfaces: 0, samples: 0, error, nextPollAt };
  }

  /** Device up, interfaces upserted, one sample per interface with counters, all in one transaction. */
  private async store(device: DeviceWithSecrets, reading: DeviceReading, now: Date): Promise<DevicePollOutcome> {
    const nextPollAt = new Date(now.getTime() + this.pollIntervalMs);
    let samples = 0;
    await this.deps.db.transaction(async (txRaw) => {
      const repo = createTrafficRepository(txRaw as unknown as Db);
      await repo.updateDevice(device.id, {
        status: 'up',
        statusChangedAt: device.status === 'up' ? device.statusChangedAt : now,
        lastSeenAt: now,
        pollFailures: 0,
        nextPollAt,
        lastError: null,
      });
      if (!reading.interfaces.length) return;

      const rows = await repo.upsertInterfaces(
        reading.interfaces.map((i) => ({
          deviceId: device.id,
          ifIndex: i.ifIndex,
          name: i.name.slice(0, 255),
          alias: i.alias.slice(0, 255),
          operStatus: i.operStatus,
          adminStatus: i.adminStatus,
          highSpeedMbps: Math.min(i.highSpeedMbps, 2_147_483_647),
          mac: i.mac.slice(0, 64),
          counterBits: i.width,
          lastSeenAt: now,
        })),
      );
      const idByIndex = new Map(rows.map((r) => [r.ifIndex, r.id]));
      // Interfaces the device no longer lists (a removed card, a PPPoE session's interface) keep their history
      // but no longer show as up.
      await repo.markInterfacesNotSeenSince(device.id, now);

      // The newest earlier sample of each interface, to turn this reading into a rate.
      const previous = await repo.samplesBefore(
        rows.map((r) => r.id),
        now,
      );
      const previousById = new Map(previous.map((p) => [p.interfaceId, p]));

      const values = [];
      for (const i of reading.interfaces) {
        if (i.inOctets === null || i.outOctets === null) continue;
        const interfaceId = idByIndex.get(i.ifIndex)!;
        const current: CounterSample = {
          takenAt: now,
          inOctets: i.inOctets,
          outOctets: i.outOctets,
          uptimeTicks: reading.uptimeTicks,
          width: i.width,
        };
        const p = previousById.get(interfaceId);
        const interval = p
          ? rateBetween(
              {
                takenAt: p.takenAt,
                inOctets: p.inOctets,
                outOctets: p.outOctets,
                uptimeTicks: p.uptimeTicks,
                width: p.counterBits === 32 ? 32 : 64,
              },
              current,
              { pollIntervalMs: this.pollIntervalMs, speedMbps: limitingSpeedMbps(i) },
            )
          : null;
        values.push({
          interfaceId,
          takenAt: now,
          inOctets: i.inOctets,
          outOctets: i.outOctets,
          uptimeTicks: reading.uptimeTicks,
          counterBits: i.width,
          intervalKind: interval?.kind ?? null,
          intervalSeconds: interval?.seconds ?? null,
          inBps: interval?.inBps ?? null,
          outBps: interval?.outBps ?? null,
          inBytes: interval?.inBytes === null || interval?.inBytes === undefined ? null : Number(interval.inBytes),
          outBytes: interval?.outBytes === null || interval?.outBytes === undefined ? null : Number(interval.outBytes),
        });
      }
      if (values.length) {
        // The same device polled twice at one instant (poll now during a round) keeps the first reading.
        const inserted = await repo.insertSamples(values);
        samples = inserted.length;
      }
    });
    return {
      deviceId: device.id,
      status: 'up',
      interfaces: reading.interfaces.length,
      samples,
      error: null,
      nextPollAt,
    };
  }
}
