/**
 * Fair-use e-mails (issue 36): 80 % and 100 % of a usage tier's threshold or of the hard stop, sent once per
 * subscription, cycle, threshold and share (usage_notices). Plain text, like the billing e-mails, in the customer's
 * language (issue 37): texts in src/i18n/en/mail/radius.ts and src/i18n/locales/<code>.json.
 */
import type { LanguageCode } from '../../../contract/languages';
import { localeOf, translatorFor } from '../../i18n';
import type { MailMessage } from '../../integrations/mail/mailer';
import { mailDate } from '../billing/emails';
import { formatRate, GB } from './fair-use';
import type { UsageNotice } from './service';

export interface UsageMailContext {
  to: string;
  name: string;
  company: string;
  appUrl: string;
  /** The recipient's language (users.language, else the ISP's default). */
  language: LanguageCode;
  planName: string;
  cycleEnd: Date | null;
}

/** Gigabytes to one decimal: English as it always was, other languages with their decimal separator. */
const gigabytes = (bytes: number, language: LanguageCode) => {
  const value = Math.round((bytes / GB) * 10) / 10;
  return language === 'en'
    ? String(value)
    : new Intl.NumberFormat(localeOf(language), { maximumFractionDigits: 1 }).format(value);
};

export function usageNoticeMail(c: UsageMailContext, n: UsageNotice): MailMessage {
  const t = translatorFor(c.language);
  const gb = (bytes: number) => t('mail.radius.size', { size: gigabytes(bytes, c.language) });
  const what =
    n.kind === 'stop' || !n.rate ? t('mail.radius.stops') : t('mail.radius.slows', { rate: formatRate(n.rate) });
  const until = c.cycleEnd
    ? ` ${t('mail.radius.cycleEnds', { date: mailDate(c.cycleEnd.toISOString().slice(0, 10), c.language) })}`
    : '';
  const params = { used: gb(n.bytes), size: gb(n.thresholdBytes), plan: c.planName, what, until };
  const [subject, lead] =
    n.threshold >= 100
      ? [
          t('mail.radius.reached.subject', { size: params.size, kind: n.kind === 'stop' ? 'stop' : 'other' }),
          t('mail.radius.reached.lead', params),
        ]
      : [
          t('mail.radius.near.subject', { percent: n.threshold, size: params.size }),
          t('mail.radius.near.lead', params),
        ];
  return {
    to: c.to,
    subject,
    text: [
      t('mail.radius.greeting', { name: c.name }),
      '',
      lead,
      '',
      t('mail.radius.topUp', { url: `${c.appUrl.replace(/\/+$/, '')}/` }),
      `\n${c.company}\n`,
    ].join('\n'),
  };
}
