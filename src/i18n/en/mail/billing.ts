/** The billing e-mails' texts (server/modules/billing/emails.ts), in every language through src/i18n/locales/<code>.json. */
export const billingMail: Record<string, string> = {};
