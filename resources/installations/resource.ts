import { ToolOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

/** Installation jobs (issue 8): the technician's day, and staff scheduling and assigning them. */
export const installationsResource = defineResource({
  name: 'installations',
  auditTargets: ['installation'],
  titleKey: 'menu.installations',
  menu: { order: 110, labelKey: 'menu.installations', icon: ToolOutlined },
  pages: {
    list: () => import('./InstallationsPage').then((m) => m.InstallationsPage),
    show: () => import('./InstallationDetail').then((m) => m.InstallationDetail),
  },
  routes: { show: '/dashboard/installation/:id' },
});
