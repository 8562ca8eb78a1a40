/** The menu label, with the shell (the screens' texts load with the first screen: src/i18n/en/ipam.ts). */
export default {
  'menu.ipNetworks': 'IP networks',
  // Refine's list button on the form pages (its own title would be "Ip networks").
  'ip-networks.titles.list': 'IP networks',
};
