/** The installations e-mails' texts (server/modules/installations/emails.ts), in every language through src/i18n/locales/<code>.json. */
export const installationsMail: Record<string, string> = {};
