import type { LanguageCode } from '../../../contract/languages';
import { PRODUCT_NAME } from '../../../contract/product';
import { translatorFor } from '../../i18n';
import type { MailMessage } from '../../integrations/mail/mailer';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Who an auth e-mail goes to, in their language (users.language, else the ISP's default: server/i18n.ts languageOf). */
export interface AuthMailContext {
  to: string;
  name: string;
  language: LanguageCode;
}

/** A message with a link: texts `mail.auth.<kind>.subject|intro|action|outro` (src/i18n/en/mail/auth.ts). */
function linkMail(c: AuthMailContext, kind: string, link: string, params: Record<string, string> = {}): MailMessage {
  const t = translatorFor(c.language);
  const all = { product: PRODUCT_NAME, email: c.to, ...params };
  const hello = t('mail.auth.hello', { name: c.name });
  const intro = t(`mail.auth.${kind}.intro`, all);
  const action = t(`mail.auth.${kind}.action`, all);
  const outro = t(`mail.auth.${kind}.outro`, all);
  return {
    to: c.to,
    subject: t(`mail.auth.${kind}.subject`, all),
    text: `${hello}\n\n${intro}\n\n${action}: ${link}\n\n${outro}\n\n${PRODUCT_NAME}`,
    html:
      `<p>${escapeHtml(hello)}</p><p>${escapeHtml(intro)}</p>` +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p><p>${escapeHtml(outro)}</p><p>${escapeHtml(PRODUCT_NAME)}</p>`,
  };
}

export function verificationEmail(c: AuthMailContext, link: string): MailMessage {
  return linkMail(c, 'verify', link);
}

export function passwordResetEmail(c: AuthMailContext, link: string): MailMessage {
  return linkMail(c, 'reset', link);
}

export function emailChangeConfirmationEmail(c: AuthMailContext, link: string): MailMessage {
  return linkMail(c, 'emailChange', link);
}

/** To the address an account has now, when a change away from it is asked for (nothing changes yet). */
export function emailChangeNoticeEmail(
  c: AuthMailContext,
  newEmail: string,
  byStaff: boolean,
  link: string,
): MailMessage {
  return linkMail(c, 'emailChangeNotice', link, { newEmail, by: byStaff ? 'staff' : 'someone' });
}

/** To the owner of an address someone tried to register again (registration answers alike either way). */
export function registrationAttemptEmail(c: AuthMailContext, link: string): MailMessage {
  return linkMail(c, 'registrationAttempt', link);
}
