/**
 * The billing run's part of autopay, inside the run's transaction: the first charge attempt of each invoice it
 * issues for an autopay subscription, and the "card expires before the next invoice" reminders (one per card).
 * The charges themselves are made after the run committed (AutopayService.processDue).
 */
import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { subscriptions, users, type InvoiceRow, type SubscriptionRow } from '../../db/schema';
import { autopayCharges, paymentMethods } from '../../db/schema/money';
import type { MailMessage } from '../../integrations/mail/mailer';
import { amountDue } from '../credit/amount-due';
import { cardExpiringMail, cardExpiry, cardLabel } from './emails';

/** Attempt 1 for a freshly issued invoice, due now; nothing when autopay is off or nothing is due. */
export async function scheduleFirstCharge(
  tx: Db,
  invoice: InvoiceRow,
  sub: Pick<SubscriptionRow, 'id' | 'autopayMethodId'>,
  now: Date,
): Promise<boolean> {
  if (!sub.autopayMethodId || amountDue(invoice) <= 0) return false;
  const rows = await tx
    .insert(autopayCharges)
    .values({
      invoiceId: invoice.id,
      subscriptionId: sub.id,
      attempt: 1,
      status: 'scheduled',
      scheduledAt: now,
      paymentMethodId: sub.autopayMethodId,
      amount: amountDue(invoice),
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: autopayCharges.id });
  return rows.length > 0;
}

/** The first instant after a card's expiry month (UTC). */
export const cardExpiresAt = (card: { expMonth: number; expYear: number }) =>
  new Date(Date.UTC(card.expYear, card.expMonth, 1));

/** Cards used by autopay that expire before their subscription's next invoice date, reminded once per card. */
export async function cardExpiryReminders(tx: Db, now: Date, company: string, appUrl: string): Promise<MailMessage[]> {
  const rows = await tx
    .select({ card: paymentMethods, sub: subscriptions, email: users.email, name: users.name })
    .from(paymentMethods)
    .innerJoin(subscriptions, eq(subscriptions.autopayMethodId, paymentMethods.id))
    .innerJoin(users, eq(users.id, paymentMethods.userId))
    .where(
      and(
        isNull(paymentMethods.expiryRemindedAt),
        isNotNull(subscriptions.currentPeriodEnd),
        inArray(subscriptions.status, ['active', 'suspended', 'pending']),
      ),
    )
    .for('update', { of: paymentMethods });
  const mails: MailMessage[] = [];
  const done = new Set<string>();
  for (const { card, sub, email, name } of rows) {
    if (done.has(card.id) || cardExpiresAt(card).getTime() >= sub.currentPeriodEnd!.getTime()) continue;
    done.add(card.id);
    await tx.update(paymentMethods).set({ expiryRemindedAt: now }).where(eq(paymentMethods.id, card.id));
    mails.push(
      cardExpiringMail({
        to: email,
        name,
        company,
        appUrl,
        card: cardLabel(card),
        expiry: cardExpiry(card),
        subscriptionId: sub.id,
        nextInvoice: sub.currentPeriodEnd!.toISOString().slice(0, 10),
      }),
    );
  }
  return mails;
}
