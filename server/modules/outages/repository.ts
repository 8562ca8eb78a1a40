/** The outages module's queries: incidents, the customers they reach, and the sessions that decide who that is. */
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { subscriptions } from '../../db/schema';
import { devices } from '../../db/schema/devices';
import { incidentCustomers, incidents, type IncidentRow } from '../../db/schema/messaging';
import { radiusSessions } from '../../db/schema/radius';

type NewIncident = typeof incidents.$inferInsert;

export function createOutageRepository(db: Db) {
  return {
    async find(id: string): Promise<IncidentRow | undefined> {
      const [row] = await db.select().from(incidents).where(eq(incidents.id, id));
      return row;
    },

    /** Opens a poller incident unless one is already open for this device and interface (another node's). */
    async openPollerIncident(values: NewIncident): Promise<IncidentRow | undefined> {
      const [row] = await db.insert(incidents).values(values).onConflictDoNothing().returning();
      return row;
    },

    /** Resolves the open poller incidents of this device and interface (null: the device itself); returns them. */
    async resolvePollerIncidents(deviceId: string, interfaceName: string | null, at: Date): Promise<IncidentRow[]> {
      return db
        .update(incidents)
        .set({ resolvedAt: at, endsAt: at, updatedAt: at })
        .where(
          and(
            eq(incidents.source, 'poller'),
            eq(incidents.deviceId, deviceId),
            sql`coalesce(${incidents.interfaceName}, '') = ${interfaceName ?? ''}`,
            isNull(incidents.resolvedAt),
          ),
        )
        .returning();
    },

    /** Resolves one open incident at `at` (its end becomes `at` unless planned earlier); undefined: not open. */
    async resolve(id: string, at: Date): Promise<IncidentRow | undefined> {
      const [row] = await db
        .update(incidents)
        .set({
          resolvedAt: at,
          endsAt: sql`case when ${incidents.endsAt} is not null and ${incidents.endsAt} < ${at.toISOString()}::timestamptz then ${incidents.endsAt} else ${at.toISOString()}::timestamptz end`,
          updatedAt: at,
        })
        .where(and(eq(incidents.id, id), isNull(incidents.resolvedAt)))
        .returning();
      return row;
    },

    /** The NAS devices at an area (their location, compared without case). */
    async devicesAt(area: string): Promise<string[]> {
      const rows = await db
        .select({ id: devices.id })
        .from(devices)
        .where(sql`lower(trim(${devices.location})) = lower(trim(${area}))`);
      return rows.map((r) => r.id);
    },

    /**
     * Records as the incident's customers the subscriptions with a RADIUS session through these devices that was
     * open, or ended at or after `since` (a NAS that dies stops its sessions, or the stale-session sweep does).
     * Idempotent; returns every customer the incident now has.
     */
    async recordCustomers(
      incidentId: string,
      deviceIds: string[],
      since: Date,
    ): Promise<{ subscriptionId: string; userId: string }[]> {
      if (deviceIds.length) {
        const reached = db
          .selectDistinct({
            incidentId: sql<string>`${incidentId}::uuid`.as('incident_id'),
            subscriptionId: sql<string>`${subscriptions.id}`.as('subscription_id'),
            userId: sql<string>`${subscriptions.userId}`.as('user_id'),
          })
          .from(radiusSessions)
          .innerJoin(subscriptions, eq(subscriptions.id, radiusSessions.subscriptionId))
          .where(
            and(
              inArray(radiusSessions.nasDeviceId, deviceIds),
              or(
                eq(radiusSessions.status, 'open'),
                gte(sql`coalesce(${radiusSessions.stoppedAt}, ${radiusSessions.updatedAt})`, since),
              ),
            ),
          );
        await db.insert(incidentCustomers).select(reached).onConflictDoNothing();
      }
      return this.customersOf(incidentId);
    },

    async customersOf(incidentId: string) {
      return db
        .select({ subscriptionId: incidentCustomers.subscriptionId, userId: incidentCustomers.userId })
        .from(incidentCustomers)
        .where(eq(incidentCustomers.incidentId, incidentId));
    },

    /** Staff incidents whose start has come, not over, whose customers are not recorded yet. */
    async staffIncidentsToStart(now: Date): Promise<IncidentRow[]> {
      return db
        .select()
        .from(incidents)
        .where(
          and(
            eq(incidents.source, 'staff'),
            lte(incidents.startsAt, now),
            isNull(incidents.resolvedAt),
            or(isNull(incidents.endsAt), sql`${incidents.endsAt} > ${now.toISOString()}::timestamptz`),
            sql`not exists (select 1 from ${incidentCustomers} where ${incidentCustomers.incidentId} = ${incidents.id})`,
          ),
        );
    },

    /** Open incidents whose planned end has come. */
    async incidentsToEnd(now: Date): Promise<IncidentRow[]> {
      return db
        .select()
        .from(incidents)
        .where(and(isNull(incidents.resolvedAt), isNotNull(incidents.endsAt), lte(incidents.endsAt, now)));
    },

    /** The incidents reaching this customer now (started, not resolved, not past their end). */
    async currentFor(userId: string, now: Date): Promise<IncidentRow[]> {
      const rows = await db
        .selectDistinctOn([incidents.startsAt, incidents.id], { incident: incidents })
        .from(incidents)
        .innerJoin(incidentCustomers, eq(incidentCustomers.incidentId, incidents.id))
        .where(
          and(
            eq(incidentCustomers.userId, userId),
            lte(incidents.startsAt, now),
            isNull(incidents.resolvedAt),
            or(isNull(incidents.endsAt), sql`${incidents.endsAt} > ${now.toISOString()}::timestamptz`),
          ),
        )
        .orderBy(desc(incidents.startsAt), asc(incidents.id));
      return rows.map((r) => r.incident);
    },

    /** For the public status page: every open incident and those resolved since `resolvedSince`, newest first. */
    async forStatus(resolvedSince: Date): Promise<IncidentRow[]> {
      return db
        .select()
        .from(incidents)
        .where(or(isNull(incidents.resolvedAt), gte(incidents.resolvedAt, resolvedSince)))
        .orderBy(desc(incidents.startsAt), asc(incidents.id))
        .limit(500);
    },
  };
}
