/**
 * Address pools (Framed-Pool): a subscription that logged in to a pool keeps logging in to it. The pool is the
 * portal's pool network of that name when there is one; otherwise a pool network is made from the smallest prefix
 * that holds the source's addresses (when the source has them and they overlap no network here).
 */
import { and, eq, gte, lte } from 'drizzle-orm';
import { formatPrefix, parseIp } from '../../../contract/ip';
import { ipNetworks } from '../../db/schema/ipam';
import type { SourcePool } from '../model';
import type { Step } from './types';

/** The smallest IPv4 prefix holding first..last. */
function coveringPrefix(first: string, last: string) {
  const a = parseIp(first);
  const b = parseIp(last);
  if (a?.family !== 4 || b?.family !== 4 || a.value > b.value) return null;
  let length = 32;
  while (length > 0 && a.value >> BigInt(32 - length) !== b.value >> BigInt(32 - length)) length--;
  const hostMask = (1n << BigInt(32 - length)) - 1n;
  const start = a.value & ~hostMask;
  return { family: 4 as const, start, end: start | hostMask, length };
}

export const poolStep: Step<SourcePool> = {
  kind: 'pool',
  auditTarget: 'ip_network',
  items: (s) => s.pools,
  async decide(db, _ctx, item) {
    const [same] = await db.select({ id: ipNetworks.id }).from(ipNetworks).where(eq(ipNetworks.poolName, item.name));
    if (same) return { action: 'link', targetId: same.id, reason: `uses the portal's pool network "${item.name}"` };
    if (!item.firstAddress || !item.lastAddress)
      return {
        action: 'skip',
        reason: `pool "${item.name}" has no addresses in the source: add a pool network named "${item.name}" in IP management, then run the import again`,
      };
    const prefix = coveringPrefix(item.firstAddress, item.lastAddress);
    if (!prefix)
      return {
        action: 'skip',
        reason: `pool "${item.name}": ${item.firstAddress}–${item.lastAddress} is not an IPv4 range`,
      };
    const [overlap] = await db
      .select({ name: ipNetworks.name })
      .from(ipNetworks)
      .where(
        and(
          eq(ipNetworks.family, 4),
          lte(ipNetworks.rangeStart, String(prefix.end)),
          gte(ipNetworks.rangeEnd, String(prefix.start)),
        ),
      );
    if (overlap)
      return {
        action: 'skip',
        reason: `pool "${item.name}" (${formatPrefix(prefix)}) overlaps the portal's network "${overlap.name}": give that network the pool name "${item.name}", then run the import again`,
      };
    return { action: 'create', changes: [`pool "${item.name}" becomes the pool network ${formatPrefix(prefix)}`] };
  },
  async create(tx, ctx, item) {
    const prefix = coveringPrefix(item.firstAddress!, item.lastAddress!)!;
    const [row] = await tx
      .insert(ipNetworks)
      .values({
        name: `${item.name} (imported)`.slice(0, 80),
        cidr: formatPrefix(prefix),
        family: 4,
        prefixLength: prefix.length,
        rangeStart: String(prefix.start),
        rangeEnd: String(prefix.end),
        purpose: 'pool',
        poolName: item.name.slice(0, 64),
        notes: `Imported from ${ctx.source}: ${item.firstAddress}–${item.lastAddress}`,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .returning({ id: ipNetworks.id });
    return row!.id;
  },
};
