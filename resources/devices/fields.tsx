/**
 * The device's fields, declared once for the generic list/show/form. The form groups them in sections (general,
 * SNMP, management API, RADIUS); SNMP v2c/v3 and API fields show only when they apply, and secrets are
 * write-only password inputs (SecretInput).
 */
import type { ReactNode } from 'react';
import { Divider, Form } from 'antd';
import {
  DEVICE_API_TYPES,
  DEVICE_STATUSES,
  DEVICE_VENDORS,
  SNMP_AUTH_PROTOCOLS,
  SNMP_PRIV_PROTOCOLS,
  SNMP_VERSIONS,
  deviceInputSchema,
} from '../../contract/schemas/device';
import type { FieldDef } from '../../src/components/resource';
import { FieldInput } from '../../src/components/resource/inputs';
import { t } from '../../src/i18n';
import { SecretInput, secretCell, secretPayload } from './components/SecretInput';
import { formatDateTime } from '../../src/components/dates';

const s = deviceInputSchema.shape;

const STATUS_COLORS: Record<string, string> = { up: 'green', down: 'red', unknown: 'default' };

type Values = Record<string, unknown>;

/** Renders its children only while the form's values satisfy `when` (hidden items are not sent: preserve=false). */
function When({ when, children }: { when: (v: Values) => boolean; children: ReactNode }) {
  const form = Form.useFormInstance();
  const values: Values = {
    snmp_version: Form.useWatch('snmp_version', form),
    snmp_v3_auth_protocol: Form.useWatch('snmp_v3_auth_protocol', form),
    snmp_v3_priv_protocol: Form.useWatch('snmp_v3_priv_protocol', form),
    api_type: Form.useWatch('api_type', form),
  };
  return when(values) ? children : null;
}

const isV2c = (v: Values) => (v.snmp_version ?? 'v2c') === 'v2c';
const isV3 = (v: Values) => v.snmp_version === 'v3';
const hasAuth = (v: Values) => isV3(v) && !!v.snmp_v3_auth_protocol;
const hasPriv = (v: Values) => hasAuth(v) && !!v.snmp_v3_priv_protocol;
const hasApi = (v: Values) => !!v.api_type;

/** A section heading in the form (not a value). */
function section(name: string, labelKey: string): FieldDef {
  return {
    name: `section_${name}`,
    type: 'custom',
    labelKey,
    form: true,
    show: false,
    input: () => <Divider orientation="left">{t(labelKey)}</Divider>,
    toPayload: () => undefined,
  };
}

/** A plain field shown in the form only while `when` holds. */
function conditional(field: FieldDef, when: (v: Values) => boolean): FieldDef {
  return {
    ...field,
    type: 'custom',
    input: ({ record, action }) => (
      <When when={when}>
        <FieldInput field={field} currency="USD" record={record} action={action} />
      </When>
    ),
    render: field.render,
  };
}

/** A write-only secret; the show page says whether one is stored ('••••last4'). */
function secret(name: string, labelKey: string, when: (v: Values) => boolean = () => true): FieldDef {
  return {
    name,
    type: 'custom',
    labelKey,
    form: true,
    show: false,
    input: ({ record }) => (
      <When when={when}>
        <SecretInput name={name} labelKey={labelKey} record={record} />
      </When>
    ),
    fromRecord: () => undefined,
    toPayload: secretPayload,
  };
}

/** Shows a stored secret by its '<name>_last4' field. */
function secretShown(name: string, labelKey: string): FieldDef {
  return { name: `${name}_last4`, type: 'custom', labelKey, render: (value) => secretCell(value) };
}

const options = (values: readonly string[], prefix: string, colors?: Record<string, string>) =>
  values.map((v) => ({ value: v, labelKey: `${prefix}.${v}`, color: colors?.[v] }));

export const statusField: FieldDef = {
  name: 'status',
  type: 'status',
  labelKey: 'devices.fields.status',
  column: true,
  priority: 1,
  filter: true,
  options: options(DEVICE_STATUSES, 'devices.status', STATUS_COLORS),
};
const vendorField: FieldDef = {
  name: 'vendor',
  type: 'select',
  labelKey: 'devices.fields.vendor',
  column: true,
  priority: 3,
  filter: true,
  form: true,
  schema: s.vendor,
  defaultValue: 'mikrotik',
  options: options(DEVICE_VENDORS, 'devices.vendor'),
};
const lastSeen = (value: unknown) => (typeof value === 'string' ? formatDateTime(value) : t('devices.never'));

/** What technicians see too: inventory and live state. */
export const summaryFields: FieldDef[] = [
  {
    name: 'name',
    type: 'text',
    labelKey: 'devices.fields.name',
    column: true,
    priority: 1,
    form: true,
    schema: s.name,
  },
  statusField,
  vendorField,
  { name: 'model', type: 'text', labelKey: 'devices.fields.model', form: true, schema: s.model, emptyAsNull: true },
  { name: 'host', type: 'text', labelKey: 'devices.fields.host', column: true, form: true, schema: s.host },
  {
    name: 'location',
    type: 'text',
    labelKey: 'devices.fields.location',
    column: true,
    form: true,
    schema: s.location,
    emptyAsNull: true,
  },
  {
    name: 'last_seen_at',
    type: 'custom',
    labelKey: 'devices.fields.lastSeenAt',
    column: true,
    priority: 3,
    render: lastSeen,
  },
  { name: 'status_changed_at', type: 'date', labelKey: 'devices.fields.statusChangedAt' },
  { name: 'last_error', type: 'text', labelKey: 'devices.fields.lastError' },
  { name: 'tags', type: 'tags', labelKey: 'devices.fields.tags', form: true, schema: s.tags, defaultValue: [] },
];

/** The admin's fields: the summary, the settings (secrets write-only) and the timestamps. */
export const adminFields: FieldDef[] = [
  section('general', 'devices.section.general'),
  ...summaryFields,
  { name: 'notes', type: 'textarea', labelKey: 'devices.fields.notes', form: true, schema: s.notes, emptyAsNull: true },

  section('snmp', 'devices.section.snmp'),
  {
    name: 'snmp_version',
    type: 'select',
    labelKey: 'devices.fields.snmpVersion',
    form: true,
    schema: s.snmp_version,
    defaultValue: 'v2c',
    options: options(SNMP_VERSIONS, 'devices.snmpVersion'),
  },
  {
    name: 'snmp_port',
    type: 'number',
    labelKey: 'devices.fields.snmpPort',
    form: true,
    schema: s.snmp_port,
    defaultValue: 161,
  },
  secret('snmp_community', 'devices.fields.snmpCommunity', isV2c),
  secretShown('snmp_community', 'devices.fields.snmpCommunity'),
  conditional(
    {
      name: 'snmp_v3_user',
      type: 'text',
      labelKey: 'devices.fields.snmpV3User',
      form: true,
      schema: s.snmp_v3_user,
      emptyAsNull: true,
    },
    isV3,
  ),
  conditional(
    {
      name: 'snmp_v3_auth_protocol',
      type: 'select',
      labelKey: 'devices.fields.snmpV3AuthProtocol',
      form: true,
      emptyAsNull: true,
      fromRecord: (v) => v ?? '',
      options: [
        { value: '', labelKey: 'devices.auth.none' },
        ...SNMP_AUTH_PROTOCOLS.map((p) => ({ value: p, labelKey: p.toUpperCase() })),
      ],
    },
    isV3,
  ),
  secret('snmp_v3_auth_key', 'devices.fields.snmpV3AuthKey', hasAuth),
  secretShown('snmp_v3_auth_key', 'devices.fields.snmpV3AuthKey'),
  conditional(
    {
      name: 'snmp_v3_priv_protocol',
      type: 'select',
      labelKey: 'devices.fields.snmpV3PrivProtocol',
      form: true,
      emptyAsNull: true,
      fromRecord: (v) => v ?? '',
      options: [
        { value: '', labelKey: 'devices.priv.none' },
        ...SNMP_PRIV_PROTOCOLS.map((p) => ({ value: p, labelKey: p.toUpperCase() })),
      ],
    },
    hasAuth,
  ),
  secret('snmp_v3_priv_key', 'devices.fields.snmpV3PrivKey', hasPriv),
  secretShown('snmp_v3_priv_key', 'devices.fields.snmpV3PrivKey'),

  section('api', 'devices.section.api'),
  {
    name: 'api_type',
    type: 'select',
    labelKey: 'devices.fields.apiType',
    form: true,
    emptyAsNull: true,
    defaultValue: '',
    fromRecord: (v) => v ?? '',
    options: [{ value: '', labelKey: 'devices.apiType.none' }, ...options(DEVICE_API_TYPES, 'devices.apiType')],
    render: (value) => t(`devices.apiType.${typeof value === 'string' && value ? value : 'none'}`),
  },
  conditional(
    {
      name: 'api_port',
      type: 'number',
      labelKey: 'devices.fields.apiPort',
      form: true,
      schema: s.api_port,
      emptyAsNull: true,
    },
    hasApi,
  ),
  conditional(
    { name: 'api_tls', type: 'boolean', labelKey: 'devices.fields.apiTls', form: true, defaultValue: true },
    hasApi,
  ),
  conditional(
    {
      name: 'api_username',
      type: 'text',
      labelKey: 'devices.fields.apiUsername',
      form: true,
      schema: s.api_username,
      emptyAsNull: true,
    },
    hasApi,
  ),
  secret('api_password', 'devices.fields.apiPassword', hasApi),
  secretShown('api_password', 'devices.fields.apiPassword'),

  section('radius', 'devices.section.radius'),
  secret('radius_secret', 'devices.fields.radiusSecret'),
  secretShown('radius_secret', 'devices.fields.radiusSecret'),
  {
    name: 'hotspot_url',
    type: 'text',
    labelKey: 'devices.fields.hotspotUrl',
    form: true,
    schema: s.hotspot_url,
    emptyAsNull: true,
  },

  { name: 'created_at', type: 'date', labelKey: 'devices.fields.createdAt' },
  { name: 'updated_at', type: 'date', labelKey: 'devices.fields.updatedAt' },
];
