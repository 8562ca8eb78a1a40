/**
 * "Who had 203.0.113.7 at 2026-11-20 14:03?" (issue 22): the accounting sessions with that address open at the
 * time (customer, subscription, login, NAS, start and stop), and the address's latest sessions. The search is
 * kept in the address bar (?address=&at=), so an answer can be linked and reloaded.
 */
import { Alert, Button, Card, DatePicker, Form, Input, Space, Typography } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useCustom } from '@refinedev/core';
import dayjs, { type Dayjs } from 'dayjs';
import { Link, useSearchParams } from 'react-router';
import { canonicalIp } from '../../contract/ip';
import type { z } from 'zod';
import type { ipHistoryEntrySchema } from '../../contract/schemas/ipam';
import { DateCell, ResponsiveTable, useViewport, type ResponsiveColumn } from '../../src/components/resource';
import { retryUnlessClientError } from '../../src/components/retry';
import { t } from '../../src/i18n';
import { formatDateTime } from '../../src/components/dates';
import { PageTitle } from '../../src/components/Text';

type Entry = z.infer<typeof ipHistoryEntrySchema>;
const AT_FORMAT = 'YYYY-MM-DD HH:mm';

function useHistory(address: string | null, at: string | null, limit: number) {
  const { query, result } = useCustom<{ items: Entry[] }>({
    url: '/ipam/history',
    method: 'get',
    config: { query: { address, limit, ...(at ? { at } : {}) } },
    meta: { fallbackMessage: t('ipam.history.failed') },
    errorNotification: false,
    queryOptions: { enabled: !!address, retry: retryUnlessClientError },
  });
  return {
    items: query.isError ? undefined : (result.data as { items: Entry[] } | undefined)?.items,
    isLoading: query.isLoading && !!address,
    error: query.isError ? query.error?.message || t('ipam.history.failed') : null,
  };
}

const columns = (): ResponsiveColumn<Entry>[] => [
  {
    key: 'customer',
    title: t('ipam.history.customer'),
    dataIndex: 'customer_name',
    priority: 1,
    render: (name: string | null, e) => (
      <Space direction="vertical" size={0}>
        {e.user_id ? (
          <Link to={`/dashboard/user/${encodeURIComponent(e.user_id)}`}>{name ?? e.username}</Link>
        ) : (
          <span>{name ?? t('ipam.history.unknownCustomer')}</span>
        )}
        {e.customer_number && <Typography.Text type="secondary">{e.customer_number}</Typography.Text>}
      </Space>
    ),
  },
  {
    key: 'subscription',
    title: t('ipam.history.subscription'),
    dataIndex: 'subscription_id',
    priority: 2,
    render: (id: string | null) =>
      id ? <Link to={`/dashboard/subscription/${encodeURIComponent(id)}`}>{t('ipam.map.openSubscription')}</Link> : '—',
  },
  {
    key: 'login',
    title: t('ipam.history.login'),
    dataIndex: 'username',
    priority: 3,
    render: (u: string) => <Typography.Text code>{u}</Typography.Text>,
  },
  {
    key: 'nas',
    title: t('ipam.history.nas'),
    dataIndex: 'nas_name',
    priority: 2,
    render: (n: string | null, e) => n ?? e.nas_ip,
  },
  {
    key: 'started',
    title: t('ipam.history.started'),
    dataIndex: 'started_at',
    priority: 1,
    render: (v: string) => <DateCell value={v} />,
  },
  {
    key: 'stopped',
    title: t('ipam.history.stopped'),
    dataIndex: 'stopped_at',
    priority: 2,
    render: (v: string | null) => (v ? <DateCell value={v} /> : t('ipam.history.online')),
  },
];

function Sessions({ items, empty, testId }: { items: Entry[]; empty: string; testId: string }) {
  return (
    <ResponsiveTable<Entry>
      data-testid={testId}
      rowKey={(e) => `${e.acct_session_id}-${e.started_at}-${e.nas_ip}`}
      dataSource={items}
      columns={columns()}
      pagination={false}
      size="middle"
      locale={{ emptyText: empty }}
    />
  );
}

export function HistorySearch() {
  const [params, setParams] = useSearchParams();
  const address = params.get('address');
  const atParam = params.get('at');
  const at = atParam && dayjs(atParam).isValid() ? atParam : null;
  const [form] = Form.useForm<{ address: string; at?: Dayjs | null }>();
  const answer = useHistory(address, at, 20);
  const recent = useHistory(address, null, 10);
  const atText = at ? formatDateTime(at) : '';
  const { narrow } = useViewport();

  const search = ({ address: a, at: when }: { address: string; at?: Dayjs | null }) => {
    const next = new URLSearchParams();
    next.set('address', canonicalIp(a) ?? a.trim());
    if (when) next.set('at', when.second(0).millisecond(0).toISOString());
    setParams(next);
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card title={<PageTitle>{t('ipam.history.title')}</PageTitle>}>
        <Typography.Paragraph type="secondary">{t('ipam.history.intro')}</Typography.Paragraph>
        <Form
          form={form}
          layout="vertical"
          onFinish={search}
          initialValues={{ address: address ?? '', at: at ? dayjs(at) : null }}
          style={{ display: 'flex', flexWrap: 'wrap', gap: '0 16px', alignItems: 'flex-start' }}
        >
          <Form.Item
            name="address"
            label={t('ipam.history.address')}
            style={{ flex: '1 1 220px', minWidth: 0 }}
            rules={[
              { required: true, whitespace: true, message: t('ipam.history.addressRequired') },
              {
                validator: async (_r, v: string) => {
                  if (v?.trim() && !canonicalIp(v)) throw new Error(t('ipam.history.addressInvalid'));
                },
              },
            ]}
          >
            <Input placeholder={t('ipam.history.addressPlaceholder')} autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="at"
            label={t('ipam.history.at')}
            extra={t('ipam.history.atHelp')}
            style={{ flex: '1 1 220px', minWidth: 0 }}
          >
            <DatePicker showTime={{ format: 'HH:mm' }} format={AT_FORMAT} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item style={{ flex: '0 0 auto', marginTop: narrow ? 0 : 30 }}>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
              {t('ipam.history.search')}
            </Button>
          </Form.Item>
        </Form>
      </Card>

      {!address ? (
        <Alert type="info" showIcon message={t('ipam.history.start')} />
      ) : (
        <>
          {answer.error && <Alert type="error" showIcon message={answer.error} />}
          {at && !answer.error && (
            <Card
              title={t('ipam.history.answerAt', { at: atText, address })}
              loading={answer.isLoading}
              data-testid="history-answer"
            >
              {answer.items && answer.items.length === 0 ? (
                <Alert type="warning" showIcon message={t('ipam.history.nobodyAt', { address, at: atText })} />
              ) : (
                <Sessions
                  items={answer.items ?? []}
                  empty={t('ipam.history.nobodyAt', { address, at: atText })}
                  testId="history-answer-table"
                />
              )}
            </Card>
          )}
          {!recent.error && (
            <Card title={t('ipam.history.recent', { address })} loading={recent.isLoading} data-testid="history-recent">
              <Sessions
                items={recent.items ?? []}
                empty={t('ipam.history.noSessions', { address })}
                testId="history-recent-table"
              />
            </Card>
          )}
        </>
      )}
    </Space>
  );
}
