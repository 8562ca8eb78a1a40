import { PRODUCT_NAME } from '../../../contract/product';
import type { MailMessage } from '../../integrations/mail/mailer';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function linkMail(to: string, name: string, subject: string, intro: string, action: string, link: string, outro: string): MailMessage {
  return {
    to,
    subject,
    text: `Hello ${name},\n\n${intro}\n\n${action}: ${link}\n\n${outro}\n\n${PRODUCT_NAME}`,
    html:
      `<p>Hello ${escape(name)},</p><p>${escape(intro)}</p>` +
      `<p><a href="${escape(link)}">${escape(action)}</a></p><p>${escape(outro)}</p><p>${escape(PRODUCT_NAME)}</p>`,
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
