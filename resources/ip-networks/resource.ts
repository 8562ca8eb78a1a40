import { ApartmentOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

/**
 * IP networks (issue 22): the networks with their used/free bars, a network's form and its address map
 * (/dashboard/nas/ip-networks; admin, technicians and support; support reads only, as the API decides).
 * API: /api/ipam/networks (server/modules/ipam).
 */
export const ipNetworksResource = defineResource({
  name: 'ip-networks',
  auditTargets: ['ip_network'],
  titleKey: 'ipam.title',
  singularKey: 'ipam.singular',
  menu: { order: 96, group: 'network', labelKey: 'menu.ipNetworks', icon: ApartmentOutlined },
  pages: {
    list: () => import('./NetworkList').then((m) => m.NetworkList),
    show: () => import('./NetworkShow').then((m) => m.NetworkShow),
    create: () => import('./NetworkForm').then((m) => m.NetworkCreate),
    edit: () => import('./NetworkForm').then((m) => m.NetworkEdit),
  },
  meta: { endpoint: 'ipam/networks' },
  messages: { created: 'ipam.toast.created', updated: 'ipam.toast.updated', deleted: 'ipam.toast.deleted' },
});
