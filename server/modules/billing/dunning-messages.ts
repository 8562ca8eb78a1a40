/**
 * What the dunning says (issue 38), in the customer's language: a reminder before the due date, on the due date, or
 * so many days late, with the amount due and the public invoice page (where it can be paid without signing in);
 * and "a late fee of X was added". Each as an e-mail (subject, text) and a short text for SMS/WhatsApp. Texts in
 * src/i18n/en/mail/dunning.ts.
 */
import type { LanguageCode } from '../../../contract/languages';
import { translatorFor } from '../../i18n';
import type { ComposedMessage } from '../messaging/types';
import { invoiceLink, mailDate, mailMoney } from './emails';

export interface DunningInvoice {
  id: string;
  number: string;
  currency: string;
  dueDate: string;
  /** What is still to pay (total − credit applied). */
  amountDue: number;
}

export interface DunningFee {
  id: string;
  number: string;
  totalAmount: number;
  dueDate: string;
}

interface Common {
  name: string;
  company: string;
  appUrl: string;
  invoice: DunningInvoice;
}

type DunningStage = 'beforeDue' | 'dueToday' | 'overdue';
export const stageOf = (offset: number): DunningStage =>
  offset < 0 ? 'beforeDue' : offset === 0 ? 'dueToday' : 'overdue';

/** A reminder for an invoice `late` days past its due date today (negative: before it); with its open late fee. */
export function reminderMessage(
  c: Common & { late: number; fee: DunningFee | null },
  language: LanguageCode,
): ComposedMessage {
  const t = translatorFor(language);
  const stage = stageOf(c.late);
  const url = invoiceLink(c.appUrl, c.invoice.id);
  const params = {
    number: c.invoice.number,
    due: mailMoney(c.invoice.amountDue, c.invoice.currency, language),
    dueDate: mailDate(c.invoice.dueDate, language),
    days: Math.abs(c.late),
    company: c.company,
    url,
  };
  const feeLine = c.fee
    ? t('mail.dunning.feeLine', {
        fee: mailMoney(c.fee.totalAmount, c.invoice.currency, language),
        feeNumber: c.fee.number,
        url: invoiceLink(c.appUrl, c.fee.id),
      })
    : null;
  return {
    subject: t(`mail.dunning.${stage}.subject`, params),
    text: [
      t('mail.billing.greeting', { name: c.name }),
      '',
      t(`mail.dunning.${stage}.lead`, params),
      '',
      t('mail.billing.payLink', { url }),
      ...(feeLine ? [feeLine] : []),
      '',
      t('mail.billing.overdue.ignore'),
      '',
      c.company,
      '',
    ].join('\n'),
    short: t(`mail.dunning.short.${stage}`, params),
  };
}

/** "A late fee of X was added for invoice N" (sent on its own when no reminder of that invoice goes out that day). */
export function lateFeeMessage(c: Common & { fee: DunningFee }, language: LanguageCode): ComposedMessage {
  const t = translatorFor(language);
  const params = {
    number: c.invoice.number,
    dueDate: mailDate(c.invoice.dueDate, language),
    fee: mailMoney(c.fee.totalAmount, c.invoice.currency, language),
    feeNumber: c.fee.number,
    feeDueDate: mailDate(c.fee.dueDate, language),
    company: c.company,
    url: invoiceLink(c.appUrl, c.invoice.id),
    feeUrl: invoiceLink(c.appUrl, c.fee.id),
  };
  return {
    subject: t('mail.dunning.lateFee.subject', params),
    text: [
      t('mail.billing.greeting', { name: c.name }),
      '',
      t('mail.dunning.lateFee.lead', params),
      '',
      t('mail.dunning.lateFee.payBoth', params),
      '',
      c.company,
      '',
    ].join('\n'),
    short: t('mail.dunning.lateFee.short', params),
  };
}
