/**
 * Device rules: admins (and super_admin) manage devices and see every setting with secrets reduced to their
 * last 4 characters; technicians read the inventory without any secret or configuration field. Secrets are
 * sealed with the server's SecretBox (AES-256-GCM under SECRETS_KEY); a blank or masked secret in an update
 * keeps the stored one, null removes it.
 */
import { pagePagination, type FieldError } from '../../../contract/envelope';
import { allows, type Role } from '../../../contract/roles';
import {
  DEVICE_SECRET_FIELDS,
  type ConnectionTest,
  type Device,
  type DeviceInputParsed,
  type DeviceListQueryParsed,
  type DeviceSecretField,
  type DeviceSummary,
  type DeviceTestSettingsParsed,
  type DeviceUpdateParsed,
} from '../../../contract/schemas/device';
import type { Db } from '../../db/client';
import type { DeviceRow, NewDeviceRow } from '../../db/schema/devices';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import { validationSummary } from '../../plugins/errors';
import { changedFields, recordAudit, type AuditContext, type AuditEntry } from '../audit/trail';
import { testDeviceConnection } from './connection-test';
import { toDevice, toDeviceSummary } from './presenter';
import { openDeviceSecrets, type DeviceRepository } from './repository';

export const DEVICE_MESSAGES = {
  list: 'Devices retrieved successfully',
  detail: 'Device retrieved successfully',
  created: 'Device created successfully',
  updated: 'Device updated successfully',
  deleted: 'Device deleted successfully',
  tested: 'Connection test finished',
  notFound: 'Device not found',
  nameTaken: 'A device with this name already exists',
} as const;

/** Who manages devices and sees their settings (super_admin through allows()). */
export const DEVICE_MANAGERS = ['admin'] as const;
export const canManageDevices = (role: Role | null | undefined) => allows(DEVICE_MANAGERS, role);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Secret field → row column. */
const SECRET_COLUMNS: Record<
  DeviceSecretField,
  'snmpCommunity' | 'snmpV3AuthKey' | 'snmpV3PrivKey' | 'apiPassword' | 'radiusSecret'
> = {
  snmp_community: 'snmpCommunity',
  snmp_v3_auth_key: 'snmpV3AuthKey',
  snmp_v3_priv_key: 'snmpV3PrivKey',
  api_password: 'apiPassword',
  radius_secret: 'radiusSecret',
};

type SecretInput = string | null | undefined;

/** '' / masked / absent: keep; null: remove; text: replace. */
function keeps(value: SecretInput): boolean {
  return value === undefined || (value !== null && (value === '' || value.startsWith('••••')));
}

/** The plain (non-secret) settings of a device, as stored or as they will be. */
type Plain = Omit<NewDeviceRow, 'id' | (typeof SECRET_COLUMNS)[DeviceSecretField]>;

/**
 * What changed between two states of a device for the audit trail: settings as {from, to}; a secret (SNMP
 * community and v3 keys, API password, RADIUS secret) set, replaced or removed only as {changed: true}, compared
 * opened (it is sealed anew on every change) and never written as a value or its last 4 characters.
 */
export function deviceAuditDiff(
  before: DeviceRow | null,
  after: DeviceRow | null,
  box: SecretBox,
): Record<string, unknown> {
  const view = (row: DeviceRow): Record<string, unknown> => {
    const plain: Record<string, unknown> = {
      name: row.name,
      vendor: row.vendor,
      model: row.model,
      host: row.host,
      location: row.location,
      notes: row.notes,
      tags: row.tags,
      snmp_version: row.snmpVersion,
      snmp_port: row.snmpPort,
      snmp_v3_user: row.snmpV3User,
      snmp_v3_auth_protocol: row.snmpV3AuthProtocol,
      snmp_v3_priv_protocol: row.snmpV3PrivProtocol,
      api_type: row.apiType,
      api_port: row.apiPort,
      api_tls: row.apiTls,
      api_username: row.apiUsername,
      hotspot_url: row.hotspotUrl,
    };
    for (const field of DEVICE_SECRET_FIELDS) {
      const sealed = row[SECRET_COLUMNS[field]];
      plain[field] = sealed ? box.open(sealed) : null;
    }
    return plain;
  };
  // No row (before a create, after a delete): every field null, so only what the device has shows.
  const a = before ? view(before) : null;
  const b = after ? view(after) : null;
  const none = (other: Record<string, unknown> | null) =>
    Object.fromEntries(Object.keys(other ?? {}).map((k) => [k, null]));
  return changedFields(a ?? none(b), b ?? none(a), { secret: DEVICE_SECRET_FIELDS });
}

export class DeviceService {
  constructor(private readonly deps: { db: Db; repository: DeviceRepository; clock: Clock; box: SecretBox }) {}

  /** Runs a change in one transaction with a recorder of its audit event (no audit context: nothing recorded). */
  private audited<T>(
    audit: AuditContext | undefined,
    work: (tx: Db, record: (entry: AuditEntry) => Promise<void>) => Promise<T>,
  ): Promise<T> {
    const { db, clock } = this.deps;
    return db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      return work(tx, async (entry) => {
        if (audit) await recordAudit(tx, clock, audit, { targetType: 'device', ...entry });
      });
    });
  }

  present(row: DeviceRow, role: Role | null | undefined): Device | DeviceSummary {
    return canManageDevices(role) ? toDevice(row, this.deps.box) : toDeviceSummary(row);
  }

  async list(role: Role, query: DeviceListQueryParsed) {
    const { rows, total } = await this.deps.repository.list({
      page: query.page,
      pageSize: query.limit,
      status: query.status,
      vendor: query.vendor,
      search: query.search,
    });
    return {
      items: rows.map((r) => this.present(r, role)),
      pagination: pagePagination(query.page, query.limit, total),
    };
  }

  async find(id: string): Promise<DeviceRow> {
    const row = UUID.test(id) ? await this.deps.repository.findById(id) : undefined;
    if (!row) throw notFound(DEVICE_MESSAGES.notFound);
    return row;
  }

  async get(role: Role, id: string): Promise<Device | DeviceSummary> {
    return this.present(await this.find(id), role);
  }

  async create(input: DeviceInputParsed, audit?: AuditContext): Promise<Device> {
    const { repository, clock, box } = this.deps;
    const plain = this.plainFrom(input, null);
    const secrets = this.mergeSecrets(input, null);
    this.check(plain, secrets);
    const now = clock.now();
    const values: NewDeviceRow = {
      ...plain,
      ...this.sealAll(secrets),
      status: 'unknown',
      createdAt: now,
      updatedAt: now,
    };
    const row = await this.write(() =>
      this.audited(audit, async (tx, record) => {
        const inserted = await repository.insert(values, tx);
        await record({
          action: 'device.created',
          targetId: inserted.id,
          changes: deviceAuditDiff(null, inserted, box),
        });
        return inserted;
      }),
    );
    return toDevice(row, box);
  }

  async update(id: string, input: DeviceUpdateParsed, audit?: AuditContext): Promise<Device> {
    const { repository, clock, box } = this.deps;
    await this.find(id);
    const row = await this.write(() =>
      this.audited(audit, async (tx, record) => {
        const current = await repository.lock(tx, id);
        if (!current) throw notFound(DEVICE_MESSAGES.notFound);
        const plain = this.plainFrom(input, current);
        const secrets = this.mergeSecrets(input, current);
        this.check(plain, secrets);
        const values: Partial<NewDeviceRow> = { ...plain, updatedAt: clock.now() };
        // Only secrets that change are sealed again (an unchanged one keeps its stored ciphertext).
        for (const field of DEVICE_SECRET_FIELDS) {
          const sent = input[field];
          if (!keeps(sent) || this.dropped(field, plain)) values[SECRET_COLUMNS[field]] = this.sealOne(secrets[field]);
        }
        // New SNMP settings are worth polling at once, without the backoff the old ones earned.
        const snmpSecretsChanged = (['snmp_community', 'snmp_v3_auth_key', 'snmp_v3_priv_key'] as const).some(
          (f) => !keeps(input[f]),
        );
        const snmpChanged =
          plain.host !== current.host ||
          plain.snmpPort !== current.snmpPort ||
          plain.snmpVersion !== current.snmpVersion ||
          plain.snmpV3User !== current.snmpV3User ||
          plain.snmpV3AuthProtocol !== current.snmpV3AuthProtocol ||
          plain.snmpV3PrivProtocol !== current.snmpV3PrivProtocol;
        if (snmpChanged || snmpSecretsChanged) {
          values.nextPollAt = null;
          values.pollFailures = 0;
        }
        const updated = (await repository.update(id, values, tx))!;
        await record({ action: 'device.updated', targetId: id, changes: deviceAuditDiff(current, updated, box) });
        return updated;
      }),
    );
    return toDevice(row, box);
  }

  async delete(id: string, audit?: AuditContext): Promise<void> {
    const { repository, box } = this.deps;
    await this.find(id);
    await this.audited(audit, async (tx, record) => {
      const current = await repository.lock(tx, id);
      if (!current || !(await repository.delete(id, tx))) throw notFound(DEVICE_MESSAGES.notFound);
      await record({ action: 'device.deleted', targetId: id, changes: deviceAuditDiff(current, null, box) });
    });
  }

  /** Tests a stored device's SNMP and API settings. */
  async testStored(id: string, timeoutMs?: number): Promise<ConnectionTest> {
    const device = openDeviceSecrets(await this.find(id), this.deps.box);
    return testDeviceConnection(device, { timeoutMs, clock: this.deps.clock });
  }

  /** Tests settings from a form (with device_id: blank secrets and absent fields from that stored device). */
  async testSettings(input: DeviceTestSettingsParsed): Promise<ConnectionTest> {
    const current = input.device_id ? await this.find(input.device_id) : null;
    if (!current && input.host === undefined) {
      throw badRequest('Validation failed: Host is required', [{ field: 'host', message: 'Host is required' }]);
    }
    const plain = this.plainFrom(input, current);
    const secrets = this.mergeSecrets(input, current);
    const row = { ...(current ?? ({} as DeviceRow)), ...plain, ...this.sealAll(secrets) } as DeviceRow;
    const device = openDeviceSecrets(row, this.deps.box);
    return testDeviceConnection(device, { timeoutMs: input.timeout_ms, clock: this.deps.clock });
  }

  // --- values ------------------------------------------------------------------------------------------

  private plainFrom(input: DeviceUpdateParsed, current: DeviceRow | null): Plain {
    const pick = <T>(sent: T | undefined, stored: T, fallback: T): T =>
      sent !== undefined ? sent : current ? stored : fallback;
    const c = current ?? ({} as DeviceRow);
    const plain: Plain = {
      name: pick(input.name, c.name, ''),
      vendor: pick(input.vendor, c.vendor, 'generic'),
      model: pick(input.model, c.model, null),
      host: pick(input.host, c.host, ''),
      location: pick(input.location, c.location, null),
      notes: pick(input.notes, c.notes, null),
      tags: pick(input.tags, c.tags, []),
      snmpVersion: pick(input.snmp_version, c.snmpVersion, 'v2c'),
      snmpPort: pick(input.snmp_port, c.snmpPort, 161),
      snmpV3User: pick(input.snmp_v3_user, c.snmpV3User, null),
      snmpV3AuthProtocol: pick(input.snmp_v3_auth_protocol, c.snmpV3AuthProtocol, null),
      snmpV3PrivProtocol: pick(input.snmp_v3_priv_protocol, c.snmpV3PrivProtocol, null),
      apiType: pick(input.api_type, c.apiType, null),
      apiPort: pick(input.api_port, c.apiPort, null),
      apiTls: pick(input.api_tls, c.apiTls, true),
      apiUsername: pick(input.api_username, c.apiUsername, null),
      hotspotUrl: pick(input.hotspot_url, c.hotspotUrl, null),
    };
    // Settings that no longer apply are cleared, so a stale v3 key or API user never lingers unseen.
    if (plain.snmpVersion === 'v2c') {
      plain.snmpV3User = null;
      plain.snmpV3AuthProtocol = null;
      plain.snmpV3PrivProtocol = null;
    }
    if (!plain.apiType) {
      plain.apiPort = null;
      plain.apiUsername = null;
    }
    return plain;
  }

  /** Whether a secret no longer applies to the settings (its column is then cleared). */
  private dropped(field: DeviceSecretField, plain: Plain): boolean {
    switch (field) {
      case 'snmp_community':
        return plain.snmpVersion !== 'v2c';
      case 'snmp_v3_auth_key':
        return plain.snmpVersion !== 'v3' || !plain.snmpV3AuthProtocol;
      case 'snmp_v3_priv_key':
        return plain.snmpVersion !== 'v3' || !plain.snmpV3PrivProtocol;
      case 'api_password':
        return !plain.apiType;
      default:
        return false;
    }
  }

  /** The plaintext secrets after this input: sent ones, else the stored ones; dropped ones null. */
  private mergeSecrets(input: DeviceUpdateParsed, current: DeviceRow | null): Record<DeviceSecretField, string | null> {
    const plain = this.plainFrom(input, current);
    const result = {} as Record<DeviceSecretField, string | null>;
    for (const field of DEVICE_SECRET_FIELDS) {
      const sent = input[field];
      const stored = current?.[SECRET_COLUMNS[field]] ? this.deps.box.open(current[SECRET_COLUMNS[field]]!) : null;
      const value = sent === null ? null : keeps(sent) ? stored : sent;
      result[field] = this.dropped(field, plain) ? null : value || null;
    }
    return result;
  }

  private sealOne(value: string | null): string | null {
    return value ? this.deps.box.seal(value) : null;
  }

  private sealAll(
    secrets: Record<DeviceSecretField, string | null>,
  ): Pick<NewDeviceRow, (typeof SECRET_COLUMNS)[DeviceSecretField]> {
    return Object.fromEntries(DEVICE_SECRET_FIELDS.map((f) => [SECRET_COLUMNS[f], this.sealOne(secrets[f])]));
  }

  /** The rules across fields; 400 naming each field. */
  private check(plain: Plain, secrets: Record<DeviceSecretField, string | null>): void {
    const errors: FieldError[] = [];
    if (plain.snmpVersion === 'v2c' && !secrets.snmp_community) {
      errors.push({ field: 'snmp_community', message: 'SNMP community is required for SNMP v2c' });
    }
    if (plain.snmpVersion === 'v3') {
      if (!plain.snmpV3User) errors.push({ field: 'snmp_v3_user', message: 'SNMPv3 user is required for SNMP v3' });
      if (plain.snmpV3AuthProtocol && !secrets.snmp_v3_auth_key) {
        errors.push({
          field: 'snmp_v3_auth_key',
          message: 'SNMPv3 authentication key is required with an authentication protocol',
        });
      }
      if (plain.snmpV3PrivProtocol && !plain.snmpV3AuthProtocol) {
        errors.push({
          field: 'snmp_v3_priv_protocol',
          message: 'SNMPv3 privacy needs an authentication protocol as well',
        });
      }
      if (plain.snmpV3PrivProtocol && !secrets.snmp_v3_priv_key) {
        errors.push({ field: 'snmp_v3_priv_key', message: 'SNMPv3 privacy key is required with a privacy protocol' });
      }
    }
    if (plain.apiType) {
      if (!plain.apiUsername)
        errors.push({ field: 'api_username', message: 'API user name is required with a management API' });
      if (!secrets.api_password)
        errors.push({ field: 'api_password', message: 'API password is required with a management API' });
    }
    if (errors.length) throw badRequest(validationSummary(errors), errors);
  }

  private async write<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(DEVICE_MESSAGES.nameTaken);
      throw error;
    }
  }
}
