/**
 * What customers read of their own subscriptions (the portal's pages): every subscription with its invoices and
 * payments (GET /subscriptions/orders) and the active one with its plan (GET /subscriptions/active-plan). Read-only
 * views over the repository, apart from the service's rules for changing subscriptions.
 */
import { asc, desc, inArray } from 'drizzle-orm';
import type { Invoice } from '../../../contract/schemas/invoice';
import type { ActivePlan, Order } from '../../../contract/schemas/subscription';
import type { Db } from '../../db/client';
import { invoices, payments } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { toInvoice } from '../invoices/service';
import { toPayment } from '../payments/service';
import type { SubscriptionRepository } from './repository';
import { SUBSCRIPTION_MESSAGES, toSubscription } from './service';

/** The customer's subscriptions (newest first), each with its invoices and payments (newest first). */
export async function ordersOf(db: Db, repository: SubscriptionRepository, userId: string): Promise<Order[]> {
  const subs = await repository.ownedBy(userId);
  if (!subs.length) return [];
  const rows = await db
    .select()
    .from(invoices)
    .where(
      inArray(
        invoices.subscriptionId,
        subs.map((s) => s.row.id),
      ),
    )
    .orderBy(desc(invoices.createdAt), desc(invoices.number), asc(invoices.id));
  const paid = rows.length
    ? await db
        .select()
        .from(payments)
        .where(
          inArray(
            payments.invoiceId,
            rows.map((i) => i.id),
          ),
        )
        .orderBy(desc(payments.createdAt), desc(payments.id))
    : [];
  return subs.map((s) => {
    const own = rows.filter((i) => i.subscriptionId === s.row.id);
    const ownIds = new Set(own.map((i) => i.id));
    return {
      ...toSubscription(s),
      invoices: own.map((i) => toInvoice(i) as Invoice),
      payments: paid.filter((p) => ownIds.has(p.invoiceId)).map(toPayment),
    };
  });
}

/** The customer's active subscription and its plan; 404 when there is none. */
export async function activePlanOf(repository: SubscriptionRepository, userId: string): Promise<ActivePlan> {
  const found = await repository.activeFor(userId);
  if (!found) throw notFound(SUBSCRIPTION_MESSAGES.noActivePlan);
  const { plan } = found;
  return {
    subscription: toSubscription(found.subscription),
    plan: {
      id: plan.id,
      name: plan.name,
      download_mbps: plan.downloadMbps,
      upload_mbps: plan.uploadMbps,
      data_cap_gb: plan.dataCapGb,
      price: plan.price,
      currency: plan.currency,
      billing_cycle: plan.billingCycle,
    },
  };
}
