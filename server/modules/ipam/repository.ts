/**
 * IP address management's queries (issue 22): networks (under one advisory lock for every change), their
 * assignments, the subscriptions' addressing and delegated prefixes, and what the lists read beyond them (open
 * RADIUS sessions inside a pool, holders, NAS names, who had an address).
 */
import { and, asc, count, desc, eq, gt, inArray, isNotNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { subscriptions, users } from '../../db/schema';
import { devices } from '../../db/schema/devices';
import {
  ipAssignments,
  ipNetworks,
  subscriptionAddressing,
  type IpAssignmentRow,
  type IpNetworkRow,
} from '../../db/schema/ipam';
import { radiusSessions } from '../../db/schema/radius';

/** Statuses whose subscription no longer holds its address (cancelled only once its paid period is over). */
const ENDED_STATUSES = ['expired', 'cancelled'] as const;

/** Networks whose addresses the NAS hands out itself (no assignment rows). */
const DYNAMIC_PURPOSES = ['pool', 'walled_garden'] as const;

/** The IPv4 number of framed_ip, or null when it is none (an IPv6 or malformed value). */
const framedIpNumber: SQL<string | null> =
  sql`(case when ${radiusSessions.framedIp} ~ '^[0-9]{1,3}(\\.[0-9]{1,3}){3}$' then
  split_part(${radiusSessions.framedIp}, '.', 1)::numeric * 16777216 + split_part(${radiusSessions.framedIp}, '.', 2)::numeric * 65536
  + split_part(${radiusSessions.framedIp}, '.', 3)::numeric * 256 + split_part(${radiusSessions.framedIp}, '.', 4)::numeric end)`;

/** The address map's filter: a network's addresses in use (not in a quarantine that ran out), by state and range. */
export interface AddressFilter {
  networkId: string;
  now: Date;
  state?: IpAssignmentRow['state'];
  /** Address numbers (decimal). */
  from?: string;
  to?: string;
}

export function createIpamRepository(db: Db) {
  const addressWhere = (f: AddressFilter) =>
    and(
      eq(ipAssignments.networkId, f.networkId),
      or(ne(ipAssignments.state, 'quarantined'), gt(ipAssignments.quarantineUntil, f.now)),
      f.state ? eq(ipAssignments.state, f.state) : undefined,
      f.from !== undefined ? sql`${ipAssignments.addressNum} >= ${f.from}` : undefined,
      f.to !== undefined ? sql`${ipAssignments.addressNum} <= ${f.to}` : undefined,
    );
  /** Subscriptions no longer served at `now` (one, when subscriptionId is given). */
  const ended = (now: Date, subscriptionId?: string) =>
    and(
      inArray(subscriptions.status, [...ENDED_STATUSES]),
      or(
        eq(subscriptions.status, 'expired'),
        sql`${subscriptions.currentPeriodEnd} is null`,
        lte(subscriptions.currentPeriodEnd, now),
      ),
      subscriptionId ? eq(subscriptions.id, subscriptionId) : undefined,
    );

  return {
    // ---- networks -------------------------------------------------------------------------------------------

    /** One lock for every network change (the overlap check). */
    async lockNetworks(): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext('ipam.networks'))`);
    },

    /** A network of the family whose range meets [start, end] (other than selfId), if any. */
    async overlapping(family: number, start: string, end: string, selfId: string | null) {
      const [other] = await db
        .select({ name: ipNetworks.name, cidr: ipNetworks.cidr })
        .from(ipNetworks)
        .where(
          and(
            eq(ipNetworks.family, family),
            lte(ipNetworks.rangeStart, end),
            sql`${ipNetworks.rangeEnd} >= ${start}`,
            selfId ? ne(ipNetworks.id, selfId) : undefined,
          ),
        )
        .limit(1);
      return other;
    },

    /** Another network with this name (case-insensitive), if any. */
    async sameName(name: string, selfId: string | null) {
      const [sameName] = await db
        .select({ id: ipNetworks.id })
        .from(ipNetworks)
        .where(and(sql`lower(${ipNetworks.name}) = lower(${name})`, selfId ? ne(ipNetworks.id, selfId) : undefined))
        .limit(1);
      return sameName;
    },

    async device(id: string) {
      const [device] = await db.select({ id: devices.id }).from(devices).where(eq(devices.id, id)).limit(1);
      return device;
    },

    async countNetworks(purpose?: IpNetworkRow['purpose']): Promise<number> {
      const where = purpose ? eq(ipNetworks.purpose, purpose) : undefined;
      const [{ total }] = await db.select({ total: count() }).from(ipNetworks).where(where);
      return total;
    },

    /** One page of networks (of a purpose, when given), by family and start. */
    async networksPage(purpose: IpNetworkRow['purpose'] | undefined, limit: number, offset: number) {
      const where = purpose ? eq(ipNetworks.purpose, purpose) : undefined;
      return db
        .select()
        .from(ipNetworks)
        .where(where)
        .orderBy(asc(ipNetworks.family), asc(ipNetworks.rangeStart))
        .limit(limit)
        .offset(offset);
    },

    async network(id: string): Promise<IpNetworkRow | undefined> {
      const [row] = await db.select().from(ipNetworks).where(eq(ipNetworks.id, id)).limit(1);
      return row;
    },

    async lockNetwork(id: string): Promise<IpNetworkRow | undefined> {
      const [row] = await db.select().from(ipNetworks).where(eq(ipNetworks.id, id)).limit(1).for('update');
      return row;
    },

    async insertNetwork(values: typeof ipNetworks.$inferInsert): Promise<IpNetworkRow> {
      const [created] = await db.insert(ipNetworks).values(values).returning();
      return created;
    },

    async updateNetwork(id: string, values: Partial<typeof ipNetworks.$inferInsert>): Promise<IpNetworkRow> {
      const [updated] = await db.update(ipNetworks).set(values).where(eq(ipNetworks.id, id)).returning();
      return updated;
    },

    async deleteNetwork(id: string): Promise<void> {
      await db.delete(ipNetworks).where(eq(ipNetworks.id, id));
    },

    // ---- assignments ----------------------------------------------------------------------------------------

    /** Per network and state: the assignments, those in a quarantine that ran out left out. */
    async assignmentCounts(ids: string[], now: Date) {
      return db
        .select({ networkId: ipAssignments.networkId, state: ipAssignments.state, n: count() })
        .from(ipAssignments)
        .where(
          and(
            inArray(ipAssignments.networkId, ids),
            or(ne(ipAssignments.state, 'quarantined'), gt(ipAssignments.quarantineUntil, now)),
          ),
        )
        .groupBy(ipAssignments.networkId, ipAssignments.state);
    },

    /** An assignment of the network outside [start, end] (address numbers), if any. */
    async assignmentOutside(networkId: string, start: string, end: string) {
      const [outside] = await db
        .select({ address: ipAssignments.address })
        .from(ipAssignments)
        .where(
          and(
            eq(ipAssignments.networkId, networkId),
            or(sql`${ipAssignments.addressNum} < ${start}`, sql`${ipAssignments.addressNum} > ${end}`),
          ),
        )
        .limit(1);
      return outside;
    },

    /** The network's static assignments, counted. */
    async staticCount(networkId: string): Promise<{ n: number }> {
      const [held] = await db
        .select({ n: count() })
        .from(ipAssignments)
        .where(and(eq(ipAssignments.networkId, networkId), eq(ipAssignments.state, 'static')));
      return held;
    },

    /** The subscriptions whose pool is the network, counted. */
    async poolCount(networkId: string): Promise<{ n: number }> {
      const [pooled] = await db
        .select({ n: count() })
        .from(subscriptionAddressing)
        .where(eq(subscriptionAddressing.poolNetworkId, networkId));
      return pooled;
    },

    async deleteAssignments(networkId: string): Promise<void> {
      await db.delete(ipAssignments).where(eq(ipAssignments.networkId, networkId));
    },

    async countAddresses(filter: AddressFilter): Promise<number> {
      const [{ total }] = await db.select({ total: count() }).from(ipAssignments).where(addressWhere(filter));
      return total;
    },

    /** One page of the address map, by address. */
    async addressesPage(filter: AddressFilter, limit: number, offset: number): Promise<IpAssignmentRow[]> {
      return db
        .select()
        .from(ipAssignments)
        .where(addressWhere(filter))
        .orderBy(asc(ipAssignments.addressNum))
        .limit(limit)
        .offset(offset);
    },

    /** The assignment of this address in the network, if any. */
    async assignmentAt(networkId: string, address: string): Promise<IpAssignmentRow | undefined> {
      const [row] = await db
        .select()
        .from(ipAssignments)
        .where(and(eq(ipAssignments.networkId, networkId), eq(ipAssignments.address, address)))
        .limit(1);
      return row;
    },

    /** The address numbers in use in the network (not in a quarantine that ran out), ascending. */
    async takenNumbers(networkId: string, now: Date) {
      return db
        .select({ n: ipAssignments.addressNum })
        .from(ipAssignments)
        .where(
          and(
            eq(ipAssignments.networkId, networkId),
            or(ne(ipAssignments.state, 'quarantined'), gt(ipAssignments.quarantineUntil, now)),
          ),
        )
        .orderBy(asc(ipAssignments.addressNum));
    },

    /** Inserts the static row, or takes a row whose quarantine ran out; empty when the address is held. */
    async takeStatic(
      networkId: string,
      subscriptionId: string,
      address: string,
      addressNum: string,
      now: Date,
    ): Promise<{ id: string }[]> {
      return db
        .insert(ipAssignments)
        .values({
          networkId,
          address,
          addressNum,
          subscriptionId,
          state: 'static',
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [ipAssignments.networkId, ipAssignments.address],
          set: { state: 'static', subscriptionId, quarantineUntil: null, note: null, updatedAt: now },
          setWhere: sql`${ipAssignments.state} = 'quarantined' and ${ipAssignments.quarantineUntil} <= ${now}`,
        })
        .returning({ id: ipAssignments.id });
    },

    /** The subscription's static address and its network (LIMIT 1). */
    async staticAddressOf(subscriptionId: string) {
      const [assignment] = await db
        .select({ address: ipAssignments.address, networkId: ipAssignments.networkId })
        .from(ipAssignments)
        .where(and(eq(ipAssignments.subscriptionId, subscriptionId), eq(ipAssignments.state, 'static')))
        .limit(1);
      return assignment;
    },

    /** The subscription's static assignment with its network's quarantine days. */
    async staticAssignmentOf(subscriptionId: string) {
      const [held] = await db
        .select({ assignment: ipAssignments, days: ipNetworks.quarantineDays })
        .from(ipAssignments)
        .innerJoin(ipNetworks, eq(ipNetworks.id, ipAssignments.networkId))
        .where(and(eq(ipAssignments.subscriptionId, subscriptionId), eq(ipAssignments.state, 'static')))
        .limit(1);
      return held;
    },

    async quarantine(assignmentId: string, until: Date, now: Date): Promise<void> {
      await db
        .update(ipAssignments)
        .set({ state: 'quarantined', quarantineUntil: until, updatedAt: now })
        .where(eq(ipAssignments.id, assignmentId));
    },

    // ---- a subscription's addressing -------------------------------------------------------------------------

    /** The subscription's addressing settings, with its pool's name. */
    async addressingOf(subscriptionId: string) {
      const [addressing] = await db
        .select({ settings: subscriptionAddressing, poolName: ipNetworks.poolName })
        .from(subscriptionAddressing)
        .leftJoin(ipNetworks, eq(ipNetworks.id, subscriptionAddressing.poolNetworkId))
        .where(eq(subscriptionAddressing.subscriptionId, subscriptionId))
        .limit(1);
      return addressing;
    },

    /** The subscription row, locked FOR UPDATE. */
    async lockSubscription(subscriptionId: string) {
      const [sub] = await db
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(eq(subscriptions.id, subscriptionId))
        .limit(1)
        .for('update');
      return sub;
    },

    async subscriptionOwner(subscriptionId: string) {
      const [sub] = await db
        .select({ id: subscriptions.id, userId: subscriptions.userId })
        .from(subscriptions)
        .where(eq(subscriptions.id, subscriptionId))
        .limit(1);
      return sub;
    },

    /** Another subscription holding this delegated prefix, if any. */
    async delegatedElsewhere(prefix: string, subscriptionId: string) {
      const [taken] = await db
        .select({ id: subscriptionAddressing.subscriptionId })
        .from(subscriptionAddressing)
        .where(
          and(
            eq(subscriptionAddressing.delegatedIpv6Prefix, prefix),
            ne(subscriptionAddressing.subscriptionId, subscriptionId),
          ),
        )
        .limit(1);
      return taken;
    },

    async saveAddressing(
      subscriptionId: string,
      poolNetworkId: string | null,
      framedIpv6Prefix: string | null,
      delegatedIpv6Prefix: string | null,
      now: Date,
    ): Promise<void> {
      await db
        .insert(subscriptionAddressing)
        .values({
          subscriptionId,
          poolNetworkId,
          framedIpv6Prefix,
          delegatedIpv6Prefix,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: subscriptionAddressing.subscriptionId,
          set: { poolNetworkId, framedIpv6Prefix, delegatedIpv6Prefix, updatedAt: now },
        });
    },

    async leavePool(subscriptionId: string, now: Date): Promise<void> {
      await db
        .update(subscriptionAddressing)
        .set({ poolNetworkId: null, updatedAt: now })
        .where(eq(subscriptionAddressing.subscriptionId, subscriptionId));
    },

    /** Ended subscriptions (see `ended`) that still hold a static address. */
    async endedWithStatic(now: Date, subscriptionId?: string) {
      return db
        .select({ id: ipAssignments.subscriptionId })
        .from(ipAssignments)
        .innerJoin(subscriptions, eq(subscriptions.id, ipAssignments.subscriptionId))
        .where(and(eq(ipAssignments.state, 'static'), ended(now, subscriptionId)));
    },

    /** Ended subscriptions (see `ended`) still in a pool. */
    async endedInPool(now: Date, subscriptionId?: string) {
      return db
        .select({ id: subscriptionAddressing.subscriptionId })
        .from(subscriptionAddressing)
        .innerJoin(subscriptions, eq(subscriptions.id, subscriptionAddressing.subscriptionId))
        .where(and(isNotNull(subscriptionAddressing.poolNetworkId), ended(now, subscriptionId)));
    },

    // ---- delegated prefixes -----------------------------------------------------------------------------------

    /** The lock of one delegation network's allocation. */
    async lockDelegation(networkId: string): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`ipam.delegation.${networkId}`}))`);
    },

    /** The delegated prefixes subscriptions hold (but exceptSubscriptionId's). */
    async delegatedPrefixes(exceptSubscriptionId?: string) {
      return db
        .select({ prefix: subscriptionAddressing.delegatedIpv6Prefix })
        .from(subscriptionAddressing)
        .where(
          and(
            isNotNull(subscriptionAddressing.delegatedIpv6Prefix),
            exceptSubscriptionId ? ne(subscriptionAddressing.subscriptionId, exceptSubscriptionId) : undefined,
          ),
        );
    },

    // ---- what the lists show beyond the assignments ----------------------------------------------------------

    /** Per pool or walled-garden IPv4 network (of those given): distinct addresses in open sessions inside it. */
    async dynamicCounts(ids: string[]) {
      return db
        .select({ networkId: ipNetworks.id, n: sql<string>`count(distinct ${radiusSessions.framedIp})` })
        .from(ipNetworks)
        .innerJoin(
          radiusSessions,
          and(
            eq(radiusSessions.status, 'open'),
            sql`${framedIpNumber} between ${ipNetworks.rangeStart} and ${ipNetworks.rangeEnd}`,
          ),
        )
        .where(
          and(
            inArray(ipNetworks.id, ids),
            eq(ipNetworks.family, 4),
            inArray(ipNetworks.purpose, [...DYNAMIC_PURPOSES]),
          ),
        )
        .groupBy(ipNetworks.id);
    },

    /** Open sessions with an IPv4 address numbered from … to, oldest first (at most 2048), with their customer. */
    async openSessionsBetween(from: string, to: string) {
      return db
        .select({
          address: radiusSessions.framedIp,
          subscriptionId: radiusSessions.subscriptionId,
          userId: subscriptions.userId,
          customerName: users.name,
          username: radiusSessions.username,
          startedAt: radiusSessions.startedAt,
        })
        .from(radiusSessions)
        .leftJoin(subscriptions, eq(subscriptions.id, radiusSessions.subscriptionId))
        .leftJoin(users, eq(users.id, subscriptions.userId))
        .where(and(eq(radiusSessions.status, 'open'), sql`${framedIpNumber} between ${from} and ${to}`))
        .orderBy(radiusSessions.startedAt)
        .limit(2048);
    },

    /** The customer of each subscription given. */
    async holders(subscriptionIds: string[]) {
      return db
        .select({ id: subscriptions.id, userId: users.id, name: users.name })
        .from(subscriptions)
        .innerJoin(users, eq(users.id, subscriptions.userId))
        .where(inArray(subscriptions.id, subscriptionIds));
    },

    async deviceNames(ids: string[]) {
      return db.select({ id: devices.id, name: devices.name }).from(devices).where(inArray(devices.id, ids));
    },

    /**
     * The sessions with this Framed-IP-Address, newest first (those started by `startedBy`, when given), with
     * their subscription's customer and NAS.
     */
    async sessionsWithAddress(address: string, startedBy: Date | undefined, limit: number) {
      return db
        .select({
          session: radiusSessions,
          userId: subscriptions.userId,
          customerName: users.name,
          customerNumber: users.customerNumber,
          nasName: devices.name,
        })
        .from(radiusSessions)
        .leftJoin(subscriptions, eq(subscriptions.id, radiusSessions.subscriptionId))
        .leftJoin(users, eq(users.id, subscriptions.userId))
        .leftJoin(devices, eq(devices.id, radiusSessions.nasDeviceId))
        .where(
          startedBy
            ? and(eq(radiusSessions.framedIp, address), lte(radiusSessions.startedAt, startedBy))
            : eq(radiusSessions.framedIp, address),
        )
        .orderBy(desc(radiusSessions.startedAt))
        .limit(limit);
    },
  };
}
