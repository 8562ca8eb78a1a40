import { Button, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useCustom } from '@refinedev/core';
import { isRefundable, type Payment } from '../../contract/schemas/payment';
import { useToastedCall } from '../../src/components/toastedCall';
import { t } from '../../src/i18n';
import { momentDayText, money } from './format';
import { SectionHeading } from '../../src/components/Text';

const STATUS_COLORS: Record<string, string> = {
  paid: 'green',
  pending: 'gold',
  failed: 'red',
  refunded: 'purple',
  expired: 'default',
};

/**
 * An invoice's payments for staff (GET /payments/invoices/{id}/payments): each attempt with its method,
 * reference, status and why it failed or was refunded. Admin and billing refund a paid payment, or one the
 * provider took but that was not counted (POST /payments/{id}/refund), after confirming.
 */
export function InvoicePayments({ invoiceId, canRefund }: { invoiceId: string; canRefund: boolean }) {
  const { result, query } = useCustom<Payment[]>({
    url: `/payments/invoices/${encodeURIComponent(invoiceId)}/payments`,
    method: 'get',
    meta: { fallbackMessage: t('errors.invoices.payments') },
    errorNotification: false,
  });
  const { run, isPending } = useToastedCall();
  const rows = Array.isArray(result.data) ? (result.data as Payment[]) : [];

  const refund = (p: Payment) =>
    run({
      url: `/payments/${encodeURIComponent(p.id)}/refund`,
      method: 'post',
      success: t('invoices.toast.refunded'),
      fallbackKey: 'errors.invoices.refund',
    });
  // Issue 21: keep the money as the customer's credit instead of giving it back to the card.
  const refundToCredit = (p: Payment) =>
    run({
      url: `/payments/${encodeURIComponent(p.id)}/refund`,
      method: 'post',
      values: { to: 'credit' },
      success: t('credit.refund.done'),
      fallbackKey: 'errors.credit.refund',
    });

  return (
    <>
      <SectionHeading style={{ marginTop: 24, marginBottom: 8 }}>{t('invoices.show.payments')}</SectionHeading>
      {query.isError ? (
        <Typography.Text type="danger">{query.error?.message || t('errors.invoices.payments')}</Typography.Text>
      ) : (
        <Table<Payment>
          size="small"
          rowKey="id"
          pagination={false}
          scroll={{ x: 'max-content' }}
          loading={query.isLoading}
          dataSource={rows}
          data-testid="invoice-payments"
          locale={{ emptyText: t('invoices.payments.empty') }}
          columns={[
            {
              key: 'date',
              title: t('invoices.payments.date'),
              render: (_, p) => momentDayText(p.payment_date ?? p.created_at),
            },
            { key: 'method', dataIndex: 'payment_method', title: t('invoices.record.method') },
            {
              key: 'reference',
              title: t('invoices.record.reference'),
              render: (_, p) => p.reference ?? p.transaction_id,
            },
            {
              key: 'status',
              title: t('invoices.fields.status'),
              render: (_, p) => (
                <>
                  <Tag color={STATUS_COLORS[p.status]}>{t(`invoices.payments.status.${p.status}`)}</Tag>
                  {p.failure_reason ? (
                    <div>
                      <Typography.Text type="secondary">{p.failure_reason}</Typography.Text>
                    </div>
                  ) : null}
                </>
              ),
            },
            {
              key: 'amount',
              title: t('invoices.fields.amount'),
              align: 'right',
              render: (_, p) => money(p.amount, p.currency),
            },
            ...(canRefund
              ? [
                  {
                    key: 'actions',
                    title: '',
                    render: (_: unknown, p: Payment) =>
                      isRefundable(p.status, p.failure_reason) ? (
                        <Space size="small" wrap>
                          <Popconfirm
                            title={t('invoices.payments.refundConfirm', { amount: money(p.amount, p.currency) })}
                            description={
                              p.status === 'paid'
                                ? t('invoices.payments.refundPaidNote')
                                : t('invoices.payments.refundOwedNote')
                            }
                            okText={t('invoices.payments.refund')}
                            cancelText={t('resource.cancel')}
                            onConfirm={() => refund(p)}
                          >
                            <Button size="small" danger loading={isPending}>
                              {t('invoices.payments.refund')}
                            </Button>
                          </Popconfirm>
                          {p.status === 'paid' ? (
                            <Popconfirm
                              title={t('credit.refund.toCreditConfirm', { amount: money(p.amount, p.currency) })}
                              description={t('credit.refund.toCreditNote')}
                              okText={t('credit.refund.toCredit')}
                              cancelText={t('resource.cancel')}
                              onConfirm={() => refundToCredit(p)}
                            >
                              <Button size="small" loading={isPending}>
                                {t('credit.refund.toCredit')}
                              </Button>
                            </Popconfirm>
                          ) : null}
                        </Space>
                      ) : null,
                  },
                ]
              : []),
          ]}
        />
      )}
    </>
  );
}
