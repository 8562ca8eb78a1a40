/**
 * The shaper export's queries (issue 36): the circuits (subscriptions with service now, with plan, customer, PPPoE
 * login, addresses and the NAS of their newest RADIUS session) read in pages by subscription id, and the NAS devices
 * the hierarchy is built from. Read-only; it joins other modules' tables (the architecture's report rule).
 */
import { and, asc, eq, gt, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { plans, subscriptions, users } from '../../db/schema';
import { devices } from '../../db/schema/devices';
import { ipAssignments, ipNetworks, subscriptionAddressing } from '../../db/schema/ipam';
import { radiusSessions, serviceCredentials } from '../../db/schema/radius';
import { usageCycleCounters } from '../../db/schema/fair-use';
import type { CircuitRow, NasRow } from './format';

const poolNetworks = alias(ipNetworks, 'pool_networks');

/** The NAS of the subscription's newest session (the current one while it is connected, else the last). */
const sessionNas: SQL<string | null> = sql`(select ${radiusSessions.nasDeviceId} from ${radiusSessions}
  where ${radiusSessions.subscriptionId} = ${subscriptions.id} order by ${radiusSessions.startedAt} desc limit 1)`;

/** The address of the subscription's newest open session (a pool's address has no assignment row). */
const sessionIp: SQL<string | null> = sql`(select ${radiusSessions.framedIp} from ${radiusSessions}
  where ${radiusSessions.subscriptionId} = ${subscriptions.id} and ${radiusSessions.status} = 'open'
  order by ${radiusSessions.startedAt} desc limit 1)`;

/** The fair-use tier the subscription is in this cycle (issue 36: recorded by accounting, a top-up or a plan change). */
const cycleTier: SQL<number | null> = sql`(select ${usageCycleCounters.tier} from ${usageCycleCounters}
  where ${usageCycleCounters.subscriptionId} = ${subscriptions.id}
  and ${usageCycleCounters.cycleStart} = ${subscriptions.currentPeriodStart})`;

export function createLibreqosRepository(db: Db) {
  return {
    /**
     * One page of circuits, by subscription id after `after`: active subscriptions, and cancelled ones whose paid
     * period has not ended (they keep service until then, as RADIUS does).
     */
    async circuits(now: Date, after: string | null, limit: number): Promise<CircuitRow[]> {
      const inService = or(
        eq(subscriptions.status, 'active'),
        and(eq(subscriptions.status, 'cancelled'), gt(subscriptions.currentPeriodEnd, now)),
      );
      return db
        .select({
          subscriptionId: subscriptions.id,
          customerName: users.name,
          customerNumber: users.customerNumber,
          planName: plans.name,
          downloadMbps: plans.downloadMbps,
          uploadMbps: plans.uploadMbps,
          usageTiers: plans.usageTiers,
          dataCapGb: plans.dataCapGb,
          dataCapAction: plans.dataCapAction,
          throttleDownloadKbps: plans.throttleDownloadKbps,
          throttleUploadKbps: plans.throttleUploadKbps,
          tier: cycleTier,
          username: serviceCredentials.username,
          staticIp: ipAssignments.address,
          sessionIp,
          framedIpv6Prefix: subscriptionAddressing.framedIpv6Prefix,
          delegatedIpv6Prefix: subscriptionAddressing.delegatedIpv6Prefix,
          sessionNasId: sessionNas,
          networkNasId: sql<string | null>`coalesce(${ipNetworks.deviceId}, ${poolNetworks.deviceId})`,
          networkSite: sql<string | null>`coalesce(${ipNetworks.site}, ${poolNetworks.site})`,
        })
        .from(subscriptions)
        .innerJoin(users, eq(users.id, subscriptions.userId))
        .innerJoin(plans, eq(plans.id, subscriptions.planId))
        .leftJoin(serviceCredentials, eq(serviceCredentials.subscriptionId, subscriptions.id))
        .leftJoin(
          ipAssignments,
          and(eq(ipAssignments.subscriptionId, subscriptions.id), eq(ipAssignments.state, 'static')),
        )
        .leftJoin(ipNetworks, eq(ipNetworks.id, ipAssignments.networkId))
        .leftJoin(subscriptionAddressing, eq(subscriptionAddressing.subscriptionId, subscriptions.id))
        .leftJoin(poolNetworks, eq(poolNetworks.id, subscriptionAddressing.poolNetworkId))
        .where(after === null ? inService : and(inService, gt(subscriptions.id, after)))
        .orderBy(asc(subscriptions.id))
        .limit(limit);
    },

    /** The devices that may be a parent: every RADIUS client, and every device a session ran through. */
    async nasDevices(): Promise<NasRow[]> {
      return db
        .select({ id: devices.id, name: devices.name, host: devices.host, location: devices.location })
        .from(devices)
        .where(
          or(
            isNotNull(devices.radiusSecret),
            sql`exists (select 1 from ${radiusSessions} where ${radiusSessions.nasDeviceId} = ${devices.id})`,
          ),
        )
        .orderBy(asc(devices.name));
    },
  };
}
