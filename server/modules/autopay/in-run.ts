/**
 * The billing run's part of autopay, inside the run's transaction: the first charge attempt of each invoice it
 * issues for an autopay subscription, and the "card expires before the next invoice" reminders (one per card).
 * The charges themselves are made after the run committed (AutopayService.processDue).
 */
import type { Db } from '../../db/client';
import type { InvoiceRow, SubscriptionRow } from '../../db/schema';
import { languageOf } from '../../i18n';
import type { MailMessage } from '../../integrations/mail/mailer';
import { amountDue } from '../credit/amount-due';
import { cardExpiringMail, cardExpiry, cardLabel } from './emails';
import { createAutopayRepository } from './repository';

/** Attempt 1 for a freshly issued invoice, due now; nothing when autopay is off or nothing is due. */
export async function scheduleFirstCharge(
  tx: Db,
  invoice: InvoiceRow,
  sub: Pick<SubscriptionRow, 'id' | 'autopayMethodId'>,
  now: Date,
): Promise<boolean> {
  if (!sub.autopayMethodId || amountDue(invoice) <= 0) return false;
  const rows = await createAutopayRepository(tx).scheduleCharge({
    invoiceId: invoice.id,
    subscriptionId: sub.id,
    attempt: 1,
    status: 'scheduled',
    scheduledAt: now,
    paymentMethodId: sub.autopayMethodId,
    amount: amountDue(invoice),
    createdAt: now,
    updatedAt: now,
  });
  return rows.length > 0;
}

/** The first instant after a card's expiry month (UTC). */
export const cardExpiresAt = (card: { expMonth: number; expYear: number }) =>
  new Date(Date.UTC(card.expYear, card.expMonth, 1));

/** Cards used by autopay that expire before their subscription's next invoice date, reminded once per card. */
export async function cardExpiryReminders(
  tx: Db,
  now: Date,
  company: string,
  appUrl: string,
  /** The ISP's default language, for customers who chose none. */
  defaultLanguage: string,
): Promise<MailMessage[]> {
  const repo = createAutopayRepository(tx);
  const rows = await repo.lockCardsToRemind();
  const mails: MailMessage[] = [];
  const done = new Set<string>();
  for (const { card, sub, email, name, language: stored } of rows) {
    if (done.has(card.id) || cardExpiresAt(card).getTime() >= sub.currentPeriodEnd!.getTime()) continue;
    done.add(card.id);
    await repo.markReminded(card.id, now);
    const language = languageOf(stored, defaultLanguage);
    mails.push(
      cardExpiringMail({
        to: email,
        name,
        company,
        appUrl,
        language,
        card: cardLabel(card, language),
        expiry: cardExpiry(card),
        subscriptionId: sub.id,
        nextInvoice: sub.currentPeriodEnd!.toISOString().slice(0, 10),
      }),
    );
  }
  return mails;
}
