import { Button, Popconfirm, Select, Space } from 'antd';
import { StopOutlined } from '@ant-design/icons';
import { useTable } from '@refinedev/antd';
import { VOUCHER_STATES, type Voucher, type VoucherState } from '../../contract/schemas/vouchers';
import { DateCell, ResponsiveTable, actionsColumn, type ResponsiveColumn } from '../../src/components/resource';
import { useToastedCall } from '../../src/components/toastedCall';
import { useAllowed } from '../../src/components/resource/useAllowed';
import { t } from '../../src/i18n';
import { BATCHES } from './api';
import { vouchersResource as decl } from './resource';
import { VoucherStateTag } from './ui';

const bytes = (n: number) => (n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(2)} GB` : `${(n / 1024 ** 2).toFixed(1)} MB`);

/** Revoke one unused or active voucher (POST /vouchers/:id/revoke), after a confirmation. */
function RevokeVoucher({ voucher }: { voucher: Voucher }) {
  const { run, isPending } = useToastedCall();
  const hint = voucher.code_hint;
  return (
    <Popconfirm
      title={t('vouchers.revokeOneConfirm', { hint })}
      okText={t('vouchers.revoke')}
      okButtonProps={{ danger: true }}
      cancelText={t('resource.cancel')}
      onConfirm={() =>
        run({
          url: `/vouchers/${encodeURIComponent(voucher.id)}/revoke`,
          method: 'post',
          success: t('vouchers.toast.revoked'),
          fallbackKey: 'errors.vouchers.revoke',
        })
      }
    >
      <Button
        size="small"
        danger
        icon={<StopOutlined />}
        loading={isPending}
        aria-label={t('vouchers.revokeOne', { hint })}
      >
        {t('vouchers.revoke')}
      </Button>
    </Popconfirm>
  );
}

/** A batch's vouchers (GET /vouchers/batches/:id/vouchers, server paged), filtered by state. */
export function VouchersTable({ batchId }: { batchId: string }) {
  const { tableProps, filters, setFilters } = useTable<Voucher>({
    resource: decl.name,
    meta: { endpoint: `${BATCHES}/${encodeURIComponent(batchId)}/vouchers`, fallbackMessage: t('errors.vouchers.one') },
    syncWithLocation: false,
    pagination: { mode: 'server', pageSize: 20 },
    sorters: { mode: 'off' },
  });
  const state = filters.find((f) => 'field' in f && f.field === 'state')?.value as VoucherState | undefined;
  // Revoke only for a role the role matrix lets call POST /vouchers/:id/revoke (contract/resource-access.ts).
  const mayRevoke = useAllowed('vouchers', 'revoke');
  const columns: ResponsiveColumn<Voucher>[] = [
    {
      key: 'code',
      title: t('vouchers.fields.code'),
      dataIndex: 'code_hint',
      priority: 1,
      render: (h: string) => <code>…{h}</code>,
    },
    {
      key: 'state',
      title: t('vouchers.fields.state'),
      dataIndex: 'state',
      priority: 1,
      render: (s: VoucherState) => <VoucherStateTag state={s} />,
    },
    {
      key: 'first',
      title: t('vouchers.fields.firstUsed'),
      dataIndex: 'first_used_at',
      priority: 2,
      render: (v: string | null) => <DateCell value={v} />,
    },
    {
      key: 'expires',
      title: t('vouchers.fields.expires'),
      dataIndex: 'expires_at',
      priority: 3,
      render: (v: string | null) => <DateCell value={v} />,
    },
    {
      key: 'used',
      title: t('vouchers.fields.used'),
      dataIndex: 'used_bytes',
      priority: 3,
      render: (n: number) => (n > 0 ? bytes(n) : '—'),
    },
    actionsColumn((v) =>
      mayRevoke && (v.state === 'unused' || v.state === 'active') ? <RevokeVoucher voucher={v} /> : null,
    ),
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Select<VoucherState | 'all'>
        value={state ?? 'all'}
        aria-label={t('vouchers.filter.state')}
        style={{ minWidth: 180 }}
        data-testid="voucher-state-filter"
        onChange={(value) =>
          setFilters([{ field: 'state', operator: 'eq', value: value === 'all' ? undefined : value }], 'replace')
        }
        options={[
          { value: 'all' as const, label: t('vouchers.state.all') },
          ...VOUCHER_STATES.map((s) => ({ value: s, label: t(`vouchers.state.${s}`) })),
        ]}
      />
      <ResponsiveTable<Voucher>
        {...tableProps}
        rowKey="id"
        size="middle"
        columns={columns}
        data-testid="batch-vouchers"
        locale={{ emptyText: t('vouchers.emptyState') }}
        pagination={tableProps.pagination ? { ...tableProps.pagination, showSizeChanger: false } : false}
      />
    </Space>
  );
}
