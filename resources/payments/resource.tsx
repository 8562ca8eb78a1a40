import type { BaseRecord } from '@refinedev/core';
import { Tag, Typography } from 'antd';
import { PAYMENT_STATUSES, type PaymentListItem } from '../../contract/schemas/payment';
import type { FieldOption } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { CustomerCell, InvoiceCell, ReferenceCell } from './ui';
import { DollarOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

export const PAYMENT_STATUS_COLORS: Record<string, string> = {
  pending: 'gold',
  paid: 'green',
  failed: 'red',
  refunded: 'purple',
  expired: 'default',
};

export const PAYMENT_STATUS_OPTIONS: FieldOption[] = PAYMENT_STATUSES.map((s) => ({
  value: s,
  labelKey: `payments.status.${s}`,
  color: PAYMENT_STATUS_COLORS[s],
}));

/** How the money came: a provider's checkout or card, or staff's manual recording (cash, bank transfer). */
export const PAYMENT_METHOD_OPTIONS: FieldOption[] = ['stripe', 'sandbox', 'cash', 'bank_transfer'].map((m) => ({
  value: m,
  labelKey: `payments.method.${m}`,
}));

const asPayment = (record: BaseRecord) => record as unknown as PaymentListItem;

/**
 * The billing team's payments screen (issue 31, /dashboard/billing/payments; admin, billing, support read-only):
 * every payment with its customer, amount, method, gateway, reference and status, newest first, paged and filtered
 * on the server (GET /payments: status, method, gateway, customer, created date range, search). Refunds stay on the
 * invoice's page, which each row links to. The filters are the list page's own (list.tsx: the gateways come from
 * the API); the fields give the columns.
 */
export const paymentsResource = defineResource({
  name: 'payments',
  auditTargets: ['payment'],
  menu: { order: 83.5, group: 'billing', labelKey: 'menu.payments', icon: DollarOutlined },
  pages: { list: () => import('./list').then((m) => m.PaymentList) },
  titleKey: 'payments.title',
  singularKey: 'payments.singular',
  canCreate: false,
  actions: [],
  fields: [
    { name: 'created_at', type: 'date', labelKey: 'payments.fields.created', column: true, priority: 2 },
    {
      name: 'user_name',
      type: 'text',
      labelKey: 'payments.fields.customer',
      column: true,
      priority: 2,
      render: (_v, r) => <CustomerCell payment={asPayment(r)} />,
    },
    { name: 'amount', type: 'money', labelKey: 'payments.fields.amount', column: true, priority: 1 },
    {
      name: 'payment_method',
      type: 'select',
      labelKey: 'payments.fields.method',
      column: true,
      priority: 2,
      options: PAYMENT_METHOD_OPTIONS,
    },
    {
      name: 'gateway_name',
      type: 'text',
      labelKey: 'payments.fields.gateway',
      column: true,
      priority: 3,
      emptyKey: 'payments.noGateway',
    },
    {
      name: 'invoice_number',
      type: 'text',
      labelKey: 'payments.fields.invoice',
      column: true,
      priority: 2,
      render: (_v, r) => <InvoiceCell payment={asPayment(r)} />,
    },
    {
      name: 'reference',
      type: 'text',
      labelKey: 'payments.fields.reference',
      column: true,
      priority: 3,
      render: (_v, r) => <ReferenceCell payment={asPayment(r)} />,
    },
    {
      name: 'status',
      type: 'status',
      labelKey: 'payments.fields.status',
      column: true,
      priority: 1,
      options: PAYMENT_STATUS_OPTIONS,
      render: (v, r) => {
        const option = PAYMENT_STATUS_OPTIONS.find((o) => o.value === v);
        const reason = asPayment(r).failure_reason;
        return (
          <span style={{ display: 'inline-flex', flexDirection: 'column', alignItems: 'flex-start', gap: 2 }}>
            <Tag color={option?.color ?? 'default'} style={{ marginInlineEnd: 0 }}>
              {option ? t(option.labelKey) : String(v)}
            </Tag>
            {reason ? (
              <Typography.Text type="secondary" style={{ fontSize: 12, maxWidth: 260 }}>
                {reason}
              </Typography.Text>
            ) : null}
          </span>
        );
      },
    },
  ],
});
