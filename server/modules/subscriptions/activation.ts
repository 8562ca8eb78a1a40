/**
 * What paying an invoice does to its subscription (split from service.ts): the lifecycle's payment transitions
 * and the period the invoice paid for, which is also the basis of a later unused-days credit (period_paid_amount).
 */
import type { SubscriptionStatus } from '../../../contract/schemas/subscription';
import type { Db } from '../../db/client';
import type { SubscriptionRow } from '../../db/schema';
import { conflict, notFound } from '../../lib/errors';
import { addBillingCycle, assertTransition } from './lifecycle';
import { createSubscriptionRepository } from './repository';

const MESSAGES = { invoiceNotFound: 'Invoice not found', invoiceNotPaid: 'The invoice is not paid' } as const;

/**
 * Called by the payments work inside its transaction once an invoice is marked paid: activates a pending
 * subscription (period = paid date + the plan's billing cycle), reactivates a suspended one, and moves the
 * period on when the invoice paid a renewal for the period that follows the current one. Anything else
 * (an upgrade invoice, a cancelled or expired subscription, an invoice without a subscription) changes
 * nothing. Idempotent: calling it again for the same invoice changes nothing more.
 */
export async function activateForPaidInvoice(
  tx: Db,
  invoiceId: string,
  now: Date = new Date(),
): Promise<SubscriptionRow | undefined> {
  const repo = createSubscriptionRepository(tx);
  const invoice = await repo.invoice(invoiceId);
  if (!invoice) throw notFound(MESSAGES.invoiceNotFound);
  if (invoice.status !== 'paid') throw conflict(MESSAGES.invoiceNotPaid);
  if (!invoice.subscriptionId) return undefined;
  // A fair-use top-up's invoice (issue 36): its top-up becomes active in this transaction; nothing else changes.
  if (invoice.lineItems.some((l) => l.kind === 'top_up')) {
    const { activateTopUpsForInvoice } = await import('../top-ups/service');
    await activateTopUpsForInvoice(tx, invoice.id, invoice.paidDate ?? now);
    return repo.lock(invoice.subscriptionId);
  }
  const sub = await repo.lock(invoice.subscriptionId);
  if (!sub) return undefined;
  const plan = await repo.plan(sub.planId);
  const at = invoice.paidDate ?? now;
  const status = sub.status as SubscriptionStatus;
  const renewal = invoice.lineItems.find((l) => l.kind === 'renewal' && l.period_start && l.period_end);
  const patch: Partial<SubscriptionRow> = {};
  if (status === 'pending') {
    assertTransition(status, 'active', 'payment');
    patch.status = 'active';
    patch.currentPeriodStart = at;
    patch.currentPeriodEnd = addBillingCycle(at, plan.billingCycle);
    patch.periodPaidAmount = invoice.lineItems.find((l) => l.kind === 'plan')?.amount ?? plan.price;
  } else if (status === 'suspended') {
    assertTransition(status, 'active', 'payment');
    patch.status = 'active';
    patch.suspensionReason = null;
  } else if (status !== 'active') {
    return sub;
  }
  if (renewal && sub.currentPeriodEnd && new Date(renewal.period_start!).getTime() === sub.currentPeriodEnd.getTime()) {
    patch.currentPeriodStart = new Date(renewal.period_start!);
    patch.currentPeriodEnd = new Date(renewal.period_end!);
    patch.periodPaidAmount = renewal.amount;
  }
  // A plan change's invoice paid: the period it started is now paid for (the basis of a later unused-days credit).
  const upgrade = invoice.lineItems.find((l) => l.kind === 'upgrade' && l.period_start);
  if (
    upgrade &&
    sub.currentPeriodStart &&
    new Date(upgrade.period_start!).getTime() === sub.currentPeriodStart.getTime()
  )
    patch.periodPaidAmount = upgrade.amount;
  if (Object.keys(patch).length === 0) return sub;
  return repo.updateReturning(sub.id, { ...patch, updatedAt: now });
}
