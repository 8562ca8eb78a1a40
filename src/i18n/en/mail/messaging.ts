/** The SMS / WhatsApp texts of the messaging module (server/modules/messaging), in every language through the locales. */
export const messagingMail: Record<string, string> = {
  'mail.messaging.optOut': 'Reply STOP to opt out.',
  'mail.messaging.phoneCode': '{company}: your verification code is {code}. It expires in 10 minutes.',
  'mail.messaging.phoneCodeSubject': 'Your verification code',
  'mail.messaging.test': '{company}: this is a test message from your customer portal.',
};
