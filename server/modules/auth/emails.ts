import { PRODUCT_NAME } from '../../../contract/product';
import type { MailMessage } from '../../integrations/mail/mailer';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function linkMail(
  to: string,
  name: string,
  subject: string,
  intro: string,
  action: string,
  link: string,
  outro: string,
): MailMessage {
  return {
    to,
    subject,
    text: `Hello ${name},\n\n${intro}\n\n${action}: ${link}\n\n${outro}\n\n${PRODUCT_NAME}`,
    html:
      `<p>Hello ${escapeHtml(name)},</p><p>${escapeHtml(intro)}</p>` +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p><p>${escapeHtml(outro)}</p><p>${escapeHtml(PRODUCT_NAME)}</p>`,
  };
}

export function verificationEmail(to: string, name: string, link: string): MailMessage {
  return linkMail(
    to,
    name,
    `Verify your e-mail address for ${PRODUCT_NAME}`,
    `Please confirm that ${to} is your e-mail address.`,
    'Verify e-mail address',
    link,
    'The link is valid for 24 hours. If you did not create an account, ignore this message.',
  );
}

export function passwordResetEmail(to: string, name: string, link: string): MailMessage {
  return linkMail(
    to,
    name,
    `Reset your ${PRODUCT_NAME} password`,
    'Someone asked to reset the password of your account.',
    'Choose a new password',
    link,
    'The link is valid for 1 hour and works once. If you did not ask for it, ignore this message; your password stays as it is.',
  );
}

export function emailChangeConfirmationEmail(to: string, name: string, link: string): MailMessage {
  return linkMail(
    to,
    name,
    `Confirm your new e-mail address for ${PRODUCT_NAME}`,
    `A change of the e-mail address of your ${PRODUCT_NAME} account to ${to} was asked for. It takes effect once you confirm it.`,
    'Confirm new e-mail address',
    link,
    'The link is valid for 24 hours and works once. If you did not expect this, ignore this message; nothing changes.',
  );
}

/** To the address an account has now, when a change away from it is asked for (nothing changes yet). */
export function emailChangeNoticeEmail(
  to: string,
  name: string,
  newEmail: string,
  byStaff: boolean,
  link: string,
): MailMessage {
  return linkMail(
    to,
    name,
    `Your ${PRODUCT_NAME} e-mail address is about to change`,
    `${byStaff ? 'Our staff asked' : 'Someone asked'} to change the e-mail address of your account from ${to} to ${newEmail}. ` +
      'Your address stays as it is until the change is confirmed from the new address.',
    'Sign in to check your account',
    link,
    'If you did not ask for this, sign in and change your password, or contact support.',
  );
}

/** To the owner of an address someone tried to register again (registration answers alike either way). */
export function registrationAttemptEmail(to: string, name: string, link: string): MailMessage {
  return linkMail(
    to,
    name,
    `Someone tried to register with your ${PRODUCT_NAME} address`,
    `Someone tried to create a new ${PRODUCT_NAME} account with ${to}, which already has an account. No new account was created.`,
    'Sign in or reset your password',
    link,
    'If it was you, sign in or reset your password from the link. If not, you can ignore this message.',
  );
}
