/**
 * Top-ups (issue 36): a customer buys a top-up package for a subscription's current cycle — extra gigabytes
 * (added to every fair-use threshold and the hard stop) or full speed until the cycle ends. Buying writes a
 * pending subscription_top_ups row and an invoice for its price through the usual invoice machinery (the
 * customer's credit is used first); paying that invoice (activateForPaidInvoice, in the payment's transaction)
 * makes it active, and after the commit the subscription's live sessions get a CoA with the new rate.
 * One pending top-up per package per cycle: buying the same again returns the pending one and its invoice.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invoices, plans, subscriptions, type InvoiceRow } from '../../db/schema';
import { subscriptionTopUps, topUpPackages, type SubscriptionTopUpRow } from '../../db/schema/fair-use';
import { conflict, notFound } from '../../lib/errors';
import { issueInvoice } from '../invoices/service';
import { GB } from '../radius/fair-use';

export const TOP_UP_MESSAGES = {
  bought: 'Top-up ordered: it applies once its invoice is paid',
  subscriptionNotFound: 'Subscription not found',
  packageNotFound: 'Top-up package not found',
  notServed: 'Top-ups can only be bought for an active subscription with a current billing period',
  otherCurrency: 'This top-up is sold in another currency than your plan',
} as const;

/** Makes the top-ups an invoice paid for active (in the payment's transaction). Returns their subscriptions. */
export async function activateTopUpsForInvoice(tx: Db, invoiceId: string, now: Date): Promise<string[]> {
  const rows = await tx
    .update(subscriptionTopUps)
    .set({ status: 'active', activatedAt: now })
    .where(and(eq(subscriptionTopUps.invoiceId, invoiceId), eq(subscriptionTopUps.status, 'pending')))
    .returning({ subscriptionId: subscriptionTopUps.subscriptionId });
  return rows.map((r) => r.subscriptionId);
}

/** The subscriptions whose top-ups this (paid) invoice made active: they need a CoA after the commit. */
export async function topUpSubscriptionsOf(db: Db, invoiceId: string): Promise<string[]> {
  const rows = await db
    .select({ subscriptionId: subscriptionTopUps.subscriptionId })
    .from(subscriptionTopUps)
    .where(and(eq(subscriptionTopUps.invoiceId, invoiceId), eq(subscriptionTopUps.status, 'active')));
  return rows.map((r) => r.subscriptionId);
}

/** The active packages a customer may buy, cheapest first within the sort order. */
export function activePackages(db: Db) {
  return db
    .select()
    .from(topUpPackages)
    .where(eq(topUpPackages.status, 'active'))
    .orderBy(asc(topUpPackages.sortOrder), asc(topUpPackages.price));
}

export interface BuyTopUpInput {
  userId: string;
  subscriptionId: string;
  packageId: string;
  now: Date;
  taxRateBp: number;
}

/**
 * Buys a package for the subscription's current cycle: a pending top-up and its invoice (paid at once when the
 * customer's credit covers it, which activates the top-up in the same transaction). Idempotent per package and
 * cycle while pending.
 */
export async function buyTopUp(
  db: Db,
  input: BuyTopUpInput,
): Promise<{ topUp: SubscriptionTopUpRow; invoice: InvoiceRow | null; created: boolean }> {
  return db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const [sub] = await tx
      .select({
        id: subscriptions.id,
        userId: subscriptions.userId,
        status: subscriptions.status,
        periodStart: subscriptions.currentPeriodStart,
        periodEnd: subscriptions.currentPeriodEnd,
        currency: plans.currency,
      })
      .from(subscriptions)
      .innerJoin(plans, eq(plans.id, subscriptions.planId))
      .where(and(eq(subscriptions.id, input.subscriptionId), eq(subscriptions.userId, input.userId)))
      .for('update', { of: subscriptions });
    if (!sub) throw notFound(TOP_UP_MESSAGES.subscriptionNotFound);
    if (sub.status !== 'active' || !sub.periodStart || !sub.periodEnd) throw conflict(TOP_UP_MESSAGES.notServed);
    const [pkg] = await tx
      .select()
      .from(topUpPackages)
      .where(and(eq(topUpPackages.id, input.packageId), eq(topUpPackages.status, 'active')));
    if (!pkg) throw notFound(TOP_UP_MESSAGES.packageNotFound);
    if (pkg.currency !== sub.currency) throw conflict(TOP_UP_MESSAGES.otherCurrency);
    const [pending] = await tx
      .select()
      .from(subscriptionTopUps)
      .where(
        and(
          eq(subscriptionTopUps.subscriptionId, sub.id),
          eq(subscriptionTopUps.packageId, pkg.id),
          eq(subscriptionTopUps.cycleStart, sub.periodStart),
          eq(subscriptionTopUps.status, 'pending'),
        ),
      )
      .limit(1);
    if (pending) {
      const [invoice] = pending.invoiceId
        ? await tx.select().from(invoices).where(eq(invoices.id, pending.invoiceId))
        : [];
      // Still payable: the same top-up and invoice. Its invoice cancelled (or gone): that one is cancelled too, and
      // a new one is bought below.
      if (invoice && (invoice.status === 'unpaid' || invoice.status === 'overdue'))
        return { topUp: pending, invoice, created: false };
      await tx.update(subscriptionTopUps).set({ status: 'cancelled' }).where(eq(subscriptionTopUps.id, pending.id));
    }
    const invoice = await issueInvoice(tx, {
      userId: sub.userId,
      subscriptionId: sub.id,
      currency: pkg.currency,
      lineItems: [
        {
          description:
            pkg.kind === 'extra_data'
              ? `Top-up: ${pkg.name} (+${pkg.dataGb} GB until ${sub.periodEnd.toISOString().slice(0, 10)})`
              : `Top-up: ${pkg.name} (full speed until ${sub.periodEnd.toISOString().slice(0, 10)})`,
          quantity: 1,
          unit_amount: pkg.price,
          kind: 'top_up',
          amount: pkg.price,
        },
      ],
      taxRateBp: input.taxRateBp,
      now: input.now,
    });
    const [topUp] = await tx
      .insert(subscriptionTopUps)
      .values({
        subscriptionId: sub.id,
        packageId: pkg.id,
        kind: pkg.kind,
        extraBytes: pkg.kind === 'extra_data' ? (pkg.dataGb ?? 0) * GB : 0,
        price: pkg.price,
        currency: pkg.currency,
        cycleStart: sub.periodStart,
        cycleEnd: sub.periodEnd,
        invoiceId: invoice.id,
        status: 'pending',
        createdAt: input.now,
      })
      .returning();
    // Paid at issue (credit, or a free package): active at once.
    if (invoice.status === 'paid') await activateTopUpsForInvoice(tx, invoice.id, input.now);
    const [fresh] = await tx.select().from(subscriptionTopUps).where(eq(subscriptionTopUps.id, topUp!.id));
    return { topUp: fresh!, invoice, created: true };
  });
}
