/** The auth e-mails' texts (server/modules/auth/emails.ts), in every language through src/i18n/locales/<code>.json. */
export const authMail: Record<string, string> = {};
