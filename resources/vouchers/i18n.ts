/** The menu label, with the shell (the screens' texts load with the first screen: src/i18n/en/vouchers.ts). */
export default { 'menu.vouchers': 'Vouchers' };
