/** Small shared pieces of the subscription screens: status tags, a plan's card and the invoice/payment tables. */
import { Card, Space, Table, Tag, Typography, theme } from 'antd';
import { Link } from 'react-router';
import { formatMoney } from '../../contract/money';
import type { Invoice } from '../../contract/schemas/invoice';
import type { Payment } from '../../contract/schemas/payment';
import type { Plan } from '../../contract/schemas/plan';
import type { SubscriptionStatus } from '../../contract/schemas/subscription';
import { PhoneCard, PhoneCardList } from '../../src/components/PhoneCards';
import { DateCell, useViewport } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { formatDay } from '../../src/components/dates';

export const STATUS_COLORS: Record<SubscriptionStatus, string> = {
  pending: 'gold',
  active: 'green',
  suspended: 'orange',
  cancelled: 'default',
  expired: 'red',
};
const INVOICE_COLORS: Record<string, string> = {
  unpaid: 'gold',
  paid: 'green',
  overdue: 'red',
  cancelled: 'default',
  refunded: 'purple',
};
const PAYMENT_COLORS: Record<string, string> = {
  pending: 'gold',
  paid: 'green',
  failed: 'red',
  refunded: 'purple',
  expired: 'default',
};

const label = (prefix: string, value: string) => t(`${prefix}.${value}`, undefined, value);

export function SubscriptionStatusTag({ status }: { status: SubscriptionStatus }) {
  return <Tag color={STATUS_COLORS[status] ?? 'default'}>{label('subscriptions.status', status)}</Tag>;
}

export function InvoiceStatusTag({ status }: { status: string }) {
  return <Tag color={INVOICE_COLORS[status] ?? 'default'}>{label('subscriptions.invoiceStatus', status)}</Tag>;
}

/** The public invoice page, where an unpaid invoice is paid. */
export const invoicePath = (id: string) => `/invoice/${id}`;

/** Price per cycle, speed, data cap and setup fee of a plan, as the subscribe and upgrade dialogs list them. */
type PlanFacts = Pick<Plan, 'price' | 'currency' | 'download_mbps' | 'upload_mbps' | 'data_cap_gb'> & {
  billing_cycle: string;
  setup_fee?: number;
};

export function PlanSummary({ plan }: { plan: PlanFacts }) {
  return (
    <Space direction="vertical" size={2}>
      <Typography.Text strong style={{ fontSize: 18 }}>
        {t('subscriptions.plan.perCycle', {
          price: formatMoney(plan.price, plan.currency),
          cycle: label('subscriptions.cycle', plan.billing_cycle),
        })}
      </Typography.Text>
      <Typography.Text>
        {t('subscriptions.plan.speed', { down: plan.download_mbps, up: plan.upload_mbps })}
      </Typography.Text>
      <Typography.Text type="secondary">
        {plan.data_cap_gb === null
          ? t('subscriptions.plan.unlimited')
          : t('subscriptions.plan.dataCap', { gb: plan.data_cap_gb })}
      </Typography.Text>
      {plan.setup_fee !== undefined && (
        <Typography.Text type="secondary">
          {plan.setup_fee > 0
            ? t('subscriptions.plan.setupFee', { fee: formatMoney(plan.setup_fee, plan.currency) })
            : t('subscriptions.plan.noSetupFee')}
        </Typography.Text>
      )}
    </Space>
  );
}

/** Plans as selectable cards (subscribe, change plan). */
/** A form control (value/onChange come from the surrounding Form.Item). */
export function PlanChoices({
  plans,
  value,
  onChange,
  disabledId,
}: {
  plans: Plan[];
  value?: string;
  onChange?: (id: string) => void;
  disabledId?: string;
}) {
  const { token } = theme.useToken();
  return (
    <div
      role="radiogroup"
      aria-label={t('subscriptions.subscribe.choose')}
      style={{ display: 'grid', gap: 12, gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))' }}
    >
      {plans.map((plan) => {
        const selected = plan.id === value;
        const disabled = plan.id === disabledId;
        return (
          <Card
            key={plan.id}
            size="small"
            hoverable={!disabled}
            role="radio"
            aria-checked={selected}
            aria-disabled={disabled}
            aria-label={plan.name}
            tabIndex={disabled ? -1 : 0}
            data-testid={`plan-choice-${plan.id}`}
            title={plan.name}
            extra={disabled ? <Tag>{t('subscriptions.plan.current')}</Tag> : undefined}
            onClick={() => !disabled && onChange?.(plan.id)}
            onKeyDown={(e) => {
              if (!disabled && (e.key === 'Enter' || e.key === ' ')) {
                e.preventDefault();
                onChange?.(plan.id);
              }
            }}
            style={{
              cursor: disabled ? 'not-allowed' : 'pointer',
              opacity: disabled ? 0.6 : 1,
              borderColor: selected ? token.colorPrimary : undefined,
              borderWidth: selected ? 2 : 1,
            }}
          >
            <PlanSummary plan={plan} />
          </Card>
        );
      })}
    </div>
  );
}

const payable = (inv: Pick<Invoice, 'status'>) => inv.status === 'unpaid' || inv.status === 'overdue';

export function InvoicesTable({ invoices }: { invoices: Invoice[] }) {
  const { narrow } = useViewport();
  if (narrow) {
    return (
      <PhoneCardList
        testId="invoice-cards"
        items={invoices}
        rowKey={(i) => i.id}
        empty={t('subscriptions.orders.noInvoices')}
        render={(inv) => (
          <PhoneCard
            testId="invoice-card"
            title={<Link to={invoicePath(inv.id)}>{inv.number}</Link>}
            status={<InvoiceStatusTag status={inv.status} />}
            facts={[
              {
                key: 'total',
                label: t('subscriptions.invoice.total'),
                value: formatMoney(inv.total_amount, inv.currency),
              },
              { key: 'issued', label: t('subscriptions.invoice.issued'), value: formatDay(inv.issue_date) },
              { key: 'due', label: t('subscriptions.invoice.due'), value: formatDay(inv.due_date) },
            ]}
            actions={
              <Link to={invoicePath(inv.id)}>
                {payable(inv) ? t('subscriptions.invoice.pay') : t('subscriptions.invoice.open')}
              </Link>
            }
          />
        )}
      />
    );
  }
  return (
    <Table<Invoice>
      size="small"
      rowKey="id"
      pagination={false}
      scroll={{ x: 'max-content' }}
      dataSource={invoices}
      locale={{ emptyText: t('subscriptions.orders.noInvoices') }}
      columns={[
        {
          key: 'number',
          title: t('subscriptions.invoice.number'),
          dataIndex: 'number',
          render: (n: string, inv) => <Link to={invoicePath(inv.id)}>{n}</Link>,
        },
        {
          key: 'total',
          title: t('subscriptions.invoice.total'),
          render: (_: unknown, inv) => formatMoney(inv.total_amount, inv.currency),
        },
        {
          key: 'status',
          title: t('subscriptions.invoice.status'),
          dataIndex: 'status',
          render: (s: string) => <InvoiceStatusTag status={s} />,
        },
        {
          key: 'issued',
          title: t('subscriptions.invoice.issued'),
          dataIndex: 'issue_date',
          render: (v: string) => formatDay(v),
        },
        {
          key: 'due',
          title: t('subscriptions.invoice.due'),
          dataIndex: 'due_date',
          render: (v: string) => formatDay(v),
        },
        {
          key: 'open',
          title: '',
          render: (_: unknown, inv) => (
            <Link to={invoicePath(inv.id)}>
              {payable(inv) ? t('subscriptions.invoice.pay') : t('subscriptions.invoice.open')}
            </Link>
          ),
        },
      ]}
    />
  );
}

/**
 * The payments a customer sees (issue 31): once an invoice is paid (or refunded), its attempts that never took
 * money — a checkout still pending or expired — are left out, so an abandoned checkout does not look like a second
 * charge next to the paid one. Before that an expired checkout shows as "Expired" (pay again from the invoice).
 * Failed and refunded attempts always stay: a payment taken but not counted shows as refunded once given back.
 */
export function customerPayments(payments: Payment[]): Payment[] {
  const settled = new Set(
    payments.filter((p) => p.status === 'paid' || p.status === 'refunded').map((p) => p.invoice_id),
  );
  return payments.filter((p) => !(settled.has(p.invoice_id) && (p.status === 'pending' || p.status === 'expired')));
}

function PaymentStatusTag({ status }: { status: string }) {
  return <Tag color={PAYMENT_COLORS[status] ?? 'default'}>{label('subscriptions.paymentStatus', status)}</Tag>;
}

export function PaymentsTable({ payments }: { payments: Payment[] }) {
  const { narrow } = useViewport();
  if (narrow) {
    return (
      <PhoneCardList
        testId="payment-cards"
        items={customerPayments(payments)}
        rowKey={(p) => p.id}
        empty={t('subscriptions.orders.noPayments')}
        render={(p) => (
          <PhoneCard
            title={formatMoney(p.amount, p.currency)}
            status={<PaymentStatusTag status={p.status} />}
            facts={[
              {
                key: 'date',
                label: t('subscriptions.payment.date'),
                value: <DateCell value={p.payment_date ?? p.created_at} />,
              },
              { key: 'method', label: t('subscriptions.payment.method'), value: p.payment_method },
              {
                key: 'tx',
                label: t('subscriptions.payment.transaction'),
                value: (
                  <Typography.Text code style={{ overflowWrap: 'anywhere' }}>
                    {p.transaction_id}
                  </Typography.Text>
                ),
              },
            ]}
          />
        )}
      />
    );
  }
  return (
    <Table<Payment>
      size="small"
      rowKey="id"
      pagination={false}
      scroll={{ x: 'max-content' }}
      dataSource={customerPayments(payments)}
      locale={{ emptyText: t('subscriptions.orders.noPayments') }}
      columns={[
        {
          key: 'date',
          title: t('subscriptions.payment.date'),
          render: (_: unknown, p) => <DateCell value={p.payment_date ?? p.created_at} />,
        },
        {
          key: 'amount',
          title: t('subscriptions.payment.amount'),
          render: (_: unknown, p) => formatMoney(p.amount, p.currency),
        },
        { key: 'method', title: t('subscriptions.payment.method'), dataIndex: 'payment_method' },
        {
          key: 'status',
          title: t('subscriptions.payment.status'),
          dataIndex: 'status',
          render: (s: string) => <PaymentStatusTag status={s} />,
        },
        {
          key: 'tx',
          title: t('subscriptions.payment.transaction'),
          dataIndex: 'transaction_id',
          render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
        },
      ]}
    />
  );
}
