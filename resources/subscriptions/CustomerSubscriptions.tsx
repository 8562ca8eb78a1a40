import { useState } from 'react';
import { Alert, Button, Card, Collapse, Descriptions, Empty, Flex, Result, Space, Spin, Tabs, Typography } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatMoney } from '../../contract/money';
import type { Order } from '../../contract/schemas/subscription';
import { PhoneCard, PhoneCardList } from '../../src/components/PhoneCards';
import { DateCell, ResponsiveTable, useViewport } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { MyInvoices } from '../invoices/MyInvoices';
import { CreditPanel } from '../credit/CreditPanel';
import { RedeemVoucherCard } from '../vouchers/RedeemVoucherCard';
import { formatBytes } from '../traffic/format';
import { useActivePlan, useOrders } from './hooks';
import { SubscribeModal } from './SubscribeModal';
import { SubscriptionActions } from './SubscriptionActions';
import { InvoiceStatusTag, InvoicesTable, PaymentsTable, PlanSummary, SubscriptionStatusTag, invoicePath } from './ui';
import { formatDay } from '../../src/components/dates';
import { PageTitle } from '../../src/components/Text';

/** A data line's (issue 31: bought with data vouchers) data left, or null for a line without an allowance. */
export function dataLeftText(s: Pick<Order, 'data_allowance_bytes' | 'data_used_bytes'>): string | null {
  if (s.data_allowance_bytes === null || s.data_allowance_bytes === undefined) return null;
  return t('subscriptions.data.left', {
    left: formatBytes(Math.max(0, s.data_allowance_bytes - s.data_used_bytes)),
    total: formatBytes(s.data_allowance_bytes),
  });
}

/** The period end of a line, and a data line's data left under it. */
function PeriodEnd({ order }: { order: Order }) {
  const data = dataLeftText(order);
  if (!data) return <DateCell value={order.current_period_end} />;
  return (
    <Space direction="vertical" size={0}>
      {order.current_period_end ? (
        <DateCell value={order.current_period_end} />
      ) : (
        <Typography.Text>{t('subscriptions.data.noTimeLimit')}</Typography.Text>
      )}
      <Typography.Text type="secondary" data-testid="data-left">
        {data}
      </Typography.Text>
    </Space>
  );
}

/** The customer's detail page (inside the signed-in layout). */
export const customerDetailPath = (id: string) => `/subscription/${id}`;

/** A line's open invoice (the first one of a pending order, a renewal, an upgrade): paid on its page. */
const openInvoiceOf = (order: Order) => order.invoices.find((i) => i.status === 'unpaid' || i.status === 'overdue');

/** "Pay now" for a line's open invoice: a button (full width on a phone) that opens the invoice page. */
function PayOpenInvoice({ order, block }: { order: Order; block?: boolean }) {
  const navigate = useNavigate();
  const open = openInvoiceOf(order);
  if (!open) return null;
  return (
    <Button
      type="primary"
      block={block}
      href={invoicePath(open.id)}
      onClick={(e) => {
        e.preventDefault();
        navigate(invoicePath(open.id));
      }}
    >
      {t('subscriptions.invoice.payAmount', {
        amount: formatMoney(open.amount_due ?? open.total_amount, open.currency),
      })}
    </Button>
  );
}

/**
 * An order waiting for payment (issue 31: one open order at a time), shown in place of "You have no active
 * plan" (issue 34): the plan ordered, its status, the invoice to pay (amount and due date) as the next step, and
 * the way to cancel it. While it waits there is no "Subscribe" (the server refuses a second order with 409).
 */
function PendingOrder({ order }: { order: Order }) {
  const { narrow } = useViewport();
  const open = openInvoiceOf(order);
  return (
    <Card
      style={{ marginBottom: 16 }}
      data-testid="pending-order"
      title={
        <Flex wrap gap={8} align="center" style={{ whiteSpace: 'normal' }}>
          {t('subscriptions.pending.title')}
          <SubscriptionStatusTag status={order.status} />
        </Flex>
      }
    >
      <Typography.Title level={2} style={{ marginTop: 0, fontSize: 24 }}>
        {order.plan_name}
      </Typography.Title>
      <Typography.Paragraph>{t('subscriptions.pendingOrder', { plan: order.plan_name })}</Typography.Paragraph>
      {open && (
        <Descriptions
          size="small"
          column={1}
          style={{ marginBottom: 12 }}
          items={[
            {
              key: 'number',
              label: t('subscriptions.invoice.number'),
              children: <Link to={invoicePath(open.id)}>{open.number}</Link>,
            },
            {
              key: 'due-amount',
              label: t('subscriptions.invoice.amountDue'),
              children: formatMoney(open.amount_due ?? open.total_amount, open.currency),
            },
            { key: 'due', label: t('subscriptions.invoice.due'), children: formatDay(open.due_date) },
            {
              key: 'status',
              label: t('subscriptions.invoice.status'),
              children: <InvoiceStatusTag status={open.status} />,
            },
          ]}
        />
      )}
      <Flex wrap vertical={narrow} gap={8}>
        <PayOpenInvoice order={order} block={narrow} />
        <SubscriptionActions subscription={order} block={narrow} />
      </Flex>
    </Card>
  );
}

function ActivePlanCard({ onSubscribe, pending }: { onSubscribe?: () => void; pending: boolean }) {
  const { activePlan, none, isLoading, failed } = useActivePlan();
  if (isLoading)
    return (
      <Card style={{ marginBottom: 16 }}>
        <Spin />
      </Card>
    );
  if (failed) {
    return (
      <Alert
        type="error"
        showIcon
        style={{ marginBottom: 16 }}
        data-testid="active-plan"
        message={t('errors.subscriptions.activePlan')}
      />
    );
  }
  // An order waiting for payment is what the customer has: it shows instead (PendingOrder), not "no active plan".
  if ((none || !activePlan) && pending) return null;
  if (none || !activePlan) {
    return (
      <Card style={{ marginBottom: 16 }} data-testid="active-plan">
        <Result
          status="info"
          title={t('subscriptions.activePlan.none')}
          subTitle={t('subscriptions.activePlan.noneHint')}
          extra={
            onSubscribe && (
              <Button type="primary" onClick={onSubscribe}>
                {t('subscriptions.subscribe.button')}
              </Button>
            )
          }
        />
      </Card>
    );
  }
  const { subscription, plan } = activePlan;
  const dataLeft = dataLeftText(subscription);
  return (
    <Card
      data-testid="active-plan"
      style={{ marginBottom: 16 }}
      title={
        <Flex wrap gap={8} align="center" style={{ whiteSpace: 'normal' }}>
          {t('subscriptions.activePlan.title')}
          <SubscriptionStatusTag status={subscription.status} />
        </Flex>
      }
      extra={<Link to={customerDetailPath(subscription.id)}>{t('subscriptions.actions.view')}</Link>}
    >
      <Typography.Title level={2} style={{ marginTop: 0, fontSize: 24 }}>
        {plan.name}
      </Typography.Title>
      <PlanSummary plan={plan} />
      {subscription.current_period_end && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('subscriptions.activePlan.renewsOn', { date: formatDay(subscription.current_period_end) })}
        </Typography.Paragraph>
      )}
      {dataLeft && (
        <Typography.Paragraph strong style={{ marginTop: 8, marginBottom: 0 }} data-testid="active-data-left">
          {dataLeft}
        </Typography.Paragraph>
      )}
    </Card>
  );
}

/** A line as a card (phones): plan, status, period end or data left, location, an open invoice and the actions. */
function SubscriptionCard({ order }: { order: Order }) {
  const open = openInvoiceOf(order);
  return (
    <PhoneCard
      testId="subscription-card"
      title={<Link to={customerDetailPath(order.id)}>{order.plan_name}</Link>}
      status={<SubscriptionStatusTag status={order.status} />}
      facts={[
        { key: 'end', label: t('subscriptions.fields.periodEnd'), value: <PeriodEnd order={order} /> },
        ...(order.location
          ? [{ key: 'location', label: t('subscriptions.fields.location'), value: order.location }]
          : []),
        ...(open
          ? [
              {
                key: 'due-amount',
                label: t('subscriptions.invoice.amountDue'),
                value: formatMoney(open.amount_due ?? open.total_amount, open.currency),
              },
              { key: 'due', label: t('subscriptions.invoice.due'), value: formatDay(open.due_date) },
            ]
          : []),
      ]}
      actions={
        <Flex vertical gap={8}>
          <PayOpenInvoice order={order} block />
          <SubscriptionActions subscription={order} block />
        </Flex>
      }
    />
  );
}

function MySubscriptions({ orders }: { orders: Order[] }) {
  // Cards up to a tablet's width: at 768 px the table's actions (Change plan, Renew, Cancel) ran past the right edge.
  const { shows } = useViewport();
  if (shows < 3) {
    return (
      <PhoneCardList
        testId="my-subscriptions"
        items={orders}
        rowKey={(o) => o.id}
        empty={t('subscriptions.mine.empty')}
        render={(o) => <SubscriptionCard order={o} />}
      />
    );
  }
  return (
    <ResponsiveTable<Order>
      rowKey="id"
      size="middle"
      pagination={false}
      dataSource={orders}
      locale={{ emptyText: t('subscriptions.mine.empty') }}
      data-testid="my-subscriptions"
      columns={[
        {
          key: 'plan',
          title: t('subscriptions.fields.plan'),
          dataIndex: 'plan_name',
          priority: 1,
          render: (name: string, o) => <Link to={customerDetailPath(o.id)}>{name}</Link>,
        },
        {
          key: 'status',
          title: t('subscriptions.fields.status'),
          dataIndex: 'status',
          priority: 1,
          render: (_: unknown, o) => <SubscriptionStatusTag status={o.status} />,
        },
        {
          key: 'end',
          title: t('subscriptions.fields.periodEnd'),
          dataIndex: 'current_period_end',
          render: (_: unknown, o) => <PeriodEnd order={o} />,
        },
        {
          key: 'location',
          title: t('subscriptions.fields.location'),
          dataIndex: 'location',
          priority: 3,
          render: (v: string | null) => v ?? '—',
        },
        {
          key: 'actions',
          title: t('resource.actions'),
          priority: 1,
          render: (_: unknown, o) => {
            // An open invoice (the first one of a pending subscription, a renewal, an upgrade) is paid on its page.
            const open = openInvoiceOf(o);
            return (
              <Space wrap size="small">
                {open && <Link to={invoicePath(open.id)}>{t('subscriptions.invoice.pay')}</Link>}
                <SubscriptionActions subscription={o} size="small" />
              </Space>
            );
          },
        },
      ]}
    />
  );
}

export function OrderHistory({ orders }: { orders: Order[] }) {
  if (orders.length === 0) return <Empty description={t('subscriptions.orders.empty')} />;
  return (
    <Collapse
      data-testid="order-history"
      defaultActiveKey={orders.slice(0, 1).map((o) => o.id)}
      items={orders.map((o) => ({
        key: o.id,
        label: (
          <Space wrap>
            <Typography.Text strong>{o.plan_name}</Typography.Text>
            <SubscriptionStatusTag status={o.status} />
            <Typography.Text type="secondary">
              <DateCell value={o.created_at} />
            </Typography.Text>
          </Space>
        ),
        children: (
          <>
            <Typography.Title level={3} style={{ fontSize: 16 }}>
              {t('subscriptions.orders.invoices')}
            </Typography.Title>
            <InvoicesTable invoices={o.invoices} />
            <Typography.Title level={3} style={{ marginTop: 16, fontSize: 16 }}>
              {t('subscriptions.orders.payments')}
            </Typography.Title>
            <PaymentsTable payments={o.payments} />
          </>
        ),
      }))}
    />
  );
}

/** /dashboard/subscriptions for a customer: the active plan, subscribing, their subscriptions and order history. */
export function CustomerSubscriptions() {
  // "Subscribe" on the public plans page (and registration after it) arrives with ?plan=<id>: open the dialog
  // on that plan.
  const [params] = useSearchParams();
  const wanted = params.get('plan');
  const initialPlanId = wanted && /^[0-9a-f-]{36}$/i.test(wanted) ? wanted : undefined;
  const [subscribing, setSubscribing] = useState(!!initialPlanId);
  const { orders, isLoading, failed } = useOrders();
  const pending = orders.find((o) => o.status === 'pending');
  const subscribe = pending ? undefined : () => setSubscribing(true);
  return (
    <div>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <PageTitle>{t('subscriptions.title')}</PageTitle>
        {subscribe && (
          <Button type="primary" onClick={subscribe}>
            {t('subscriptions.subscribe.title')}
          </Button>
        )}
      </Space>
      {pending && <PendingOrder order={pending} />}
      <ActivePlanCard onSubscribe={subscribe} pending={!!pending} />
      <Card>
        {failed && (
          <Alert type="error" showIcon message={t('errors.subscriptions.orders')} style={{ marginBottom: 16 }} />
        )}
        <Tabs
          className="tabs-wrap-on-phone"
          items={[
            {
              key: 'mine',
              label: t('subscriptions.tabs.mine'),
              children: isLoading ? <Spin /> : <MySubscriptions orders={orders} />,
            },
            {
              key: 'orders',
              label: t('subscriptions.tabs.orders'),
              children: isLoading ? <Spin /> : <OrderHistory orders={orders} />,
            },
            {
              key: 'invoices',
              label: t('subscriptions.tabs.invoices'),
              children: <MyInvoices />,
            },
          ]}
        />
      </Card>
      <div style={{ marginTop: 16 }}>
        <RedeemVoucherCard planNameOf={(id) => orders.find((o) => o.id === id)?.plan_name} />
      </div>
      {/* A card of its own, not a fourth tab: on a phone a fourth tab folds into antd's "more" button. */}
      <div style={{ marginTop: 16 }}>
        <CreditPanel title={t('credit.myTitle')} />
      </div>
      <SubscribeModal
        open={subscribing && !pending}
        initialPlanId={initialPlanId}
        onClose={() => setSubscribing(false)}
      />
    </div>
  );
}
