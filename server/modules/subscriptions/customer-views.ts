/**
 * What customers read of their own subscriptions (the portal's pages): every subscription with its invoices and
 * payments (GET /subscriptions/orders) and the active one with its plan (GET /subscriptions/active-plan). Read-only
 * views over the repository, apart from the service's rules for changing subscriptions.
 */
import type { Invoice } from '../../../contract/schemas/invoice';
import type { ActivePlan, Order } from '../../../contract/schemas/subscription';
import { notFound } from '../../lib/errors';
import { toInvoice } from '../invoices/service';
import { toPayment } from '../payments/service';
import type { SubscriptionRepository } from './repository';
import { SUBSCRIPTION_MESSAGES, toSubscription } from './service';

/** The customer's subscriptions (newest first), each with its invoices and payments (newest first). */
export async function ordersOf(repository: SubscriptionRepository, userId: string): Promise<Order[]> {
  const subs = await repository.ownedBy(userId);
  if (!subs.length) return [];
  const rows = await repository.invoicesOf(subs.map((s) => s.row.id));
  const paid = rows.length ? await repository.paymentsOf(rows.map((i) => i.id)) : [];
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
