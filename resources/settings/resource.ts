import { SettingOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

/** The portal's settings: company, billing, mail, policies, logo (admin). */
export const settingsResource = defineResource({
  name: 'settings',
  auditTargets: ['settings'],
  titleKey: 'menu.settings',
  menu: { order: 170, labelKey: 'menu.settings', icon: SettingOutlined },
  pages: { list: () => import('./SettingsPage').then((m) => m.SettingsPage) },
});
