import { QrcodeOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

/**
 * Prepaid voucher batches (issue 22) for admin and billing: the batches with their vouchers' states, creating one
 * (its codes downloadable as CSV or printable cards for the first 60 minutes after it is ready; a large one shows
 * its progress while a job makes it), and a batch's vouchers by state
 * with revoke. API: /api/vouchers/batches (server/modules/vouchers). Customers redeem a code on Subscriptions.
 */
export const vouchersResource = defineResource({
  name: 'vouchers',
  auditTargets: ['voucher', 'voucher_batch'],
  titleKey: 'vouchers.title',
  singularKey: 'vouchers.singular',
  menu: { order: 84, group: 'billing', labelKey: 'menu.vouchers', icon: QrcodeOutlined },
  // One loader for the three screens (VoucherPages picks by the route): less for the shell every customer loads.
  pages: { list: () => import('./VoucherPages').then((m) => m.VoucherPages), create: 'list', show: 'list' },
  meta: { endpoint: 'vouchers/batches' },
});
