/**
 * A simulated MikroTik PPPoE concentrator. Each active customer's router (a "CPE") dials in with PAP, gets
 * its rate from the Access-Accept (Mikrotik-Rate-Limit, or WISPr), and its session moves traffic that follows
 * the plan and the time of day; accounting Start, Interim-Update (at the portal's Acct-Interim-Interval, or
 * more often) and Stop report growing byte counts (64-bit, with Gigawords). Sessions end now and then (lost
 * carrier, the customer's router rebooting, Session-Timeout) and the CPE dials again a few seconds later. A
 * Disconnect-Request ends the session (ACK, then a Stop with Admin-Reset); a CoA-Request with a new rate is
 * applied to the live session. The NAS's interfaces carry the sum of its customers' traffic, so what the portal
 * polls over SNMP agrees with what RADIUS accounts.
 */
import type { RemoteInfo } from 'node:dgram';
import {
  MIKROTIK_VENDOR,
  stringAttribute,
  integerAttribute,
  type RadiusAttribute,
  type RadiusPacket,
} from '../integrations/radius/codec';
import type { PacketBudget } from './packet-budget';
import { DynAuthListener, RadiusNasClient, SESSION_CONTEXT_NOT_FOUND, type DynAuthDecision } from './radius-client';
import { SimulatedSnmpAgent, type SimInterface } from './snmp-agent';
import { bytesOver, hashText, profileFor, type Rate, type TrafficProfile } from './traffic';
import type { SimulatedLogin } from './portal-link';

export interface SimLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface SimulatedNasOptions {
  /** Device name, NAS-Identifier and sysName. */
  name: string;
  /** The loopback address the NAS sends from and listens on (its device host in the portal). */
  host: string;
  radius: { host: string; authPort: number; acctPort: number; secret: string };
  /** The port the portal sends Disconnect/CoA-Requests to (its RADIUS_COA_PORT). */
  coaPort: number;
  snmp: { port?: number; community: string };
  budget: PacketBudget;
  /** Upper bound on the interim interval, whatever the portal asks (seconds). Default 60. */
  maxInterimSeconds?: number;
  /** Mean length of a session before the line drops and the CPE dials again (minutes). Default 180. */
  meanSessionMinutes?: number;
  /** Wait before dialing again after a session ended (seconds, random in the range). Default [3, 15]. */
  redialSeconds?: [number, number];
  /** Wait before dialing again after an Access-Reject (seconds). Default 60. */
  rejectRetrySeconds?: number;
  /** First dials spread over this many seconds. Default 5. */
  startSpreadSeconds?: number;
  /** RADIUS time-out per try (ms). Default 3000. */
  radiusTimeoutMs?: number;
  tickMs?: number;
  log: SimLogger;
}

export type SimEventType = 'accept' | 'reject' | 'start' | 'interim' | 'stop' | 'disconnect' | 'coa' | 'nak';
export interface SimEvent {
  type: SimEventType;
  at: number;
  username: string;
  acctSessionId?: string;
  rate?: Rate;
  cause?: string;
}

export interface SimSession {
  acctSessionId: string;
  username: string;
  subscriptionId: string;
  framedIp: string;
  startedAt: number;
  rate: Rate;
  walledGarden: boolean;
  /** Customer's upload (the NAS's input) and download (output), bytes. */
  inputOctets: number;
  outputOctets: number;
  interimMs: number;
  nextInterimAt: number;
  endsAt: number;
  endCause: string;
}

interface Cpe {
  login: SimulatedLogin;
  profile: TrafficProfile;
  mac: string;
  state: 'idle' | 'dialing' | 'online';
  nextDialAt: number;
  session: SimSession | null;
  /** No longer an active subscription in the portal: not dialed again once offline. */
  gone: boolean;
  reporting: boolean;
}

const TWO_32 = 2 ** 32;
const MAX_EVENTS = 1_000;

/** "10M/50M" (rx/tx from the router's side: the customer's upload/download), k/M/G units, bits/s without. */
export function parseRateLimit(value: string | undefined): Rate | null {
  if (!value) return null;
  const [rx, tx] = value.trim().split(/\s+/)[0].split('/');
  const kbps = (v: string | undefined) => {
    const m = /^(\d+(?:\.\d+)?)([kKmMgG]?)$/.exec(v ?? '');
    if (!m) return null;
    const n = Number(m[1]);
    const unit = m[2].toLowerCase();
    return Math.round(unit === 'g' ? n * 1_000_000 : unit === 'm' ? n * 1_000 : unit === 'k' ? n : n / 1_000);
  };
  const up = kbps(rx);
  const down = kbps(tx ?? rx);
  return up === null || down === null ? null : { uploadKbps: up, downloadKbps: down };
}

/** A rate as Mikrotik-Rate-Limit text, "<upload>/<download>" ("10M/50M", "512k/2M"). */
export function rateLimitText(rate: Rate): string {
  const unit = (kbps: number) => (kbps % 1000 === 0 ? `${kbps / 1000}M` : `${kbps}k`);
  return `${unit(rate.uploadKbps)}/${unit(rate.downloadKbps)}`;
}

/** The rate an Access-Accept or CoA-Request gives: MikroTik's attribute, else WISPr's (bits/s). */
export function rateFrom(packet: RadiusPacket): Rate | null {
  const vsa = packet.attributes['Vendor-Specific'] as Record<string, unknown> | undefined;
  const mikrotik = parseRateLimit(
    typeof vsa?.['Mikrotik-Rate-Limit'] === 'string' ? (vsa['Mikrotik-Rate-Limit'] as string) : undefined,
  );
  if (mikrotik) return mikrotik;
  const down = Number(vsa?.['WISPr-Bandwidth-Max-Down']);
  const up = Number(vsa?.['WISPr-Bandwidth-Max-Up']);
  return down > 0 && up > 0 ? { downloadKbps: Math.round(down / 1000), uploadKbps: Math.round(up / 1000) } : null;
}

export class SimulatedNas {
  readonly interfaces: SimInterface[];
  readonly snmp: SimulatedSnmpAgent;
  readonly events: SimEvent[] = [];
  private readonly cpes = new Map<string, Cpe>();
  private readonly sessions = new Map<string, Cpe>();
  private readonly listeners = new Set<(event: SimEvent) => void>();
  private readonly counts: Record<SimEventType, number> = {
    accept: 0,
    reject: 0,
    start: 0,
    interim: 0,
    stop: 0,
    disconnect: 0,
    coa: 0,
    nak: 0,
  };
  private readonly radius: RadiusNasClient;
  private readonly dynauth: DynAuthListener;
  private readonly usedIps = new Set<string>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | null = null;
  private lastTick = Date.now();
  private sessionSeq = Math.floor(Math.random() * 0xfffff) << 8;
  private stopped = false;
  private started = false;

  constructor(private readonly options: SimulatedNasOptions) {
    const mac = (n: number) => Buffer.from([0x48, 0xa9, 0x8a, 0x5e, 0x00, n]);
    this.interfaces = [
      {
        ifIndex: 1,
        name: 'ether1',
        alias: 'uplink to transit',
        ifType: 6,
        speedMbps: 10_000,
        mac: mac(1),
        inOctets: 0n,
        outOctets: 0n,
      },
      {
        ifIndex: 2,
        name: 'ether2',
        alias: 'PPPoE access (customers)',
        ifType: 6,
        speedMbps: 10_000,
        mac: mac(2),
        inOctets: 0n,
        outOctets: 0n,
      },
      {
        ifIndex: 3,
        name: 'ether3',
        alias: 'management',
        ifType: 6,
        speedMbps: 1_000,
        mac: mac(3),
        inOctets: 0n,
        outOctets: 0n,
      },
      {
        ifIndex: 4,
        name: 'lo',
        alias: '',
        ifType: 24,
        speedMbps: 0,
        mac: Buffer.alloc(0),
        inOctets: 0n,
        outOctets: 0n,
      },
    ];
    this.snmp = new SimulatedSnmpAgent({
      host: options.host,
      port: options.snmp.port,
      community: options.snmp.community,
      sysName: options.name,
      sysDescr: 'RouterOS CCR2004-1G-12S+2XS (simulated by the ISP portal)',
      sysLocation: 'Simulated POP, loopback',
      interfaces: this.interfaces,
    });
    this.radius = new RadiusNasClient({
      host: options.host,
      target: {
        host: options.radius.host,
        authPort: options.radius.authPort,
        acctPort: options.radius.acctPort,
        secret: options.radius.secret,
      },
      budget: options.budget,
      timeoutMs: options.radiusTimeoutMs,
    });
    this.dynauth = new DynAuthListener({
      host: options.host,
      port: options.coaPort,
      secret: () => options.radius.secret,
      handle: (kind, request, from) => this.onDynAuth(kind, request, from),
    });
  }

  /** Starts the SNMP agent and the RADIUS sockets; the NAS tells the portal it (re)booted (Accounting-On). */
  async start(): Promise<{ snmpPort: number; coaPort: number }> {
    const snmpPort = await this.snmp.start();
    try {
      await this.radius.start();
      const coaPort = await this.dynauth.start();
      this.started = true;
      return { snmpPort, coaPort };
    } catch (error) {
      await this.closeSockets();
      throw error;
    }
  }

  /** Begins dialing and moving traffic (after the device is registered with the portal). */
  run(): void {
    if (this.timer || this.stopped) return;
    this.track(
      this.radius.request('Accounting-Request', [
        ...this.nasAttributes(),
        ['Acct-Status-Type', 'Accounting-On'],
        ['Acct-Session-Id', '0'],
      ]),
    );
    this.lastTick = Date.now();
    this.timer = setInterval(() => this.tick(), this.options.tickMs ?? 1_000);
  }

  /** The active subscriptions' logins: new ones start dialing, vanished ones stop once they are offline. */
  setLogins(logins: SimulatedLogin[]): void {
    const now = Date.now();
    const spread = (this.options.startSpreadSeconds ?? 5) * 1000;
    const seen = new Set<string>();
    for (const login of logins) {
      seen.add(login.username);
      const known = this.cpes.get(login.username);
      if (known) {
        known.login = login;
        known.gone = false;
        continue;
      }
      const h = hashText(login.username);
      this.cpes.set(login.username, {
        login,
        profile: profileFor(login.username),
        mac: ['D4', 'CA', '6D', (h >>> 16) & 0xff, (h >>> 8) & 0xff, h & 0xff]
          .map((v) => (typeof v === 'number' ? v.toString(16).padStart(2, '0') : v).toUpperCase())
          .join(':'),
        state: 'idle',
        nextDialAt: now + Math.random() * spread,
        session: null,
        gone: false,
        reporting: false,
      });
    }
    for (const [username, cpe] of this.cpes) {
      if (seen.has(username)) continue;
      cpe.gone = true;
      if (cpe.state === 'idle') this.cpes.delete(username);
    }
  }

  onEvent(listener: (event: SimEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The open session of a login, if it is online. */
  session(username: string): SimSession | null {
    return this.cpes.get(username)?.session ?? null;
  }

  stats() {
    let online = 0;
    for (const cpe of this.cpes.values()) if (cpe.state === 'online') online++;
    const count = (type: SimEventType) => this.counts[type];
    return {
      customers: this.cpes.size,
      online,
      started: count('start'),
      stopped: count('stop'),
      rejected: count('reject'),
      disconnects: count('disconnect'),
      coas: count('coa'),
      packetsSent: this.options.budget.sent,
      radiusTimeouts: this.radius.timeouts,
      snmpRequests: this.snmp.requests,
    };
  }

  /**
   * Ends every session with a Stop (Admin-Reboot) within `deadlineMs`, tells the portal the NAS is off
   * (Accounting-Off closes whatever a lost Stop left open), then closes the sockets and the agent.
   */
  async stop(deadlineMs = 3_000): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.started) {
      const stops = [...this.cpes.values()]
        .filter((c) => c.session)
        .map((c) => this.endSession(c, 'Admin-Reboot', true));
      const off = Promise.allSettled(stops).then(() =>
        this.radius.request('Accounting-Request', [
          ...this.nasAttributes(),
          ['Acct-Status-Type', 'Accounting-Off'],
          ['Acct-Session-Id', '0'],
        ]),
      );
      await Promise.race([off, new Promise((resolve) => setTimeout(resolve, deadlineMs))]);
    }
    this.options.budget.release();
    await this.closeSockets();
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((resolve) => setTimeout(resolve, 500))]);
  }

  private async closeSockets(): Promise<void> {
    await Promise.allSettled([this.radius.close(), this.dynauth.close(), this.snmp.close()]);
  }

  private tick(): void {
    const now = Date.now();
    const seconds = Math.min(10, (now - this.lastTick) / 1000);
    this.lastTick = now;
    const at = new Date(now);
    let down = 0;
    let up = 0;
    for (const cpe of this.cpes.values()) {
      if (cpe.state === 'idle' && !cpe.gone && now >= cpe.nextDialAt) {
        this.track(this.dial(cpe));
        continue;
      }
      const session = cpe.session;
      if (cpe.state !== 'online' || !session) continue;
      const moved = bytesOver(
        cpe.profile,
        session.walledGarden ? { downloadKbps: 64, uploadKbps: 64 } : session.rate,
        seconds,
        at,
      );
      session.outputOctets += moved.down;
      session.inputOctets += moved.up;
      down += moved.down;
      up += moved.up;
      if (now >= session.endsAt) this.track(this.endSession(cpe, session.endCause));
      else if (now >= session.nextInterimAt && !cpe.reporting) this.track(this.interim(cpe, session));
    }
    // What the customers move crosses the access port and the uplink; the NAS's own RADIUS/SNMP the management port.
    const [uplink, access, management, loopback] = this.interfaces;
    const overhead = (bytes: number) => BigInt(Math.floor(bytes * 1.03));
    uplink.inOctets += overhead(down);
    uplink.outOctets += overhead(up);
    access.inOctets += overhead(up);
    access.outOctets += overhead(down);
    management.inOctets += BigInt(Math.floor(1_500 * seconds));
    management.outOctets += BigInt(Math.floor(2_500 * seconds));
    loopback.inOctets += BigInt(Math.floor(300 * seconds));
    loopback.outOctets = loopback.inOctets;
    this.snmp.refresh();
  }

  private async dial(cpe: Cpe): Promise<void> {
    cpe.state = 'dialing';
    const { username, password } = cpe.login;
    const answer = await this.radius.request('Access-Request', [
      ['User-Name', username],
      ['User-Password', password],
      ...this.nasAttributes(),
      ['Calling-Station-Id', cpe.mac],
      ['NAS-Port-Id', 'ether2'],
      ['NAS-Port-Type', 'Ethernet'],
      ['Service-Type', 'Framed-User'],
      ['Framed-Protocol', 'PPP'],
    ]);
    if (this.stopped) return;
    const now = Date.now();
    if (answer?.code !== 'Access-Accept') {
      cpe.state = 'idle';
      if (cpe.gone) this.cpes.delete(username);
      if (answer) this.emit({ type: 'reject', at: now, username });
      cpe.nextDialAt = now + (answer ? (this.options.rejectRetrySeconds ?? 60) : 10) * 1000;
      return;
    }
    this.emit({ type: 'accept', at: now, username });
    const rate = rateFrom(answer) ?? { downloadKbps: 10_000, uploadKbps: 10_000 };
    const asked = integerAttribute(answer, 85) ?? 300;
    const interimMs = Math.max(1, Math.min(asked, this.options.maxInterimSeconds ?? 60)) * 1000;
    const timeout = integerAttribute(answer, 27);
    const lifetime = -Math.log(1 - Math.random()) * (this.options.meanSessionMinutes ?? 180) * 60_000;
    const bySessionTimeout = timeout !== undefined && timeout * 1000 < lifetime;
    const session: SimSession = {
      acctSessionId: (++this.sessionSeq >>> 0).toString(16).padStart(8, '0'),
      username,
      subscriptionId: cpe.login.subscriptionId,
      framedIp: this.allocateIp(),
      startedAt: now,
      rate,
      walledGarden: stringAttribute(answer, 'Framed-Pool') !== undefined,
      inputOctets: 0,
      outputOctets: 0,
      interimMs,
      nextInterimAt: now + interimMs,
      endsAt: now + (bySessionTimeout ? timeout! * 1000 : lifetime),
      endCause: bySessionTimeout ? 'Session-Timeout' : Math.random() < 0.7 ? 'Lost-Carrier' : 'User-Request',
    };
    cpe.session = session;
    cpe.state = 'online';
    this.sessions.set(session.acctSessionId, cpe);
    cpe.reporting = true;
    try {
      await this.account(session, 'Start');
    } finally {
      cpe.reporting = false;
    }
    this.emit({ type: 'start', at: now, username, acctSessionId: session.acctSessionId, rate });
  }

  private async interim(cpe: Cpe, session: SimSession): Promise<void> {
    cpe.reporting = true;
    session.nextInterimAt = Date.now() + session.interimMs;
    try {
      await this.account(session, 'Interim-Update');
    } finally {
      cpe.reporting = false;
    }
    this.emit({ type: 'interim', at: Date.now(), username: session.username, acctSessionId: session.acctSessionId });
  }

  /** Takes the session down at once (no more traffic), then reports its Stop; the CPE dials again later. */
  private async endSession(cpe: Cpe, cause: string, final = false): Promise<void> {
    const session = cpe.session;
    if (!session) return;
    cpe.session = null;
    cpe.state = 'idle';
    this.sessions.delete(session.acctSessionId);
    this.usedIps.delete(session.framedIp);
    const [min, max] = this.options.redialSeconds ?? [3, 15];
    cpe.nextDialAt = Date.now() + (min + Math.random() * (max - min)) * 1000;
    if (cpe.gone) this.cpes.delete(session.username);
    await this.account(session, 'Stop', cause, final);
    this.emit({
      type: 'stop',
      at: Date.now(),
      username: session.username,
      acctSessionId: session.acctSessionId,
      cause,
    });
  }

  private account(session: SimSession, status: 'Start' | 'Interim-Update' | 'Stop', cause?: string, final = false) {
    if (this.stopped && !final) return Promise.resolve(null);
    const attributes: RadiusAttribute[] = [
      ['User-Name', session.username],
      ['Acct-Status-Type', status],
      ['Acct-Session-Id', session.acctSessionId],
      ...this.nasAttributes(),
      ['Framed-IP-Address', session.framedIp],
      ['Calling-Station-Id', this.cpes.get(session.username)?.mac ?? ''],
      ['NAS-Port-Id', 'ether2'],
      ['NAS-Port-Type', 'Ethernet'],
      ['Service-Type', 'Framed-User'],
      ['Framed-Protocol', 'PPP'],
      ['Acct-Delay-Time', 0],
    ];
    if (status !== 'Start') {
      attributes.push(
        ['Acct-Session-Time', Math.floor((Date.now() - session.startedAt) / 1000)],
        ['Acct-Input-Octets', session.inputOctets % TWO_32],
        ['Acct-Input-Gigawords', Math.floor(session.inputOctets / TWO_32)],
        ['Acct-Output-Octets', session.outputOctets % TWO_32],
        ['Acct-Output-Gigawords', Math.floor(session.outputOctets / TWO_32)],
      );
    }
    // The rate the session runs under, as RouterOS writes it: the portal confirms a CoA by it (issue 36).
    if (status !== 'Stop')
      attributes.push(['Vendor-Specific', MIKROTIK_VENDOR, [['Mikrotik-Rate-Limit', rateLimitText(session.rate)]]]);
    if (cause) attributes.push(['Acct-Terminate-Cause', cause]);
    return this.radius.request('Accounting-Request', attributes);
  }

  private onDynAuth(kind: 'disconnect' | 'coa', request: RadiusPacket, from: RemoteInfo): DynAuthDecision {
    const acctSessionId = stringAttribute(request, 'Acct-Session-Id');
    const username = stringAttribute(request, 'User-Name');
    const cpe = acctSessionId ? this.sessions.get(acctSessionId) : username ? this.cpes.get(username) : undefined;
    const session = cpe?.session;
    if (!cpe || !session || (username && session.username !== username)) {
      this.emit({ type: 'nak', at: Date.now(), username: username ?? '', acctSessionId, cause: kind });
      this.options.log.info(
        { kind, username, acctSessionId, from: from.address },
        'simulated NAS: no such session (NAK)',
      );
      return { ack: false, errorCause: SESSION_CONTEXT_NOT_FOUND };
    }
    if (kind === 'disconnect') {
      this.options.log.info(
        { username: session.username, acctSessionId: session.acctSessionId },
        'simulated NAS: Disconnect-Request, session ended',
      );
      this.emit({
        type: 'disconnect',
        at: Date.now(),
        username: session.username,
        acctSessionId: session.acctSessionId,
      });
      // Answer first (the ACK goes out with this return), then the Stop, as a router does.
      setImmediate(() => this.track(this.endSession(cpe, 'Admin-Reset')));
      return { ack: true };
    }
    const rate = rateFrom(request);
    if (rate) session.rate = rate;
    this.options.log.info(
      { username: session.username, acctSessionId: session.acctSessionId, rate },
      'simulated NAS: CoA-Request, rate applied',
    );
    this.emit({
      type: 'coa',
      at: Date.now(),
      username: session.username,
      acctSessionId: session.acctSessionId,
      rate: session.rate,
    });
    return { ack: true };
  }

  private nasAttributes(): RadiusAttribute[] {
    return [
      ['NAS-IP-Address', this.options.host],
      ['NAS-Identifier', this.options.name],
    ];
  }

  private allocateIp(): string {
    for (let i = 2; i < 65_534; i++) {
      const ip = `100.64.${i >> 8}.${i & 255}`;
      if ((i & 255) === 0 || (i & 255) === 255 || this.usedIps.has(ip)) continue;
      this.usedIps.add(ip);
      return ip;
    }
    return '100.64.255.254';
  }

  private emit(event: SimEvent): void {
    this.counts[event.type]++;
    this.events.push(event);
    if (this.events.length > MAX_EVENTS) this.events.splice(0, this.events.length - MAX_EVENTS);
    for (const listener of this.listeners) listener(event);
  }

  private track(work: Promise<unknown>): void {
    const p = work.catch((error: unknown) => this.options.log.warn({ err: error }, 'simulated NAS: request failed'));
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }
}
