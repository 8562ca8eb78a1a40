/**
 * Network access devices (NAS: MikroTik routers and any SNMP device). JSON is snake_case. Secrets (SNMP
 * community, v3 keys, API password, RADIUS secret) are write-only: admins see '••••' + the last 4 characters,
 * technicians see no secret or configuration field at all.
 */
import { z } from 'zod';
import { pagePaginationSchema } from '../envelope';

/** The device's maker, which is also its NAS profile for RADIUS (issue 36: how a plan's policy is expressed). */
export const DEVICE_VENDORS = ['mikrotik', 'cisco', 'juniper', 'huawei', 'cambium', 'generic'] as const;
export type DeviceVendor = (typeof DEVICE_VENDORS)[number];

export const DEVICE_STATUSES = ['up', 'down', 'unknown'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

export const SNMP_VERSIONS = ['v2c', 'v3'] as const;
export type SnmpVersion = (typeof SNMP_VERSIONS)[number];

/** SNMPv3 USM authentication protocols (net-snmp's names; Debian's snmpd accepts MD5, SHA, SHA-224..SHA-512). */
export const SNMP_AUTH_PROTOCOLS = ['md5', 'sha', 'sha224', 'sha256', 'sha384', 'sha512'] as const;
export type SnmpAuthProtocol = (typeof SNMP_AUTH_PROTOCOLS)[number];

/** SNMPv3 privacy protocols: DES, AES-128, AES-256 (Blumenthal or Reeder key extension). */
export const SNMP_PRIV_PROTOCOLS = ['des', 'aes', 'aes256b', 'aes256r'] as const;
export type SnmpPrivProtocol = (typeof SNMP_PRIV_PROTOCOLS)[number];

/** RouterOS management: the v7 REST API over HTTP(S), or the binary API port. */
export const DEVICE_API_TYPES = ['rest', 'api'] as const;
export type DeviceApiType = (typeof DEVICE_API_TYPES)[number];

/** The port used when a device has none set. */
export function defaultApiPort(type: DeviceApiType, tls: boolean): number {
  if (type === 'rest') return tls ? 443 : 80;
  return tls ? 8729 : 8728;
}

/**
 * How much of a stored secret the admin screens see: its last 4 characters (fewer for short secrets, at most
 * half of it, so a short community is never shown whole). null: no secret stored.
 */
export function secretLast4(value: string | null | undefined): string | null {
  if (!value) return null;
  const shown = Math.min(4, Math.floor(value.length / 2));
  return value.slice(value.length - shown);
}

const timestamp = z.string().nullable();

/** A device as technicians see it: inventory and live state, no secret and no configuration field. */
export const deviceSummarySchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  vendor: z.enum(DEVICE_VENDORS),
  model: z.string().nullable(),
  host: z.string(),
  location: z.string().nullable(),
  tags: z.array(z.string()),
  status: z.enum(DEVICE_STATUSES),
  status_changed_at: timestamp,
  last_seen_at: timestamp,
  last_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DeviceSummary = z.infer<typeof deviceSummarySchema>;

/** A device as admins see it: every setting, secrets as their last 4 characters only (null: not set). */
export const deviceSchema = deviceSummarySchema.extend({
  notes: z.string().nullable(),
  snmp_version: z.enum(SNMP_VERSIONS),
  snmp_port: z.number().int(),
  snmp_community_last4: z.string().nullable(),
  snmp_v3_user: z.string().nullable(),
  snmp_v3_auth_protocol: z.enum(SNMP_AUTH_PROTOCOLS).nullable(),
  snmp_v3_auth_key_last4: z.string().nullable(),
  snmp_v3_priv_protocol: z.enum(SNMP_PRIV_PROTOCOLS).nullable(),
  snmp_v3_priv_key_last4: z.string().nullable(),
  api_type: z.enum(DEVICE_API_TYPES).nullable(),
  api_port: z.number().int().nullable(),
  api_tls: z.boolean(),
  api_username: z.string().nullable(),
  api_password_last4: z.string().nullable(),
  radius_secret_last4: z.string().nullable(),
  /** The hotspot's login address (link-login-only); the hotspot page posts codes only to its origin. */
  hotspot_url: z.string().nullable(),
});
export type Device = z.infer<typeof deviceSchema>;

/** The secret fields a form sends; the API never sends them back. */
export const DEVICE_SECRET_FIELDS = [
  'snmp_community',
  'snmp_v3_auth_key',
  'snmp_v3_priv_key',
  'api_password',
  'radius_secret',
] as const;
export type DeviceSecretField = (typeof DEVICE_SECRET_FIELDS)[number];

/** Fields technicians must never receive (secrets, their masks, and the configuration). */
export const DEVICE_ADMIN_ONLY_FIELDS = [
  ...DEVICE_SECRET_FIELDS,
  'notes',
  'snmp_version',
  'snmp_port',
  'snmp_community_last4',
  'snmp_v3_user',
  'snmp_v3_auth_protocol',
  'snmp_v3_auth_key_last4',
  'snmp_v3_priv_protocol',
  'snmp_v3_priv_key_last4',
  'api_type',
  'api_port',
  'api_tls',
  'api_username',
  'api_password_last4',
  'radius_secret_last4',
  'hotspot_url',
] as const;

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

const emptyAsNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const emptyAsAbsent = (v: unknown) => (v === '' ? undefined : v);

const name = z
  .string({ message: 'Name is required' })
  .trim()
  .min(2, { message: 'Name must be at least 2 characters' })
  .max(120, { message: 'Name must be at most 120 characters' });
const host = z
  .string({ message: 'Host is required' })
  .trim()
  .min(1, { message: 'Host is required' })
  .max(255, { message: 'Host must be at most 255 characters' })
  .refine((v) => IPV4.test(v) || z.ipv6().safeParse(v).success || (HOSTNAME.test(v) && !/^[\d.]+$/.test(v)), {
    message: 'Host must be an IPv4 address, an IPv6 address or a host name',
  });
const optionalText = (label: string, max: number) =>
  z.preprocess(
    emptyAsNull,
    z
      .string({ message: `${label} must be text` })
      .trim()
      .max(max, { message: `${label} must be at most ${max} characters` })
      .nullable(),
  );
const port = (label: string) =>
  z.coerce
    .number({ message: `${label} must be a number` })
    .int({ message: `${label} must be a whole number` })
    .min(1, { message: `${label} must be between 1 and 65535` })
    .max(65535, { message: `${label} must be between 1 and 65535` });
/**
 * A secret as a form sends it: omitted, '' or a masked value ('••••' + last 4) keeps the stored one; null
 * removes it; anything else replaces it.
 */
const secret = (label: string, min = 1) =>
  z
    .string({ message: `${label} must be text` })
    .max(256, { message: `${label} must be at most 256 characters` })
    .refine((v) => v === '' || v.startsWith('••••') || v.length >= min, {
      message: `${label} must be at least ${min} characters`,
    })
    .nullable();
const tags = z
  .array(
    z
      .string({ message: 'Tags must be text' })
      .trim()
      .min(1, { message: 'A tag cannot be empty' })
      .max(40, { message: 'A tag must be at most 40 characters' }),
    {
      message: 'Tags must be a list of text',
    },
  )
  .max(20, { message: 'At most 20 tags' })
  .transform((list) => [...new Set(list)]);

/**
 * A hotspot's login address as MikroTik gives it in `link-login-only` (http://10.5.50.1/login, or https:// with a
 * certificate): an absolute http(s) address without a user name or password in it.
 */
const hotspotUrl = z.preprocess(
  emptyAsNull,
  z
    .string({ message: 'Hotspot login URL must be text' })
    .trim()
    .max(2048, { message: 'Hotspot login URL must be at most 2048 characters' })
    .refine(
      (v) => {
        if (!URL.canParse(v)) return false;
        const url = new URL(v);
        return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
      },
      { message: 'Hotspot login URL must be an http:// or https:// address such as http://10.5.50.1/login' },
    )
    .nullable(),
);

/** The fields of a device a form sends. Secrets follow `secret` above; USM keys need 8 characters. */
const deviceFields = {
  name,
  vendor: z.enum(DEVICE_VENDORS, { message: `Vendor must be one of ${DEVICE_VENDORS.join(', ')}` }),
  model: optionalText('Model', 120),
  host,
  location: optionalText('Location', 200),
  notes: optionalText('Notes', 5000),
  tags,
  snmp_version: z.enum(SNMP_VERSIONS, { message: `SNMP version must be one of ${SNMP_VERSIONS.join(', ')}` }),
  snmp_port: port('SNMP port'),
  snmp_community: secret('SNMP community'),
  snmp_v3_user: optionalText('SNMPv3 user', 64),
  snmp_v3_auth_protocol: z.preprocess(
    emptyAsNull,
    z
      .enum(SNMP_AUTH_PROTOCOLS, {
        message: `SNMPv3 authentication protocol must be one of ${SNMP_AUTH_PROTOCOLS.join(', ')}`,
      })
      .nullable(),
  ),
  snmp_v3_auth_key: secret('SNMPv3 authentication key', 8),
  snmp_v3_priv_protocol: z.preprocess(
    emptyAsNull,
    z
      .enum(SNMP_PRIV_PROTOCOLS, {
        message: `SNMPv3 privacy protocol must be one of ${SNMP_PRIV_PROTOCOLS.join(', ')}`,
      })
      .nullable(),
  ),
  snmp_v3_priv_key: secret('SNMPv3 privacy key', 8),
  api_type: z.preprocess(
    emptyAsNull,
    z.enum(DEVICE_API_TYPES, { message: `API type must be one of ${DEVICE_API_TYPES.join(', ')}` }).nullable(),
  ),
  api_port: z.preprocess(emptyAsNull, port('API port').nullable()),
  api_tls: z.boolean({ message: 'api_tls must be true or false' }),
  api_username: optionalText('API user name', 120),
  api_password: secret('API password'),
  radius_secret: secret('RADIUS secret'),
  hotspot_url: hotspotUrl,
};

/**
 * POST /devices. Unknown keys are stripped. Rules across fields (a v2c device needs a community, a v3 one a
 * user, a privacy protocol needs authentication, an API needs a user name and password) are checked by the
 * service on the merged values, so create and update share them.
 */
export const deviceInputSchema = z.object({
  ...deviceFields,
  vendor: deviceFields.vendor.optional().default('generic'),
  model: deviceFields.model.optional().default(null),
  location: deviceFields.location.optional().default(null),
  notes: deviceFields.notes.optional().default(null),
  tags: tags.optional().default([]),
  snmp_version: deviceFields.snmp_version.optional().default('v2c'),
  snmp_port: deviceFields.snmp_port.optional().default(161),
  snmp_community: deviceFields.snmp_community.optional(),
  snmp_v3_user: deviceFields.snmp_v3_user.optional().default(null),
  snmp_v3_auth_protocol: deviceFields.snmp_v3_auth_protocol.optional().default(null),
  snmp_v3_auth_key: deviceFields.snmp_v3_auth_key.optional(),
  snmp_v3_priv_protocol: deviceFields.snmp_v3_priv_protocol.optional().default(null),
  snmp_v3_priv_key: deviceFields.snmp_v3_priv_key.optional(),
  api_type: deviceFields.api_type.optional().default(null),
  api_port: deviceFields.api_port.optional().default(null),
  api_tls: deviceFields.api_tls.optional().default(true),
  api_username: deviceFields.api_username.optional().default(null),
  api_password: deviceFields.api_password.optional(),
  radius_secret: deviceFields.radius_secret.optional(),
  hotspot_url: deviceFields.hotspot_url.optional().default(null),
});
export type DeviceInput = z.input<typeof deviceInputSchema>;
export type DeviceInputParsed = z.output<typeof deviceInputSchema>;

/** PUT /devices/{id}: every field optional, absent = unchanged; a blank secret keeps the stored one. */
export const deviceUpdateSchema = z.object(
  Object.fromEntries(Object.entries(deviceFields).map(([k, v]) => [k, (v as z.ZodType).optional()])) as {
    [K in keyof typeof deviceFields]: z.ZodOptional<(typeof deviceFields)[K]>;
  },
);
export type DeviceUpdate = z.input<typeof deviceUpdateSchema>;
export type DeviceUpdateParsed = z.output<typeof deviceUpdateSchema>;

export const DEVICE_PAGE_DEFAULT_LIMIT = 20;

/** GET /devices. search: part of the name, host or location (case-insensitive). */
export const deviceListQuerySchema = z.object({
  status: z.preprocess(
    emptyAsAbsent,
    z.enum(DEVICE_STATUSES, { message: `status must be one of ${DEVICE_STATUSES.join(', ')}` }).optional(),
  ),
  vendor: z.preprocess(
    emptyAsAbsent,
    z.enum(DEVICE_VENDORS, { message: `vendor must be one of ${DEVICE_VENDORS.join(', ')}` }).optional(),
  ),
  search: z.preprocess(
    emptyAsAbsent,
    z.string().trim().max(100, { message: 'search must be at most 100 characters' }).optional(),
  ),
  page: z.coerce
    .number({ message: 'page must be a number' })
    .int()
    .min(1, { message: 'page must be 1 or more' })
    .optional()
    .default(1),
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int()
    .min(1, { message: 'limit must be between 1 and 100' })
    .max(100, { message: 'limit must be between 1 and 100' })
    .optional()
    .default(DEVICE_PAGE_DEFAULT_LIMIT),
});
export type DeviceListQuery = z.input<typeof deviceListQuerySchema>;
export type DeviceListQueryParsed = z.output<typeof deviceListQuerySchema>;

export const devicePageSchema = z.object({
  items: z.array(z.union([deviceSchema, deviceSummarySchema])),
  pagination: pagePaginationSchema,
});

/** One side of a connection test. */
export const CONNECTION_RESULTS = [
  'reachable',
  'auth_failed',
  'timeout',
  'unreachable',
  'error',
  'not_configured',
] as const;
export type ConnectionResult = (typeof CONNECTION_RESULTS)[number];

export const connectionCheckSchema = z.object({
  status: z.enum(CONNECTION_RESULTS),
  message: z.string(),
  /** Round trip of the check; null when nothing was sent. */
  latency_ms: z.number().int().nullable(),
  /** What the device said about itself, when reachable (sysName/sysDescr/sysUpTime, RouterOS version/board). */
  details: z.record(z.string(), z.string()).optional(),
});
export type ConnectionCheck = z.infer<typeof connectionCheckSchema>;

export const connectionTestSchema = z.object({
  snmp: connectionCheckSchema,
  api: connectionCheckSchema,
  tested_at: z.string(),
});
export type ConnectionTest = z.infer<typeof connectionTestSchema>;

const timeoutMs = z.coerce
  .number({ message: 'timeout_ms must be a number' })
  .int()
  .min(100, { message: 'timeout_ms must be between 100 and 10000' })
  .max(10_000, { message: 'timeout_ms must be between 100 and 10000' });

/** POST /devices/{id}/test-connection: the stored settings. */
export const deviceTestQuerySchema = z.object({ timeout_ms: timeoutMs.optional() });

/**
 * POST /devices/test-connection: settings from a form not saved yet. With device_id, blank or masked secrets
 * (and absent fields) come from that stored device, so an edit form can be tested before saving.
 */
export const deviceTestSettingsSchema = deviceUpdateSchema.extend({
  device_id: z.string().uuid({ message: 'device_id must be a valid id' }).optional(),
  timeout_ms: timeoutMs.optional(),
});
export type DeviceTestSettings = z.input<typeof deviceTestSettingsSchema>;
export type DeviceTestSettingsParsed = z.output<typeof deviceTestSettingsSchema>;
