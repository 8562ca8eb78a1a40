/**
 * IP address management (issue 22). Networks never overlap (checked under an advisory transaction lock: PGlite
 * has no inet type nor exclusion constraints); an address is held once per network (unique index), so two
 * allocations at once can never hand out the same address: each takes the first candidate it sees free and
 * inserts it with ON CONFLICT … DO UPDATE only when the row there is a quarantine that has run out; when the
 * insert gives no row, somebody else took it and the next candidate is tried.
 *
 * A released address (staff release, subscription cancelled or expired) is quarantined for the network's
 * quarantine_days before it is handed out again. A subscription has a static address or a pool (Framed-Pool),
 * and optionally IPv6 prefixes; the RADIUS module reads them into its Access-Accept.
 */
import { pagePagination } from '../../../contract/envelope';
import { formatIp, formatPrefix, parseIp, parsePrefix, type IpFamily } from '../../../contract/ip';
import type {
  IpAddress,
  IpNetwork,
  IpNetworkInputParsed,
  IpNetworkUpdateParsed,
  SubscriptionAddress,
  SubscriptionAddressInputParsed,
} from '../../../contract/schemas/ipam';
import type { Db } from '../../db/client';
import type { IpAssignmentRow, IpNetworkRow } from '../../db/schema/ipam';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../lib/errors';
import { blockedIntervals, merge, usableRange } from './ranges';
import { delegatedPrefixesInside, nextFreeDelegatedPrefix } from './delegation';
import { NAME_TAKEN, networkAuditView, presentNetwork, validateNetwork, type AssignmentCounts } from './networks';
import { deviceNames, dynamicAddresses, dynamicCounts, holders } from './usage';
import { changedFields, recordAudit, type AuditContext, type AuditEntry } from '../audit/trail';
import { createIpamRepository } from './repository';

export const IPAM_MESSAGES = {
  list: 'Networks retrieved successfully',
  detail: 'Network retrieved successfully',
  created: 'Network created successfully',
  updated: 'Network updated successfully',
  deleted: 'Network deleted successfully',
  addresses: 'Addresses retrieved successfully',
  address: 'Subscription address retrieved successfully',
  assigned: 'Subscription address saved successfully',
  released: 'Subscription address released successfully',
  history: 'Address history retrieved successfully',
  notFound: 'Network not found',
  subscriptionNotFound: 'Subscription not found',
  nameTaken: NAME_TAKEN,
  full: 'No free address is left in this network',
} as const;

const M = IPAM_MESSAGES;
const DAY_MS = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const invalid = (field: string, message: string) => badRequest(message, [{ field, message }]);

export class IpamService {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  private audited<T>(
    audit: AuditContext | undefined,
    targetType: string,
    work: (tx: Db, record: (entry: AuditEntry) => Promise<void>) => Promise<T>,
  ): Promise<T> {
    const { db, clock } = this.deps;
    return db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      return work(tx, async (entry) => {
        if (audit) await recordAudit(tx, clock, audit, { targetType, ...entry });
      });
    });
  }

  // ---------------------------------------------------------------------------------------------------------
  // Networks

  /** Per network: addresses held static, reserved and in a quarantine that has not run out. */
  private async counts(db: Db, ids: string[]): Promise<Map<string, AssignmentCounts>> {
    const map = new Map<string, AssignmentCounts>(ids.map((id) => [id, { static: 0, reserved: 0, quarantined: 0 }]));
    if (!ids.length) return map;
    const now = this.deps.clock.now();
    const rows = await createIpamRepository(db).assignmentCounts(ids, now);
    for (const r of rows) map.get(r.networkId)![r.state] = Number(r.n);
    for (const [id, n] of await dynamicCounts(db, ids)) map.get(id)!.dynamic = n;
    return map;
  }

  async list(query: { purpose?: string; page: number; limit: number }) {
    const { db } = this.deps;
    const purpose = query.purpose ? (query.purpose as IpNetworkRow['purpose']) : undefined;
    const repo = createIpamRepository(db);
    const total = await repo.countNetworks(purpose);
    const rows = await repo.networksPage(purpose, query.limit, (query.page - 1) * query.limit);
    const counts = await this.counts(
      db,
      rows.map((r) => r.id),
    );
    const names = await deviceNames(
      db,
      rows.map((r) => r.deviceId),
    );
    return {
      items: rows.map((r) => presentNetwork(r, counts.get(r.id)!, names.get(r.deviceId ?? '') ?? null)),
      pagination: pagePagination(query.page, query.limit, Number(total)),
    };
  }

  private async find(db: Db, id: string, lock = false): Promise<IpNetworkRow> {
    if (!UUID.test(id)) throw notFound(M.notFound);
    const repo = createIpamRepository(db);
    const row = lock ? await repo.lockNetwork(id) : await repo.network(id);
    if (!row) throw notFound(M.notFound);
    return row;
  }

  async get(id: string): Promise<IpNetwork> {
    const row = await this.find(this.deps.db, id);
    const names = await deviceNames(this.deps.db, [row.deviceId]);
    return presentNetwork(row, (await this.counts(this.deps.db, [id])).get(id)!, names.get(row.deviceId ?? '') ?? null);
  }

  async create(input: IpNetworkInputParsed, audit?: AuditContext): Promise<IpNetwork> {
    const row = await this.audited(audit, 'ip_network', async (tx, record) => {
      const values = await validateNetwork(tx, input, null);
      const created = await createIpamRepository(tx).insertNetwork(values);
      await record({
        action: 'ip_network.create',
        targetId: created.id,
        changes: changedFields({}, networkAuditView(created)),
      });
      return created;
    });
    return presentNetwork(row, { static: 0, reserved: 0, quarantined: 0 });
  }

  async update(id: string, input: IpNetworkUpdateParsed, audit?: AuditContext): Promise<IpNetwork> {
    const row = await this.audited(audit, 'ip_network', async (tx, record) => {
      const before = await this.find(tx, id, true);
      const merged: IpNetworkInputParsed = {
        name: input.name ?? before.name,
        cidr: input.cidr ?? before.cidr,
        purpose: input.purpose ?? before.purpose,
        pool_name: input.pool_name !== undefined ? input.pool_name : before.poolName,
        gateway: input.gateway !== undefined ? input.gateway : before.gateway,
        dns_servers: input.dns_servers ?? before.dnsServers,
        device_id: input.device_id !== undefined ? input.device_id : before.deviceId,
        site: input.site !== undefined ? input.site : before.site,
        reserved_ranges:
          input.reserved_ranges ?? before.reservedRanges.map((r) => ({ from: r.from, to: r.to, note: r.note ?? null })),
        quarantine_days: input.quarantine_days ?? before.quarantineDays,
        notes: input.notes !== undefined ? input.notes : before.notes,
        delegation_prefix_length:
          input.delegation_prefix_length !== undefined ? input.delegation_prefix_length : before.delegationPrefixLength,
      };
      const values = await validateNetwork(tx, merged, id);
      // Addresses in use must stay inside, and a network that hands out addresses keeps its purpose.
      const repo = createIpamRepository(tx);
      const outside = await repo.assignmentOutside(id, values.rangeStart, values.rangeEnd);
      if (outside) throw conflict(`${outside.address} is in use in this network and would be outside ${values.cidr}`);
      // Prefixes delegated from it likewise stay inside, and keep it a delegation network.
      const delegated =
        before.purpose === 'ipv6_delegation'
          ? await delegatedPrefixesInside(tx, BigInt(before.rangeStart), BigInt(before.rangeEnd))
          : [];
      const left = delegated.find((p) => p.start < BigInt(values.rangeStart) || p.end > BigInt(values.rangeEnd));
      if (left && values.purpose === before.purpose)
        throw conflict(`${left.prefix} is delegated from this network and would be outside ${values.cidr}`);
      if (values.purpose !== before.purpose) {
        const held = await repo.staticCount(id);
        const pooled = await repo.poolCount(id);
        if (Number(held.n) || Number(pooled.n) || delegated.length)
          throw conflict('The purpose of a network with subscriptions on it cannot change');
      }
      const updated = await repo.updateNetwork(id, { ...values, updatedAt: this.deps.clock.now() });
      await record({
        action: 'ip_network.update',
        targetId: id,
        changes: changedFields(networkAuditView(before), networkAuditView(updated)),
      });
      return updated;
    });
    return presentNetwork(row, (await this.counts(this.deps.db, [id])).get(id)!);
  }

  async delete(id: string, audit?: AuditContext): Promise<void> {
    await this.audited(audit, 'ip_network', async (tx, record) => {
      const before = await this.find(tx, id, true);
      const repo = createIpamRepository(tx);
      const held = await repo.staticCount(id);
      const pooled = await repo.poolCount(id);
      const delegated =
        before.purpose === 'ipv6_delegation'
          ? await delegatedPrefixesInside(tx, BigInt(before.rangeStart), BigInt(before.rangeEnd))
          : [];
      const inUse = Number(held.n) + Number(pooled.n) + delegated.length;
      if (inUse)
        throw conflict(
          `The network is in use by ${inUse} subscription${inUse === 1 ? '' : 's'}: release their addresses first`,
        );
      await repo.deleteAssignments(id);
      await repo.deleteNetwork(id);
      await record({ action: 'ip_network.delete', targetId: id, changes: changedFields(networkAuditView(before), {}) });
    });
  }

  /** The address map: the network with its counts and one page of its addresses in use, by address. */
  async addresses(id: string, query: { state?: string; from?: string; to?: string; page: number; limit: number }) {
    const { db } = this.deps;
    const network = await this.get(id);
    const now = this.deps.clock.now();
    const from = query.from ? parseIp(query.from) : null;
    const to = query.to ? parseIp(query.to) : null;
    const filter = {
      networkId: id,
      now,
      state: query.state ? (query.state as IpAssignmentRow['state']) : undefined,
      from: from ? from.value.toString() : undefined,
      to: to ? to.value.toString() : undefined,
    };
    const repo = createIpamRepository(db);
    const total = await repo.countAddresses(filter);
    const rows = await repo.addressesPage(filter, query.limit, (query.page - 1) * query.limit);
    const who = await holders(
      db,
      rows.flatMap((r) => (r.subscriptionId ? [r.subscriptionId] : [])),
    );
    const items: IpAddress[] = rows.map((r) => ({
      address: r.address,
      state: r.state,
      subscription_id: r.subscriptionId,
      quarantine_until: r.quarantineUntil?.toISOString() ?? null,
      note: r.note,
      user_id: r.subscriptionId ? (who.get(r.subscriptionId)?.userId ?? null) : null,
      customer_name: r.subscriptionId ? (who.get(r.subscriptionId)?.name ?? null) : null,
      updated_at: r.updatedAt.toISOString(),
    }));
    // A block of a pool's map also shows the addresses the NAS gave out (open sessions).
    const dynamic =
      from && to && (network.purpose === 'pool' || network.purpose === 'walled_garden')
        ? await dynamicAddresses(db, query.from!, query.to!)
        : undefined;
    return {
      network,
      items,
      pagination: pagePagination(query.page, query.limit, Number(total)),
      ...(dynamic ? { dynamic } : {}),
    };
  }

  // ---------------------------------------------------------------------------------------------------------
  // A subscription's addressing

  async subscriptionAddress(subscriptionId: string, db: Db = this.deps.db): Promise<SubscriptionAddress> {
    const repo = createIpamRepository(db);
    const assignment = await repo.staticAddressOf(subscriptionId);
    const addressing = await repo.addressingOf(subscriptionId);
    return {
      subscription_id: subscriptionId,
      address: assignment?.address ?? null,
      network_id: assignment?.networkId ?? null,
      pool_network_id: addressing?.settings.poolNetworkId ?? null,
      pool_name: addressing?.settings.poolNetworkId ? (addressing.poolName ?? null) : null,
      framed_ipv6_prefix: addressing?.settings.framedIpv6Prefix ?? null,
      delegated_ipv6_prefix: addressing?.settings.delegatedIpv6Prefix ?? null,
    };
  }

  private async lockSubscription(tx: Db, subscriptionId: string): Promise<void> {
    if (!UUID.test(subscriptionId)) throw notFound(M.subscriptionNotFound);
    const sub = await createIpamRepository(tx).lockSubscription(subscriptionId);
    if (!sub) throw notFound(M.subscriptionNotFound);
  }

  /** `ownerId`: a customer reads only their own subscriptions' addressing (another's is "not found"). */
  async getSubscriptionAddress(subscriptionId: string, ownerId?: string): Promise<SubscriptionAddress> {
    if (!UUID.test(subscriptionId)) throw notFound(M.subscriptionNotFound);
    const sub = await createIpamRepository(this.deps.db).subscriptionOwner(subscriptionId);
    if (!sub || (ownerId !== undefined && sub.userId !== ownerId)) throw notFound(M.subscriptionNotFound);
    return this.subscriptionAddress(subscriptionId);
  }

  /** Quarantines the subscription's static address (if any) until now + the network's quarantine days. */
  private async quarantineStatic(
    tx: Db,
    subscriptionId: string,
    keep?: { networkId: string; address: string },
  ): Promise<string | null> {
    const repo = createIpamRepository(tx);
    const held = await repo.staticAssignmentOf(subscriptionId);
    if (!held) return null;
    if (keep && held.assignment.networkId === keep.networkId && held.assignment.address === keep.address) return null;
    const now = this.deps.clock.now();
    await repo.quarantine(held.assignment.id, new Date(now.getTime() + held.days * DAY_MS), now);
    return held.assignment.address;
  }

  /**
   * Sets a subscription's addressing. network_id of a static network: that address (address given) or the first
   * free one; of a pool: the pool (the static address, if any, is released). network_id null: both released.
   * Answers the addressing and whether what a NAS is told changed.
   */
  async setSubscriptionAddress(
    subscriptionId: string,
    input: SubscriptionAddressInputParsed,
    audit?: AuditContext,
  ): Promise<{ address: SubscriptionAddress; changed: boolean }> {
    try {
      return await this.audited(audit, 'subscription', async (tx, record) => {
        await this.lockSubscription(tx, subscriptionId);
        const before = await this.subscriptionAddress(subscriptionId, tx);
        const now = this.deps.clock.now();
        let poolNetworkId = before.pool_network_id;
        if (input.network_id === null) {
          if (input.address) throw invalid('address', 'address needs a network_id');
          await this.quarantineStatic(tx, subscriptionId);
          poolNetworkId = null;
        } else if (input.network_id !== undefined) {
          const network = await this.find(tx, input.network_id).catch(() => {
            throw invalid('network_id', 'network_id is not a known network');
          });
          if (network.purpose === 'pool') {
            if (input.address)
              throw invalid('address', `"${network.name}" is a pool: the NAS gives the address, leave address out`);
            await this.quarantineStatic(tx, subscriptionId);
            poolNetworkId = network.id;
          } else if (network.purpose === 'static') {
            poolNetworkId = null;
            await this.assignStatic(tx, network, subscriptionId, input.address ?? null);
          } else {
            throw invalid(
              'network_id',
              `"${network.name}" is a ${network.purpose.replace('_', ' ')} network: subscriptions get addresses from static or pool networks`,
            );
          }
        } else if (input.address) {
          throw invalid('network_id', 'network_id is required with an address');
        }
        const framed =
          input.framed_ipv6_prefix !== undefined
            ? input.framed_ipv6_prefix
              ? formatPrefix(parsePrefix(input.framed_ipv6_prefix)!)
              : null
            : before.framed_ipv6_prefix;
        if (input.delegated_from_network_id && input.delegated_ipv6_prefix !== undefined) {
          throw invalid('delegated_ipv6_prefix', 'Give delegated_ipv6_prefix or delegated_from_network_id, not both');
        }
        const delegated = input.delegated_from_network_id
          ? await nextFreeDelegatedPrefix(
              tx,
              await this.find(tx, input.delegated_from_network_id).catch(() => {
                throw invalid('delegated_from_network_id', 'delegated_from_network_id is not a known network');
              }),
              subscriptionId,
              before.delegated_ipv6_prefix,
            )
          : input.delegated_ipv6_prefix !== undefined
            ? input.delegated_ipv6_prefix
              ? formatPrefix(parsePrefix(input.delegated_ipv6_prefix)!)
              : null
            : before.delegated_ipv6_prefix;
        if (delegated && delegated !== before.delegated_ipv6_prefix) {
          const taken = await createIpamRepository(tx).delegatedElsewhere(delegated, subscriptionId);
          if (taken) throw conflict(`${delegated} is delegated to another subscription`);
        }
        await createIpamRepository(tx).saveAddressing(subscriptionId, poolNetworkId, framed, delegated, now);
        const after = await this.subscriptionAddress(subscriptionId, tx);
        const changes = changedFields(
          before as unknown as Record<string, unknown>,
          after as unknown as Record<string, unknown>,
        );
        const changed = Object.keys(changes).length > 0;
        if (changed) await record({ action: 'subscription.address', targetId: subscriptionId, changes });
        return { address: after, changed };
      });
    } catch (error) {
      // The same subscription given two static addresses at once: the second waits for the row lock on
      // PostgreSQL, so this is only a safety net.
      if (isUniqueViolation(error)) throw conflict('The address was changed at the same time: try again');
      throw error;
    }
  }

  async releaseSubscriptionAddress(subscriptionId: string, audit?: AuditContext) {
    return this.setSubscriptionAddress(
      subscriptionId,
      { network_id: null, framed_ipv6_prefix: null, delegated_ipv6_prefix: null },
      audit,
    );
  }

  /** Gives the subscription `wanted` (checked) or the first free address of a static network. */
  private async assignStatic(
    tx: Db,
    network: IpNetworkRow,
    subscriptionId: string,
    wanted: string | null,
  ): Promise<string> {
    const usable = usableRange(network);
    const blocked = blockedIntervals(network);
    const family = network.family as IpFamily;
    if (wanted) {
      const ip = parseIp(wanted)!;
      const start = BigInt(network.rangeStart);
      const end = BigInt(network.rangeEnd);
      if (ip.family !== family || ip.value < start || ip.value > end)
        throw invalid('address', `${wanted} is not inside ${network.cidr}`);
      if (ip.value < usable.from || ip.value > usable.to)
        throw invalid('address', `${wanted} is the network or broadcast address of ${network.cidr}`);
      if (network.gateway === wanted) throw conflict(`${wanted} is the gateway of "${network.name}"`);
      const reserved = network.reservedRanges.find(
        (r) => parseIp(r.from)!.value <= ip.value && ip.value <= parseIp(r.to)!.value,
      );
      if (reserved)
        throw conflict(
          `${wanted} is in a reserved range of "${network.name}" (${reserved.from} – ${reserved.to}${reserved.note ? `: ${reserved.note}` : ''})`,
        );
      const repo = createIpamRepository(tx);
      const current = await repo.assignmentAt(network.id, wanted);
      if (current?.state === 'static' && current.subscriptionId === subscriptionId) return wanted;
      await this.quarantineStatic(tx, subscriptionId);
      if (!(await this.take(tx, network.id, subscriptionId, wanted, ip.value))) {
        const holder = await repo.assignmentAt(network.id, wanted);
        if (holder?.state === 'quarantined')
          throw conflict(`${wanted} is in quarantine until ${holder.quarantineUntil!.toISOString()}`);
        if (holder?.state === 'reserved') throw conflict(`${wanted} is reserved`);
        throw conflict(`${wanted} is already assigned to another subscription`);
      }
      return wanted;
    }
    await this.quarantineStatic(tx, subscriptionId);
    // The addresses taken now, by number; the walk skips them, the gateway and the reserved ranges.
    const now = this.deps.clock.now();
    const taken = await createIpamRepository(tx).takenNumbers(network.id, now);
    const skip = merge([...blocked, ...taken.map((t) => ({ from: BigInt(t.n), to: BigInt(t.n) }))]);
    let candidate = usable.from;
    let k = 0;
    for (let attempts = 0; attempts < 100_000 && candidate <= usable.to; ) {
      while (k < skip.length && skip[k].to < candidate) k++;
      if (k < skip.length && skip[k].from <= candidate) {
        candidate = skip[k].to + 1n;
        continue;
      }
      attempts++;
      const address = formatIp(family, candidate);
      if (await this.take(tx, network.id, subscriptionId, address, candidate)) return address;
      candidate++; // taken meanwhile by a concurrent allocation: the next one
    }
    throw conflict(`${M.full} "${network.name}" (${network.cidr})`);
  }

  /** Inserts the static row; over a quarantine that has run out it takes the row. False: the address is held. */
  private async take(
    tx: Db,
    networkId: string,
    subscriptionId: string,
    address: string,
    num: bigint,
  ): Promise<boolean> {
    const now = this.deps.clock.now();
    const rows = await createIpamRepository(tx).takeStatic(networkId, subscriptionId, address, num.toString(), now);
    return rows.length > 0;
  }

  /**
   * Subscriptions no longer served (expired, or cancelled with their period over) give their static address
   * to quarantine and leave their pool. Answers the subscriptions changed. Run on every subscription change and
   * periodically (a cancellation takes effect when its period ends, with no change then).
   */
  async quarantineEnded(subscriptionId?: string): Promise<string[]> {
    const now = this.deps.clock.now();
    const repo = createIpamRepository(this.deps.db);
    const holders = await repo.endedWithStatic(now, subscriptionId);
    const pooled = await repo.endedInPool(now, subscriptionId);
    const ids = [...new Set([...holders.map((h) => h.id!), ...pooled.map((p) => p.id)])];
    for (const id of ids) {
      await this.deps.db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const released = await this.quarantineStatic(tx, id);
        await createIpamRepository(tx).leavePool(id, now);
        await recordAudit(
          tx,
          this.deps.clock,
          { actor: { id: null, email: null, role: 'system' }, ip: null, requestId: null },
          {
            action: 'subscription.address_released',
            targetType: 'subscription',
            targetId: id,
            changes: { address: { from: released, to: null }, reason: { from: null, to: 'subscription ended' } },
          },
        );
      });
    }
    return ids;
  }
}
