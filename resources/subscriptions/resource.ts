import { createElement } from 'react';
import { Typography } from 'antd';
import { SUBSCRIPTION_STATUSES } from '../../contract/schemas/subscription';

import { STATUS_COLORS } from './ui';
import { FileSyncOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

/** The staff detail route of one subscription (resources/menu.ts "show"). */
export const staffDetailPath = (id: string) => `/dashboard/subscription/${id}`;

/**
 * Subscriptions (spec §3, §4, §7, issue 4) as the back office lists and shows them. Paged on the server like every
 * list (page/limit, data {items, pagination}); created by customers (or through their flow), never from a generic form.
 */
export const subscriptionsResource = defineResource({
  name: 'subscriptions',
  auditTargets: ['subscription'],
  menu: { order: 20, portal: true, labelKey: 'menu.subscriptions', icon: FileSyncOutlined },
  pages: {
    list: () => import('./SubscriptionsPage').then((m) => m.SubscriptionsPage),
    show: () => import('./SubscriptionDetail').then((m) => m.SubscriptionDetail),
  },
  routes: { show: '/dashboard/subscription/:id', also: { '/subscription/:id': 'show' } },
  titleKey: 'subscriptions.title',
  singularKey: 'subscriptions.singular',
  search: true,
  canCreate: false,
  actions: ['show'],
  messages: { deleted: 'subscriptions.toast.deleted' },
  fields: [
    {
      name: 'user_name',
      type: 'custom',
      labelKey: 'subscriptions.fields.customer',
      column: true,
      priority: 1,
      render: (value, record) =>
        createElement(
          'span',
          null,
          String(value ?? '—'),
          record.user_email
            ? createElement(
                Typography.Text,
                { type: 'secondary', style: { display: 'block', fontSize: 12 } },
                String(record.user_email),
              )
            : null,
        ),
    },
    { name: 'plan_name', type: 'text', labelKey: 'subscriptions.fields.plan', column: true },
    {
      name: 'status',
      type: 'status',
      labelKey: 'subscriptions.fields.status',
      column: true,
      priority: 1,
      filter: true,
      options: SUBSCRIPTION_STATUSES.map((s) => ({
        value: s,
        labelKey: `subscriptions.status.${s}`,
        color: STATUS_COLORS[s],
      })),
    },
    { name: 'current_period_start', type: 'date', labelKey: 'subscriptions.fields.periodStart' },
    { name: 'current_period_end', type: 'date', labelKey: 'subscriptions.fields.periodEnd', column: true },
    // The service address (issue 31): shown in the staff list, from tablet width up.
    { name: 'location', type: 'text', labelKey: 'subscriptions.fields.location', column: true, priority: 2 },
    { name: 'note', type: 'textarea', labelKey: 'subscriptions.fields.note' },
    { name: 'suspension_reason', type: 'textarea', labelKey: 'subscriptions.fields.suspensionReason' },
    { name: 'created_at', type: 'date', labelKey: 'subscriptions.fields.createdAt', column: true, priority: 3 },
  ],
});
