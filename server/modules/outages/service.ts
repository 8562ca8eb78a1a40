/**
 * Outages and maintenance windows (issue 38). Who an incident reaches: the subscriptions with a RADIUS session
 * through its device(s) — open when it began, or ended shortly before (AFFECTED_WINDOW: a dying NAS stops its
 * sessions, or the stale-session sweep does). Staff incidents about an area reach the customers of every device at
 * that location; a planned window looks back further (STAFF_WINDOW), since nobody's session is cut yet.
 *
 * Poller incidents: a NAS (a device with a RADIUS secret) that was up and fails its poll opens an outage; an
 * uplink — an interface the ISP names with a device tag `uplink:<ifName>` on the NAS behind it — going from up to
 * any other status opens one for that interface. The partial unique index allows one open poller incident per
 * device and interface, so pollers on several nodes open it once. The device (interface) answering up again
 * resolves it. Customers are recorded and messaged in the incident's transaction (one message per event key and
 * channel, sent after the commit): "started" when it begins, "ended" when it is resolved.
 */
import type { FastifyBaseLogger } from 'fastify';
import { DAY_MS, MINUTE_MS, type Clock } from '../../lib/clock';
import type { Db } from '../../db/client';
import type { IncidentRow } from '../../db/schema/messaging';
import type { DevicePolled } from '../traffic/poller';
import type { Notifier } from '../messaging/types';
import { composeIncidentMessage, type IncidentEvent } from './messages';
import { createOutageRepository } from './repository';

/** A poller incident reaches sessions open when the device went down or ended this long before. */
export const AFFECTED_WINDOW_MS = 15 * MINUTE_MS;
/** A staff incident reaches the customers with a session through its devices in this long before it starts. */
export const STAFF_WINDOW_MS = 7 * DAY_MS;
export const UPLINK_TAG = 'uplink:';

export interface OutageDeps {
  db: Db;
  clock: Clock;
  notifier: Notifier;
  log: FastifyBaseLogger;
  /** The ISP's time zone (settings.time_zone) and the portal's address, for the messages. */
  context: () => Promise<{ timeZone: string | null; appUrl: string }>;
}

export class OutageService {
  constructor(private readonly deps: OutageDeps) {}

  /** The device poller's report of one device (DevicePoller.onPolled). */
  async devicePolled(event: DevicePolled): Promise<void> {
    const { device, status, at } = event;
    const uplinks = device.row.tags.filter((t) => t.startsWith(UPLINK_TAG)).map((t) => t.slice(UPLINK_TAG.length));
    const isNas = device.radiusSecret !== null;
    if (!isNas && !uplinks.length) return;
    if (status === 'down') {
      // Only a change from up: a device never reached (new, misconfigured) tells nothing about customers.
      if (device.status === 'up') await this.openPollerIncident(device, null, at);
      return;
    }
    await this.resolvePollerIncidents(device.id, null, at);
    for (const name of uplinks) {
      const iface = event.interfaces.find((i) => i.name === name);
      if (!iface) continue;
      if (iface.now === 'up') await this.resolvePollerIncidents(device.id, name, at);
      else if (iface.before === 'up') await this.openPollerIncident(device, name, at);
    }
  }

  private async openPollerIncident(
    device: DevicePolled['device'],
    interfaceName: string | null,
    at: Date,
  ): Promise<void> {
    const area = device.location?.trim() || null;
    await this.inTransaction(async (tx, notify) => {
      const repo = createOutageRepository(tx);
      const incident = await repo.openPollerIncident({
        kind: 'outage',
        source: 'poller',
        // Staff's list shows it; customers read a standard text in their language (no device names in public).
        title: area ? `Service interruption in ${area}` : 'Service interruption',
        area,
        deviceId: device.id,
        interfaceName,
        startsAt: at,
        createdAt: at,
        updatedAt: at,
      });
      if (!incident) return; // already open (another node, an earlier poll)
      const customers = await repo.recordCustomers(
        incident.id,
        [device.id],
        new Date(at.getTime() - AFFECTED_WINDOW_MS),
      );
      await notify(incident, 'started', customers);
      this.deps.log.warn(
        { incidentId: incident.id, deviceId: device.id, interfaceName, customers: customers.length },
        'outage opened',
      );
    });
  }

  private async resolvePollerIncidents(deviceId: string, interfaceName: string | null, at: Date): Promise<void> {
    await this.inTransaction(async (tx, notify) => {
      const repo = createOutageRepository(tx);
      for (const incident of await repo.resolvePollerIncidents(deviceId, interfaceName, at)) {
        await notify(incident, 'ended', await repo.customersOf(incident.id));
        this.deps.log.info({ incidentId: incident.id, deviceId, interfaceName }, 'outage resolved');
      }
    });
  }

  /**
   * The periodic check (every minute, any node): staff incidents whose start has come get their customers and the
   * "started" message; incidents whose planned end has come are resolved with the "ended" one.
   */
  async tick(now: Date = this.deps.clock.now()): Promise<{ started: number; ended: number }> {
    const repo = createOutageRepository(this.deps.db);
    let started = 0;
    for (const incident of await repo.staffIncidentsToStart(now)) {
      if (await this.start(incident)) started++;
    }
    let ended = 0;
    for (const incident of await repo.incidentsToEnd(now)) {
      if (await this.resolve(incident.id, incident.endsAt ?? now)) ended++;
    }
    return { started, ended };
  }

  /** Records a staff incident's customers and tells them it started; false: it reached nobody. */
  private async start(incident: IncidentRow): Promise<boolean> {
    return this.inTransaction(async (tx, notify) => {
      const repo = createOutageRepository(tx);
      const deviceIds = incident.deviceId
        ? [incident.deviceId]
        : incident.area
          ? await repo.devicesAt(incident.area)
          : [];
      const since = new Date(incident.startsAt.getTime() - STAFF_WINDOW_MS);
      const customers = await repo.recordCustomers(incident.id, deviceIds, since);
      await notify(incident, 'started', customers);
      return customers.length > 0;
    });
  }

  /**
   * Resolves an open incident at `at` and tells its customers; `also` runs in the same transaction (staff's audit
   * record). undefined: it was not open.
   */
  async resolve(
    id: string,
    at: Date,
    also?: (tx: Db, incident: IncidentRow) => Promise<void>,
  ): Promise<IncidentRow | undefined> {
    return this.inTransaction(async (tx, notify) => {
      const repo = createOutageRepository(tx);
      const incident = await repo.resolve(id, at);
      if (!incident) return undefined;
      await notify(incident, 'ended', await repo.customersOf(incident.id));
      await also?.(tx, incident);
      return incident;
    });
  }

  private async inTransaction<T>(work: (tx: Db, notify: Notify) => Promise<T>): Promise<T> {
    const stored: string[] = [];
    const result = await this.deps.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      return work(tx, (incident, event, customers) => this.notifyAll(tx, incident, event, customers, stored));
    });
    if (stored.length) await this.deps.notifier.flush(stored);
    return result;
  }

  private async notifyAll(
    tx: Db,
    incident: IncidentRow,
    event: IncidentEvent,
    customers: { userId: string }[],
    stored: string[],
  ): Promise<void> {
    const context = await this.deps.context();
    for (const userId of new Set(customers.map((c) => c.userId))) {
      const outcomes = await this.deps.notifier.notify(
        {
          userId,
          category: 'outages',
          eventKey: `incident:${incident.id}:${event}:${userId}`,
          template: `incident.${event}`,
          compose: (language) => composeIncidentMessage(language, incident, event, context),
        },
        tx,
      );
      for (const o of outcomes) if (o.messageId) stored.push(o.messageId);
    }
  }
}

type Notify = (incident: IncidentRow, event: IncidentEvent, customers: { userId: string }[]) => Promise<void>;
