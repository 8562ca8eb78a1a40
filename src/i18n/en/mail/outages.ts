/** The outage and maintenance messages' texts (server/modules/outages/messages.ts), in every language through src/i18n/locales/<code>.json. */
export const outagesMail: Record<string, string> = {
  'mail.outages.greeting': 'Hello,',
  'mail.outages.pollerTitle': '{area, select, none {Service interruption} other {Service interruption in {area}}}',
  'mail.outages.started.subject':
    '{kind, select, maintenance {Planned maintenance} other {Service interruption}}: {title}',
  'mail.outages.started.outage':
    'Your internet service is interrupted since {start}. Our team is working on it; we will write again when it is over.',
  'mail.outages.started.maintenance':
    'Planned maintenance affects your internet service from {start}{end, select, none {} other { until {end}}}. We will write again when it is over.',
  'mail.outages.ended.subject': 'Over: {title}',
  'mail.outages.ended.text': 'Your internet service is back since {end}. Thank you for your patience.',
  'mail.outages.status': 'Service status: {url}',
  'mail.outages.started.short': '{title}: since {start}. Status: {url}',
  'mail.outages.ended.short': '{title}: over since {end}.',
};
