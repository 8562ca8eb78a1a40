/** The menu label and title, with the shell (the screen's own texts load with the screen: ./texts.ts). */
export default { 'menu.reconciliation': 'Reconciliation', 'reconciliation.title': 'Reconciliation' };
