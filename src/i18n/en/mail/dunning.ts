/**
 * The dunning reminders and the late-fee notice (issue 38, server/modules/billing/dunning-messages.ts): the e-mail
 * (subject, lead) and the short text for SMS/WhatsApp, in every language through src/i18n/locales/<code>.json.
 */
export const dunningMail: Record<string, string> = {
  'mail.dunning.beforeDue.subject':
    'Reminder: invoice {number} is due in {days, plural, one {# day} other {# days}} ({due})',
  'mail.dunning.beforeDue.lead':
    'A friendly reminder: invoice {number} of {due} is due on {dueDate}, in {days, plural, one {# day} other {# days}}.',
  'mail.dunning.dueToday.subject': 'Invoice {number} is due today ({due})',
  'mail.dunning.dueToday.lead': 'Invoice {number} of {due} is due today, {dueDate}.',
  'mail.dunning.overdue.subject': 'Invoice {number} is {days, plural, one {# day} other {# days}} late ({due})',
  'mail.dunning.overdue.lead':
    'Invoice {number} was due on {dueDate} and is now {days, plural, one {# day} other {# days}} late. Amount due: {due}.',
  'mail.dunning.feeLine': 'A late fee of {fee} was added as invoice {feeNumber}: {url}',
  'mail.dunning.short.beforeDue': '{company}: invoice {number} ({due}) is due on {dueDate}. Pay: {url}',
  'mail.dunning.short.dueToday': '{company}: invoice {number} ({due}) is due today. Pay: {url}',
  'mail.dunning.short.overdue':
    '{company}: invoice {number} ({due}) is {days, plural, one {# day} other {# days}} late. Pay: {url}',
  'mail.dunning.lateFee.subject': 'A late fee of {fee} was added for invoice {number}',
  'mail.dunning.lateFee.lead':
    'Invoice {number}, due on {dueDate}, is still unpaid, so a late fee of {fee} was added as invoice {feeNumber}, due on {feeDueDate}.',
  'mail.dunning.lateFee.payBoth': 'Pay the invoice: {url}\nPay the late fee: {feeUrl}',
  'mail.dunning.lateFee.short': '{company}: a late fee of {fee} was added for unpaid invoice {number}. Pay: {feeUrl}',
  'mail.dunning.lateFee.line': 'Late fee for invoice {number}',
};
