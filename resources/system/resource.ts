import { MonitorOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

/** The system page (issue 18): version, nodes, database, jobs, mail, RADIUS, billing and backups at a glance. */
export const systemResource = defineResource({
  name: 'system',
  /** An import from phpnuxbill or daloRADIUS (issue 39: `npm run import`, server/import/run.ts). */
  auditTargets: ['import_run'],
  titleKey: 'menu.system',
  menu: { order: 160, labelKey: 'menu.system', icon: MonitorOutlined },
  pages: { list: () => import('./SystemPage').then((m) => m.SystemPage) },
});
