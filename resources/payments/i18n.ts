/** The menu label, with the shell (the screen's texts load with the first screen: src/i18n/en/payments.ts). */
export default { 'menu.payments': 'Payments' };
