/**
 * The subscription lifecycle and the period arithmetic it relies on: which status changes are allowed and by
 * what, how a billing cycle extends a period, and the pro-rata credit of an upgrade. Pure functions, no I/O.
 */
import type { InvoiceLineItem } from '../../../contract/schemas/invoice';
import type { SubscriptionStatus } from '../../../contract/schemas/subscription';
import { addMonths } from '../../lib/clock';
import { conflict } from '../../lib/errors';

export const transitionMessage = (from: string, to: string) => `Cannot change a subscription from ${from} to ${to}`;

// ---------------------------------------------------------------------------------------------------------
// Lifecycle. Every status change goes through this one table; anything not listed is refused with 409.
//   via 'payment': a paid invoice (activateForPaidInvoice, called by the payments work in its transaction)
//   via 'staff':   PATCH /subscriptions/{id}/status (admin, billing, support)
//   via 'cancel':  POST /subscriptions/{id}/cancel (owner or staff)
//   via 'job':     the recurring billing job (overdue → suspended, period over → expired)
//   via 'usage':   RADIUS accounting: a data-voucher line used its allowance (→ expired, issue 31)
export type TransitionVia = 'payment' | 'staff' | 'cancel' | 'job' | 'usage';
export const SUBSCRIPTION_TRANSITIONS: ReadonlyArray<{
  from: SubscriptionStatus;
  to: SubscriptionStatus;
  via: readonly TransitionVia[];
}> = [
  { from: 'pending', to: 'active', via: ['payment'] },
  { from: 'active', to: 'suspended', via: ['staff', 'job'] },
  { from: 'suspended', to: 'active', via: ['staff', 'payment'] },
  { from: 'active', to: 'cancelled', via: ['staff', 'cancel'] },
  { from: 'suspended', to: 'cancelled', via: ['staff', 'cancel'] },
  { from: 'pending', to: 'cancelled', via: ['staff', 'cancel'] },
  { from: 'cancelled', to: 'expired', via: ['job', 'usage'] },
  { from: 'active', to: 'expired', via: ['job', 'usage'] },
  { from: 'suspended', to: 'expired', via: ['job'] },
];

export function canTransition(from: SubscriptionStatus, to: SubscriptionStatus, via: TransitionVia): boolean {
  return SUBSCRIPTION_TRANSITIONS.some((t) => t.from === from && t.to === to && t.via.includes(via));
}

export function assertTransition(from: SubscriptionStatus, to: SubscriptionStatus, via: TransitionVia): void {
  if (!canTransition(from, to, via)) throw conflict(transitionMessage(from, to));
}

/** Adds a plan's billing cycle in UTC calendar months; the day is clamped to the target month's last day. */
export function addBillingCycle(start: Date, cycle: string): Date {
  return addMonths(start, cycleMonths(cycle));
}

/** The months in a plan's billing cycle (monthly when unknown). */
export const cycleMonths = (cycle: string) =>
  cycle === 'yearly' ? 12 : cycle === 'half_yearly' ? 6 : cycle === 'quarterly' ? 3 : 1;

const DAY = 86_400_000;

/**
 * Pro-rata credit for the unused part of the old plan's period, in integer minor units.
 * Unused days = whole days left until the period end (a started day counts as used: floor);
 * days in period = the period's length in days (rounded to whole days).
 * credit = round half up(old price × unused days ÷ days in period), never more than the old price, never < 0.
 */
export function proRataCredit(oldPrice: number, periodStart: Date, periodEnd: Date, now: Date): number {
  const totalDays = Math.max(1, Math.round((periodEnd.getTime() - periodStart.getTime()) / DAY));
  const unusedDays = Math.max(0, Math.min(totalDays, Math.floor((periodEnd.getTime() - now.getTime()) / DAY)));
  return Math.min(oldPrice, Math.round((oldPrice * unusedDays) / totalDays));
}

/** The invoice line of a renewal (staff renew, billing run): one period of the plan, from start to end. */
export function renewalLineItem(
  plan: { name: string; billingCycle: string; price: number },
  start: Date,
  end: Date,
): InvoiceLineItem {
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return {
    description: `${plan.name} (${plan.billingCycle.replace('_', '-')}) ${day(start)} – ${day(end)}`,
    quantity: 1,
    unit_amount: plan.price,
    amount: plan.price,
    kind: 'renewal',
    period_start: start.toISOString(),
    period_end: end.toISOString(),
  };
}
