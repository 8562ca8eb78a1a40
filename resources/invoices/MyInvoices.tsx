import { Card, Space, Typography } from 'antd';
import { useTable } from '@refinedev/antd';
import type { BaseRecord } from '@refinedev/core';
import { Link, useNavigate } from 'react-router';
import { PhoneCard, PhoneCardList } from '../../src/components/PhoneCards';
import { ResponsiveTable, useViewport } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { invoicePagePath } from './api';
import { dayText, money } from './format';
import { InvoiceStatusTag } from './InvoiceDetails';
import { isPayable } from './resource';
import { PayButton } from './PayButton';

/**
 * The signed-in customer's own invoices (GET /payments/user/invoices, paged): status, total, due date, the
 * public invoice page and a Pay shortcut for unpaid ones. Self-contained, to be embedded in other screens.
 */
export function MyInvoices() {
  const { narrow } = useViewport();
  const navigate = useNavigate();
  const { tableProps, currentPage, setCurrentPage } = useTable({
    resource: 'invoices',
    syncWithLocation: false,
    pagination: { mode: 'server', pageSize: 10 },
    meta: { endpoint: 'payments/user/invoices', fallbackMessage: t('errors.invoices.userList') },
  });
  // On a phone each invoice is a card: its number, status, amount (and what is left to pay after credit), due
  // date, and a full-width "Pay now" (issue 34: the table hid amount and due date and clipped Pay).
  if (narrow) {
    const total = tableProps.pagination ? Number(tableProps.pagination.total ?? 0) : 0;
    return (
      <Card title={t('invoices.myTitle')} data-testid="my-invoices">
        <PhoneCardList<BaseRecord>
          testId="invoice-cards"
          items={tableProps.dataSource ?? []}
          rowKey={(r) => String(r.id)}
          loading={!!tableProps.loading}
          empty={t('invoices.my.empty')}
          pagination={{ current: currentPage, pageSize: 10, total, onChange: setCurrentPage }}
          render={(r) => (
            <PhoneCard
              testId="invoice-card"
              title={<Link to={invoicePagePath(String(r.id))}>{String(r.number)}</Link>}
              status={<InvoiceStatusTag status={String(r.status)} />}
              facts={[
                { key: 'total', label: t('invoices.fields.total'), value: money(r.total_amount, r.currency) },
                ...(Number(r.credit_applied) > 0
                  ? [
                      {
                        key: 'due-amount',
                        label: t('credit.invoice.amountDue'),
                        value: money(r.amount_due, r.currency),
                      },
                    ]
                  : []),
                { key: 'due', label: t('invoices.fields.dueDate'), value: dayText(r.due_date) },
              ]}
              actions={
                <Space direction="vertical" style={{ width: '100%' }}>
                  {isPayable(r) && (
                    <PayButton
                      block
                      invoice={{ id: String(r.id), subscription_id: r.subscription_id as string | null }}
                    />
                  )}
                  <Link to={invoicePagePath(String(r.id))}>{t('invoices.actions.open')}</Link>
                </Space>
              }
            />
          )}
        />
      </Card>
    );
  }
  return (
    <Card title={t('invoices.myTitle')} data-testid="my-invoices">
      <ResponsiveTable<BaseRecord>
        {...tableProps}
        rowKey="id"
        size="small"
        onOpen={(r) => navigate(invoicePagePath(String(r.id)))}
        locale={{ emptyText: t('invoices.my.empty') }}
        pagination={tableProps.pagination ? { ...tableProps.pagination, showSizeChanger: false } : false}
        columns={[
          {
            key: 'number',
            title: t('invoices.fields.number'),
            priority: 1,
            render: (_, r) => <Link to={invoicePagePath(String(r.id))}>{String(r.number)}</Link>,
          },
          {
            key: 'status',
            title: t('invoices.fields.status'),
            priority: 1,
            render: (_, r) => <InvoiceStatusTag status={String(r.status)} />,
          },
          {
            key: 'total',
            title: t('invoices.fields.total'),
            align: 'right',
            render: (_, r) => (
              <>
                {money(r.total_amount, r.currency)}
                {Number(r.credit_applied) > 0 ? (
                  <div>
                    <Typography.Text type="secondary">{`${t('credit.invoice.amountDue')}: ${money(r.amount_due, r.currency)}`}</Typography.Text>
                  </div>
                ) : null}
              </>
            ),
          },
          { key: 'due', title: t('invoices.fields.dueDate'), render: (_, r) => dayText(r.due_date) },
          {
            key: 'actions',
            title: t('resource.actions'),
            priority: 1,
            render: (_, r) => (
              <Space size="small">
                <Link to={invoicePagePath(String(r.id))}>{t('invoices.actions.open')}</Link>
                {isPayable(r) && (
                  <PayButton
                    size="small"
                    invoice={{ id: String(r.id), subscription_id: r.subscription_id as string | null }}
                  />
                )}
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
