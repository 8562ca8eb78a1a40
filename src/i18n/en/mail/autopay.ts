/** The autopay e-mails' texts (server/modules/autopay/emails.ts), in every language through src/i18n/locales/<code>.json. */
export const autopayMail: Record<string, string> = {
  'mail.autopay.greeting': 'Hello {name},',
  'mail.autopay.failed.subject': 'Automatic payment of invoice {number} failed',
  'mail.autopay.failed.lead':
    'We tried to charge {amount} for invoice {number} to your {card}, but the payment did not go through: {reason}',
  'mail.autopay.failed.retry': 'We will try again on {date}.',
  'mail.autopay.failed.noRetry': 'We will not try again automatically.',
  'mail.autopay.failed.payLink': 'You can pay it by hand now: {url}',
  'mail.autopay.failed.dueDate': 'Due date: {dueDate}',
  'mail.autopay.expiring.subject': 'Your {card} expires before your next invoice',
  'mail.autopay.expiring.lead':
    'The {card} you pay automatically with expires at the end of {expiry}, before your next invoice ({date}).',
  'mail.autopay.expiring.replace': 'Please replace it so the next payment goes through:',
  'mail.autopay.card': '{brand} card ending in {last4}',
  'mail.autopay.savedCard': 'saved card',
};
