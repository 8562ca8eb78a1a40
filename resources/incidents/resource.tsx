import { MonitorOutlined } from '@ant-design/icons';
import { Form } from 'antd';
import { useCustom, type BaseRecord } from '@refinedev/core';
import { INCIDENT_KINDS, INCIDENT_SOURCES } from '../../contract/schemas/messaging';
import { incidentInputSchema } from '../../contract/schemas/incident';
import { FormSelect } from '../../src/components/FormSelect';
import { defineResource } from '../../src/components/resource/define';
import { t } from '../../src/i18n';
import { ResolveButton } from './ResolveButton';

const s = incidentInputSchema.shape;

/** The device an incident is about (its customers: those online through it); admin and technicians list devices. */
function DeviceField() {
  const { result } = useCustom<{ items: Array<{ id: string; name: string }> }>({
    url: '/devices',
    method: 'get',
    config: { query: { limit: 100 } },
    errorNotification: false,
    queryOptions: { retry: false },
  });
  const data = result.data as { items?: Array<{ id: string; name: string }> } | undefined;
  return (
    <Form.Item name="device_id" label={t('incidents.fields.device')} extra={t('incidents.fields.deviceHelp')}>
      <FormSelect
        allowClear
        aria-label={t('incidents.fields.device')}
        options={(data?.items ?? []).map((d) => ({ value: d.id, label: d.name }))}
      />
    </Form.Item>
  );
}

/**
 * Outages and maintenance windows (issue 38): the ones the device poller opened (a NAS or an uplink down) and those
 * staff post — a maintenance window or an outage notice about a device or an area. Customers reached are told when
 * it starts and when it ends; the public status page lists it by area.
 */
export const incidentsResource = defineResource({
  name: 'incidents',
  auditTargets: ['incident'],
  menu: { order: 95, group: 'network', labelKey: 'menu.incidents', icon: MonitorOutlined },
  titleKey: 'incidents.title',
  singularKey: 'incidents.singular',
  search: true,
  actions: ['show', 'edit'],
  defaultSort: { field: 'starts_at', order: 'desc' },
  messages: { created: 'incidents.toast.created', updated: 'incidents.toast.updated' },
  rowExtra: (record: BaseRecord) => <ResolveButton record={record} />,
  fields: [
    {
      name: 'title',
      type: 'text',
      labelKey: 'incidents.fields.title',
      column: true,
      priority: 1,
      form: true,
      schema: s.title,
    },
    {
      name: 'kind',
      type: 'status',
      labelKey: 'incidents.fields.kind',
      column: true,
      filter: true,
      form: true,
      defaultValue: 'maintenance',
      options: INCIDENT_KINDS.map((k) => ({
        value: k,
        labelKey: `incidents.kind.${k}`,
        color: k === 'outage' ? 'red' : 'blue',
      })),
    },
    {
      name: 'source',
      type: 'select',
      labelKey: 'incidents.fields.source',
      column: true,
      filter: true,
      options: INCIDENT_SOURCES.map((k) => ({ value: k, labelKey: `incidents.source.${k}` })),
    },
    { name: 'area', type: 'text', labelKey: 'incidents.fields.area', column: true, form: true, emptyAsNull: true },
    {
      name: 'device_id',
      type: 'custom',
      labelKey: 'incidents.fields.device',
      show: false,
      form: true,
      input: () => <DeviceField />,
      toPayload: (v) => v ?? null,
    },
    { name: 'interface_name', type: 'text', labelKey: 'incidents.fields.interface' },
    {
      name: 'starts_at',
      type: 'date',
      labelKey: 'incidents.fields.startsAt',
      column: true,
      priority: 1,
      sortable: true,
      form: true,
    },
    { name: 'ends_at', type: 'date', labelKey: 'incidents.fields.endsAt', column: true, form: true, emptyAsNull: true },
    {
      name: 'resolved_at',
      type: 'date',
      labelKey: 'incidents.fields.resolvedAt',
      column: true,
      emptyKey: 'incidents.open',
    },
    {
      name: 'description',
      type: 'textarea',
      labelKey: 'incidents.fields.description',
      form: true,
      emptyAsNull: true,
    },
  ],
});
