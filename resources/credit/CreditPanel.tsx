import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Space, Statistic, Table, Tag, Typography } from 'antd';
import { useCustom } from '@refinedev/core';
import { Link } from 'react-router';
import { toMinorUnits } from '../../contract/money';
import {
  CREDIT_REASON_MAX,
  CREDIT_REASON_MIN,
  type CreditAccount,
  type CreditEntry,
} from '../../contract/schemas/credit';
import { useToastedCall } from '../../src/components/toastedCall';
import { t } from '../../src/i18n';
import { SectionHeading } from '../../src/components/Text';
import { usePublicSettings } from '../../src/site/portal-settings';
import { invoicePagePath } from '../invoices/api';
import { momentDayText, money } from '../invoices/format';

const KIND_COLORS: Record<string, string> = {
  overpayment: 'green',
  refund_to_credit: 'purple',
  adjustment: 'blue',
  applied_to_invoice: 'gold',
  overpayment_reversed: 'volcano',
  released_from_invoice: 'cyan',
};
const PAGE_SIZE = 10;

/**
 * A customer's credit (issue 21): the balance per currency and the ledger's entries, newest first, paged on the
 * server. Without userId: the signed-in customer's own (GET /credit); with it: a customer's, for staff
 * (GET /users/{id}/credit), and with canAdjust the "Adjust credit" form (POST /users/{id}/credit).
 */
export function CreditPanel({
  userId,
  canAdjust = false,
  title,
}: {
  userId?: string;
  canAdjust?: boolean;
  title?: string;
}) {
  const [page, setPage] = useState(1);
  const url = userId ? `/users/${encodeURIComponent(userId)}/credit` : '/credit';
  const { result, query } = useCustom<CreditAccount>({
    url,
    method: 'get',
    config: { query: { page, limit: PAGE_SIZE } },
    meta: { fallbackMessage: t('errors.credit.load') },
    errorNotification: false,
  });
  // While loading, result.data is not the account yet (an empty object).
  const account = result.data as Partial<CreditAccount> | undefined;
  const balances = Array.isArray(account?.balances) ? account.balances : [];
  const entries = Array.isArray(account?.entries) ? account.entries : [];
  const pagination = account?.pagination;
  return (
    <Card title={<SectionHeading>{title ?? t('credit.title')}</SectionHeading>} data-testid="credit-panel" size="small">
      {query.isError ? (
        <Alert type="error" showIcon message={query.error?.message || t('errors.credit.load')} />
      ) : (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Space wrap size="large" data-testid="credit-balance">
            {balances.length ? (
              balances.map((b) => (
                <Statistic
                  key={b.currency}
                  title={t('credit.balanceIn', { currency: b.currency })}
                  value={money(b.amount, b.currency)}
                />
              ))
            ) : (
              <Statistic title={t('credit.balance')} value={query.isLoading ? '…' : money(0, undefined)} />
            )}
          </Space>
          {!userId && (
            <Typography.Text type="secondary">{balances.length ? t('credit.help') : t('credit.none')}</Typography.Text>
          )}
          {canAdjust && userId && <AdjustCreditForm userId={userId} />}
          <SectionHeading level={3}>{t('credit.history')}</SectionHeading>
          <Table<CreditEntry>
            size="small"
            rowKey="id"
            loading={query.isLoading}
            dataSource={entries}
            scroll={{ x: 'max-content' }}
            data-testid="credit-history"
            locale={{ emptyText: t('credit.empty') }}
            pagination={
              pagination && pagination.totalPages > 1
                ? {
                    current: page,
                    pageSize: PAGE_SIZE,
                    total: pagination.total,
                    showSizeChanger: false,
                    onChange: (p) => setPage(p),
                  }
                : false
            }
            columns={[
              { key: 'date', title: t('credit.fields.date'), render: (_, e) => momentDayText(e.created_at) },
              {
                key: 'kind',
                title: t('credit.fields.kind'),
                render: (_, e) => <Tag color={KIND_COLORS[e.kind]}>{t(`credit.kind.${e.kind}`)}</Tag>,
              },
              {
                key: 'amount',
                title: t('credit.fields.amount'),
                align: 'right',
                render: (_, e) => (
                  <span data-testid="credit-entry-amount">{`${e.amount > 0 ? '+' : ''}${money(e.amount, e.currency)}`}</span>
                ),
              },
              {
                key: 'details',
                title: t('credit.fields.details'),
                render: (_, e) => (
                  <>
                    {e.invoice_id && e.invoice_number ? (
                      <Link to={invoicePagePath(e.invoice_id)}>
                        {t('credit.invoice', { number: e.invoice_number })}
                      </Link>
                    ) : null}
                    {e.kind === 'adjustment' && e.reason ? <div>{e.reason}</div> : null}
                  </>
                ),
              },
            ]}
          />
        </Space>
      )}
    </Card>
  );
}

/** Staff add (positive) or take (negative) credit, always with a reason; the server refuses going below zero. */
function AdjustCreditForm({ userId }: { userId: string }) {
  const settings = usePublicSettings();
  const currency = settings?.currency && /^[A-Z]{3}$/.test(settings.currency) ? settings.currency : 'USD';
  const [form] = Form.useForm<{ amount: string; reason: string }>();
  const { run, isPending, error } = useToastedCall();
  const submit = async (values: { amount: string; reason: string }) => {
    const amount = toMinorUnits(values.amount, currency);
    if (amount === null || amount === 0) return;
    const done = await run({
      url: `/users/${encodeURIComponent(userId)}/credit`,
      method: 'post',
      values: { amount, currency, reason: values.reason.trim() },
      success: t('credit.adjust.done'),
      fallbackKey: 'errors.credit.adjust',
      notifyError: false,
    });
    if (done !== undefined) form.resetFields();
  };
  return (
    <section aria-labelledby={`adjust-credit-${userId}`} data-testid="adjust-credit">
      <SectionHeading level={3} id={`adjust-credit-${userId}`} style={{ marginBottom: 8 }}>
        {t('credit.adjust.title')}
      </SectionHeading>
      {error && (
        <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} data-testid="adjust-credit-error" />
      )}
      <Form
        form={form}
        name={`adjust-credit-${userId}`}
        layout="vertical"
        onFinish={(v) => void submit(v)}
        requiredMark={false}
      >
        <Form.Item
          name="amount"
          label={t('credit.adjust.amount', { currency })}
          extra={t('credit.adjust.amountHelp')}
          rules={[
            {
              validator: async (_, v: string | undefined) => {
                const minor = v ? toMinorUnits(v, currency) : null;
                if (minor === null || minor === 0) throw new Error(t('credit.adjust.amountRequired'));
              },
            },
          ]}
        >
          <Input inputMode="decimal" placeholder="-5.00 / 10.00" />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('credit.adjust.reason')}
          extra={t('credit.adjust.reasonHelp')}
          rules={[
            {
              required: true,
              whitespace: true,
              min: CREDIT_REASON_MIN,
              max: CREDIT_REASON_MAX,
              transform: (v: string) => v?.trim(),
              message: t('credit.adjust.reasonRequired'),
            },
          ]}
        >
          <Input.TextArea rows={2} maxLength={CREDIT_REASON_MAX} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={isPending}>
          {t('credit.adjust.submit')}
        </Button>
      </Form>
    </section>
  );
}
