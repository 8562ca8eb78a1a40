import { AuditOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

/**
 * Reconciliation (issue 31) for admin and billing: a period's money by method and gateway, invoices paid, credit
 * movements and refunds, and the customers whose books do not balance (the alarm), with a CSV export.
 * API: GET /api/billing/reconciliation and /api/billing/reconciliation/export.csv (server/modules/reconciliation).
 */
export const reconciliationResource = defineResource({
  name: 'reconciliation',
  titleKey: 'reconciliation.title',
  menu: { order: 83, group: 'billing', labelKey: 'menu.reconciliation', icon: AuditOutlined },
  pages: { list: () => import('./ReconciliationPage').then((m) => m.ReconciliationPage) },
  canCreate: false,
  actions: [],
});
