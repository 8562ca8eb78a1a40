/**
 * The RADIUS module's queries: accounting sessions and the daily usage they book, data allowances, the NAS
 * clients, PPPoE credentials, the subscriber directory's rows, and the cut-off's disconnect requests.
 */
import { and, asc, eq, gte, inArray, isNotNull, isNull, like, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { plans, subscriptions, users } from '../../db/schema';
import { devices } from '../../db/schema/devices';
import { ipAssignments, ipNetworks, subscriptionAddressing } from '../../db/schema/ipam';
import {
  radiusDisconnects,
  radiusSessions,
  radiusUsageDaily,
  serviceCredentials,
  type RadiusDisconnectRow,
  type RadiusSessionRow,
  type ServiceCredentialRow,
} from '../../db/schema/radius';

/** A subscriber directory row: the credentials with their subscription, plan and addressing. */
const columns = {
  subscriptionId: serviceCredentials.subscriptionId,
  username: serviceCredentials.username,
  passwordSealed: serviceCredentials.passwordSealed,
  status: subscriptions.status,
  periodStart: subscriptions.currentPeriodStart,
  periodEnd: subscriptions.currentPeriodEnd,
  planId: subscriptions.planId,
  downloadMbps: plans.downloadMbps,
  uploadMbps: plans.uploadMbps,
  dataCapGb: plans.dataCapGb,
  dataCapAction: plans.dataCapAction,
  throttleDownloadKbps: plans.throttleDownloadKbps,
  throttleUploadKbps: plans.throttleUploadKbps,
  usageTiers: plans.usageTiers,
  dataAllowanceBytes: subscriptions.dataAllowanceBytes,
  dataUsedBytes: subscriptions.dataUsedBytes,
  framedIp: ipAssignments.address,
  framedPool: ipNetworks.poolName,
  framedIpv6Prefix: subscriptionAddressing.framedIpv6Prefix,
  delegatedIpv6Prefix: subscriptionAddressing.delegatedIpv6Prefix,
};

/** A CoA sent (or being sent) whose effect is not confirmed yet. */
const awaitingConfirmation = and(
  eq(radiusDisconnects.kind, 'coa'),
  isNull(radiusDisconnects.completedAt),
  inArray(radiusDisconnects.result, ['pending', 'ack']),
);

export function createRadiusRepository(db: Db) {
  return {
    // ---- accounting -----------------------------------------------------------------------------------------

    /** The NAS's session with this Acct-Session-Id, locked FOR UPDATE. */
    async lockSession(nasDeviceId: string, acctSessionId: string): Promise<RadiusSessionRow | undefined> {
      const [row] = await db
        .select()
        .from(radiusSessions)
        .where(and(eq(radiusSessions.nasDeviceId, nasDeviceId), eq(radiusSessions.acctSessionId, acctSessionId)))
        .for('update');
      return row;
    },

    /** Inserts the session; undefined when another packet of it got there first. */
    async insertSession(values: typeof radiusSessions.$inferInsert): Promise<RadiusSessionRow | undefined> {
      const [inserted] = await db.insert(radiusSessions).values(values).onConflictDoNothing().returning();
      return inserted;
    },

    async updateSession(id: string, patch: Partial<RadiusSessionRow>): Promise<RadiusSessionRow> {
      const [updated] = await db.update(radiusSessions).set(patch).where(eq(radiusSessions.id, id)).returning();
      return updated;
    },

    /** The NAS's open and stale sessions close (NAS-Reboot); their ids. */
    async closeSessionsOfNas(deviceId: string, now: Date): Promise<{ id: string }[]> {
      return db
        .update(radiusSessions)
        .set({ status: 'closed', stoppedAt: now, terminateCause: 'NAS-Reboot' })
        .where(and(eq(radiusSessions.nasDeviceId, deviceId), inArray(radiusSessions.status, ['open', 'stale'])))
        .returning({ id: radiusSessions.id });
    },

    /**
     * Open sessions with no update for twice their interim interval (interimInterval when they have none) become
     * stale, stopped at their last update; their ids.
     */
    async closeStaleSessions(now: Date, interimInterval: number): Promise<{ id: string }[]> {
      return db
        .update(radiusSessions)
        .set({ status: 'stale', stoppedAt: sql`${radiusSessions.updatedAt}`, terminateCause: 'Stale' })
        .where(
          and(
            eq(radiusSessions.status, 'open'),
            sql`${radiusSessions.updatedAt} + make_interval(secs => coalesce(${radiusSessions.interimInterval}, ${interimInterval}) * 2) < ${now.toISOString()}::timestamptz`,
          ),
        )
        .returning({ id: radiusSessions.id });
    },

    /** Adds octets to the subscription's day. */
    async addUsage(subscriptionId: string, day: string, input: number, output: number): Promise<void> {
      await db
        .insert(radiusUsageDaily)
        .values({ subscriptionId, day, inputOctets: input, outputOctets: output })
        .onConflictDoUpdate({
          target: [radiusUsageDaily.subscriptionId, radiusUsageDaily.day],
          set: {
            inputOctets: sql`${radiusUsageDaily.inputOctets} + excluded.input_octets`,
            outputOctets: sql`${radiusUsageDaily.outputOctets} + excluded.output_octets`,
          },
        });
    },

    /** Both directions' bytes the subscription booked from firstDay on. */
    async bytesSince(subscriptionId: string, firstDay: string) {
      const [row] = await db
        .select({
          bytes: sql<string>`coalesce(sum(${radiusUsageDaily.inputOctets} + ${radiusUsageDaily.outputOctets}), 0)`,
        })
        .from(radiusUsageDaily)
        .where(and(eq(radiusUsageDaily.subscriptionId, subscriptionId), gte(radiusUsageDaily.day, firstDay)));
      return row;
    },

    // ---- data allowances --------------------------------------------------------------------------------------

    /** Adds bytes to a line with an allowance; its status, allowance, use and period end after (none: no such line). */
    async addDataUsed(subscriptionId: string, bytes: number) {
      const [row] = await db
        .update(subscriptions)
        .set({ dataUsedBytes: sql`${subscriptions.dataUsedBytes} + ${bytes}` })
        .where(and(eq(subscriptions.id, subscriptionId), isNotNull(subscriptions.dataAllowanceBytes)))
        .returning({
          status: subscriptions.status,
          allowance: subscriptions.dataAllowanceBytes,
          used: subscriptions.dataUsedBytes,
          periodEnd: subscriptions.currentPeriodEnd,
        });
      return row;
    },

    /** The line expires, its period ending at periodEnd. */
    async endLine(subscriptionId: string, periodEnd: Date, now: Date): Promise<void> {
      await db
        .update(subscriptions)
        .set({ status: 'expired', currentPeriodEnd: periodEnd, updatedAt: now })
        .where(eq(subscriptions.id, subscriptionId));
    },

    // ---- NAS clients and credentials --------------------------------------------------------------------------

    /** The devices with a RADIUS shared secret. */
    async devicesWithSecret() {
      return db.select().from(devices).where(isNotNull(devices.radiusSecret));
    },

    /** The customer number of the subscription's customer. */
    async customerNumberOf(subscriptionId: string) {
      const [owner] = await db
        .select({ customerNumber: users.customerNumber })
        .from(subscriptions)
        .innerJoin(users, eq(users.id, subscriptions.userId))
        .where(eq(subscriptions.id, subscriptionId))
        .limit(1);
      return owner;
    },

    /** The usernames `base` and `base-…` taken. */
    async usernamesLike(base: string): Promise<{ username: string }[]> {
      return db
        .select({ username: serviceCredentials.username })
        .from(serviceCredentials)
        .where(or(eq(serviceCredentials.username, base), like(serviceCredentials.username, `${base}-%`)));
    },

    /** Inserts the credentials; undefined when the subscription or the username has some already. */
    async insertCredentials(values: typeof serviceCredentials.$inferInsert): Promise<ServiceCredentialRow | undefined> {
      const [inserted] = await db.insert(serviceCredentials).values(values).onConflictDoNothing().returning();
      return inserted;
    },

    async credentialsOf(subscriptionId: string): Promise<ServiceCredentialRow | undefined> {
      const [row] = await db
        .select()
        .from(serviceCredentials)
        .where(eq(serviceCredentials.subscriptionId, subscriptionId))
        .limit(1);
      return row;
    },

    /** The subscriber directory's rows: every subscriber's, or one subscription's, or one username's. */
    async subscribers(only?: { subscriptionId?: string; username?: string }) {
      const query = db
        .select(columns)
        .from(serviceCredentials)
        .innerJoin(subscriptions, eq(subscriptions.id, serviceCredentials.subscriptionId))
        .innerJoin(plans, eq(plans.id, subscriptions.planId))
        .leftJoin(
          ipAssignments,
          and(eq(ipAssignments.subscriptionId, serviceCredentials.subscriptionId), eq(ipAssignments.state, 'static')),
        )
        .leftJoin(subscriptionAddressing, eq(subscriptionAddressing.subscriptionId, serviceCredentials.subscriptionId))
        .leftJoin(ipNetworks, eq(ipNetworks.id, subscriptionAddressing.poolNetworkId))
        .$dynamic();
      if (only?.subscriptionId !== undefined)
        return query.where(eq(serviceCredentials.subscriptionId, only.subscriptionId));
      if (only?.username !== undefined) return query.where(eq(serviceCredentials.username, only.username));
      return query;
    },

    // ---- cut-off: sessions and disconnect requests ------------------------------------------------------------

    async session(id: string): Promise<RadiusSessionRow | undefined> {
      const [session] = await db.select().from(radiusSessions).where(eq(radiusSessions.id, id)).limit(1);
      return session;
    },

    /** An open session closes (if still open) with this terminate cause. */
    async closeOpenSession(id: string, now: Date, terminateCause: string): Promise<void> {
      await db
        .update(radiusSessions)
        .set({ status: 'closed', stoppedAt: now, terminateCause })
        .where(and(eq(radiusSessions.id, id), eq(radiusSessions.status, 'open')));
    },

    /** The open sessions of a login with no subscription (a voucher's), oldest first. */
    async openSessionsOfLogin(username: string): Promise<RadiusSessionRow[]> {
      return db
        .select()
        .from(radiusSessions)
        .where(
          and(
            eq(radiusSessions.username, username),
            isNull(radiusSessions.subscriptionId),
            eq(radiusSessions.status, 'open'),
          ),
        )
        .orderBy(asc(radiusSessions.startedAt));
    },

    /** The subscription's open sessions, oldest first. */
    async openSessionsOf(subscriptionId: string): Promise<RadiusSessionRow[]> {
      return db
        .select()
        .from(radiusSessions)
        .where(and(eq(radiusSessions.subscriptionId, subscriptionId), eq(radiusSessions.status, 'open')))
        .orderBy(asc(radiusSessions.startedAt));
    },

    /** A disconnect of the session still under way, if any. */
    async openDisconnectOf(sessionId: string): Promise<{ id: string } | undefined> {
      const [pending] = await db
        .select({ id: radiusDisconnects.id })
        .from(radiusDisconnects)
        .where(
          and(
            eq(radiusDisconnects.sessionId, sessionId),
            eq(radiusDisconnects.kind, 'disconnect'),
            isNull(radiusDisconnects.completedAt),
          ),
        )
        .limit(1);
      return pending;
    },

    /** Every disconnect of the session still under way. */
    async openDisconnectsOf(sessionId: string): Promise<RadiusDisconnectRow[]> {
      return db
        .select()
        .from(radiusDisconnects)
        .where(
          and(
            eq(radiusDisconnects.sessionId, sessionId),
            eq(radiusDisconnects.kind, 'disconnect'),
            isNull(radiusDisconnects.completedAt),
          ),
        );
    },

    /** The session's disconnects under way are done. */
    async completeOpenDisconnectsOf(sessionId: string, now: Date): Promise<void> {
      await db
        .update(radiusDisconnects)
        .set({ completedAt: now, nextCheckAt: null })
        .where(
          and(
            eq(radiusDisconnects.sessionId, sessionId),
            eq(radiusDisconnects.kind, 'disconnect'),
            isNull(radiusDisconnects.completedAt),
          ),
        );
    },

    /** Open disconnects whose check is due, the earliest first. */
    async dueDisconnects(now: Date): Promise<RadiusDisconnectRow[]> {
      return db
        .select()
        .from(radiusDisconnects)
        .where(and(isNull(radiusDisconnects.completedAt), lte(radiusDisconnects.nextCheckAt, now)))
        .orderBy(asc(radiusDisconnects.nextCheckAt));
    },

    async disconnectRow(id: string): Promise<RadiusDisconnectRow | undefined> {
      const [row] = await db.select().from(radiusDisconnects).where(eq(radiusDisconnects.id, id)).limit(1);
      return row;
    },

    async insertDisconnect(values: typeof radiusDisconnects.$inferInsert): Promise<RadiusDisconnectRow> {
      const [row] = await db.insert(radiusDisconnects).values(values).returning();
      return row;
    },

    async updateDisconnect(id: string, values: Partial<RadiusDisconnectRow>): Promise<RadiusDisconnectRow> {
      const [updated] = await db.update(radiusDisconnects).set(values).where(eq(radiusDisconnects.id, id)).returning();
      return updated;
    },

    async setDisconnect(id: string, values: Partial<RadiusDisconnectRow>): Promise<void> {
      await db.update(radiusDisconnects).set(values).where(eq(radiusDisconnects.id, id));
    },

    // ---- verified changes (issue 36): CoA requests awaiting the session's report of the new policy ---------
    // Each transition is one UPDATE guarded by `completed_at is null and result in (pending, ack)`: whichever
    // node or packet gets there first takes the row, the others get nothing back and do nothing.

    /** The session's CoAs still awaiting confirmation whose expected policy is `policy`: confirmed now. */
    async confirmCoas(sessionId: string, policy: string, now: Date, detail: string): Promise<RadiusDisconnectRow[]> {
      return db
        .update(radiusDisconnects)
        .set({ result: 'confirmed', completedAt: now, detail })
        .where(
          and(
            eq(radiusDisconnects.sessionId, sessionId),
            awaitingConfirmation,
            eq(radiusDisconnects.expectedPolicy, policy),
          ),
        )
        .returning();
    },

    /** The session ended: every CoA of it still awaiting confirmation is confirmed (nothing runs the old policy). */
    async confirmCoasOfEnded(sessionId: string, now: Date, detail: string): Promise<RadiusDisconnectRow[]> {
      return db
        .update(radiusDisconnects)
        .set({ result: 'confirmed', completedAt: now, detail })
        .where(and(eq(radiusDisconnects.sessionId, sessionId), awaitingConfirmation))
        .returning();
    },

    /** A newer CoA for the session replaces the ones still awaiting confirmation (closed as they are, with `detail`). */
    async supersedeCoas(sessionId: string, now: Date, detail: string): Promise<RadiusDisconnectRow[]> {
      return db
        .update(radiusDisconnects)
        .set({ completedAt: now, detail })
        .where(and(eq(radiusDisconnects.sessionId, sessionId), awaitingConfirmation))
        .returning();
    },

    /** CoAs past their verify_by without confirmation: unconfirmed now, each taken by exactly one caller. */
    async expireUnconfirmedCoas(now: Date, detail: string): Promise<RadiusDisconnectRow[]> {
      return db
        .update(radiusDisconnects)
        .set({ result: 'unconfirmed', completedAt: now, detail })
        .where(and(awaitingConfirmation, lte(radiusDisconnects.verifyBy, now)))
        .returning();
    },

    /** The NAS's answer to a CoA still awaiting confirmation (undefined: it was confirmed or closed meanwhile). */
    async recordCoaAnswer(id: string, values: Partial<RadiusDisconnectRow>): Promise<RadiusDisconnectRow | undefined> {
      const [updated] = await db
        .update(radiusDisconnects)
        .set(values)
        .where(and(eq(radiusDisconnects.id, id), awaitingConfirmation))
        .returning();
      return updated;
    },

    /** A send recorded on a disconnect still open; undefined when it was completed meanwhile. */
    async recordSent(id: string, values: Partial<RadiusDisconnectRow>): Promise<RadiusDisconnectRow | undefined> {
      const [updated] = await db
        .update(radiusDisconnects)
        .set(values)
        .where(and(eq(radiusDisconnects.id, id), isNull(radiusDisconnects.completedAt)))
        .returning();
      return updated;
    },
  };
}
