/**
 * What the networks list and the address map show beyond the assignments (issue 22 screens): the addresses a NAS
 * gave out from a pool (the open accounting sessions inside a network), who holds an address, and the NAS's name.
 * radius_sessions.framed_ip is text, so its IPv4 number is computed in SQL (the open sessions are few: one per
 * customer online; the status index finds them).
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { parseIp } from '../../../contract/ip';
import type { IpDynamicAddress } from '../../../contract/schemas/ipam';
import type { Db } from '../../db/client';
import { subscriptions, users } from '../../db/schema';
import { devices } from '../../db/schema/devices';
import { ipNetworks } from '../../db/schema/ipam';
import { radiusSessions } from '../../db/schema/radius';

/** Networks whose addresses the NAS hands out itself (no assignment rows). */
const DYNAMIC_PURPOSES = ['pool', 'walled_garden'] as const;

/** The IPv4 number of framed_ip, or null when it is none (an IPv6 or malformed value). */
const framedIpNumber: SQL<string | null> =
  sql`(case when ${radiusSessions.framedIp} ~ '^[0-9]{1,3}(\\.[0-9]{1,3}){3}$' then
  split_part(${radiusSessions.framedIp}, '.', 1)::numeric * 16777216 + split_part(${radiusSessions.framedIp}, '.', 2)::numeric * 65536
  + split_part(${radiusSessions.framedIp}, '.', 3)::numeric * 256 + split_part(${radiusSessions.framedIp}, '.', 4)::numeric end)`;

/** Per network (of those given): distinct addresses in open sessions inside it, for pool and walled-garden networks. One grouped query. */
export async function dynamicCounts(db: Db, ids: string[]): Promise<Map<string, number>> {
  const map = new Map<string, number>();
  if (!ids.length) return map;
  const rows = await db
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
      and(inArray(ipNetworks.id, ids), eq(ipNetworks.family, 4), inArray(ipNetworks.purpose, [...DYNAMIC_PURPOSES])),
    )
    .groupBy(ipNetworks.id);
  for (const r of rows) map.set(r.networkId, Number(r.n));
  return map;
}

/** The open sessions with an address from … to (IPv4), one per address (the latest), with their customer. */
export async function dynamicAddresses(db: Db, from: string, to: string): Promise<IpDynamicAddress[]> {
  const a = parseIp(from);
  const b = parseIp(to);
  if (!a || !b || a.family !== 4 || b.family !== 4) return [];
  const rows = await db
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
    .where(
      and(
        eq(radiusSessions.status, 'open'),
        sql`${framedIpNumber} between ${a.value.toString()} and ${b.value.toString()}`,
      ),
    )
    .orderBy(radiusSessions.startedAt)
    .limit(2048);
  const byAddress = new Map<string, IpDynamicAddress>();
  for (const r of rows) {
    byAddress.set(r.address!, {
      address: r.address!,
      subscription_id: r.subscriptionId,
      user_id: r.userId,
      customer_name: r.customerName,
      username: r.username,
      started_at: r.startedAt.toISOString(),
    });
  }
  return [...byAddress.values()];
}

/** The customer of each subscription given (id → user id and name). */
export async function holders(
  db: Db,
  subscriptionIds: string[],
): Promise<Map<string, { userId: string; name: string }>> {
  const ids = [...new Set(subscriptionIds)];
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: subscriptions.id, userId: users.id, name: users.name })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(inArray(subscriptions.id, ids));
  return new Map(rows.map((r) => [r.id, { userId: r.userId, name: r.name }]));
}

/** Device names by id. */
export async function deviceNames(db: Db, ids: Array<string | null>): Promise<Map<string, string>> {
  const list = [...new Set(ids.filter((id): id is string => !!id))];
  if (!list.length) return new Map();
  const rows = await db.select({ id: devices.id, name: devices.name }).from(devices).where(inArray(devices.id, list));
  return new Map(rows.map((r) => [r.id, r.name]));
}
