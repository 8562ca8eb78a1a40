/**
 * Subscriptions: the customer's service on its plan, with the same PPPoE / hotspot login and password (sealed, as
 * the portal keeps every login: CHAP needs the password itself), its status and paid-until date, and its address
 * (a static address in the portal network that holds it, or its pool). After the import the portal's RADIUS
 * answers that login with the plan's rate.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, gte, lte } from 'drizzle-orm';
import { parseIp } from '../../../contract/ip';
import type { Db } from '../../db/client';
import { plans, subscriptions } from '../../db/schema';
import { ipNetworks, subscriptionAddressing } from '../../db/schema/ipam';
import { serviceCredentials } from '../../db/schema/radius';
import { createIpamRepository } from '../../modules/ipam/repository';
import { addBillingCycle } from '../../modules/subscriptions/lifecycle';
import type { SourceSubscription } from '../model';
import { isDryTarget, targetOf, type ImportContext, type Step } from './types';

async function loginTaken(db: Db, username: string): Promise<boolean> {
  const [row] = await db
    .select({ id: serviceCredentials.id })
    .from(serviceCredentials)
    .where(eq(serviceCredentials.username, username));
  return Boolean(row);
}

/** The portal network holding a static IPv4 address. */
async function networkHolding(db: Db, address: string) {
  const ip = parseIp(address);
  if (ip?.family !== 4) return null;
  const n = String(ip.value);
  const [row] = await db
    .select({ id: ipNetworks.id, purpose: ipNetworks.purpose })
    .from(ipNetworks)
    .where(and(eq(ipNetworks.family, 4), lte(ipNetworks.rangeStart, n), gte(ipNetworks.rangeEnd, n)));
  return row ? { ...row, num: n } : null;
}

const dryRunLogins = new WeakMap<ImportContext, Set<string>>();
function dryLogins(ctx: ImportContext): Set<string> {
  const set = dryRunLogins.get(ctx) ?? new Set<string>();
  dryRunLogins.set(ctx, set);
  return set;
}

function pieces(ctx: ImportContext, item: SourceSubscription) {
  return {
    userId: targetOf(ctx, 'customer', item.customerKey),
    planId: targetOf(ctx, 'plan', item.planKey),
    poolId: targetOf(ctx, 'pool', item.poolKey),
  };
}

export const subscriptionStep: Step<SourceSubscription> = {
  kind: 'subscription',
  auditTarget: 'subscription',
  items: (s) => s.subscriptions,
  async decide(db, ctx, item) {
    const { userId, planId, poolId } = pieces(ctx, item);
    if (!userId) return { action: 'skip', reason: `login ${item.username}: its customer was not imported` };
    if (!planId) return { action: 'skip', reason: `login ${item.username}: its plan was not imported` };
    // A dry run writes nothing, so a login two source records share is caught here as the real run's database would.
    const claimed = ctx.dryRun ? dryLogins(ctx) : null;
    if ((await loginTaken(db, item.username)) || claimed?.has(item.username))
      return { action: 'skip', reason: `login ${item.username} already belongs to a subscription in the portal` };
    claimed?.add(item.username);
    const changes: string[] = [];
    if (item.password === null)
      changes.push(
        `${item.passwordUnusable ?? 'the password'} cannot be read back for CHAP/PAP: a new PPPoE password was generated (shown on the subscription); the router or CPE needs it`,
      );
    if (item.framedIp && !(await networkHolding(db, item.framedIp)))
      changes.push(
        `static address ${item.framedIp} is in no portal network: add the network in IP management and assign it`,
      );
    if (item.poolKey && !poolId) changes.push(`pool "${item.poolKey}" was not imported: the NAS chooses the address`);
    return { action: 'create', changes };
  },
  async create(tx, ctx, item) {
    const { userId, planId, poolId } = pieces(ctx, item);
    if (!userId || !planId || isDryTarget(userId) || isDryTarget(planId)) throw new Error('customer or plan missing');
    const [plan] = await tx.select({ cycle: plans.billingCycle }).from(plans).where(eq(plans.id, planId));
    const start = item.periodStart ?? ctx.now;
    const end = item.periodEnd ?? addBillingCycle(ctx.now, plan!.cycle);
    const [row] = await tx
      .insert(subscriptions)
      .values({
        userId,
        planId,
        status: item.status,
        note: (item.note ?? `Imported from ${ctx.source} (login ${item.username})`).slice(0, 1000),
        suspensionReason: item.status === 'suspended' ? `Suspended in ${ctx.source} before the import` : null,
        currentPeriodStart: start,
        currentPeriodEnd: end,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .returning({ id: subscriptions.id });
    const id = row!.id;
    await tx.insert(serviceCredentials).values({
      subscriptionId: id,
      username: item.username.slice(0, 64),
      passwordSealed: ctx.box.seal(item.password ?? randomBytes(9).toString('base64url')),
      createdAt: ctx.now,
    });
    const network = item.framedIp ? await networkHolding(tx, item.framedIp) : null;
    if (network && item.framedIp) {
      const taken = await createIpamRepository(tx).takeStatic(network.id, id, item.framedIp, network.num, ctx.now);
      if (taken.length === 0) throw new Error(`static address ${item.framedIp} is already in use in the portal`);
    }
    if (poolId && !isDryTarget(poolId))
      await tx.insert(subscriptionAddressing).values({ subscriptionId: id, poolNetworkId: poolId, updatedAt: ctx.now });
    return id;
  },
};
