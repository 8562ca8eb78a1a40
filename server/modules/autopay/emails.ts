/**
 * Autopay e-mails: a failed automatic payment (with the link to pay by hand) and a card that expires soon, in the
 * customer's language (issue 37): texts in src/i18n/en/mail/autopay.ts and src/i18n/locales/<code>.json.
 */
import type { LanguageCode } from '../../../contract/languages';
import { mt, translatorFor } from '../../i18n';
import type { MailMessage } from '../../integrations/mail/mailer';
import { invoiceLink, mailDate, mailMoney, type InvoiceMailContext } from '../billing/emails';

export function autopayFailedMail(
  c: InvoiceMailContext & { amount: number; card: string; reason: string; nextRetry: string | null },
): MailMessage {
  const t = translatorFor(c.language);
  const amount = mailMoney(c.amount, c.invoice.currency, c.language);
  return {
    to: c.to,
    subject: t('mail.autopay.failed.subject', { number: c.invoice.number }),
    text: [
      t('mail.autopay.greeting', { name: c.name }),
      '',
      t('mail.autopay.failed.lead', { amount, number: c.invoice.number, card: c.card, reason: c.reason }),
      c.nextRetry
        ? t('mail.autopay.failed.retry', { date: mailDate(c.nextRetry, c.language) })
        : t('mail.autopay.failed.noRetry'),
      '',
      t('mail.autopay.failed.payLink', { url: invoiceLink(c.appUrl, c.invoice.id) }),
      t('mail.autopay.failed.dueDate', { dueDate: mailDate(c.invoice.dueDate, c.language) }),
      '',
      c.company,
      '',
    ].join('\n'),
  };
}

export function cardExpiringMail(c: {
  to: string;
  name: string;
  company: string;
  appUrl: string;
  /** The recipient's language (users.language, else the ISP's default). */
  language: LanguageCode;
  card: string;
  expiry: string;
  subscriptionId: string;
  nextInvoice: string;
}): MailMessage {
  const t = translatorFor(c.language);
  return {
    to: c.to,
    subject: t('mail.autopay.expiring.subject', { card: c.card }),
    text: [
      t('mail.autopay.greeting', { name: c.name }),
      '',
      t('mail.autopay.expiring.lead', {
        card: c.card,
        expiry: c.expiry,
        date: mailDate(c.nextInvoice, c.language),
      }),
      t('mail.autopay.expiring.replace'),
      `${c.appUrl.replace(/\/+$/, '')}/subscription/${c.subscriptionId}`,
      '',
      c.company,
      '',
    ].join('\n'),
  };
}

/** "Visa card ending in 4242" in a language; without a card, "saved card". */
export const cardLabel = (card: { brand: string; last4: string } | null | undefined, language: LanguageCode) =>
  card
    ? mt(language, 'mail.autopay.card', {
        brand: `${card.brand.charAt(0).toUpperCase()}${card.brand.slice(1)}`,
        last4: card.last4,
      })
    : mt(language, 'mail.autopay.savedCard');
export const cardExpiry = (card: { expMonth: number; expYear: number }) =>
  `${String(card.expMonth).padStart(2, '0')}/${card.expYear}`;
