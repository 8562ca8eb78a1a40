/**
 * A customer's last messages on every channel (issue 38), on their page for the staff who may read the message
 * log: what was sent, delivered, failed or skipped, and why. GET /messaging/messages?user_id=…
 */
import { Table, Tag, Typography } from 'antd';
import { useCustom } from '@refinedev/core';
import { formatDateTime } from '../../src/components/dates';
import { SectionHeading } from '../../src/components/Text';
import { t } from '../../src/i18n';

interface LogItem {
  id: string;
  channel: string;
  to: string;
  template: string;
  status: string;
  error: string | null;
  created_at: string;
}

const COLORS: Record<string, string> = { delivered: 'green', sent: 'blue', failed: 'red', undelivered: 'orange' };

export function CustomerMessages({ userId }: { userId: string }) {
  const { query, result } = useCustom<{ items: LogItem[] }>({
    url: '/messaging/messages',
    method: 'get',
    config: { query: { user_id: userId, limit: 10 } },
    errorNotification: false,
  });
  const items = query.isSuccess ? (result.data as { items: LogItem[] }).items : [];
  return (
    <section data-testid="user-messages">
      <SectionHeading style={{ marginBottom: 8 }}>{t('messages.title')}</SectionHeading>
      <Table<LogItem>
        size="small"
        rowKey="id"
        pagination={false}
        loading={query.isLoading}
        scroll={{ x: true }}
        dataSource={items}
        columns={[
          { title: t('messages.fields.createdAt'), dataIndex: 'created_at', render: (v: string) => formatDateTime(v) },
          {
            title: t('messages.fields.channel'),
            dataIndex: 'channel',
            render: (v: string) => t(`messaging.channel.${v}`),
          },
          { title: t('messages.fields.template'), dataIndex: 'template' },
          {
            title: t('messages.fields.status'),
            dataIndex: 'status',
            render: (v: string, row) => (
              <>
                <Tag color={COLORS[v] ?? 'default'}>{t(`messages.status.${v}`)}</Tag>
                {row.error && <Typography.Text type="secondary">{row.error}</Typography.Text>}
              </>
            ),
          },
        ]}
      />
    </section>
  );
}
