/** The tickets e-mails' texts (server/modules/tickets/emails.ts), in every language through src/i18n/locales/<code>.json. */
export const ticketsMail: Record<string, string> = {
  'mail.tickets.hello': 'Hello {name},',
  'mail.tickets.title': '{number} "{subject}"',
  'mail.tickets.open': 'Open the ticket: {link}',
  'mail.tickets.status.open': 'Open',
  'mail.tickets.status.in_progress': 'In progress',
  'mail.tickets.status.waiting_customer': 'Waiting for your reply',
  'mail.tickets.status.resolved': 'Resolved',
  'mail.tickets.status.closed': 'Closed',
  'mail.tickets.staffReply.subject': '[{number}] New reply: {subject}',
  'mail.tickets.staffReply.intro': '{author} replied to your ticket {title}:',
  'mail.tickets.customerReply.subject': '[{number}] Customer reply: {subject}',
  'mail.tickets.customerReply.intro': '{author} replied to ticket {title}, assigned to you:',
  'mail.tickets.statusChanged.subject': '[{number}] Status: {status}',
  'mail.tickets.statusChanged.intro': 'The status of your ticket {title} changed from {from} to {status}.',
  'mail.tickets.assigned.subject': '[{number}] Assigned to you: {subject}',
  'mail.tickets.assigned.intro': '{by} assigned ticket {title} from {customer} to you.',
};
