/**
 * What the networks list and the address map show beyond the assignments (issue 22 screens): the addresses a NAS
 * gave out from a pool (the open accounting sessions inside a network), who holds an address, and the NAS's name.
 * radius_sessions.framed_ip is text, so its IPv4 number is computed in SQL (the open sessions are few: one per
 * customer online; the status index finds them).
 */
import { parseIp } from '../../../contract/ip';
import type { IpDynamicAddress } from '../../../contract/schemas/ipam';
import type { Db } from '../../db/client';
import { createIpamRepository } from './repository';

/** Per network (of those given): distinct addresses in open sessions inside it, for pool and walled-garden networks. One grouped query. */
export async function dynamicCounts(db: Db, ids: string[]): Promise<Map<string, number>> {
  const map = new Map<string, number>();
  if (!ids.length) return map;
  const rows = await createIpamRepository(db).dynamicCounts(ids);
  for (const r of rows) map.set(r.networkId, Number(r.n));
  return map;
}

/** The open sessions with an address from … to (IPv4), one per address (the latest), with their customer. */
export async function dynamicAddresses(db: Db, from: string, to: string): Promise<IpDynamicAddress[]> {
  const a = parseIp(from);
  const b = parseIp(to);
  if (!a || !b || a.family !== 4 || b.family !== 4) return [];
  const rows = await createIpamRepository(db).openSessionsBetween(a.value.toString(), b.value.toString());
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
  const rows = await createIpamRepository(db).holders(ids);
  return new Map(rows.map((r) => [r.id, { userId: r.userId, name: r.name }]));
}

/** Device names by id. */
export async function deviceNames(db: Db, ids: Array<string | null>): Promise<Map<string, string>> {
  const list = [...new Set(ids.filter((id): id is string => !!id))];
  if (!list.length) return new Map();
  const rows = await createIpamRepository(db).deviceNames(list);
  return new Map(rows.map((r) => [r.id, r.name]));
}
