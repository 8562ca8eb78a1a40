import { MailOutlined } from '@ant-design/icons';
import { Tag } from 'antd';
import type { BaseRecord } from '@refinedev/core';
import { BULK_SEGMENTS, BULK_STATUSES, MESSAGE_CATEGORIES } from '../../contract/schemas/messaging';
import { defineResource } from '../../src/components/resource/define';
import { t } from '../../src/i18n';
import { BulkProgress } from './BulkProgress';

const BULK_STATUS_COLORS: Record<string, string> = {
  queued: 'default',
  sending: 'processing',
  done: 'success',
  cancelled: 'warning',
};

/** "Customers on a plan: Home", or the segment alone. */
const segmentText = (record: BaseRecord) =>
  record.segment_label
    ? `${t(`bulkMessages.segment.${String(record.segment)}`)}: ${String(record.segment_label)}`
    : t(`bulkMessages.segment.${String(record.segment)}`);

/**
 * Bulk messages (issue 38) for admin and support: the messages sent to a segment of customers with their counts,
 * one with its progress (cancel while it is being sent) and its messages, and a new one with a live count of its
 * recipients before it is sent. API: /api/bulk-messages (server/modules/bulk-messages).
 */
export const bulkMessagesResource = defineResource({
  name: 'bulk-messages',
  auditTargets: ['bulk_message'],
  titleKey: 'bulkMessages.title',
  singularKey: 'bulkMessages.singular',
  menu: { order: 72, labelKey: 'menu.bulkMessages', icon: MailOutlined },
  pages: { create: () => import('./CreateBulkMessage').then((m) => m.CreateBulkMessage) },
  actions: ['show'],
  defaultSort: { field: 'created_at', order: 'desc' },
  meta: { fallbackMessage: t('bulkMessages.errors.list') },
  showExtra: (record: BaseRecord) => <BulkProgress record={record} />,
  fields: [
    { name: 'created_at', type: 'date', labelKey: 'bulkMessages.fields.createdAt', column: true, priority: 2 },
    { name: 'subject', type: 'text', labelKey: 'bulkMessages.fields.subject', column: true, priority: 1 },
    {
      name: 'segment',
      type: 'select',
      labelKey: 'bulkMessages.fields.segment',
      column: true,
      priority: 3,
      options: BULK_SEGMENTS.map((value) => ({ value, labelKey: `bulkMessages.segment.${value}` })),
      render: (_v, record) => segmentText(record),
    },
    {
      name: 'category',
      type: 'select',
      labelKey: 'bulkMessages.fields.category',
      column: true,
      priority: 3,
      options: MESSAGE_CATEGORIES.map((value) => ({ value, labelKey: `bulkMessages.category.${value}` })),
    },
    {
      name: 'channels',
      type: 'custom',
      labelKey: 'bulkMessages.fields.channels',
      render: (v) =>
        ((v as string[] | undefined) ?? []).map((c) => <Tag key={c}>{t(`bulkMessages.channel.${c}`)}</Tag>),
    },
    {
      name: 'status',
      type: 'status',
      labelKey: 'bulkMessages.fields.status',
      column: true,
      priority: 1,
      filter: true,
      options: BULK_STATUSES.map((value) => ({
        value,
        labelKey: `bulkMessages.status.${value}`,
        color: BULK_STATUS_COLORS[value],
      })),
    },
    { name: 'recipients', type: 'number', labelKey: 'bulkMessages.fields.recipients', column: true, priority: 2 },
    { name: 'sent', type: 'number', labelKey: 'bulkMessages.fields.sent', column: true, priority: 2 },
    { name: 'skipped', type: 'number', labelKey: 'bulkMessages.fields.skipped', column: true, priority: 3 },
    { name: 'failed', type: 'number', labelKey: 'bulkMessages.fields.failed', column: true, priority: 3 },
    { name: 'finished_at', type: 'date', labelKey: 'bulkMessages.fields.finishedAt' },
    {
      name: 'body',
      type: 'custom',
      labelKey: 'bulkMessages.fields.body',
      render: (v) => <span style={{ whiteSpace: 'pre-wrap' }}>{String(v ?? '')}</span>,
    },
  ],
});
