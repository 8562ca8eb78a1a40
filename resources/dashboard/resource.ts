import { DashboardOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';
import { RoleHome } from '../../src/pages/dashboard/RoleHome';

/** The signed-in home: a customer's home (issue 34), each staff role's cards (spec §6). Loaded with the shell, it is the first screen after sign-in. */
export const dashboardResource = defineResource({
  name: 'dashboard',
  titleKey: 'menu.dashboard',
  menu: { order: 10, portal: true, labelKey: 'menu.dashboard', icon: DashboardOutlined },
  pages: { list: { component: RoleHome } },
});
