/** Ticket e-mails (plain text), each linking to the ticket: `${appUrl}/dashboard/tickets/<id>`. */
import type { TicketStatus } from '../../../contract/schemas/ticket';
import type { MailMessage } from '../../integrations/mail/mailer';

export interface TicketMailContext {
  to: string;
  name: string;
  company: string;
  appUrl: string;
  ticket: { id: string; number: string; subject: string };
}

export const ticketLink = (appUrl: string, ticketId: string) =>
  `${appUrl.replace(/\/+$/, '')}/dashboard/tickets/${ticketId}`;

export const STATUS_LABELS: Record<TicketStatus, string> = {
  open: 'Open',
  in_progress: 'In progress',
  waiting_customer: 'Waiting for your reply',
  resolved: 'Resolved',
  closed: 'Closed',
};

const title = (c: TicketMailContext) => `${c.ticket.number} "${c.ticket.subject}"`;
const footer = (c: TicketMailContext) => [
  '',
  `Open the ticket: ${ticketLink(c.appUrl, c.ticket.id)}`,
  '',
  c.company,
  '',
];
const quote = (message: string) =>
  message
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');

/** To the customer: staff answered. */
export function staffReplyMail(c: TicketMailContext & { author: string; message: string }): MailMessage {
  return {
    to: c.to,
    subject: `[${c.ticket.number}] New reply: ${c.ticket.subject}`,
    text: [
      `Hello ${c.name},`,
      '',
      `${c.author} replied to your ticket ${title(c)}:`,
      '',
      quote(c.message),
      ...footer(c),
    ].join('\n'),
  };
}

/** To the assignee: the customer answered. */
export function customerReplyMail(c: TicketMailContext & { author: string; message: string }): MailMessage {
  return {
    to: c.to,
    subject: `[${c.ticket.number}] Customer reply: ${c.ticket.subject}`,
    text: [
      `Hello ${c.name},`,
      '',
      `${c.author} replied to ticket ${title(c)}, assigned to you:`,
      '',
      quote(c.message),
      ...footer(c),
    ].join('\n'),
  };
}

/** To the customer: the status changed. */
export function statusChangedMail(c: TicketMailContext & { from: TicketStatus; status: TicketStatus }): MailMessage {
  return {
    to: c.to,
    subject: `[${c.ticket.number}] Status: ${STATUS_LABELS[c.status]}`,
    text: [
      `Hello ${c.name},`,
      '',
      `The status of your ticket ${title(c)} changed from ${STATUS_LABELS[c.from]} to ${STATUS_LABELS[c.status]}.`,
      ...footer(c),
    ].join('\n'),
  };
}

/** To the new assignee. */
export function assignedMail(c: TicketMailContext & { by: string; customer: string }): MailMessage {
  return {
    to: c.to,
    subject: `[${c.ticket.number}] Assigned to you: ${c.ticket.subject}`,
    text: [`Hello ${c.name},`, '', `${c.by} assigned ticket ${title(c)} from ${c.customer} to you.`, ...footer(c)].join(
      '\n',
    ),
  };
}
