/**
 * The billing e-mails: plain text, each naming the invoice number, the amount, the due date and the public
 * invoice page (`${appUrl}/invoice/<invoice uuid>`, where the customer can also pay). Written in the customer's
 * language (issue 37): texts in src/i18n/en/mail/billing.ts and src/i18n/locales/<code>.json.
 */
import type { LanguageCode } from '../../../contract/languages';
import { formatMoney } from '../../../contract/money';
import { localeOf, translatorFor } from '../../i18n';
import type { MailMessage } from '../../integrations/mail/mailer';

export interface InvoiceMailContext {
  to: string;
  name: string;
  company: string;
  appUrl: string;
  /** The recipient's language (users.language, else the ISP's default). */
  language: LanguageCode;
  invoice: {
    id: string;
    number: string;
    totalAmount: number;
    /** Customer credit used when it was issued (issue 21); absent or 0 when none. */
    creditApplied?: number;
    currency: string;
    dueDate: string;
    /** What the invoice is for (its first line item). */
    description: string;
  };
}

/** Money in a mail: English as it always was (en-US), other languages in their locale. */
export const mailMoney = (minor: number, currency: string, language: LanguageCode) =>
  formatMoney(minor, currency, language === 'en' ? 'en-US' : localeOf(language));

/** A day (YYYY-MM-DD) in a mail: English as it always was (the ISO day), other languages written out. */
export function mailDate(isoDay: string, language: LanguageCode): string {
  if (language === 'en') return isoDay;
  const date = new Date(`${isoDay.slice(0, 10)}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime())) return isoDay;
  return new Intl.DateTimeFormat(localeOf(language), { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

export const invoiceLink = (appUrl: string, invoiceId: string) => `${appUrl.replace(/\/+$/, '')}/invoice/${invoiceId}`;
const money = (c: InvoiceMailContext, minor: number) => mailMoney(minor, c.invoice.currency, c.language);
const amount = (c: InvoiceMailContext) => money(c, c.invoice.totalAmount);
const dueDate = (c: InvoiceMailContext) => mailDate(c.invoice.dueDate, c.language);
const credit = (c: InvoiceMailContext) => Math.max(0, c.invoice.creditApplied ?? 0);
const due = (c: InvoiceMailContext) => Math.max(0, c.invoice.totalAmount - credit(c));
const greeting = (c: InvoiceMailContext) => translatorFor(c.language)('mail.billing.greeting', { name: c.name });
const details = (c: InvoiceMailContext) => {
  const t = translatorFor(c.language);
  return [
    t('mail.billing.details.invoice', { number: c.invoice.number }),
    t('mail.billing.details.for', { description: c.invoice.description }),
    t('mail.billing.details.amount', { amount: amount(c) }),
    ...(credit(c) > 0
      ? [
          t('mail.billing.details.creditApplied', { credit: money(c, credit(c)) }),
          t('mail.billing.details.amountDue', { due: money(c, due(c)) }),
        ]
      : []),
    t('mail.billing.details.dueDate', { dueDate: dueDate(c) }),
  ].join('\n');
};
const signature = (c: InvoiceMailContext) => `\n${c.company}\n`;

export function invoiceIssuedMail(c: InvoiceMailContext): MailMessage {
  const t = translatorFor(c.language);
  const params = {
    number: c.invoice.number,
    amount: amount(c),
    credit: money(c, credit(c)),
    due: money(c, due(c)),
    dueDate: dueDate(c),
  };
  const url = invoiceLink(c.appUrl, c.invoice.id);
  // Three cases: paid in full with the customer's credit (nothing to pay), partly covered by credit, no credit.
  const covered = credit(c) > 0 && due(c) === 0;
  const [subject, lead, link] = covered
    ? [
        t('mail.billing.issued.covered.subject', params),
        t('mail.billing.issued.covered.lead', params),
        t('mail.billing.issued.viewLink', { url }),
      ]
    : credit(c) > 0
      ? [
          t('mail.billing.issued.partial.subject', params),
          t('mail.billing.issued.partial.lead', params),
          t('mail.billing.issued.payLink', { url }),
        ]
      : [
          t('mail.billing.issued.subject', params),
          t('mail.billing.issued.lead', params),
          t('mail.billing.issued.payLink', { url }),
        ];
  return {
    to: c.to,
    subject,
    text: [greeting(c), '', lead, '', details(c), '', link, signature(c)].join('\n'),
  };
}

export function overdueMail(c: InvoiceMailContext & { suspendAfter: string | null }): MailMessage {
  const t = translatorFor(c.language);
  return {
    to: c.to,
    subject: t('mail.billing.overdue.subject', { number: c.invoice.number }),
    text: [
      greeting(c),
      '',
      t('mail.billing.overdue.lead', { number: c.invoice.number, amount: amount(c), dueDate: dueDate(c) }),
      c.suspendAfter ? t('mail.billing.overdue.suspendWarning', { date: mailDate(c.suspendAfter, c.language) }) : null,
      '',
      details(c),
      '',
      t('mail.billing.payLink', { url: invoiceLink(c.appUrl, c.invoice.id) }),
      '',
      t('mail.billing.overdue.ignore'),
      signature(c),
    ]
      .filter((line) => line !== null)
      .join('\n'),
  };
}

/** The suspended e-mail; planName null: the plan is unknown ("your internet service"). */
export function suspendedMail(c: InvoiceMailContext & { planName: string | null }): MailMessage {
  const t = translatorFor(c.language);
  const plan = c.planName ?? t('mail.billing.defaultPlan');
  return {
    to: c.to,
    subject: t('mail.billing.suspended.subject', { plan, number: c.invoice.number }),
    text: [
      greeting(c),
      '',
      t('mail.billing.suspended.lead', { plan, number: c.invoice.number, amount: amount(c), dueDate: dueDate(c) }),
      t('mail.billing.suspended.reactivate'),
      '',
      details(c),
      '',
      t('mail.billing.payLink', { url: invoiceLink(c.appUrl, c.invoice.id) }),
      signature(c),
    ].join('\n'),
  };
}

export function paymentReceivedMail(c: InvoiceMailContext & { paidDate: string }): MailMessage {
  const t = translatorFor(c.language);
  return {
    to: c.to,
    subject: t('mail.billing.paid.subject', { number: c.invoice.number }),
    text: [
      greeting(c),
      '',
      t('mail.billing.paid.lead', {
        amount: amount(c),
        number: c.invoice.number,
        date: mailDate(c.paidDate, c.language),
      }),
      '',
      details(c),
      '',
      t('mail.billing.paid.link', { url: invoiceLink(c.appUrl, c.invoice.id) }),
      signature(c),
    ].join('\n'),
  };
}
