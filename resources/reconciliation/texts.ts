/**
 * The reconciliation screen's texts. Added when the screen loads, not with the shared screens' texts: staff-only
 * words stay out of what every customer downloads (the customer dashboard's bundle budget, npm run bench:web).
 */
import { addMessages } from '../../src/i18n';

/** Exported too, for the translations' completeness check (scripts/i18n-english.ts). */
export const reconciliationTexts: Record<string, string> = {
  'reconciliation.period': 'Period',
  'reconciliation.export': 'Export CSV',
  'reconciliation.exportFailed': 'The export could not be downloaded',
  'reconciliation.failed': 'The reconciliation could not be loaded',
  'reconciliation.balanced': 'The books balance',
  'reconciliation.balancedHelp':
    'For every customer the ledger balances — money received and credit granted equal what was applied to invoices, the credit balance, refunds and payments still to give back — and it agrees with their payments, invoices and credit history.',
  'reconciliation.alarm': '{n, plural, one {# customer out of balance} other {# customers out of balance}}',
  'reconciliation.alarmHelp':
    'Their ledger shows money given back that was no longer there, or it differs from their payments, invoices or credit history: money moved without its ledger entry. Look at their payments and credit history before the next billing run.',
  'reconciliation.nothing': 'No money moved in this period.',
  'reconciliation.received': 'Received',
  'reconciliation.invoicesPaid': 'Invoices paid',
  'reconciliation.invoicesPaidCount': '{n, plural, one {# invoice} other {# invoices}}',
  'reconciliation.refundedToProvider': 'Refunded to payer',
  'reconciliation.refundedToCredit': 'Refunded to credit',
  'reconciliation.byMethod': 'Received by method and gateway',
  'reconciliation.method': 'Method',
  'reconciliation.gateway': 'Gateway',
  'reconciliation.amount': 'Amount',
  'reconciliation.count': 'Payments',
  'reconciliation.credit': 'Credit movements',
  'reconciliation.kind': 'Movement',
  'reconciliation.customer': 'Customer',
  'reconciliation.difference': 'Difference',
  'reconciliation.mismatch': '{side}: ledger {ledger}, records {records}',
  'reconciliation.side.received': 'Received',
  'reconciliation.side.granted': 'Granted',
  'reconciliation.side.applied': 'Applied',
  'reconciliation.side.credit': 'Credit',
  'reconciliation.side.refunded': 'Refunded',
  'reconciliation.side.held': 'Held',
  'reconciliation.sides':
    'Received {received} + granted {granted} · applied {applied} + credit {credit} + refunded {refunded} + held {held}',
  'reconciliation.provider.manual': 'Manual',
  'reconciliation.provider.sandbox': 'Sandbox',
  'reconciliation.provider.stripe': 'Stripe',
};

addMessages(reconciliationTexts);
