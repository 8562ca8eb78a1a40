import { Alert, Card, Descriptions, Space, Spin, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { EditButton } from '@refinedev/antd';
import { useOne } from '@refinedev/core';
import { Link, useParams } from 'react-router';
import type { IpNetwork } from '../../contract/schemas/ipam';
import { retryUnlessClientError } from '../../src/components/retry';
import { t } from '../../src/i18n';
import { useRole } from '../subscriptions/SubscriptionActions';
import { AddressMap } from './AddressMap';
import { NETWORKS } from './api';
import { ipNetworksResource as decl } from './resource';
import { PurposeTag, UsageBar, canManageNetworks } from './ui';
import { PageTitle } from '../../src/components/Text';

/** A network: its settings and usage, and its address map. */
export function NetworkShow() {
  const { id = '' } = useParams();
  const manage = canManageNetworks(useRole());
  const { result, query } = useOne<IpNetwork>({
    resource: decl.name,
    id,
    meta: { endpoint: NETWORKS, fallbackMessage: t('errors.ipam.one') },
    errorNotification: false,
    queryOptions: { enabled: !!id, retry: retryUnlessClientError },
  });
  const network = query.isError ? undefined : (result as IpNetwork | undefined);
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Link to="/dashboard/nas/ip-networks">
        <ArrowLeftOutlined className="mirror-rtl" /> {t(decl.titleKey)}
      </Link>
      {query.isLoading ? (
        <Card>
          <Spin />
        </Card>
      ) : !network ? (
        <Alert type="error" showIcon message={query.error?.message || t('errors.ipam.one')} />
      ) : (
        <>
          <Card
            title={<PageTitle>{network.cidr}</PageTitle>}
            extra={manage ? <EditButton resource={decl.name} recordItemId={network.id} /> : undefined}
          >
            <Descriptions bordered size="small" column={1} data-testid="network-details">
              <Descriptions.Item label={t('ipam.fields.name')}>{network.name}</Descriptions.Item>
              <Descriptions.Item label={t('ipam.fields.purpose')}>
                <Space wrap>
                  <PurposeTag purpose={network.purpose} />
                  {network.pool_name && <Typography.Text code>{network.pool_name}</Typography.Text>}
                </Space>
              </Descriptions.Item>
              <Descriptions.Item label={t('ipam.fields.usage')}>
                <UsageBar network={network} />
              </Descriptions.Item>
              {network.purpose === 'ipv6_delegation' && (
                <Descriptions.Item label={t('ipam.fields.delegationLength')}>
                  /{network.delegation_prefix_length ?? 56}
                </Descriptions.Item>
              )}
              <Descriptions.Item label={t('ipam.fields.gateway')}>{network.gateway ?? '—'}</Descriptions.Item>
              <Descriptions.Item label={t('ipam.fields.dns')}>
                {network.dns_servers.join(', ') || '—'}
              </Descriptions.Item>
              <Descriptions.Item label={t('ipam.fields.nasSite')}>
                {[network.device_name, network.site].filter(Boolean).join(' · ') || '—'}
              </Descriptions.Item>
              <Descriptions.Item label={t('ipam.fields.reserved')}>
                {network.reserved_ranges.length ? (
                  <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                    {network.reserved_ranges.map((r) => (
                      <li key={`${r.from}-${r.to}`}>
                        {r.from} – {r.to}
                        {r.note ? ` (${r.note})` : ''}
                      </li>
                    ))}
                  </ul>
                ) : (
                  '—'
                )}
              </Descriptions.Item>
              <Descriptions.Item label={t('ipam.fields.quarantine')}>
                {network.quarantine_days} {t('ipam.unit.days')}
              </Descriptions.Item>
              {network.notes && (
                <Descriptions.Item label={t('ipam.fields.notes')}>
                  <span style={{ whiteSpace: 'pre-wrap' }}>{network.notes}</span>
                </Descriptions.Item>
              )}
            </Descriptions>
          </Card>
          <AddressMap network={network} />
        </>
      )}
    </Space>
  );
}
