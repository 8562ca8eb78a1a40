/** The tickets e-mails' texts (server/modules/tickets/emails.ts), in every language through src/i18n/locales/<code>.json. */
export const ticketsMail: Record<string, string> = {};
