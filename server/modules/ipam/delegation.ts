/**
 * IPv6 prefix delegation from a network (issue 22): an ipv6_delegation network (e.g. 2001:db8:100::/40) hands
 * out prefixes of its delegation length (default /56) as Delegated-IPv6-Prefix. "Next free" takes the lowest
 * prefix of that length that no subscription holds and that touches no reserved range or gateway.
 *
 * Conflict-free: the allocation of one network runs under a transaction-level advisory lock on it, so two
 * requests at once see each other's result (PostgreSQL READ COMMITTED: the look-up after the lock sees what
 * the other committed), and the unique index on subscription_addressing.delegated_ipv6_prefix stays the last
 * word (an explicitly typed prefix does not take the lock).
 */
import type { FieldError } from '../../../contract/envelope';
import { formatPrefix, parsePrefix } from '../../../contract/ip';
import type { Db } from '../../db/client';
import type { IpNetworkRow } from '../../db/schema/ipam';
import { AppError, badRequest } from '../../lib/errors';
import { blockedIntervals, merge, type Interval } from './ranges';
import { createIpamRepository } from './repository';

export const DEFAULT_DELEGATION_LENGTH = 56;
/** Longest prefix worth delegating: a /64 is one LAN; longer ones break SLAAC. */
export const MAX_DELEGATION_LENGTH = 64;

/** The delegation length a network hands out (null for networks that delegate nothing). */
export function delegationLength(row: Pick<IpNetworkRow, 'purpose' | 'delegationPrefixLength'>): number | null {
  return row.purpose === 'ipv6_delegation' ? (row.delegationPrefixLength ?? DEFAULT_DELEGATION_LENGTH) : null;
}

/** Why a network's delegation length does not fit it, or null. */
export function delegationLengthError(
  purpose: string,
  prefixLength: number,
  value: number | null | undefined,
): FieldError | null {
  const field = 'delegation_prefix_length';
  if (value === null || value === undefined) {
    if (purpose === 'ipv6_delegation' && prefixLength >= DEFAULT_DELEGATION_LENGTH) {
      return {
        field,
        message: `delegation_prefix_length is required for a /${prefixLength}: the default /${DEFAULT_DELEGATION_LENGTH} does not fit inside it`,
      };
    }
    return null;
  }
  if (purpose !== 'ipv6_delegation')
    return { field, message: 'delegation_prefix_length is only for ipv6_delegation networks' };
  if (value <= prefixLength || value > MAX_DELEGATION_LENGTH) {
    return {
      field,
      message: `delegation_prefix_length must be longer than the network's /${prefixLength} and at most /${MAX_DELEGATION_LENGTH}`,
    };
  }
  return null;
}

/**
 * The first free prefix of the network's delegation length for the subscription (the one it already holds in
 * this network, if any). Call inside the transaction that stores it.
 */
export async function nextFreeDelegatedPrefix(
  tx: Db,
  network: IpNetworkRow,
  subscriptionId: string,
  current: string | null,
): Promise<string> {
  const length = delegationLength(network);
  if (length === null || network.family !== 6) {
    throw badRequest(
      `"${network.name}" is a ${network.purpose.replace('_', ' ')} network: prefixes are delegated from ipv6_delegation networks`,
      [{ field: 'delegated_from_network_id', message: 'delegated_from_network_id must be an ipv6_delegation network' }],
    );
  }
  const start = BigInt(network.rangeStart);
  const end = BigInt(network.rangeEnd);
  const inside = (p: { start: bigint; end: bigint }) => p.start >= start && p.end <= end;
  const held = current ? parsePrefix(current) : null;
  if (held && held.length === length && inside(held)) return current!;

  await createIpamRepository(tx).lockDelegation(network.id);
  const taken: Interval[] = (await heldPrefixes(tx, subscriptionId))
    .filter((p) => p.end >= start && p.start <= end)
    .map((p) => ({ from: p.start, to: p.end }));
  const found = firstFreeBlock(merge([...taken, ...blockedIntervals(network)]), start, end, 1n << BigInt(128 - length));
  if (found === null) {
    const message = `No free /${length} is left in "${network.name}" (${network.cidr})`;
    throw new AppError(409, message, [{ field: 'delegated_from_network_id', message }]);
  }
  return formatPrefix({ family: 6, start: found, length });
}

/** The lowest aligned block of `size` addresses in [start, end] that meets none of the sorted, merged `used`. */
export function firstFreeBlock(used: Interval[], start: bigint, end: bigint, size: bigint): bigint | null {
  const alignUp = (v: bigint) => start + ((v - start + size - 1n) / size) * size;
  let candidate = start;
  for (const u of used) {
    if (u.to < candidate) continue;
    if (candidate + size - 1n < u.from) break;
    candidate = alignUp(u.to + 1n);
    if (candidate > end) return null;
  }
  return candidate + size - 1n <= end ? candidate : null;
}

/** The IPv6 prefixes subscriptions hold (but `exceptSubscriptionId`'s), parsed. */
async function heldPrefixes(
  tx: Db,
  exceptSubscriptionId?: string,
): Promise<{ prefix: string; start: bigint; end: bigint }[]> {
  const rows = await createIpamRepository(tx).delegatedPrefixes(exceptSubscriptionId);
  const held: { prefix: string; start: bigint; end: bigint }[] = [];
  for (const { prefix } of rows) {
    const p = prefix ? parsePrefix(prefix) : null;
    if (p && p.family === 6) held.push({ prefix: prefix!, start: p.start, end: p.end });
  }
  return held;
}

/**
 * The prefixes subscriptions hold inside [start, end] (a delegation network's range): the network's update and
 * delete refuse to leave them behind, as they do for static addresses and pool members. Delegated prefixes
 * keep no link to their network (one can be typed by hand), so this reads them by range.
 */
export async function delegatedPrefixesInside(
  tx: Db,
  start: bigint,
  end: bigint,
): Promise<{ prefix: string; start: bigint; end: bigint }[]> {
  return (await heldPrefixes(tx)).filter((p) => p.start >= start && p.end <= end);
}
