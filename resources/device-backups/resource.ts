import { DatabaseOutlined, SettingOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

/** A router's running configuration, secrets masked (issue 7). */
export const routerConfigResource = defineResource({
  name: 'router-config',
  titleKey: 'menu.routerConfig',
  menu: { order: 94, group: 'network', labelKey: 'menu.routerConfig', icon: SettingOutlined },
  pages: { list: () => import('./ConfigPage').then((m) => m.ConfigPage) },
});

/** A router's stored configuration versions, their differences and downloads (issue 7). */
export const routerBackupResource = defineResource({
  name: 'router-backup',
  titleKey: 'menu.routerBackup',
  menu: { order: 95, group: 'network', labelKey: 'menu.routerBackup', icon: DatabaseOutlined },
  pages: { list: () => import('./BackupPage').then((m) => m.BackupPage) },
});
