/**
 * Staff's usage page (issue 34): the network this month (download, upload, customers with a line, online now)
 * and the customers by what they used, the heaviest first, searchable and paged (GET /usage/customers); picking
 * one shows that customer's usage, line by line, as the customer sees it. Not the customer's "No subscription yet".
 */
import { Alert, Button, Card, Col, Input, Row, Space, Statistic, Table, Tag, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useCustom } from '@refinedev/core';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { UsageCustomer, UsageCustomers } from '../../contract/schemas/usage';
import { PhoneCard, PhoneCardList } from '../../src/components/PhoneCards';
import { useViewport } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { formatUsageBytes } from './format';
import { UsageView } from './UsageView';

const PAGE_SIZE = 20;

function useCustomersUsage(page: number, search: string) {
  const { query, result } = useCustom<UsageCustomers>({
    url: '/usage/customers',
    method: 'get',
    config: { query: { page, limit: PAGE_SIZE, ...(search ? { search } : {}) } },
    meta: { fallbackMessage: t('errors.usage.customers') },
    errorNotification: false,
    queryOptions: { retry: false },
  });
  const answer = result.data as UsageCustomers | undefined;
  // Until the answer is in, Refine's result holds no page of customers.
  const data = !query.isError && answer && Array.isArray(answer.items) && answer.pagination ? answer : undefined;
  return {
    data,
    isLoading: query.isLoading,
    error: query.isError ? query.error?.message || t('errors.usage.customers') : null,
  };
}

function CustomerUsage({ id, name, onBack }: { id: string; name: string | null; onBack: () => void }) {
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="staff-customer-usage">
      <Button icon={<ArrowLeftOutlined className="mirror-rtl" />} onClick={onBack} style={{ alignSelf: 'flex-start' }}>
        {t('usage.staff.back')}
      </Button>
      {name && (
        <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }}>
          {t('usage.staff.of', { name })}
        </Typography.Title>
      )}
      <UsageView key={id} userId={id} />
    </Space>
  );
}

export function StaffUsage() {
  const { narrow } = useViewport();
  const [params, setParams] = useSearchParams();
  const customer = params.get('customer');
  const [names, setNames] = useState<Record<string, string>>({});
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const { data, isLoading, error } = useCustomersUsage(page, search);

  const open = (c: UsageCustomer) => {
    setNames((n) => ({ ...n, [c.user_id]: c.name }));
    setParams({ customer: c.user_id });
  };
  if (customer && /^[0-9a-f-]{36}$/i.test(customer)) {
    return (
      <CustomerUsage
        id={customer}
        name={names[customer] ?? data?.items.find((i) => i.user_id === customer)?.name ?? null}
        onBack={() => setParams({})}
      />
    );
  }

  const totals = data?.totals;
  const showButton = (c: UsageCustomer) => (
    <Button block={narrow} onClick={() => open(c)} aria-label={`${t('usage.staff.show')}: ${c.name}`}>
      {t('usage.staff.show')}
    </Button>
  );
  const pagination = {
    current: page,
    pageSize: PAGE_SIZE,
    total: data?.pagination.total ?? 0,
    onChange: setPage,
    showSizeChanger: false,
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="staff-usage">
      {error && <Alert type="error" showIcon message={error} />}
      <Card
        title={totals && data ? t('usage.staff.month', { start: data.period.start }) : t('usage.title')}
        loading={isLoading && !data}
        data-testid="staff-usage-totals"
      >
        {totals && (
          <Row gutter={[16, 16]}>
            <Col xs={12} md={6}>
              <Statistic title={t('usage.download')} value={formatUsageBytes(totals.download)} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title={t('usage.upload')} value={formatUsageBytes(totals.upload)} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title={t('usage.staff.customers')} value={totals.customers} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title={t('usage.staff.online')} value={totals.online} />
            </Col>
          </Row>
        )}
      </Card>
      <Card title={t('usage.staff.list')}>
        <Input.Search
          allowClear
          placeholder={t('usage.staff.search')}
          aria-label={t('usage.staff.search')}
          style={{ maxWidth: 360, marginBottom: 16 }}
          onSearch={(v) => {
            setSearch(v.trim());
            setPage(1);
          }}
        />
        {narrow ? (
          <PhoneCardList<UsageCustomer>
            testId="usage-customers"
            items={data?.items ?? []}
            rowKey={(c) => c.user_id}
            loading={isLoading}
            empty={t('usage.staff.empty')}
            pagination={pagination}
            render={(c) => (
              <PhoneCard
                testId="usage-customer-card"
                title={c.name}
                status={c.online > 0 ? <Tag color="green">{t('usage.staff.onlineYes')}</Tag> : undefined}
                facts={[
                  {
                    key: 'email',
                    label: t('usage.staff.email'),
                    value: <span style={{ overflowWrap: 'anywhere' }}>{c.email}</span>,
                  },
                  { key: 'total', label: t('usage.total'), value: formatUsageBytes(c.total) },
                  { key: 'lines', label: t('usage.staff.lines'), value: c.lines },
                ]}
                actions={showButton(c)}
              />
            )}
          />
        ) : (
          <Table<UsageCustomer>
            data-testid="usage-customers"
            rowKey="user_id"
            size="middle"
            loading={isLoading}
            dataSource={data?.items ?? []}
            locale={{ emptyText: t('usage.staff.empty') }}
            pagination={pagination}
            columns={[
              {
                key: 'customer',
                title: t('usage.staff.customer'),
                render: (_, c) => (
                  <span>
                    {c.name}
                    <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                      {c.email}
                    </Typography.Text>
                  </span>
                ),
              },
              { key: 'lines', title: t('usage.staff.lines'), dataIndex: 'lines', align: 'right' },
              {
                key: 'online',
                title: t('usage.staff.online'),
                render: (_, c) => (c.online > 0 ? <Tag color="green">{t('usage.staff.onlineYes')}</Tag> : '—'),
              },
              {
                key: 'download',
                title: t('usage.download'),
                align: 'right',
                render: (_, c) => formatUsageBytes(c.download),
              },
              { key: 'upload', title: t('usage.upload'), align: 'right', render: (_, c) => formatUsageBytes(c.upload) },
              { key: 'total', title: t('usage.total'), align: 'right', render: (_, c) => formatUsageBytes(c.total) },
              { key: 'actions', title: t('resource.actions'), render: (_, c) => showButton(c) },
            ]}
          />
        )}
      </Card>
    </Space>
  );
}
