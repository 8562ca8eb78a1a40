/**
 * A network's form fields (create and edit): the contract's checks per field, the server's (overlaps, gateway and
 * reserved ranges inside the network, a pool name for a pool) come back onto their fields. The pool name shows
 * for pool and walled-garden networks only; reserved ranges are a list of from / to / note rows.
 */
import type { ReactNode } from 'react';
import { Button, Form, Input, InputNumber, Space } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useCustom } from '@refinedev/core';
import { IP_NETWORK_PURPOSES, ipNetworkInputSchema } from '../../contract/schemas/ipam';
import type { FieldDef } from '../../src/components/resource';
import { zodRules } from '../../src/components/resource';
import { FormSelect } from '../../src/components/FormSelect';
import { t } from '../../src/i18n';

const s = ipNetworkInputSchema.shape;

/** A form item with a help line under it. */
function item(
  name: string,
  labelKey: string,
  control: ReactNode,
  opts: { helpKey?: string; schema?: FieldDef['schema']; required?: boolean } = {},
): FieldDef {
  return {
    name,
    type: 'custom',
    labelKey,
    form: true,
    schema: opts.schema,
    input: () => (
      <Form.Item
        name={name}
        label={t(labelKey)}
        extra={opts.helpKey ? t(opts.helpKey) : undefined}
        rules={zodRules(opts.schema, { labelKey })}
        required={opts.required}
      >
        {control}
      </Form.Item>
    ),
  };
}

/** The pool name, for the purposes whose addresses the NAS hands out by pool. */
function PoolName() {
  const purpose = Form.useWatch('purpose') as string | undefined;
  if (purpose !== 'pool' && purpose !== 'walled_garden') return null;
  return (
    <Form.Item
      name="pool_name"
      label={t('ipam.fields.poolName')}
      extra={t('ipam.fields.poolNameHelp')}
      rules={zodRules(s.pool_name, { labelKey: 'ipam.fields.poolName' })}
      required={purpose === 'pool'}
    >
      <Input aria-label={t('ipam.fields.poolName')} />
    </Form.Item>
  );
}

/** The length of the prefixes an IPv6 delegation network hands out as "next free". */
function DelegationLength() {
  const purpose = Form.useWatch('purpose') as string | undefined;
  if (purpose !== 'ipv6_delegation') return null;
  return (
    <Form.Item
      name="delegation_prefix_length"
      label={t('ipam.fields.delegationLength')}
      extra={t('ipam.fields.delegationLengthHelp')}
      rules={zodRules(s.delegation_prefix_length, { labelKey: 'ipam.fields.delegationLength' })}
    >
      <InputNumber
        min={1}
        max={128}
        prefix="/"
        style={{ width: '100%' }}
        aria-label={t('ipam.fields.delegationLength')}
      />
    </Form.Item>
  );
}

/** The NAS the network is routed to: the registered devices (admin and technicians read them). */
function DeviceSelect() {
  const { result } = useCustom<{ items: Array<{ id: string; name: string }> }>({
    url: '/devices',
    method: 'get',
    config: { query: { limit: 100 } },
    errorNotification: false,
    queryOptions: { retry: false },
  });
  const data = result.data as
    | { items?: Array<{ id: string; name: string }> }
    | Array<{ id: string; name: string }>
    | undefined;
  const devices = Array.isArray(data) ? data : (data?.items ?? []);
  return (
    <Form.Item name="device_id" label={t('ipam.fields.device')}>
      <FormSelect
        allowClear
        aria-label={t('ipam.fields.device')}
        options={devices.map((d) => ({ value: d.id, label: d.name }))}
      />
    </Form.Item>
  );
}

function ReservedRanges() {
  return (
    <Form.Item label={t('ipam.fields.reserved')}>
      <Form.List name="reserved_ranges">
        {(rows, { add, remove }) => (
          <Space direction="vertical" style={{ width: '100%' }}>
            {rows.map(({ key, name }) => (
              <Space key={key} wrap align="start" data-testid="reserved-range">
                <Form.Item
                  name={[name, 'from']}
                  rules={[{ required: true, message: t('ipam.fields.reservedFrom') }]}
                  noStyle
                >
                  <Input
                    placeholder={t('ipam.fields.reservedFrom')}
                    aria-label={`${t('ipam.fields.reservedFrom')} ${name + 1}`}
                    style={{ width: 150 }}
                  />
                </Form.Item>
                <Form.Item
                  name={[name, 'to']}
                  rules={[{ required: true, message: t('ipam.fields.reservedTo') }]}
                  noStyle
                >
                  <Input
                    placeholder={t('ipam.fields.reservedTo')}
                    aria-label={`${t('ipam.fields.reservedTo')} ${name + 1}`}
                    style={{ width: 150 }}
                  />
                </Form.Item>
                <Form.Item name={[name, 'note']} noStyle>
                  <Input
                    placeholder={t('ipam.fields.reservedNote')}
                    aria-label={`${t('ipam.fields.reservedNote')} ${name + 1}`}
                    style={{ width: 150 }}
                  />
                </Form.Item>
                <Button
                  icon={<DeleteOutlined />}
                  aria-label={t('ipam.fields.reservedRemove')}
                  onClick={() => remove(name)}
                />
              </Space>
            ))}
            <Button icon={<PlusOutlined />} onClick={() => add({ from: '', to: '', note: '' })}>
              {t('ipam.fields.reservedAdd')}
            </Button>
          </Space>
        )}
      </Form.List>
    </Form.Item>
  );
}

const blankToNull = (v: unknown) =>
  typeof v === 'string' && v.trim() === '' ? null : typeof v === 'string' ? v.trim() : (v ?? null);

export const networkFormFields: FieldDef[] = [
  item('name', 'ipam.fields.name', <Input aria-label={t('ipam.fields.name')} />, { schema: s.name, required: true }),
  item('cidr', 'ipam.fields.cidr', <Input aria-label={t('ipam.fields.cidr')} placeholder="203.0.113.0/24" />, {
    schema: s.cidr,
    helpKey: 'ipam.fields.cidrHelp',
    required: true,
  }),
  {
    ...item(
      'purpose',
      'ipam.fields.purpose',
      <FormSelect
        aria-label={t('ipam.fields.purpose')}
        options={IP_NETWORK_PURPOSES.map((p) => ({ value: p, label: t(`ipam.purpose.${p}`) }))}
      />,
      { schema: s.purpose, required: true },
    ),
    defaultValue: 'static',
  },
  {
    name: 'pool_name',
    type: 'custom',
    labelKey: 'ipam.fields.poolName',
    form: true,
    input: () => <PoolName />,
    toPayload: (v, all) => (all.purpose === 'pool' || all.purpose === 'walled_garden' ? blankToNull(v) : null),
  },
  {
    name: 'delegation_prefix_length',
    type: 'custom',
    labelKey: 'ipam.fields.delegationLength',
    form: true,
    input: () => <DelegationLength />,
    toPayload: (v, all) =>
      all.purpose === 'ipv6_delegation' && typeof v === 'number'
        ? v
        : all.purpose === 'ipv6_delegation'
          ? null
          : undefined,
  },
  {
    ...item('gateway', 'ipam.fields.gateway', <Input aria-label={t('ipam.fields.gateway')} />),
    toPayload: blankToNull,
  },
  {
    ...item(
      'dns_servers',
      'ipam.fields.dns',
      <FormSelect mode="tags" open={false} tokenSeparators={[',', ' ']} aria-label={t('ipam.fields.dns')} />,
      { helpKey: 'ipam.fields.dnsHelp' },
    ),
    toPayload: (v) => (Array.isArray(v) ? v : []),
  },
  {
    name: 'device_id',
    type: 'custom',
    labelKey: 'ipam.fields.device',
    form: true,
    input: () => <DeviceSelect />,
    toPayload: (v) => v ?? null,
  },
  { ...item('site', 'ipam.fields.site', <Input aria-label={t('ipam.fields.site')} />), toPayload: blankToNull },
  {
    name: 'reserved_ranges',
    type: 'custom',
    labelKey: 'ipam.fields.reserved',
    form: true,
    input: () => <ReservedRanges />,
    toPayload: (v) =>
      Array.isArray(v)
        ? v.map((r: { from: string; to: string; note?: string }) => ({
            from: r.from?.trim(),
            to: r.to?.trim(),
            note: r.note?.trim() || null,
          }))
        : [],
  },
  {
    ...item(
      'quarantine_days',
      'ipam.fields.quarantine',
      <InputNumber
        min={0}
        max={3650}
        style={{ width: '100%' }}
        suffix={t('ipam.unit.days')}
        aria-label={t('ipam.fields.quarantine')}
      />,
      {
        schema: s.quarantine_days,
        helpKey: 'ipam.fields.quarantineHelp',
      },
    ),
    defaultValue: 30,
    toPayload: (v) => (typeof v === 'number' ? v : undefined),
  },
  {
    ...item('notes', 'ipam.fields.notes', <Input.TextArea rows={3} aria-label={t('ipam.fields.notes')} />, {
      schema: s.notes,
    }),
    toPayload: blankToNull,
  },
];
