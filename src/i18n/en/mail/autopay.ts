/** The autopay e-mails' texts (server/modules/autopay/emails.ts), in every language through src/i18n/locales/<code>.json. */
export const autopayMail: Record<string, string> = {};
