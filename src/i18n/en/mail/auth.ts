/** The auth e-mails' texts (server/modules/auth/emails.ts), in every language through src/i18n/locales/<code>.json. */
export const authMail: Record<string, string> = {
  'mail.auth.hello': 'Hello {name},',
  'mail.auth.verify.subject': 'Verify your e-mail address for {product}',
  'mail.auth.verify.intro': 'Please confirm that {email} is your e-mail address.',
  'mail.auth.verify.action': 'Verify e-mail address',
  'mail.auth.verify.outro': 'The link is valid for 24 hours. If you did not create an account, ignore this message.',
  'mail.auth.reset.subject': 'Reset your {product} password',
  'mail.auth.reset.intro': 'Someone asked to reset the password of your account.',
  'mail.auth.reset.action': 'Choose a new password',
  'mail.auth.reset.outro':
    'The link is valid for 1 hour and works once. If you did not ask for it, ignore this message; your password stays as it is.',
  'mail.auth.emailChange.subject': 'Confirm your new e-mail address for {product}',
  'mail.auth.emailChange.intro':
    'A change of the e-mail address of your {product} account to {email} was asked for. It takes effect once you confirm it.',
  'mail.auth.emailChange.action': 'Confirm new e-mail address',
  'mail.auth.emailChange.outro':
    'The link is valid for 24 hours and works once. If you did not expect this, ignore this message; nothing changes.',
  'mail.auth.emailChangeNotice.subject': 'Your {product} e-mail address is about to change',
  'mail.auth.emailChangeNotice.intro':
    '{by, select, staff {Our staff asked} other {Someone asked}} to change the e-mail address of your account from {email} to {newEmail}. Your address stays as it is until the change is confirmed from the new address.',
  'mail.auth.emailChangeNotice.action': 'Sign in to check your account',
  'mail.auth.emailChangeNotice.outro':
    'If you did not ask for this, sign in and change your password, or contact support.',
  'mail.auth.registrationAttempt.subject': 'Someone tried to register with your {product} address',
  'mail.auth.registrationAttempt.intro':
    'Someone tried to create a new {product} account with {email}, which already has an account. No new account was created.',
  'mail.auth.registrationAttempt.action': 'Sign in or reset your password',
  'mail.auth.registrationAttempt.outro':
    'If it was you, sign in or reset your password from the link. If not, you can ignore this message.',
};
