import type { BaseRecord } from '@refinedev/core';
import { INVOICE_STATUSES } from '../../contract/schemas/invoice';
import type { FieldOption } from '../../src/components/resource';
import { dayText, momentDayText } from './format';
import { FileTextOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

export const INVOICE_STATUS_COLORS: Record<string, string> = {
  unpaid: 'gold',
  paid: 'green',
  overdue: 'red',
  cancelled: 'default',
  refunded: 'purple',
};

export const INVOICE_STATUS_OPTIONS: FieldOption[] = INVOICE_STATUSES.map((s) => ({
  value: s,
  labelKey: `invoices.status.${s}`,
  color: INVOICE_STATUS_COLORS[s],
}));

/** Only these can be paid (online or recorded by staff). */
export const PAYABLE_STATUSES = ['unpaid', 'overdue'] as const;
export const isPayable = (record: BaseRecord | { status?: unknown } | undefined) =>
  (PAYABLE_STATUSES as readonly string[]).includes(String(record?.status ?? ''));
/** The server refuses to delete a paid invoice (409); the screen offers delete on unpaid ones only. */
export const isDeletable = (record: BaseRecord | undefined) => record?.status === 'unpaid';

/**
 * Invoices (spec §3, §7, issue 4): the staff list of GET /payments/invoices (page/limit; filters status,
 * user_id, from, to, search) and its show page. Invoices are created by subscriptions, never by hand.
 */
export const invoicesResource = defineResource({
  name: 'invoices',
  auditTargets: ['invoice'],
  menu: { order: 83, group: 'billing', labelKey: 'menu.invoices', icon: FileTextOutlined },
  pages: {
    list: () => import('./list').then((m) => m.InvoiceList),
    show: () => import('./show').then((m) => m.InvoiceShow),
  },
  titleKey: 'invoices.title',
  singularKey: 'invoices.singular',
  search: true,
  canCreate: false,
  actions: ['show', 'delete'],
  messages: { deleted: 'invoices.toast.deleted' },
  fields: [
    { name: 'number', type: 'text', labelKey: 'invoices.fields.number', column: true, priority: 1 },
    { name: 'user_name', type: 'text', labelKey: 'invoices.fields.customer', column: true },
    { name: 'user_email', type: 'text', labelKey: 'invoices.fields.email' },
    { name: 'plan_name', type: 'text', labelKey: 'invoices.fields.plan' },
    { name: 'subtotal', type: 'money', labelKey: 'invoices.fields.subtotal' },
    { name: 'tax', type: 'money', labelKey: 'invoices.fields.tax' },
    { name: 'total_amount', type: 'money', labelKey: 'invoices.fields.total', column: true },
    {
      name: 'status',
      type: 'status',
      labelKey: 'invoices.fields.status',
      column: true,
      priority: 1,
      filter: true,
      options: INVOICE_STATUS_OPTIONS,
    },
    {
      name: 'issue_date',
      type: 'date',
      render: (v) => dayText(v),
      labelKey: 'invoices.fields.issueDate',
      column: true,
      priority: 3,
    },
    { name: 'due_date', type: 'date', render: (v) => dayText(v), labelKey: 'invoices.fields.dueDate', column: true },
    {
      name: 'paid_date',
      type: 'date',
      render: (v) => momentDayText(v),
      labelKey: 'invoices.fields.paidDate',
      column: true,
      priority: 3,
    },
  ],
});
