import { HistoryOutlined } from '@ant-design/icons';
import { MESSAGE_CHANNELS, MESSAGE_STATUSES } from '../../contract/schemas/messaging';
import { defineResource } from '../../src/components/resource/define';

const STATUS_COLORS: Record<string, string> = {
  queued: 'default',
  sending: 'processing',
  sent: 'blue',
  delivered: 'green',
  failed: 'red',
  undelivered: 'orange',
  skipped: 'default',
};

/**
 * The message log (issue 38), read-only, for the staff who answer customers (admin, support, billing): every
 * message on every channel, newest first, with its status and why it failed or was skipped. GET /messaging/messages.
 */
export const messagesResource = defineResource({
  name: 'messages',
  menu: { order: 72, labelKey: 'menu.messages', icon: HistoryOutlined },
  titleKey: 'messages.title',
  singularKey: 'messages.singular',
  canCreate: false,
  actions: [],
  defaultSort: { field: 'created_at', order: 'desc' },
  meta: { endpoint: 'messaging/messages' },
  fields: [
    { name: 'created_at', type: 'date', labelKey: 'messages.fields.createdAt', column: true },
    {
      name: 'channel',
      type: 'status',
      labelKey: 'messages.fields.channel',
      column: true,
      filter: true,
      options: MESSAGE_CHANNELS.map((c) => ({ value: c, labelKey: `messaging.channel.${c}`, color: 'blue' })),
    },
    { name: 'to', type: 'text', labelKey: 'messages.fields.to', column: true, priority: 1 },
    { name: 'template', type: 'text', labelKey: 'messages.fields.template', column: true, priority: 3 },
    {
      name: 'status',
      type: 'status',
      labelKey: 'messages.fields.status',
      column: true,
      filter: true,
      options: MESSAGE_STATUSES.map((s) => ({ value: s, labelKey: `messages.status.${s}`, color: STATUS_COLORS[s] })),
    },
    { name: 'error', type: 'text', labelKey: 'messages.fields.error', column: true, priority: 3 },
    { name: 'subject', type: 'text', labelKey: 'messages.fields.subject' },
    { name: 'body', type: 'textarea', labelKey: 'messages.fields.body' },
    { name: 'attempts', type: 'number', labelKey: 'messages.fields.attempts' },
    { name: 'sent_at', type: 'date', labelKey: 'messages.fields.sentAt' },
    { name: 'delivered_at', type: 'date', labelKey: 'messages.fields.deliveredAt' },
  ],
});
