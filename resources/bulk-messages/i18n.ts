/** The menu label, with the shell (the screens' texts load with the first screen: src/i18n/en/bulk-messages.ts). */
export default { 'menu.bulkMessages': 'Bulk messages' };
