import { Typography } from 'antd';
import type { BaseRecord } from '@refinedev/core';

import { t } from '../../src/i18n';
import { MarkHandledButton } from './MarkHandledButton';
import { MailOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

/** Messages sent through the public contact form, read and handled by admin and support. */
export const contactMessagesResource = defineResource({
  name: 'contact-messages',
  auditTargets: ['contact_message'],
  menu: { order: 70, labelKey: 'menu.contactMessages', icon: MailOutlined },
  titleKey: 'contactMessages.title',
  singularKey: 'contactMessages.singular',
  search: true,
  canCreate: false,
  actions: [],
  defaultSort: { field: 'created_at', order: 'desc' },
  // The spec has no error texts for this resource; ours are in src/i18n/en/resources.ts.
  meta: { fallbackMessage: t('contactMessages.errors.list') },
  rowExtra: (record: BaseRecord) => <MarkHandledButton record={record} />,
  expandedRow: (record: BaseRecord) => (
    <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }} data-testid="contact-message-body">
      {String(record.message ?? '')}
    </Typography.Paragraph>
  ),
  fields: [
    { name: 'created_at', type: 'date', labelKey: 'contactMessages.fields.received', column: true },
    { name: 'name', type: 'text', labelKey: 'contactMessages.fields.name', column: true },
    {
      name: 'email',
      type: 'text',
      labelKey: 'contactMessages.fields.email',
      column: true,
      priority: 3,
      render: (v) => <a href={`mailto:${String(v)}`}>{String(v)}</a>,
    },
    { name: 'phone', type: 'text', labelKey: 'contactMessages.fields.phone', column: true, priority: 3 },
    { name: 'subject', type: 'text', labelKey: 'contactMessages.fields.subject', column: true, priority: 1 },
    { name: 'message', type: 'textarea', labelKey: 'contactMessages.fields.message' },
    {
      name: 'status',
      type: 'status',
      labelKey: 'contactMessages.fields.status',
      column: true,
      priority: 1,
      filter: true,
      options: [
        { value: 'new', labelKey: 'contactMessages.status.new', color: 'blue' },
        { value: 'handled', labelKey: 'contactMessages.status.handled', color: 'green' },
      ],
    },
    { name: 'handled_at', type: 'date', labelKey: 'contactMessages.fields.handledAt' },
  ],
});
