/** The radius e-mails' texts (server/modules/radius/emails.ts), in every language through src/i18n/locales/<code>.json. */
export const radiusMail: Record<string, string> = {
  'mail.radius.greeting': 'Hello {name},',
  'mail.radius.size': '{size} GB',
  'mail.radius.stops': 'your internet access stops until the cycle ends',
  'mail.radius.slows': 'your speed drops to {rate}',
  'mail.radius.cycleEnds': '(the cycle ends on {date})',
  'mail.radius.reached.subject':
    'You have used {size} this cycle: {kind, select, stop {data limit reached} other {fair-use speed applies}}',
  'mail.radius.reached.lead': 'You have used {used} of data on {plan} this cycle: past {size}, {what}{until}.',
  'mail.radius.near.subject': 'You have used {percent} % of {size} this cycle',
  'mail.radius.near.lead': 'You have used {used} of data on {plan} this cycle. After {size}, {what}{until}.',
  'mail.radius.topUp': 'A top-up (extra data, or full speed until the cycle ends) can be bought in the portal: {url}',
};
