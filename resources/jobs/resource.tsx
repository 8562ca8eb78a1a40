import { Typography } from 'antd';
import { JOB_NAMES, JOB_STATUSES } from '../../contract/jobs';

import { t } from '../../src/i18n';
import { ScheduleOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

const STATUS_COLORS: Record<string, string> = {
  queued: 'default',
  retrying: 'warning',
  running: 'processing',
  done: 'success',
  failed: 'error',
  cancelled: 'default',
};

/**
 * Background jobs (issue 14, /dashboard/jobs, admin): the shared queue's jobs newest first, filtered by kind and
 * state, each with its tries and, when it failed, the reason. Read-only: jobs are made by the portal itself.
 */
export const jobsResource = defineResource({
  name: 'jobs',
  menu: { order: 150, labelKey: 'menu.jobs', icon: ScheduleOutlined },
  titleKey: 'jobs.title',
  singularKey: 'jobs.singular',
  actions: [],
  canCreate: false,
  meta: { fallbackMessage: 'Failed to fetch jobs' },
  fields: [
    {
      name: 'name',
      type: 'select',
      labelKey: 'jobs.fields.name',
      column: true,
      priority: 1,
      filter: true,
      options: Object.keys(JOB_NAMES).map((value) => ({ value, labelKey: `jobs.name.${value}` })),
      render: (v) => (JOB_NAMES[String(v)] ? t(`jobs.name.${String(v)}`) : String(v)),
    },
    {
      name: 'status',
      type: 'status',
      labelKey: 'jobs.fields.status',
      column: true,
      priority: 1,
      filter: true,
      options: JOB_STATUSES.map((value) => ({ value, labelKey: `jobs.status.${value}`, color: STATUS_COLORS[value] })),
    },
    {
      name: 'retry_count',
      type: 'text',
      labelKey: 'jobs.fields.tries',
      column: true,
      render: (_v, record) =>
        t('jobs.tries', { tries: Number(record.retry_count) + 1, limit: Number(record.retry_limit) + 1 }),
    },
    {
      name: 'error',
      type: 'text',
      labelKey: 'jobs.fields.error',
      column: true,
      render: (v) => (v ? <Typography.Text type="danger">{String(v)}</Typography.Text> : '—'),
    },
    { name: 'created_at', type: 'date', labelKey: 'jobs.fields.createdAt', column: true },
    { name: 'started_at', type: 'date', labelKey: 'jobs.fields.startedAt', column: true, priority: 3 },
    { name: 'finished_at', type: 'date', labelKey: 'jobs.fields.finishedAt', column: true, priority: 3 },
  ],
});
