/** Autopay e-mails: a failed automatic payment (with the link to pay by hand) and a card that expires soon. */
import { formatMoney } from '../../../contract/money';
import type { MailMessage } from '../../integrations/mail/mailer';
import { invoiceLink, type InvoiceMailContext } from '../billing/emails';

export function autopayFailedMail(
  c: InvoiceMailContext & { amount: number; card: string; reason: string; nextRetry: string | null },
): MailMessage {
  const amount = formatMoney(c.amount, c.invoice.currency, 'en-US');
  return {
    to: c.to,
    subject: `Automatic payment of invoice ${c.invoice.number} failed`,
    text: [
      `Hello ${c.name},`,
      '',
      `We tried to charge ${amount} for invoice ${c.invoice.number} to your ${c.card}, but the payment did not go through: ${c.reason}`,
      c.nextRetry ? `We will try again on ${c.nextRetry}.` : 'We will not try again automatically.',
      '',
      `You can pay it by hand now: ${invoiceLink(c.appUrl, c.invoice.id)}`,
      `Due date: ${c.invoice.dueDate}`,
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
  card: string;
  expiry: string;
  subscriptionId: string;
  nextInvoice: string;
}): MailMessage {
  return {
    to: c.to,
    subject: `Your ${c.card} expires before your next invoice`,
    text: [
      `Hello ${c.name},`,
      '',
      `The ${c.card} you pay automatically with expires at the end of ${c.expiry}, before your next invoice (${c.nextInvoice}).`,
      'Please replace it so the next payment goes through:',
      `${c.appUrl.replace(/\/+$/, '')}/subscription/${c.subscriptionId}`,
      '',
      c.company,
      '',
    ].join('\n'),
  };
}

export const cardLabel = (card: { brand: string; last4: string }) =>
  `${card.brand.charAt(0).toUpperCase()}${card.brand.slice(1)} card ending in ${card.last4}`;
export const cardExpiry = (card: { expMonth: number; expYear: number }) =>
  `${String(card.expMonth).padStart(2, '0')}/${card.expYear}`;
