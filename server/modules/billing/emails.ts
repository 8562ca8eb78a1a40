/**
 * The billing e-mails: plain text, each naming the invoice number, the amount, the due date and the public
 * invoice page (`${appUrl}/invoice/<invoice uuid>`, where the customer can also pay).
 */
import { formatMoney } from '../../../contract/money';
import type { MailMessage } from '../../integrations/mail/mailer';

export interface InvoiceMailContext {
  to: string;
  name: string;
  company: string;
  appUrl: string;
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

export const invoiceLink = (appUrl: string, invoiceId: string) => `${appUrl.replace(/\/+$/, '')}/invoice/${invoiceId}`;
const amount = (c: InvoiceMailContext) => formatMoney(c.invoice.totalAmount, c.invoice.currency, 'en-US');
const greeting = (c: InvoiceMailContext) => `Hello ${c.name},`;
const credit = (c: InvoiceMailContext) => Math.max(0, c.invoice.creditApplied ?? 0);
const due = (c: InvoiceMailContext) => Math.max(0, c.invoice.totalAmount - credit(c));
const money = (c: InvoiceMailContext, minor: number) => formatMoney(minor, c.invoice.currency, 'en-US');
const details = (c: InvoiceMailContext) =>
  [
    `Invoice: ${c.invoice.number}`,
    `For: ${c.invoice.description}`,
    `Amount: ${amount(c)}`,
    ...(credit(c) > 0 ? [`Credit applied: -${money(c, credit(c))}`, `Amount due: ${money(c, due(c))}`] : []),
    `Due date: ${c.invoice.dueDate}`,
  ].join('\n');
const signature = (c: InvoiceMailContext) => `\n${c.company}\n`;

export function invoiceIssuedMail(c: InvoiceMailContext): MailMessage {
  // Three cases: paid in full with the customer's credit (nothing to pay), partly covered by credit, no credit.
  const covered = credit(c) > 0 && due(c) === 0;
  const [subject, lead, linkLabel] = covered
    ? [
        `Invoice ${c.invoice.number} issued (${amount(c)}, paid with your credit)`,
        `Invoice ${c.invoice.number} of ${amount(c)} has been issued and paid in full with your account credit. There is nothing to pay.`,
        'View it online',
      ]
    : credit(c) > 0
      ? [
          `Invoice ${c.invoice.number} issued (${money(c, due(c))} to pay, due ${c.invoice.dueDate})`,
          `Invoice ${c.invoice.number} of ${amount(c)} has been issued. Your account credit of ${money(c, credit(c))} was applied; please pay the remaining ${money(c, due(c))} by ${c.invoice.dueDate}.`,
          'View and pay it online',
        ]
      : [
          `Invoice ${c.invoice.number} issued (${amount(c)}, due ${c.invoice.dueDate})`,
          `Invoice ${c.invoice.number} of ${amount(c)} has been issued. Please pay it by ${c.invoice.dueDate}.`,
          'View and pay it online',
        ];
  return {
    to: c.to,
    subject,
    text: [
      greeting(c),
      '',
      lead,
      '',
      details(c),
      '',
      `${linkLabel}: ${invoiceLink(c.appUrl, c.invoice.id)}`,
      signature(c),
    ].join('\n'),
  };
}

export function overdueMail(c: InvoiceMailContext & { suspendAfter: string | null }): MailMessage {
  return {
    to: c.to,
    subject: `Invoice ${c.invoice.number} is overdue`,
    text: [
      greeting(c),
      '',
      `Invoice ${c.invoice.number} of ${amount(c)} was due on ${c.invoice.dueDate} and has not been paid yet.`,
      c.suspendAfter ? `If it is still unpaid after ${c.suspendAfter}, your service will be suspended.` : null,
      '',
      details(c),
      '',
      `Pay it online: ${invoiceLink(c.appUrl, c.invoice.id)}`,
      '',
      'If you have already paid, please ignore this message.',
      signature(c),
    ]
      .filter((line) => line !== null)
      .join('\n'),
  };
}

export function suspendedMail(c: InvoiceMailContext & { planName: string }): MailMessage {
  return {
    to: c.to,
    subject: `Your ${c.planName} service is suspended: invoice ${c.invoice.number} is unpaid`,
    text: [
      greeting(c),
      '',
      `Your ${c.planName} service has been suspended because invoice ${c.invoice.number} of ${amount(c)}, due on ${c.invoice.dueDate}, is still unpaid.`,
      'Paying the invoice reactivates the service straight away.',
      '',
      details(c),
      '',
      `Pay it online: ${invoiceLink(c.appUrl, c.invoice.id)}`,
      signature(c),
    ].join('\n'),
  };
}

export function paymentReceivedMail(c: InvoiceMailContext & { paidDate: string }): MailMessage {
  return {
    to: c.to,
    subject: `Payment received for invoice ${c.invoice.number}`,
    text: [
      greeting(c),
      '',
      `We received your payment of ${amount(c)} for invoice ${c.invoice.number} on ${c.paidDate}. Thank you.`,
      '',
      details(c),
      '',
      `Your invoice: ${invoiceLink(c.appUrl, c.invoice.id)}`,
      signature(c),
    ].join('\n'),
  };
}
