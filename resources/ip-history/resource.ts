import { HistoryOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

/**
 * Who had an IP address at a time (issue 22), from the RADIUS accounting sessions: /dashboard/nas/ip-history for
 * admin, technicians and support. API: GET /api/ipam/history.
 */
export const ipHistoryResource = defineResource({
  name: 'ip-history',
  titleKey: 'ipam.history.title',
  menu: { order: 97, group: 'network', labelKey: 'menu.ipHistory', icon: HistoryOutlined },
  pages: { list: () => import('./HistorySearch').then((m) => m.HistorySearch) },
  canCreate: false,
  actions: [],
});
