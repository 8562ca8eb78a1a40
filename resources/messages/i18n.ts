/**
 * The menu labels, with the shell; the screens' texts (src/i18n/en/messaging.ts: the customer's message settings,
 * the staff's message screens) load with the first screen (src/i18n/en/screens.ts), not in every first download.
 */
export default { 'menu.messages': 'Messages', 'menu.messageProviders': 'Message providers' };
