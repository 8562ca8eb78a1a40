/** The billing e-mails' texts (server/modules/billing/emails.ts), in every language through src/i18n/locales/<code>.json. */
export const billingMail: Record<string, string> = {
  'mail.billing.greeting': 'Hello {name},',
  'mail.billing.details.invoice': 'Invoice: {number}',
  'mail.billing.details.for': 'For: {description}',
  'mail.billing.details.amount': 'Amount: {amount}',
  'mail.billing.details.creditApplied': 'Credit applied: -{credit}',
  'mail.billing.details.amountDue': 'Amount due: {due}',
  'mail.billing.details.dueDate': 'Due date: {dueDate}',
  'mail.billing.defaultDescription': 'Internet service',
  'mail.billing.defaultPlan': 'internet',
  'mail.billing.issued.covered.subject': 'Invoice {number} issued ({amount}, paid with your credit)',
  'mail.billing.issued.covered.lead':
    'Invoice {number} of {amount} has been issued and paid in full with your account credit. There is nothing to pay.',
  'mail.billing.issued.partial.subject': 'Invoice {number} issued ({due} to pay, due {dueDate})',
  'mail.billing.issued.partial.lead':
    'Invoice {number} of {amount} has been issued. Your account credit of {credit} was applied; please pay the remaining {due} by {dueDate}.',
  'mail.billing.issued.subject': 'Invoice {number} issued ({amount}, due {dueDate})',
  'mail.billing.issued.lead': 'Invoice {number} of {amount} has been issued. Please pay it by {dueDate}.',
  'mail.billing.issued.viewLink': 'View it online: {url}',
  'mail.billing.issued.payLink': 'View and pay it online: {url}',
  'mail.billing.overdue.subject': 'Invoice {number} is overdue',
  'mail.billing.overdue.lead': 'Invoice {number} of {amount} was due on {dueDate} and has not been paid yet.',
  'mail.billing.overdue.suspendWarning': 'If it is still unpaid after {date}, your service will be suspended.',
  'mail.billing.overdue.ignore': 'If you have already paid, please ignore this message.',
  'mail.billing.payLink': 'Pay it online: {url}',
  'mail.billing.suspended.subject': 'Your {plan} service is suspended: invoice {number} is unpaid',
  'mail.billing.suspended.lead':
    'Your {plan} service has been suspended because invoice {number} of {amount}, due on {dueDate}, is still unpaid.',
  'mail.billing.suspended.reactivate': 'Paying the invoice reactivates the service straight away.',
  'mail.billing.paid.subject': 'Payment received for invoice {number}',
  'mail.billing.paid.lead': 'We received your payment of {amount} for invoice {number} on {date}. Thank you.',
  'mail.billing.paid.link': 'Your invoice: {url}',
};
