/**
 * The subscription's "IP address" card (issue 22): its static address and network, or its pool, and its IPv6
 * prefixes. Admin and technicians assign a static address (a chosen one, or the network's first free one), move
 * it to a pool, set the prefixes or release it all (confirmed); support reads; the customer sees their own
 * address and prefixes.
 */
import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Form, Input, Popconfirm, Radio, Space, Typography } from 'antd';
import { Link } from 'react-router';
import { canCallEndpoint, type Role } from '../../contract/roles';
import type { IpNetwork, SubscriptionAddress } from '../../contract/schemas/ipam';
import { FormSelect } from '../../src/components/FormSelect';
import { useToastedCall } from '../../src/components/toastedCall';
import { t } from '../../src/i18n';
import { addressUrl, useNetworks, useSubscriptionAddress } from '../ip-networks/api';
import { SectionHeading } from '../../src/components/Text';

const networkLink = (id: string, network: IpNetwork | undefined) => (
  <Link to={`/dashboard/nas/ip-networks/show/${encodeURIComponent(id)}`}>
    {network ? `${network.name} (${network.cidr})` : t('ipam.address.network')}
  </Link>
);

type Values = {
  kind: 'static' | 'pool' | 'keep';
  network_id?: string;
  address?: string;
  framed_ipv6_prefix?: string;
  delegated_ipv6_prefix?: string;
  delegated_from_network_id?: string;
};

function AddressForm({
  subscriptionId,
  current,
  onDone,
}: {
  subscriptionId: string;
  current: SubscriptionAddress;
  onDone: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('kind', form) ?? 'static';
  const { networks } = useNetworks(['static', 'pool', 'ipv6_delegation']);
  const delegations = networks
    .filter((n) => n.purpose === 'ipv6_delegation')
    .map((n) => ({ value: n.id, label: `${n.name} (${n.cidr})` }));
  // A refusal (address taken, in quarantine, outside the network…) shows in the form, where it is being fixed.
  const { run, isPending, error } = useToastedCall();
  const options = networks
    .filter((n) => n.purpose === kind)
    .map((n) => ({ value: n.id, label: `${n.name} (${n.cidr}${n.pool_name ? `, ${n.pool_name}` : ''})` }));

  const save = async (v: Values) => {
    const values: Record<string, unknown> = { framed_ipv6_prefix: v.framed_ipv6_prefix?.trim() || null };
    if (v.delegated_from_network_id) values.delegated_from_network_id = v.delegated_from_network_id;
    else values.delegated_ipv6_prefix = v.delegated_ipv6_prefix?.trim() || null;
    if (v.kind !== 'keep') values.network_id = v.network_id;
    if (v.kind === 'static' && v.address?.trim()) values.address = v.address.trim();
    const done = await run({
      url: addressUrl(subscriptionId),
      method: 'put',
      values,
      success: t('ipam.address.saved'),
      fallbackKey: 'ipam.address.failed',
      notifyError: false,
    });
    if (done) onDone();
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      onFinish={save}
      initialValues={{
        kind: current.pool_network_id ? 'pool' : 'static',
        network_id: current.pool_network_id ?? current.network_id ?? undefined,
        address: current.address ?? '',
        framed_ipv6_prefix: current.framed_ipv6_prefix ?? '',
        delegated_ipv6_prefix: current.delegated_ipv6_prefix ?? '',
      }}
      onValuesChange={(changed) => {
        if ('kind' in changed) form.setFieldsValue({ network_id: undefined, address: '' });
      }}
      data-testid="address-form"
    >
      <Form.Item name="kind" label={t('ipam.address.kind')}>
        <Radio.Group
          optionType="button"
          options={[
            { value: 'static', label: t('ipam.address.kindStatic') },
            { value: 'pool', label: t('ipam.address.kindPool') },
            ...(current.address || current.pool_network_id
              ? [{ value: 'keep', label: t('ipam.address.kindKeep') }]
              : []),
          ]}
        />
      </Form.Item>
      {kind !== 'keep' && (
        <Form.Item
          name="network_id"
          label={t(kind === 'pool' ? 'ipam.address.choosePool' : 'ipam.address.chooseNetwork')}
          rules={[{ required: true, message: t('ipam.address.networkRequired') }]}
        >
          <FormSelect
            aria-label={t(kind === 'pool' ? 'ipam.address.choosePool' : 'ipam.address.chooseNetwork')}
            options={options}
          />
        </Form.Item>
      )}
      {kind === 'static' && (
        <Form.Item name="address" label={t('ipam.address.address')} extra={t('ipam.address.addressHelp')}>
          <Input autoComplete="off" placeholder="203.0.113.10" />
        </Form.Item>
      )}
      <Form.Item name="framed_ipv6_prefix" label={t('ipam.address.framed')}>
        <Input autoComplete="off" placeholder="2001:db8:1::/64" />
      </Form.Item>
      <Form.Item name="delegated_ipv6_prefix" label={t('ipam.address.delegated')}>
        <Input autoComplete="off" placeholder="2001:db8:100::/56" />
      </Form.Item>
      {delegations.length > 0 && (
        <Form.Item
          name="delegated_from_network_id"
          label={t('ipam.address.delegateFrom')}
          extra={t('ipam.address.delegateFromHelp')}
        >
          <FormSelect allowClear aria-label={t('ipam.address.delegateFrom')} options={delegations} />
        </Form.Item>
      )}
      {error && (
        <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="address-error" />
      )}
      <Space wrap>
        <Button type="primary" htmlType="submit" loading={isPending}>
          {t('ipam.address.save')}
        </Button>
        <Button onClick={onDone}>{t('ipam.address.cancel')}</Button>
      </Space>
    </Form>
  );
}

/**
 * The customer's own view: the fixed address to give a server or a firewall rule, or that it is dynamic, and
 * the IPv6 prefixes; no networks, pools or buttons. Shown only when something was set.
 */
function OwnAddressCard({ address }: { address: SubscriptionAddress }) {
  if (!address.address && !address.pool_network_id && !address.framed_ipv6_prefix && !address.delegated_ipv6_prefix)
    return null;
  return (
    <Card title={<SectionHeading>{t('ipam.address.title')}</SectionHeading>} data-testid="address-card">
      <Descriptions bordered column={1} size="small" data-testid="address-details">
        <Descriptions.Item label={t('ipam.address.ownIpv4')}>
          {address.address ? (
            <Space direction="vertical" size={0}>
              <Typography.Text copyable code data-testid="static-address">
                {address.address}
              </Typography.Text>
              <Typography.Text type="secondary">{t('ipam.address.ownStaticHelp')}</Typography.Text>
            </Space>
          ) : (
            t('ipam.address.ownDynamic')
          )}
        </Descriptions.Item>
        {address.framed_ipv6_prefix && (
          <Descriptions.Item label={t('ipam.address.framed')}>
            <Typography.Text copyable code>
              {address.framed_ipv6_prefix}
            </Typography.Text>
          </Descriptions.Item>
        )}
        {address.delegated_ipv6_prefix && (
          <Descriptions.Item label={t('ipam.address.delegated')}>
            <Typography.Text copyable code>
              {address.delegated_ipv6_prefix}
            </Typography.Text>
          </Descriptions.Item>
        )}
      </Descriptions>
    </Card>
  );
}

export function AddressCard({ subscriptionId, role }: { subscriptionId: string; role: Role | null | undefined }) {
  const allowed = canCallEndpoint(role, 'GET', '/subscriptions/:id/address');
  const manage = canCallEndpoint(role, 'PUT', '/subscriptions/:id/address');
  const staff = role !== 'user';
  const { address, isLoading, error } = useSubscriptionAddress(subscriptionId, allowed);
  const [editing, setEditing] = useState(false);
  const release = useToastedCall();
  const { networks } = useNetworks(['static', 'pool'], allowed && staff);
  const named = (id: string) => networks.find((n) => n.id === id);
  if (!allowed) return null;
  // A customer's card waits quietly: one whose subscription has no address set shows nothing at all.
  if (!staff) return address && !error ? <OwnAddressCard address={address} /> : null;
  const set =
    address &&
    (address.address || address.pool_network_id || address.framed_ipv6_prefix || address.delegated_ipv6_prefix);
  return (
    <Card
      title={t('ipam.address.title')}
      loading={isLoading}
      data-testid="address-card"
      extra={
        manage && address && !editing ? (
          <Space wrap>
            <Button size="small" onClick={() => setEditing(true)}>
              {t('ipam.address.change')}
            </Button>
            {set && (
              <Popconfirm
                title={t('ipam.address.releaseConfirm')}
                okText={t('ipam.address.release')}
                cancelText={t('ipam.address.cancel')}
                okButtonProps={{ danger: true, autoFocus: true }}
                onConfirm={() =>
                  release.run({
                    url: addressUrl(subscriptionId),
                    method: 'delete',
                    success: t('ipam.address.released'),
                    fallbackKey: 'ipam.address.failed',
                  })
                }
              >
                <Button size="small" danger loading={release.isPending}>
                  {t('ipam.address.release')}
                </Button>
              </Popconfirm>
            )}
          </Space>
        ) : undefined
      }
    >
      {error ? (
        <Alert type="error" showIcon message={error} />
      ) : !address ? null : editing ? (
        <AddressForm subscriptionId={subscriptionId} current={address} onDone={() => setEditing(false)} />
      ) : (
        <Descriptions bordered column={1} size="small" data-testid="address-details">
          {address.address ? (
            <Descriptions.Item label={t('ipam.address.static')}>
              <Space wrap>
                <Typography.Text copyable code data-testid="static-address">
                  {address.address}
                </Typography.Text>
                {address.network_id && networkLink(address.network_id, named(address.network_id))}
              </Space>
            </Descriptions.Item>
          ) : address.pool_network_id ? (
            <Descriptions.Item label={t('ipam.address.pool')}>
              <Space wrap>
                <Typography.Text code>{address.pool_name ?? '—'}</Typography.Text>
                {networkLink(address.pool_network_id, named(address.pool_network_id))}
              </Space>
            </Descriptions.Item>
          ) : (
            <Descriptions.Item label={t('ipam.address.static')}>{t('ipam.address.none')}</Descriptions.Item>
          )}
          <Descriptions.Item label={t('ipam.address.framed')}>{address.framed_ipv6_prefix ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('ipam.address.delegated')}>
            {address.delegated_ipv6_prefix ?? '—'}
          </Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}
