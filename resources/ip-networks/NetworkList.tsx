import { Alert, Space, Typography } from 'antd';
import { EditButton, List, ShowButton, useTable } from '@refinedev/antd';
import { Link } from 'react-router';
import type { IpNetwork } from '../../contract/schemas/ipam';
import { ConfirmDelete } from '../../src/components/resource/ConfirmDelete';
import { ResponsiveTable, actionsColumn, type ResponsiveColumn } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { useRole } from '../subscriptions/SubscriptionActions';
import { NETWORKS } from './api';
import { ipNetworksResource as decl } from './resource';
import { PurposeTag, UsageBar, canManageNetworks } from './ui';
import { HeaderTitle } from '../../src/components/Text';

const showPath = (id: string) => `/dashboard/nas/ip-networks/show/${encodeURIComponent(id)}`;

/**
 * The networks, IPv4 by address then IPv6 (GET /ipam/networks, server paged): CIDR and name, purpose, NAS or
 * site, gateway and the used/free bar. Admin and technicians add, edit and delete; support reads.
 */
export function NetworkList() {
  const role = useRole();
  const manage = canManageNetworks(role);
  const { tableProps } = useTable<IpNetwork>({
    resource: decl.name,
    meta: { endpoint: NETWORKS, fallbackMessage: t('errors.ipam.list') },
    syncWithLocation: true,
    pagination: { mode: 'server', pageSize: 20 },
    sorters: { mode: 'off' },
    filters: { mode: 'off' },
  });
  const singular = t(decl.singularKey);
  const columns: ResponsiveColumn<IpNetwork>[] = [
    {
      key: 'cidr',
      title: t('ipam.fields.cidr'),
      dataIndex: 'cidr',
      priority: 1,
      render: (cidr: string, n) => (
        <Space direction="vertical" size={0}>
          <Link to={showPath(n.id)}>
            <strong>{cidr}</strong>
          </Link>
          <Typography.Text type="secondary">{n.name}</Typography.Text>
        </Space>
      ),
    },
    {
      key: 'purpose',
      title: t('ipam.fields.purpose'),
      dataIndex: 'purpose',
      priority: 2,
      render: (p: IpNetwork['purpose'], n) => (
        <Space direction="vertical" size={0}>
          <PurposeTag purpose={p} />
          {n.pool_name && <Typography.Text code>{n.pool_name}</Typography.Text>}
        </Space>
      ),
    },
    {
      key: 'nas',
      title: t('ipam.fields.nasSite'),
      dataIndex: 'device_name',
      priority: 3,
      render: (name: string | null, n) => [name, n.site].filter(Boolean).join(' · ') || '—',
    },
    {
      key: 'gateway',
      title: t('ipam.fields.gateway'),
      dataIndex: 'gateway',
      priority: 3,
      render: (g: string | null) => g ?? '—',
    },
    {
      key: 'usage',
      title: t('ipam.fields.usage'),
      dataIndex: 'counts',
      priority: 1,
      render: (_: unknown, n) => <UsageBar network={n} />,
    },
    actionsColumn((n) => (
      <Space size={4}>
        <ShowButton
          hideText
          size="small"
          recordItemId={n.id}
          resource={decl.name}
          aria-label={t('resource.showOne', { name: `${singular} ${n.cidr}` })}
        />
        {manage && (
          <EditButton
            hideText
            size="small"
            recordItemId={n.id}
            resource={decl.name}
            aria-label={t('resource.editOne', { name: `${singular} ${n.cidr}` })}
          />
        )}
        {manage && (
          <ConfirmDelete
            resource={decl.name}
            id={n.id}
            meta={{ endpoint: NETWORKS }}
            label={t('resource.deleteOne', { name: `${singular} ${n.cidr}` })}
            successMessage={t('ipam.toast.deleted')}
          />
        )}
      </Space>
    )),
  ];
  return (
    <List
      title={<HeaderTitle>{t(decl.titleKey)}</HeaderTitle>}
      resource={decl.name}
      canCreate={manage}
      createButtonProps={{ children: t('ipam.create') }}
    >
      {!manage && <Alert type="info" showIcon message={t('ipam.readOnly')} style={{ marginBottom: 16 }} />}
      <ResponsiveTable<IpNetwork>
        {...tableProps}
        rowKey="id"
        size="middle"
        columns={columns}
        locale={{ emptyText: t('ipam.empty') }}
        pagination={tableProps.pagination ? { ...tableProps.pagination, showSizeChanger: false } : false}
      />
    </List>
  );
}
