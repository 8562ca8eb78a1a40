/** Installation e-mails (plain text). */
import type { MailMessage } from '../../integrations/mail/mailer';

export const installationLink = (appUrl: string, id: string) =>
  `${appUrl.replace(/\/+$/, '')}/dashboard/installation/${id}`;

/** To support: a visit failed and the customer needs a new appointment (or an answer). */
export function installationFailedMail(c: {
  to: string;
  company: string;
  appUrl: string;
  installation: { id: string; number: string; address: string };
  customer: string;
  technician: string | null;
  by: string;
  reason: string;
}): MailMessage {
  return {
    to: c.to,
    subject: `Installation ${c.installation.number} failed: ${c.customer}`,
    text: [
      `Installation ${c.installation.number} for ${c.customer} at ${c.installation.address} was marked failed by ${c.by}.`,
      c.technician ? `Technician: ${c.technician}` : 'No technician was assigned.',
      '',
      'Reason:',
      c.reason
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n'),
      '',
      `Reschedule or cancel it: ${installationLink(c.appUrl, c.installation.id)}`,
      '',
      c.company,
      '',
    ].join('\n'),
  };
}
