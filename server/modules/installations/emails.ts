/** Installation e-mails (plain text). */
import type { LanguageCode } from '../../../contract/languages';
import { translatorFor } from '../../i18n';
import type { MailMessage } from '../../integrations/mail/mailer';

export const installationLink = (appUrl: string, id: string) =>
  `${appUrl.replace(/\/+$/, '')}/dashboard/installation/${id}`;

/** To support: a visit failed and the customer needs a new appointment (or an answer). */
export function installationFailedMail(c: {
  to: string;
  /** The recipient's language: support's address is the ISP's, so the ISP's default language. */
  language: LanguageCode;
  company: string;
  appUrl: string;
  installation: { id: string; number: string; address: string };
  customer: string;
  technician: string | null;
  by: string;
  reason: string;
}): MailMessage {
  const t = translatorFor(c.language);
  const { number, address } = c.installation;
  return {
    to: c.to,
    subject: t('mail.installations.failed.subject', { number, customer: c.customer }),
    text: [
      t('mail.installations.failed.intro', { number, customer: c.customer, address, by: c.by }),
      c.technician
        ? t('mail.installations.failed.technician', { technician: c.technician })
        : t('mail.installations.failed.noTechnician'),
      '',
      t('mail.installations.failed.reason'),
      c.reason
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n'),
      '',
      t('mail.installations.failed.reschedule', { link: installationLink(c.appUrl, c.installation.id) }),
      '',
      c.company,
      '',
    ].join('\n'),
  };
}
