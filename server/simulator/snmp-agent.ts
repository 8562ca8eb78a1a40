/**
 * The simulated NAS's SNMP agent (net-snmp's Agent, v2c, read-only community) on a loopback UDP port: the
 * system group (sysDescr, sysObjectID, sysUpTime, sysName, sysLocation) and IF-MIB's ifTable and ifXTable with
 * the columns the portal's poller walks (server/integrations/snmp/oids.ts): names, ifType, speeds, statuses,
 * MAC, 32-bit and 64-bit (HC) octet counters. `refresh` writes the interfaces' current counters.
 */
import { createSocket, type Socket } from 'node:dgram';
import snmp from 'net-snmp';

export interface SimInterface {
  ifIndex: number;
  name: string;
  alias: string;
  /** IANA ifType: 6 ethernetCsmacd, 24 softwareLoopback, 209 bridge. */
  ifType: number;
  speedMbps: number;
  mac: Buffer;
  inOctets: bigint;
  outOctets: bigint;
}

export interface SnmpAgentOptions {
  host: string;
  /** 0 (default): a free port. */
  port?: number;
  community: string;
  sysName: string;
  sysDescr: string;
  sysLocation: string;
  interfaces: SimInterface[];
}

/** The parts of net-snmp's Agent and Mib used here (its type package declares createAgent as returning any). */
interface Mib {
  registerProviders(providers: object[]): void;
  setScalarValue(name: string, value: unknown): void;
  addTableRow(table: string, row: unknown[]): void;
  setTableSingleCell(table: string, column: number, rowIndex: number[], value: unknown): void;
}
interface Agent {
  getMib(): Mib;
  getAuthorizer(): {
    addCommunity(community: string): void;
    getAccessControlModel(): { setCommunityAccess(community: string, level: number): void };
  };
  close(callback?: () => void): void;
  listener: { sockets: Record<string, Socket> };
}

const RO = snmp.MaxAccess['read-only'];
const column = (number: number, name: string, type: number) => ({ number, name, type, maxAccess: RO });
/** MikroTik's enterprise (14988) sysObjectID. */
const MIKROTIK_OBJECT_ID = '1.3.6.1.4.1.14988.1';
const TWO_32 = 2n ** 32n;
const TWO_64 = 2n ** 64n;

function counter64(value: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(value % TWO_64);
  return b;
}

/** A UDP port free on the host right now (net-snmp's agent takes 0 as "port 161"). */
async function freeUdpPort(host: string): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, host, () => resolve());
  });
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

export class SimulatedSnmpAgent {
  private agent: Agent | null = null;
  private readonly startedAt = Date.now();
  port = 0;
  /** Requests answered (every get, get-next and get-bulk PDU). */
  requests = 0;

  constructor(private readonly options: SnmpAgentOptions) {}

  async start(): Promise<number> {
    const { host } = this.options;
    for (let attempt = 0; ; attempt++) {
      const port = this.options.port || (await freeUdpPort(host));
      try {
        await this.listen(host, port);
        this.port = port;
        return port;
      } catch (error) {
        // Another process took the free port between our look and the agent's bind: look again.
        if (this.options.port || attempt >= 4 || (error as { code?: string }).code !== 'EADDRINUSE') throw error;
      }
    }
  }

  /** Writes the interfaces' counters and the uptime into the MIB. */
  refresh(): void {
    const mib = this.agent?.getMib();
    if (!mib) return;
    mib.setScalarValue('sysUpTime', this.uptimeTicks());
    for (const i of this.options.interfaces) {
      mib.setTableSingleCell('ifTable', 10, [i.ifIndex], Number(i.inOctets % TWO_32));
      mib.setTableSingleCell('ifTable', 16, [i.ifIndex], Number(i.outOctets % TWO_32));
      mib.setTableSingleCell('ifXTable', 6, [i.ifIndex], counter64(i.inOctets));
      mib.setTableSingleCell('ifXTable', 10, [i.ifIndex], counter64(i.outOctets));
    }
  }

  async close(): Promise<void> {
    const agent = this.agent;
    this.agent = null;
    if (agent) await new Promise<void>((resolve) => agent.close(() => resolve()));
  }

  private uptimeTicks(): number {
    return Math.floor((Date.now() - this.startedAt) / 10) % 2 ** 32;
  }

  private listen(host: string, port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      let listening = false;
      const agent: Agent = snmp.createAgent(
        { port, address: host, transport: 'udp4', accessControlModelType: snmp.AccessControlModelType.Simple },
        (error: Error | null) => {
          // Bind errors before listening fail the start; later ones (a malformed packet) are not the NAS's problem.
          if (error && !listening) reject(error);
          else if (!error) this.requests++;
        },
      );
      const authorizer = agent.getAuthorizer();
      authorizer.addCommunity(this.options.community);
      authorizer.getAccessControlModel().setCommunityAccess(this.options.community, snmp.AccessLevel.ReadOnly);
      this.populate(agent.getMib());
      const sockets = Object.values(agent.listener.sockets);
      let pending = sockets.length;
      for (const socket of sockets) {
        socket.once('listening', () => {
          if (--pending === 0) {
            listening = true;
            this.agent = agent;
            resolve();
          }
        });
      }
    });
  }

  private populate(mib: Mib): void {
    const T = snmp.ObjectType;
    const scalar = (name: string, oid: string, scalarType: number) => ({
      name,
      type: snmp.MibProviderType.Scalar,
      oid,
      scalarType,
      maxAccess: RO,
    });
    mib.registerProviders([
      scalar('sysDescr', '1.3.6.1.2.1.1.1', T.OctetString),
      scalar('sysObjectID', '1.3.6.1.2.1.1.2', T.OID),
      scalar('sysUpTime', '1.3.6.1.2.1.1.3', T.TimeTicks),
      scalar('sysContact', '1.3.6.1.2.1.1.4', T.OctetString),
      scalar('sysName', '1.3.6.1.2.1.1.5', T.OctetString),
      scalar('sysLocation', '1.3.6.1.2.1.1.6', T.OctetString),
      {
        name: 'ifTable',
        type: snmp.MibProviderType.Table,
        oid: '1.3.6.1.2.1.2.2.1',
        maxAccess: snmp.MaxAccess['not-accessible'],
        tableColumns: [
          column(1, 'ifIndex', T.Integer),
          column(2, 'ifDescr', T.OctetString),
          column(3, 'ifType', T.Integer),
          column(4, 'ifMtu', T.Integer),
          column(5, 'ifSpeed', T.Gauge),
          column(6, 'ifPhysAddress', T.OctetString),
          column(7, 'ifAdminStatus', T.Integer),
          column(8, 'ifOperStatus', T.Integer),
          column(10, 'ifInOctets', T.Counter),
          column(16, 'ifOutOctets', T.Counter),
        ],
        tableIndex: [{ columnName: 'ifIndex' }],
      },
      {
        name: 'ifXTable',
        type: snmp.MibProviderType.Table,
        oid: '1.3.6.1.2.1.31.1.1.1',
        maxAccess: snmp.MaxAccess['not-accessible'],
        tableColumns: [
          column(1, 'ifName', T.OctetString),
          column(6, 'ifHCInOctets', T.Counter64),
          column(10, 'ifHCOutOctets', T.Counter64),
          column(15, 'ifHighSpeed', T.Gauge),
          column(18, 'ifAlias', T.OctetString),
        ],
        tableAugments: 'ifTable',
      },
    ]);
    mib.setScalarValue('sysDescr', this.options.sysDescr);
    mib.setScalarValue('sysObjectID', MIKROTIK_OBJECT_ID);
    mib.setScalarValue('sysUpTime', this.uptimeTicks());
    mib.setScalarValue('sysContact', 'noc@isp.local');
    mib.setScalarValue('sysName', this.options.sysName);
    mib.setScalarValue('sysLocation', this.options.sysLocation);
    for (const i of this.options.interfaces) {
      const bps = Math.min(i.speedMbps * 1_000_000, 2 ** 32 - 1);
      mib.addTableRow('ifTable', [
        i.ifIndex,
        i.name,
        i.ifType,
        i.ifType === 24 ? 65536 : 1500,
        bps,
        i.mac,
        1,
        1,
        Number(i.inOctets % TWO_32),
        Number(i.outOctets % TWO_32),
      ]);
      mib.addTableRow('ifXTable', [
        i.ifIndex,
        i.name,
        counter64(i.inOctets),
        counter64(i.outOctets),
        i.speedMbps,
        i.alias,
      ]);
    }
  }
}
