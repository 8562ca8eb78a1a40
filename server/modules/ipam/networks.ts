/**
 * A network's own rules (issue 22): what makes its input valid (inside its prefix, its purpose's fields, no overlap
 * with another network under one advisory lock, a unique name), how the API presents it, and what the audit trail
 * records of it. The service (service.ts) stores networks and hands out their addresses.
 */
import type { FieldError } from '../../../contract/envelope';
import { formatPrefix, parseIp, parsePrefix } from '../../../contract/ip';
import type { IpNetwork, IpNetworkInputParsed } from '../../../contract/schemas/ipam';
import type { Db } from '../../db/client';
import type { IpNetworkRow, IpReservedRange } from '../../db/schema/ipam';
import { AppError, badRequest } from '../../lib/errors';
import { blockedIntervals, clippedSize, usableRange } from './ranges';
import { delegationLength, delegationLengthError } from './delegation';
import { createIpamRepository } from './repository';

export type AssignmentCounts = { static: number; reserved: number; quarantined: number; dynamic?: number };

export const NAME_TAKEN = 'A network with this name already exists';

/** A network as the API answers it: its size, and its addresses by state (free is what is left). */
export function presentNetwork(
  row: IpNetworkRow,
  counts: AssignmentCounts,
  deviceName: string | null = null,
): IpNetwork {
  const usable = usableRange(row);
  const size = usable.to >= usable.from ? usable.to - usable.from + 1n : 0n;
  const blocked = clippedSize(blockedIntervals(row), usable);
  const used = BigInt(counts.static + counts.reserved + counts.quarantined + (counts.dynamic ?? 0));
  const free = size - blocked - used;
  // The reserved count is a number: an IPv6 network's reserved ranges can hold more than 2^53 addresses.
  return {
    id: row.id,
    name: row.name,
    cidr: row.cidr,
    family: row.family === 6 ? 6 : 4,
    prefix_length: row.prefixLength,
    purpose: row.purpose,
    pool_name: row.poolName,
    gateway: row.gateway,
    dns_servers: row.dnsServers,
    device_id: row.deviceId,
    site: row.site,
    reserved_ranges: row.reservedRanges.map((r) => ({ from: r.from, to: r.to, note: r.note ?? null })),
    quarantine_days: row.quarantineDays,
    notes: row.notes,
    delegation_prefix_length: delegationLength(row),
    device_name: deviceName,
    size: size.toString(),
    counts: {
      static: counts.static,
      dynamic: counts.dynamic ?? 0,
      reserved: Math.min(counts.reserved + Number(blocked), Number.MAX_SAFE_INTEGER),
      quarantined: counts.quarantined,
      free: (free > 0n ? free : 0n).toString(),
    },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Checks a network as it will be stored; answers the columns to write. */
export async function validateNetwork(db: Db, input: IpNetworkInputParsed, selfId: string | null) {
  const prefix = parsePrefix(input.cidr)!;
  const errors: FieldError[] = [];
  const inside = (field: string, text: string) => {
    const ip = parseIp(text)!;
    if (ip.family !== prefix.family || ip.value < prefix.start || ip.value > prefix.end) {
      errors.push({ field, message: `${field} ${text} is not inside ${formatPrefix(prefix)}` });
      return null;
    }
    return ip.value;
  };
  if (input.purpose === 'ipv6_delegation' && prefix.family !== 6)
    errors.push({ field: 'purpose', message: 'An ipv6_delegation network must be an IPv6 prefix' });
  if (input.purpose === 'pool' && !input.pool_name)
    errors.push({ field: 'pool_name', message: 'pool_name is required for a pool: the name of the pool on the NAS' });
  if (input.purpose !== 'pool' && input.purpose !== 'walled_garden' && input.pool_name) {
    errors.push({ field: 'pool_name', message: 'pool_name is only for pool and walled_garden networks' });
  }
  const delegationError = delegationLengthError(input.purpose, prefix.length, input.delegation_prefix_length);
  if (delegationError) errors.push(delegationError);
  if (input.gateway) {
    const g = inside('gateway', input.gateway);
    if (g !== null && prefix.family === 4 && prefix.length <= 30 && (g === prefix.start || g === prefix.end)) {
      errors.push({ field: 'gateway', message: 'gateway cannot be the network or broadcast address' });
    }
  }
  (input.reserved_ranges ?? []).forEach((r, i) => {
    const a = inside(`reserved_ranges.${i}.from`, r.from);
    const b = inside(`reserved_ranges.${i}.to`, r.to);
    if (a !== null && b !== null && a > b)
      errors.push({
        field: `reserved_ranges.${i}`,
        message: `reserved range ${r.from} – ${r.to} ends before it starts`,
      });
  });
  const repo = createIpamRepository(db);
  if (input.device_id) {
    const device = await repo.device(input.device_id);
    if (!device) errors.push({ field: 'device_id', message: 'device_id is not a known device' });
  }
  if (errors.length) throw badRequest(errors[0].message, errors);

  // Overlaps: one lock for every network change, so two creates at once cannot both pass the check.
  await repo.lockNetworks();
  const other = await repo.overlapping(prefix.family, prefix.start.toString(), prefix.end.toString(), selfId);
  if (other) {
    const message = `${formatPrefix(prefix)} overlaps the network "${other.name}" (${other.cidr})`;
    throw new AppError(409, message, [{ field: 'cidr', message }]);
  }
  const sameName = await repo.sameName(input.name, selfId);
  if (sameName) throw new AppError(409, NAME_TAKEN, [{ field: 'name', message: NAME_TAKEN }]);

  return {
    name: input.name,
    cidr: formatPrefix(prefix),
    family: prefix.family,
    prefixLength: prefix.length,
    rangeStart: prefix.start.toString(),
    rangeEnd: prefix.end.toString(),
    purpose: input.purpose,
    poolName: input.pool_name ?? null,
    gateway: input.gateway ?? null,
    dnsServers: input.dns_servers ?? [],
    deviceId: input.device_id ?? null,
    site: input.site ?? null,
    reservedRanges: (input.reserved_ranges ?? []).map(
      (r): IpReservedRange => ({ from: r.from, to: r.to, note: r.note ?? null }),
    ),
    quarantineDays: input.quarantine_days ?? 30,
    notes: input.notes ?? null,
    delegationPrefixLength: input.purpose === 'ipv6_delegation' ? (input.delegation_prefix_length ?? null) : null,
  };
}

/** What the audit trail records of a network. */
export function networkAuditView(row: IpNetworkRow | null): Record<string, unknown> {
  if (!row) return {};
  return {
    name: row.name,
    cidr: row.cidr,
    purpose: row.purpose,
    pool_name: row.poolName,
    gateway: row.gateway,
    dns_servers: row.dnsServers,
    device_id: row.deviceId,
    site: row.site,
    reserved_ranges: row.reservedRanges,
    quarantine_days: row.quarantineDays,
    notes: row.notes,
    delegation_prefix_length: row.delegationPrefixLength,
  };
}
