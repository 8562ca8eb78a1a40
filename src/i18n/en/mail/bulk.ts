/** The line under a bulk message's e-mail (server/modules/bulk-messages), in every language through src/i18n/locales/<code>.json. */
export const bulkMail: Record<string, string> = {
  'mail.bulk.footer': 'You can choose which messages you receive in your profile in the customer portal.',
};
