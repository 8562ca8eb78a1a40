/**
 * Reading a device's interfaces over SNMP: sysUpTime, then walks of the IF-MIB ifTable and IF-X-MIB ifXTable
 * columns used (numeric OIDs), joined by ifIndex. 64-bit counters (ifHCInOctets/ifHCOutOctets) when the device has them,
 * else the 32-bit ifInOctets/ifOutOctets.
 */
import { OID } from '../../integrations/snmp/oids';
import {
  oidSuffix,
  snmpGet,
  snmpMac,
  snmpText,
  snmpWalk,
  type SnmpSession,
  type SnmpValue,
  type SnmpVarbind,
} from '../../integrations/snmp/session';
import type { CounterWidth } from './rates';

const OPER_STATUS: Record<number, string> = {
  1: 'up',
  2: 'down',
  3: 'testing',
  4: 'unknown',
  5: 'dormant',
  6: 'notPresent',
  7: 'lowerLayerDown',
};
const ADMIN_STATUS: Record<number, string> = { 1: 'up', 2: 'down', 3: 'testing' };

export interface InterfaceReading {
  ifIndex: number;
  name: string;
  alias: string;
  operStatus: string;
  adminStatus: string;
  highSpeedMbps: number;
  /** IANA ifType (6 ethernetCsmacd, 24 softwareLoopback, 53 propVirtual…), or null when not reported. */
  ifType: number | null;
  mac: string;
  inOctets: bigint | null;
  outOctets: bigint | null;
  width: CounterWidth;
}

export interface DeviceReading {
  uptimeTicks: bigint | null;
  interfaces: InterfaceReading[];
}

const toBigInt = (v: SnmpValue): bigint | null =>
  typeof v === 'bigint' ? v : typeof v === 'number' ? BigInt(v) : null;
const toNumber = (v: SnmpValue): number | null =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null;

/** Column → ifIndex → value, for the columns of one table walk. */
function byColumn(varbinds: SnmpVarbind[], columns: string[]): Map<string, Map<number, SnmpValue>> {
  const out = new Map(columns.map((c) => [c, new Map<number, SnmpValue>()]));
  for (const vb of varbinds) {
    for (const column of columns) {
      const suffix = oidSuffix(vb.oid, column);
      if (suffix && /^\d+$/.test(suffix)) {
        out.get(column)!.set(Number(suffix), vb.value);
        break;
      }
    }
  }
  return out;
}

/**
 * Interface types whose reported speed is nominal, not a limit: a loopback (Linux reports `lo` at 10 Mbit/s and
 * moves far more), virtual, tunnel, VLAN, bridge, PPP and aggregate interfaces. Their rates are not held to it.
 */
const NOMINAL_SPEED_TYPES = new Set([23, 24, 53, 131, 135, 161, 209]);

/** The speed a rate may be checked against (Mbit/s), or null when the interface's speed says nothing. */
export function limitingSpeedMbps(i: Pick<InterfaceReading, 'ifType' | 'highSpeedMbps'>): number | null {
  if (i.ifType !== null && NOMINAL_SPEED_TYPES.has(i.ifType)) return null;
  return i.highSpeedMbps > 0 ? i.highSpeedMbps : null;
}

export async function readInterfaces(
  session: SnmpSession,
  options: { timeoutMs?: number } = {},
): Promise<DeviceReading> {
  const [uptime] = await snmpGet(session, [OID.sysUpTime], { timeoutMs: options.timeoutMs });
  const ifTableColumns = [
    OID.ifDescr,
    OID.ifType,
    OID.ifSpeed,
    OID.ifPhysAddress,
    OID.ifAdminStatus,
    OID.ifOperStatus,
    OID.ifInOctets,
    OID.ifOutOctets,
  ];
  const ifXColumns = [OID.ifName, OID.ifHCInOctets, OID.ifHCOutOctets, OID.ifHighSpeed, OID.ifAlias];
  // One walk per column we use, side by side: a router with hundreds of (PPPoE) interfaces answers a dozen
  // columns far sooner than the two whole tables (41 columns). A device without IF-X-MIB answers those walks
  // with nothing: names fall back to ifDescr, counters to 32 bits.
  const walk = async (columns: string[]) =>
    (
      await Promise.all(columns.map((c) => snmpWalk(session, c, { timeoutMs: options.timeoutMs, maxRepetitions: 50 })))
    ).flat();
  const [tableVarbinds, xVarbinds] = await Promise.all([walk(ifTableColumns), walk(ifXColumns)]);
  const ifTable = byColumn(tableVarbinds, ifTableColumns);
  const ifX = byColumn(xVarbinds, ifXColumns);

  const indexes = new Set<number>([...ifTable.get(OID.ifDescr)!.keys(), ...ifX.get(OID.ifName)!.keys()]);
  const interfaces: InterfaceReading[] = [];
  for (const ifIndex of [...indexes].sort((a, b) => a - b)) {
    const get = (table: Map<string, Map<number, SnmpValue>>, column: string) => table.get(column)!.get(ifIndex) ?? null;
    const hcIn = toBigInt(get(ifX, OID.ifHCInOctets));
    const hcOut = toBigInt(get(ifX, OID.ifHCOutOctets));
    const has64 = hcIn !== null && hcOut !== null;
    const highSpeed = toNumber(get(ifX, OID.ifHighSpeed));
    const speedBps = toNumber(get(ifTable, OID.ifSpeed));
    interfaces.push({
      ifIndex,
      name: snmpText(get(ifX, OID.ifName)) || snmpText(get(ifTable, OID.ifDescr)) || `ifIndex ${ifIndex}`,
      alias: snmpText(get(ifX, OID.ifAlias)),
      operStatus: OPER_STATUS[toNumber(get(ifTable, OID.ifOperStatus)) ?? 4] ?? 'unknown',
      adminStatus: ADMIN_STATUS[toNumber(get(ifTable, OID.ifAdminStatus)) ?? 0] ?? 'unknown',
      highSpeedMbps: highSpeed ?? (speedBps !== null ? Math.round(speedBps / 1e6) : 0),
      ifType: toNumber(get(ifTable, OID.ifType)),
      mac: snmpMac(get(ifTable, OID.ifPhysAddress)),
      inOctets: has64 ? hcIn : toBigInt(get(ifTable, OID.ifInOctets)),
      outOctets: has64 ? hcOut : toBigInt(get(ifTable, OID.ifOutOctets)),
      width: has64 ? 64 : 32,
    });
  }
  return { uptimeTicks: toBigInt(uptime?.value ?? null), interfaces };
}
