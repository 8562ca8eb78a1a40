/**
 * Device queries. Rows keep their secrets sealed; `openDeviceSecrets` (and the two server-side readers below
 * it) open them for the poller, backups and RADIUS. Nothing here is ever sent to a browser as is: the API
 * goes through presenter.ts.
 */
import { and, asc, count, desc, eq, ilike, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  defaultApiPort,
  type DeviceApiType,
  type DeviceStatus,
  type DeviceVendor,
} from '../../../contract/schemas/device';
import type { Db } from '../../db/client';
import { devices, type DeviceRow, type NewDeviceRow } from '../../db/schema/devices';
import type { SecretBox } from '../../lib/secret-box';
import type { SnmpSettings } from '../../integrations/snmp';
import { likePattern } from '../../db/paging';

/** The management API settings, opened (RouterOS REST or API port). */
export interface DeviceApiSettings {
  type: DeviceApiType;
  host: string;
  port: number;
  tls: boolean;
  username: string;
  password: string;
}

/** A device with every secret opened, for server-side use only. */
export interface DeviceWithSecrets {
  id: string;
  name: string;
  vendor: DeviceVendor;
  model: string | null;
  host: string;
  location: string | null;
  status: DeviceStatus;
  statusChangedAt: Date | null;
  lastSeenAt: Date | null;
  pollFailures: number;
  nextPollAt: Date | null;
  /** Ready for createSnmpSession (add timeoutMs/retries as needed). */
  snmp: SnmpSettings;
  /** null: no management API configured. */
  api: DeviceApiSettings | null;
  radiusSecret: string | null;
  /** The row as stored (secrets still sealed). */
  row: DeviceRow;
}

function openOrNull(box: SecretBox, sealed: string | null): string | null {
  if (!sealed) return null;
  return box.open(sealed);
}

/** Opens a row's secrets. A secret sealed under another SECRETS_KEY opens as '' (the device then fails auth). */
export function openDeviceSecrets(row: DeviceRow, box: SecretBox): DeviceWithSecrets {
  const snmp: SnmpSettings =
    row.snmpVersion === 'v3'
      ? {
          version: 'v3',
          host: row.host,
          port: row.snmpPort,
          user: row.snmpV3User ?? '',
          authProtocol: row.snmpV3AuthProtocol ?? null,
          authKey: openOrNull(box, row.snmpV3AuthKey),
          privProtocol: row.snmpV3AuthProtocol ? (row.snmpV3PrivProtocol ?? null) : null,
          privKey: openOrNull(box, row.snmpV3PrivKey),
        }
      : { version: 'v2c', host: row.host, port: row.snmpPort, community: openOrNull(box, row.snmpCommunity) ?? '' };
  const api: DeviceApiSettings | null = row.apiType
    ? {
        type: row.apiType,
        host: row.host,
        port: row.apiPort ?? defaultApiPort(row.apiType, row.apiTls),
        tls: row.apiTls,
        username: row.apiUsername ?? '',
        password: openOrNull(box, row.apiPassword) ?? '',
      }
    : null;
  return {
    id: row.id,
    name: row.name,
    vendor: row.vendor,
    model: row.model,
    host: row.host,
    location: row.location,
    status: row.status,
    statusChangedAt: row.statusChangedAt,
    lastSeenAt: row.lastSeenAt,
    pollFailures: row.pollFailures,
    nextPollAt: row.nextPollAt,
    snmp,
    api,
    radiusSecret: openOrNull(box, row.radiusSecret),
    row,
  };
}

/** One device with its secrets opened; undefined when there is none with this id. Server-side use only. */
export async function getDeviceWithSecrets(db: Db, id: string, box: SecretBox): Promise<DeviceWithSecrets | undefined> {
  const [row] = await db.select().from(devices).where(eq(devices.id, id)).limit(1);
  return row ? openDeviceSecrets(row, box) : undefined;
}

/** Devices due for a poll at `now` (next_poll_at unset or passed), the longest-waiting first; secrets opened. */
export async function listDevicesForPolling(
  db: Db,
  now: Date,
  box: SecretBox,
  limit = 1000,
): Promise<DeviceWithSecrets[]> {
  const rows = await db
    .select()
    .from(devices)
    .where(or(isNull(devices.nextPollAt), lte(devices.nextPollAt, now)))
    .orderBy(sql`${devices.nextPollAt} asc nulls first`, asc(devices.id))
    .limit(limit);
  return rows.map((row) => openDeviceSecrets(row, box));
}

export interface DeviceListQuery {
  page: number;
  pageSize: number;
  status?: DeviceStatus;
  vendor?: DeviceVendor;
  /** Case-insensitive substring of name, host or location. */
  search?: string;
}

export function createDeviceRepository(db: Db) {
  return {
    async list(query: DeviceListQuery): Promise<{ rows: DeviceRow[]; total: number }> {
      const conditions: SQL[] = [];
      if (query.status) conditions.push(eq(devices.status, query.status));
      if (query.vendor) conditions.push(eq(devices.vendor, query.vendor));
      if (query.search) {
        const pattern = likePattern(query.search);
        conditions.push(
          or(ilike(devices.name, pattern), ilike(devices.host, pattern), ilike(devices.location, pattern))!,
        );
      }
      const where = conditions.length ? and(...conditions) : undefined;
      const [rows, [{ total }]] = await Promise.all([
        db
          .select()
          .from(devices)
          .where(where)
          .orderBy(asc(sql`lower(${devices.name})`), desc(devices.createdAt), asc(devices.id))
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize),
        db.select({ total: count() }).from(devices).where(where),
      ]);
      return { rows, total: Number(total) };
    },

    /** The hotspot login URLs of the devices that have one. */
    async hotspotUrls(): Promise<string[]> {
      const rows = await db.select({ url: devices.hotspotUrl }).from(devices).where(isNotNull(devices.hotspotUrl));
      return rows.map((row) => row.url!);
    },

    async findById(id: string): Promise<DeviceRow | undefined> {
      const [row] = await db.select().from(devices).where(eq(devices.id, id)).limit(1);
      return row;
    },

    async findByName(name: string): Promise<DeviceRow | undefined> {
      const [row] = await db.select().from(devices).where(sql`lower(${devices.name}) = lower(${name})`).limit(1);
      return row;
    },

    async insert(values: NewDeviceRow, conn: Db = db): Promise<DeviceRow> {
      const [row] = await conn.insert(devices).values(values).returning();
      return row;
    },

    /** The device row under a row lock (inside a transaction). */
    async lock(tx: Db, id: string): Promise<DeviceRow | undefined> {
      const [row] = await tx.select().from(devices).where(eq(devices.id, id)).for('update');
      return row;
    },

    async update(id: string, values: Partial<NewDeviceRow>, conn: Db = db): Promise<DeviceRow | undefined> {
      const [row] = await conn.update(devices).set(values).where(eq(devices.id, id)).returning();
      return row;
    },

    async delete(id: string, conn: Db = db): Promise<boolean> {
      const rows = await conn.delete(devices).where(eq(devices.id, id)).returning({ id: devices.id });
      return rows.length > 0;
    },
  };
}

export type DeviceRepository = ReturnType<typeof createDeviceRepository>;
