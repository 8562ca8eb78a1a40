import { ApiOutlined, BarChartOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

/** Usage history of the network devices (issue 7). */
export const routerUsageResource = defineResource({
  name: 'router-usage',
  titleKey: 'menu.routerUsage',
  menu: { order: 92, group: 'network', labelKey: 'menu.routerUsage', icon: BarChartOutlined },
  pages: { list: () => import('./UsagePage').then((m) => m.UsagePage) },
});

/** The devices' interfaces with their live status and traffic (issue 7). */
export const routerInterfacesResource = defineResource({
  name: 'router-interfaces',
  titleKey: 'menu.routerInterfaces',
  menu: { order: 93, group: 'network', labelKey: 'menu.routerInterfaces', icon: ApiOutlined },
  pages: { list: () => import('./InterfacesPage').then((m) => m.InterfacesPage) },
});
