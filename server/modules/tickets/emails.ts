/** Ticket e-mails (plain text), each linking to the ticket: `${appUrl}/dashboard/tickets/<id>`. */
import type { LanguageCode } from '../../../contract/languages';
import type { TicketStatus } from '../../../contract/schemas/ticket';
import { mt, translatorFor } from '../../i18n';
import type { MailMessage } from '../../integrations/mail/mailer';

export interface TicketMailContext {
  to: string;
  name: string;
  /** The recipient's language (users.language, else the ISP's default): the customer's or the staff member's own. */
  language: LanguageCode;
  company: string;
  appUrl: string;
  ticket: { id: string; number: string; subject: string };
}

export const ticketLink = (appUrl: string, ticketId: string) =>
  `${appUrl.replace(/\/+$/, '')}/dashboard/tickets/${ticketId}`;

/** A status as the e-mails name it, in a language (texts mail.tickets.status.<status>). */
const statusLabel = (language: LanguageCode, status: TicketStatus) => mt(language, `mail.tickets.status.${status}`);

function texts(c: TicketMailContext) {
  const t = translatorFor(c.language);
  const title = t('mail.tickets.title', { number: c.ticket.number, subject: c.ticket.subject });
  const hello = t('mail.tickets.hello', { name: c.name });
  const footer = ['', t('mail.tickets.open', { link: ticketLink(c.appUrl, c.ticket.id) }), '', c.company, ''];
  return { t, title, hello, footer, number: c.ticket.number, subject: c.ticket.subject };
}

const quote = (message: string) =>
  message
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');

/** To the customer: staff answered. */
export function staffReplyMail(c: TicketMailContext & { author: string; message: string }): MailMessage {
  const { t, title, hello, footer, number, subject } = texts(c);
  return {
    to: c.to,
    subject: t('mail.tickets.staffReply.subject', { number, subject }),
    text: [
      hello,
      '',
      t('mail.tickets.staffReply.intro', { author: c.author, title }),
      '',
      quote(c.message),
      ...footer,
    ].join('\n'),
  };
}

/** To the assignee: the customer answered. */
export function customerReplyMail(c: TicketMailContext & { author: string; message: string }): MailMessage {
  const { t, title, hello, footer, number, subject } = texts(c);
  return {
    to: c.to,
    subject: t('mail.tickets.customerReply.subject', { number, subject }),
    text: [
      hello,
      '',
      t('mail.tickets.customerReply.intro', { author: c.author, title }),
      '',
      quote(c.message),
      ...footer,
    ].join('\n'),
  };
}

/** To the customer: the status changed. */
export function statusChangedMail(c: TicketMailContext & { from: TicketStatus; status: TicketStatus }): MailMessage {
  const { t, title, hello, footer, number } = texts(c);
  const status = statusLabel(c.language, c.status);
  return {
    to: c.to,
    subject: t('mail.tickets.statusChanged.subject', { number, status }),
    text: [
      hello,
      '',
      t('mail.tickets.statusChanged.intro', { title, from: statusLabel(c.language, c.from), status }),
      ...footer,
    ].join('\n'),
  };
}

/** To the new assignee. */
export function assignedMail(c: TicketMailContext & { by: string; customer: string }): MailMessage {
  const { t, title, hello, footer, number, subject } = texts(c);
  return {
    to: c.to,
    subject: t('mail.tickets.assigned.subject', { number, subject }),
    text: [hello, '', t('mail.tickets.assigned.intro', { by: c.by, title, customer: c.customer }), ...footer].join(
      '\n',
    ),
  };
}
