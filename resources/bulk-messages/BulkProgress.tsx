import { Button, Popconfirm, Progress, Space, Tag, Typography } from 'antd';
import { StopOutlined } from '@ant-design/icons';
import { useTable } from '@refinedev/antd';
import { useOne, type BaseRecord } from '@refinedev/core';
import type { z } from 'zod';
import type { bulkMessageItemSchema, BulkMessage } from '../../contract/schemas/bulk-message';
import { DateCell, ResponsiveTable, type ResponsiveColumn } from '../../src/components/resource';
import { useAllowed } from '../../src/components/resource/useAllowed';
import { useToastedCall } from '../../src/components/toastedCall';
import { t } from '../../src/i18n';

type Item = z.infer<typeof bulkMessageItemSchema>;
const RESOURCE = 'bulk-messages';
/** How often a bulk message being sent is read again. */
const POLL_MS = 2_000;
const active = (status: unknown) => status === 'queued' || status === 'sending';

const MESSAGE_COLORS: Record<string, string> = {
  queued: 'default',
  sending: 'processing',
  sent: 'success',
  delivered: 'success',
  failed: 'error',
  undelivered: 'error',
  skipped: 'warning',
};

/** Stops the sending (POST /bulk-messages/:id/cancel) after a confirmation; customers already reached keep it. */
function CancelBulk({ id }: { id: string }) {
  const { run, isPending } = useToastedCall();
  return (
    <Popconfirm
      title={t('bulkMessages.cancelConfirm')}
      okText={t('bulkMessages.cancel')}
      okButtonProps={{ danger: true }}
      cancelText={t('resource.cancel')}
      onConfirm={() =>
        run({
          url: `/${RESOURCE}/${encodeURIComponent(id)}/cancel`,
          method: 'post',
          success: t('bulkMessages.toast.cancelled'),
          fallbackKey: 'bulkMessages.errors.cancel',
        })
      }
    >
      <Button danger icon={<StopOutlined />} loading={isPending}>
        {t('bulkMessages.cancel')}
      </Button>
    </Popconfirm>
  );
}

/** Under a bulk message's fields: its progress (read again while it is sent), cancel, and its messages. */
export function BulkProgress({ record }: { record: BaseRecord }) {
  const id = String(record.id);
  // The show page's own query (same resource, id and meta as the declaration's): polling it refreshes the fields too.
  const { result } = useOne<BulkMessage>({
    resource: RESOURCE,
    id,
    meta: { fallbackMessage: t('bulkMessages.errors.list') },
    queryOptions: {
      refetchInterval: (q) =>
        active((q.state.data as { data?: BulkMessage } | undefined)?.data?.status ?? record.status) ? POLL_MS : false,
    },
  });
  const bulk = (result as BulkMessage | undefined) ?? (record as BulkMessage);
  const mayCancel = useAllowed(RESOURCE, 'cancel');
  const done = bulk.sent + bulk.skipped + bulk.failed;
  const { tableProps } = useTable<Item>({
    resource: RESOURCE,
    meta: {
      endpoint: `${RESOURCE}/${encodeURIComponent(id)}/messages`,
      fallbackMessage: t('bulkMessages.errors.list'),
    },
    syncWithLocation: false,
    pagination: { mode: 'server', pageSize: 20 },
    sorters: { mode: 'off' },
    queryOptions: { refetchInterval: active(bulk.status) ? POLL_MS : false },
  });
  const columns: ResponsiveColumn<Item>[] = [
    { key: 'customer', title: t('bulkMessages.message.customer'), dataIndex: 'user_name', priority: 1 },
    {
      key: 'channel',
      title: t('bulkMessages.fields.channels'),
      dataIndex: 'channel',
      priority: 2,
      render: (c: string) => t(`bulkMessages.channel.${c}`),
    },
    { key: 'to', title: t('bulkMessages.message.to'), dataIndex: 'to', priority: 3 },
    {
      key: 'status',
      title: t('bulkMessages.fields.status'),
      dataIndex: 'status',
      priority: 1,
      render: (s: string) => <Tag color={MESSAGE_COLORS[s]}>{t(`bulkMessages.messageStatus.${s}`)}</Tag>,
    },
    { key: 'error', title: t('bulkMessages.message.error'), dataIndex: 'error', priority: 3 },
    {
      key: 'at',
      title: t('bulkMessages.fields.createdAt'),
      dataIndex: 'created_at',
      priority: 3,
      render: (v: string) => <DateCell value={v} />,
    },
  ];
  return (
    <Space direction="vertical" size={16} style={{ width: '100%', marginTop: 16 }}>
      <div data-testid="bulk-progress">
        <Progress
          percent={bulk.recipients ? Math.min(100, Math.round((done / bulk.recipients) * 100)) : 100}
          status={bulk.status === 'cancelled' ? 'exception' : active(bulk.status) ? 'active' : 'success'}
          aria-label={t('bulkMessages.progress', { done, total: bulk.recipients })}
        />
        <Typography.Text>{t('bulkMessages.progress', { done, total: bulk.recipients })}</Typography.Text>
      </div>
      {mayCancel && active(bulk.status) && <CancelBulk id={id} />}
      <Typography.Title level={2} style={{ fontSize: 18, margin: 0 }}>
        {t('bulkMessages.messages')}
      </Typography.Title>
      <ResponsiveTable<Item> {...tableProps} rowKey="id" size="middle" columns={columns} data-testid="bulk-items" />
    </Space>
  );
}
