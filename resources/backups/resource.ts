import { CloudDownloadOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

/** The portal's own kept backups (issue 13). */
export const backupsResource = defineResource({
  name: 'backups',
  auditTargets: ['backup'],
  titleKey: 'menu.backups',
  menu: { order: 130, labelKey: 'menu.backups', icon: CloudDownloadOutlined },
  pages: { list: () => import('./BackupsPage').then((m) => m.BackupsPage) },
});
