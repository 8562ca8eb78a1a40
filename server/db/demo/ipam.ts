/**
 * The demo's IP address management (issue 22): a /24 of static customer addresses (gateway, a reserved range for
 * the access network), the PPPoE pool the demo sessions' addresses come from (100.64.0.0/22, named for the
 * simulated NAS), a walled garden for suspended customers, and an IPv6 /48 for prefix delegation. A few served
 * customers get a static address (their accounting sessions then carry it, so the address history answers with
 * them) and a delegated /56; one static address sits in quarantine; some customers are put on the pool.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import { ipNetworkInputSchema, subscriptionAddressInputSchema } from '../../../contract/schemas/ipam';
import type { ManualClock } from '../../lib/clock';
import { IpamService } from '../../modules/ipam/service';
import { DEFAULT_SIMULATED_NAS_NAME } from '../../simulator';
import type { Db } from '../client';
import { devices, radiusSessions, serviceCredentials, subscriptions } from '../schema';

export interface IpamSummary {
  networks: number;
  staticAddresses: number;
  pooled: number;
}

const STATIC_CUSTOMERS = 6;
const POOLED_CUSTOMERS = 8;

export async function seedDemoIpam(db: Db, deps: { clock: ManualClock }): Promise<IpamSummary> {
  const service = new IpamService({ db, clock: deps.clock });
  const [nas] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(eq(devices.name, DEFAULT_SIMULATED_NAS_NAME))
    .limit(1);
  const network = (input: Record<string, unknown>) =>
    service.create(ipNetworkInputSchema.parse({ device_id: nas?.id ?? null, ...input }));

  const statics = await network({
    name: 'Static customers',
    cidr: '203.0.113.0/24',
    purpose: 'static',
    gateway: '203.0.113.1',
    dns_servers: ['203.0.113.2', '9.9.9.9'],
    site: 'Central exchange',
    reserved_ranges: [{ from: '203.0.113.2', to: '203.0.113.9', note: 'DNS, switches and access points' }],
    quarantine_days: 30,
    notes: 'Business and home customers who asked for a fixed address.',
  });
  const pool = await network({
    name: `${DEFAULT_SIMULATED_NAS_NAME} PPPoE pool`,
    cidr: '100.64.0.0/22',
    purpose: 'pool',
    pool_name: 'pppoe-pool',
    dns_servers: ['9.9.9.9', '149.112.112.112'],
    notes: 'Carrier-grade NAT space; the NAS hands these addresses out itself.',
  });
  await network({
    name: 'Walled garden',
    cidr: '10.254.0.0/24',
    purpose: 'walled_garden',
    pool_name: 'walled-garden',
    gateway: '10.254.0.1',
    quarantine_days: 0,
  });
  await network({
    name: 'IPv6 delegation',
    cidr: '2001:db8:100::/48',
    purpose: 'ipv6_delegation',
    device_id: null,
    site: 'All NAS devices',
  });

  // Served customers with PPPoE credentials, by login: the first few get static addresses, the next ones the pool.
  const served = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .innerJoin(serviceCredentials, eq(serviceCredentials.subscriptionId, subscriptions.id))
    .where(inArray(subscriptions.status, ['active']))
    .orderBy(asc(serviceCredentials.username));
  let staticAddresses = 0;
  for (const [i, s] of served.slice(0, STATIC_CUSTOMERS).entries()) {
    const delegated = i < 3 ? `2001:db8:100:${(i + 1).toString(16)}00::/56` : undefined;
    const { address } = await service.setSubscriptionAddress(
      s.id,
      subscriptionAddressInputSchema.parse({ network_id: statics.id, delegated_ipv6_prefix: delegated }),
    );
    staticAddresses++;
    // Their sessions were given the static address (the history then answers with them).
    await db.update(radiusSessions).set({ framedIp: address.address }).where(eq(radiusSessions.subscriptionId, s.id));
  }
  // A customer who moved to the pool: their static address waits in quarantine.
  const moved = served[STATIC_CUSTOMERS];
  if (moved) {
    await service.setSubscriptionAddress(moved.id, subscriptionAddressInputSchema.parse({ network_id: statics.id }));
    await service.setSubscriptionAddress(moved.id, subscriptionAddressInputSchema.parse({ network_id: pool.id }));
  }
  let pooled = moved ? 1 : 0;
  for (const s of served.slice(STATIC_CUSTOMERS + 1, STATIC_CUSTOMERS + 1 + POOLED_CUSTOMERS)) {
    await service.setSubscriptionAddress(s.id, subscriptionAddressInputSchema.parse({ network_id: pool.id }));
    pooled++;
  }
  return { networks: 4, staticAddresses, pooled };
}
