/** The menu label, with the shell (the screens' texts load with the first screen: src/i18n/en/ipam.ts). */
export default { 'menu.ipHistory': 'Address history' };
