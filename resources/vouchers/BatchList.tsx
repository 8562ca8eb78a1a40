import { Space, Tag, Typography } from 'antd';
import { List, ShowButton, useTable } from '@refinedev/antd';
import { useNavigation } from '@refinedev/core';
import type { VoucherBatch } from '../../contract/schemas/vouchers';
import {
  DateCell,
  MoneyCell,
  ResponsiveTable,
  actionsColumn,
  type ResponsiveColumn,
} from '../../src/components/resource';
import { t } from '../../src/i18n';
import { BATCHES, termsLabel } from './api';
import { vouchersResource as decl } from './resource';
import { StateCounts } from './ui';
import { HeaderTitle } from '../../src/components/Text';

/** The voucher batches, newest first (GET /vouchers/batches, server paged): plan, terms, count, states, price. */
export function BatchList() {
  const { show } = useNavigation();
  const { tableProps } = useTable<VoucherBatch>({
    resource: decl.name,
    meta: { endpoint: BATCHES, fallbackMessage: t('errors.vouchers.list') },
    syncWithLocation: true,
    pagination: { mode: 'server', pageSize: 10 },
    sorters: { mode: 'off' },
    filters: { mode: 'off' },
  });
  const columns: ResponsiveColumn<VoucherBatch>[] = [
    {
      key: 'plan',
      title: t('vouchers.fields.plan'),
      dataIndex: 'plan_name',
      priority: 1,
      render: (name: string, b) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong>{name}</Typography.Text>
          <Typography.Text type="secondary">{termsLabel(b)}</Typography.Text>
          {b.revoked_at && <Tag color="red">{t('vouchers.state.revoked')}</Tag>}
          {!b.revoked_at && b.status === 'generating' && (
            <Tag
              color="processing"
              data-testid="batch-generating"
            >{`${t('vouchers.status.generating')} ${Math.floor((100 * b.generated) / Math.max(1, b.count))}%`}</Tag>
          )}
        </Space>
      ),
    },
    { key: 'count', title: t('vouchers.fields.count'), dataIndex: 'count', priority: 3, align: 'right' },
    {
      key: 'states',
      title: t('vouchers.fields.states'),
      dataIndex: 'states',
      priority: 1,
      render: (states: Record<string, number>) => <StateCounts states={states} />,
    },
    {
      key: 'price',
      title: t('vouchers.fields.price'),
      dataIndex: 'price',
      priority: 3,
      render: (p: number, b) => <MoneyCell minor={p} currency={b.currency} />,
    },
    {
      key: 'created',
      title: t('vouchers.fields.created'),
      dataIndex: 'created_at',
      priority: 3,
      render: (v: string) => <DateCell value={v} />,
    },
    actionsColumn((b) => (
      <ShowButton
        hideText
        size="small"
        recordItemId={b.id}
        resource={decl.name}
        aria-label={t('resource.showOne', { name: t(decl.singularKey) })}
      />
    )),
  ];
  return (
    <List
      title={<HeaderTitle>{t(decl.titleKey)}</HeaderTitle>}
      resource={decl.name}
      createButtonProps={{ children: t('vouchers.create') }}
    >
      <ResponsiveTable<VoucherBatch>
        {...tableProps}
        rowKey="id"
        size="middle"
        columns={columns}
        onOpen={(b) => show(decl.name, b.id)}
        locale={{ emptyText: t('vouchers.empty') }}
        pagination={tableProps.pagination ? { ...tableProps.pagination, showSizeChanger: true } : false}
      />
    </List>
  );
}
