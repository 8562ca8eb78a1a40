import type { ComponentType } from 'react';
import { DollarOutlined, WifiOutlined } from '@ant-design/icons';

/** Menu groups: an item that only holds resources (their declarations name it in `menu.group`). */
export interface MenuGroup {
  name: string;
  labelKey: string;
  icon: ComponentType;
  order: number;
}

export const MENU_GROUPS: MenuGroup[] = [
  { name: 'billing', labelKey: 'menu.billing', icon: DollarOutlined, order: 80 },
  { name: 'network', labelKey: 'menu.network', icon: WifiOutlined, order: 90 },
];
