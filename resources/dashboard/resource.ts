import { DashboardOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';
import { DashboardHome } from '../../src/pages/dashboard/DashboardHome';

/** The signed-in home: each role's cards (spec §6). Loaded with the shell, it is the first screen after sign-in. */
export const dashboardResource = defineResource({
  name: 'dashboard',
  titleKey: 'menu.dashboard',
  menu: { order: 10, portal: true, labelKey: 'menu.dashboard', icon: DashboardOutlined },
  pages: { list: { component: DashboardHome } },
});
