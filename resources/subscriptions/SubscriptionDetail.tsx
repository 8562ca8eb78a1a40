import { Alert, Card, Descriptions, Flex, Space, Spin, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useList, useOne } from '@refinedev/core';
import { Link, useNavigate, useParams } from 'react-router';
import type { InvoiceListItem } from '../../contract/schemas/invoice';
import type { Subscription } from '../../contract/schemas/subscription';
import { DateCell, useViewport } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { retryUnlessClientError, useOrders } from './hooks';
import { seesStaffView } from './lifecycle';
import { SubscriptionActions, useRole } from './SubscriptionActions';
import { InvoicesTable, PaymentsTable, SubscriptionStatusTag } from './ui';
import { ServiceAccessCard } from '../installations/ServiceAccessCard';
import { AutopayCard } from './AutopayCard';
import { AddressCard } from './AddressCard';
import { AuditHistory } from '../audit/AuditHistory';
import { HeaderTitle, SectionHeading } from '../../src/components/Text';

const LIST_PATH = '/dashboard/subscriptions';

/** Staff read a subscription's invoices from the invoice list of its customer (GET /payments/invoices?user_id). */
function StaffInvoices({ subscription }: { subscription: Subscription }) {
  const { result, query } = useList<InvoiceListItem>({
    resource: 'invoices',
    filters: [{ field: 'user_id', operator: 'eq', value: subscription.user_id }],
    pagination: { currentPage: 1, pageSize: 100, mode: 'server' },
  });
  if (query.isLoading) return <Spin />;
  return <InvoicesTable invoices={(result.data ?? []).filter((i) => i.subscription_id === subscription.id)} />;
}

/** The owner reads them from their order history, which also carries the payments. */
function OwnInvoices({ subscription }: { subscription: Subscription }) {
  const { orders, isLoading } = useOrders();
  if (isLoading) return <Spin />;
  const order = orders.find((o) => o.id === subscription.id);
  return (
    <>
      <InvoicesTable invoices={order?.invoices ?? []} />
      <SectionHeading level={3} style={{ marginTop: 16, marginBottom: 8 }}>
        {t('subscriptions.orders.payments')}
      </SectionHeading>
      <PaymentsTable payments={order?.payments ?? []} />
    </>
  );
}

/**
 * One subscription: /subscription/:id for its owner, /dashboard/subscription/:id for staff (either route works
 * for both; what is offered follows the role). Plan, status, period, location, note, suspension reason, its
 * invoices, and the actions its status and the caller's role allow.
 */
export function SubscriptionDetail() {
  const { id = '' } = useParams();
  const role = useRole();
  const staff = seesStaffView(role);
  const navigate = useNavigate();
  const { narrow } = useViewport();
  const { result, query } = useOne<Subscription>({
    resource: 'subscriptions',
    id,
    queryOptions: { enabled: id !== '', retry: retryUnlessClientError },
  });
  const sub = query.isError ? undefined : (result as Subscription | undefined);

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Link to={LIST_PATH}>
        <ArrowLeftOutlined /> {t('subscriptions.actions.back')}
      </Link>
      {query.isLoading ? (
        <Card>
          <Spin />
        </Card>
      ) : !sub ? (
        <Alert type="error" showIcon message={query.error?.message || t('subscriptions.detail.notFound')} />
      ) : (
        <>
          {/* The actions sit under the title, not beside it: beside it they squeezed the plan's name to nothing on a phone. */}
          <Card
            title={
              <Flex wrap gap={8} align="center" style={{ whiteSpace: 'normal' }}>
                <HeaderTitle>{sub.plan_name}</HeaderTitle>
                <SubscriptionStatusTag status={sub.status} />
              </Flex>
            }
          >
            <div style={{ marginBottom: 16 }}>
              <SubscriptionActions subscription={sub} block={narrow} onDeleted={() => navigate(LIST_PATH)} />
            </div>
            <Descriptions bordered column={1} size="small" data-testid="subscription-details">
              {staff && (
                <Descriptions.Item label={t('subscriptions.fields.customer')}>
                  {sub.user_name} <Typography.Text type="secondary">({sub.user_email})</Typography.Text>
                </Descriptions.Item>
              )}
              <Descriptions.Item label={t('subscriptions.fields.plan')}>{sub.plan_name}</Descriptions.Item>
              <Descriptions.Item label={t('subscriptions.fields.status')}>
                <SubscriptionStatusTag status={sub.status} />
              </Descriptions.Item>
              <Descriptions.Item label={t('subscriptions.fields.periodStart')}>
                <DateCell value={sub.current_period_start} />
              </Descriptions.Item>
              <Descriptions.Item label={t('subscriptions.fields.periodEnd')}>
                <DateCell value={sub.current_period_end} />
              </Descriptions.Item>
              <Descriptions.Item label={t('subscriptions.fields.location')}>{sub.location ?? '—'}</Descriptions.Item>
              <Descriptions.Item label={t('subscriptions.fields.note')}>
                <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
                  {sub.note ?? '—'}
                </Typography.Paragraph>
              </Descriptions.Item>
              <Descriptions.Item label={t('subscriptions.fields.suspensionReason')}>
                {sub.suspension_reason ?? '—'}
              </Descriptions.Item>
              <Descriptions.Item label={t('subscriptions.fields.createdAt')}>
                <DateCell value={sub.created_at} />
              </Descriptions.Item>
            </Descriptions>
          </Card>
          <AutopayCard subscription={sub} owner={!staff} />
          <ServiceAccessCard subscriptionId={sub.id} role={role} />
          <AddressCard subscriptionId={sub.id} role={role} />
          <Card title={<SectionHeading>{t('subscriptions.detail.invoices')}</SectionHeading>}>
            {staff ? <StaffInvoices subscription={sub} /> : <OwnInvoices subscription={sub} />}
          </Card>
          {/* Rendered for the roles that may read the audit trail only. */}
          <AuditHistory targetType="subscription" targetId={sub.id} variant="card" />
        </>
      )}
    </Space>
  );
}
