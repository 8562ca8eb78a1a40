/** The radius e-mails' texts (server/modules/radius/emails.ts), in every language through src/i18n/locales/<code>.json. */
export const radiusMail: Record<string, string> = {};
