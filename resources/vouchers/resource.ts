import { QrcodeOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

/**
 * Prepaid voucher batches (issue 22) for admin and billing: the batches with their vouchers' states, creating one
 * (its codes downloadable as CSV or printable cards for the first 60 minutes), and a batch's vouchers by state
 * with revoke. API: /api/vouchers/batches (server/modules/vouchers). Customers redeem a code on Subscriptions.
 */
export const vouchersResource = defineResource({
  name: 'vouchers',
  titleKey: 'vouchers.title',
  singularKey: 'vouchers.singular',
  menu: { order: 84, group: 'billing', labelKey: 'menu.vouchers', icon: QrcodeOutlined },
  pages: {
    list: () => import('./BatchList').then((m) => m.BatchList),
    create: () => import('./CreateBatch').then((m) => m.CreateBatch),
    show: () => import('./BatchShow').then((m) => m.BatchShow),
  },
  meta: { endpoint: 'vouchers/batches' },
});
