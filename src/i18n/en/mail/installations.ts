/** The installations e-mails' texts (server/modules/installations/emails.ts), in every language through src/i18n/locales/<code>.json. */
export const installationsMail: Record<string, string> = {
  'mail.installations.failed.subject': 'Installation {number} failed: {customer}',
  'mail.installations.failed.intro': 'Installation {number} for {customer} at {address} was marked failed by {by}.',
  'mail.installations.failed.technician': 'Technician: {technician}',
  'mail.installations.failed.noTechnician': 'No technician was assigned.',
  'mail.installations.failed.reason': 'Reason:',
  'mail.installations.failed.reschedule': 'Reschedule or cancel it: {link}',
};
