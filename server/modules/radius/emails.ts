/**
 * Fair-use e-mails (issue 36): 80 % and 100 % of a usage tier's threshold or of the hard stop, sent once per
 * subscription, cycle, threshold and share (usage_notices). Plain text, like the billing e-mails.
 */
import type { MailMessage } from '../../integrations/mail/mailer';
import { formatRate, GB } from './fair-use';
import type { UsageNotice } from './service';

export interface UsageMailContext {
  to: string;
  name: string;
  company: string;
  appUrl: string;
  planName: string;
  cycleEnd: Date | null;
}

const gb = (bytes: number) => `${Math.round((bytes / GB) * 10) / 10} GB`;

export function usageNoticeMail(c: UsageMailContext, n: UsageNotice): MailMessage {
  const what =
    n.kind === 'stop' || !n.rate
      ? 'your internet access stops until the cycle ends'
      : `your speed drops to ${formatRate(n.rate)}`;
  const until = c.cycleEnd ? ` (the cycle ends on ${c.cycleEnd.toISOString().slice(0, 10)})` : '';
  const [subject, lead] =
    n.threshold >= 100
      ? [
          `You have used ${gb(n.thresholdBytes)} this cycle: ${n.kind === 'stop' ? 'data limit reached' : 'fair-use speed applies'}`,
          `You have used ${gb(n.bytes)} of data on ${c.planName} this cycle: past ${gb(n.thresholdBytes)}, ${what}${until}.`,
        ]
      : [
          `You have used ${n.threshold} % of ${gb(n.thresholdBytes)} this cycle`,
          `You have used ${gb(n.bytes)} of data on ${c.planName} this cycle. After ${gb(n.thresholdBytes)}, ${what}${until}.`,
        ];
  return {
    to: c.to,
    subject,
    text: [
      `Hello ${c.name},`,
      '',
      lead,
      '',
      `A top-up (extra data, or full speed until the cycle ends) can be bought in the portal: ${c.appUrl.replace(/\/+$/, '')}/`,
      `\n${c.company}\n`,
    ].join('\n'),
  };
}
