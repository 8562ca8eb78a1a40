import { LineChartOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

/** Data usage from RADIUS accounting: a customer's own, staff anyone's. */
export const usageResource = defineResource({
  name: 'usage',
  titleKey: 'menu.usage',
  menu: { order: 30, portal: true, labelKey: 'menu.usage', icon: LineChartOutlined },
  pages: { list: () => import('./UsagePage').then((m) => m.UsagePage) },
});
