/**
 * The two faces of a device. Admins: every setting, each secret as its last 4 characters. Technicians:
 * inventory and live state only — built field by field, so a column added later never leaks by default.
 */
import { secretLast4, type Device, type DeviceSummary } from '../../../contract/schemas/device';
import type { DeviceRow } from '../../db/schema/devices';
import type { SecretBox } from '../../lib/secret-box';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toDeviceSummary(row: DeviceRow): DeviceSummary {
  return {
    id: row.id,
    name: row.name,
    vendor: row.vendor,
    model: row.model,
    host: row.host,
    location: row.location,
    tags: row.tags,
    status: row.status,
    status_changed_at: iso(row.statusChangedAt),
    last_seen_at: iso(row.lastSeenAt),
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toDevice(row: DeviceRow, box: SecretBox): Device {
  const last4 = (sealed: string | null) => (sealed ? secretLast4(box.open(sealed) ?? '') : null);
  return {
    ...toDeviceSummary(row),
    notes: row.notes,
    snmp_version: row.snmpVersion,
    snmp_port: row.snmpPort,
    snmp_community_last4: last4(row.snmpCommunity),
    snmp_v3_user: row.snmpV3User,
    snmp_v3_auth_protocol: row.snmpV3AuthProtocol,
    snmp_v3_auth_key_last4: last4(row.snmpV3AuthKey),
    snmp_v3_priv_protocol: row.snmpV3PrivProtocol,
    snmp_v3_priv_key_last4: last4(row.snmpV3PrivKey),
    api_type: row.apiType,
    api_port: row.apiPort,
    api_tls: row.apiTls,
    api_username: row.apiUsername,
    api_password_last4: last4(row.apiPassword),
    radius_secret_last4: last4(row.radiusSecret),
    hotspot_url: row.hotspotUrl,
  };
}
