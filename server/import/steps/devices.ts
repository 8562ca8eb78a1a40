/** Routers / NAS devices: a device here with its RADIUS secret (and RouterOS API login), sealed. */
import { eq, sql } from 'drizzle-orm';
import { devices } from '../../db/schema/devices';
import type { SourceDevice } from '../model';
import type { Step } from './types';

/** A device here is monitored over SNMP; v2c needs a community. */
const DEFAULT_COMMUNITY = 'public';

export const deviceStep: Step<SourceDevice> = {
  kind: 'device',
  auditTarget: 'device',
  items: (s) => s.devices,
  async decide(db, _ctx, item) {
    const [same] = await db
      .select({ id: devices.id, name: devices.name })
      .from(devices)
      .where(eq(devices.host, item.host));
    if (same)
      return {
        action: 'link',
        targetId: same.id,
        reason: `already in the portal as device "${same.name}" (same address ${item.host})`,
      };
    const changes: string[] = [];
    if (!item.radiusSecret)
      changes.push(
        'no RADIUS secret in the source: set one on the device here and on the router before pointing it at the portal',
      );
    if (!item.snmpCommunity)
      changes.push(
        `no SNMP community in the source: "${DEFAULT_COMMUNITY}" (RouterOS's default) is used for monitoring; change it on the device if the router has another`,
      );
    if (await nameTaken(db, item.name))
      changes.push(`a device is already named "${item.name}": imported as "${item.name} (imported)"`);
    return { action: 'create', changes };
  },
  async create(tx, ctx, item) {
    const name = (await nameTaken(tx, item.name)) ? `${item.name} (imported)` : item.name;
    const [row] = await tx
      .insert(devices)
      .values({
        name: name.slice(0, 120),
        vendor: item.vendor,
        host: item.host.slice(0, 255),
        snmpVersion: 'v2c',
        snmpCommunity: ctx.box.seal(item.snmpCommunity || DEFAULT_COMMUNITY),
        radiusSecret: item.radiusSecret ? ctx.box.seal(item.radiusSecret) : null,
        apiType: item.apiUsername ? 'api' : null,
        apiTls: false,
        apiUsername: item.apiUsername?.slice(0, 120) ?? null,
        apiPassword: item.apiPassword ? ctx.box.seal(item.apiPassword) : null,
        tags: ['imported', `imported:${ctx.source}`],
        notes: item.notes,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .returning({ id: devices.id });
    return row!.id;
  },
};

async function nameTaken(db: Parameters<Step<SourceDevice>['decide']>[0], name: string): Promise<boolean> {
  const [row] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(sql`lower(${devices.name}) = ${name.toLowerCase()}`);
  return Boolean(row);
}
