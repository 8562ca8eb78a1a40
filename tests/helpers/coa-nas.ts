/**
 * A NAS that really changes its sessions (issue 36, verified changes): it holds live sessions it reported to the
 * portal (Start through radclient), listens for RFC 5176 requests like TestNas, and
 * - answers a CoA-Request with CoA-ACK or CoA-NAK (Error-Cause 503) or not at all, as configured;
 * - on an ACK applies the rate the CoA carries to its session (unless told to keep the old one: a NAS that ACKs
 *   and does nothing) and sends its next Interim-Update, reporting the policy the session now runs under;
 * - on a Disconnect-Request it ACKs, ends the session and sends its Stop (or, told so, ACKs and keeps it).
 *
 * What a vendor's CoA carries and how its accounting reports the policy are the `vendor`'s (MikroTik:
 * Mikrotik-Rate-Limit both ways), so the per-vendor fakes are a vendor object each. The accounting goes through
 * FreeRADIUS' radclient with its own dictionaries: not the portal's encoder.
 */
import { createSocket, type Socket } from 'node:dgram';
import radius from 'radius';
import { radclient } from './radclient';
import { type DictionaryAttribute, readDictionary } from './freeradius-dictionary';

/** A decoded request as the radius package gives it (Vendor-Specific by attribute name once dictionaries know it). */
export interface DecodedRequest {
  code: string;
  attributes: Record<string, unknown>;
}

export interface FakeNasVendor {
  name: string;
  /** The policy a CoA-Request asks for (null: none this vendor understands). */
  policyOf(request: DecodedRequest): string | null;
  /** The radclient attributes of an accounting packet reporting `policy`. */
  report(policy: string): Record<string, string | number | string[]>;
}

export const MIKROTIK_FAKE: FakeNasVendor = {
  name: 'mikrotik',
  policyOf(request) {
    const vsa = request.attributes['Vendor-Specific'] as Record<string, unknown> | undefined;
    const rate = vsa?.['Mikrotik-Rate-Limit'];
    return typeof rate === 'string' ? rate : null;
  },
  report: (policy) => ({ 'Mikrotik-Rate-Limit': policy }),
};

/**
 * A Cisco IOS-XE BNG as far as its QoS policies go: a CoA carries `Cisco-AVPair` (vendor 9, attribute 1)
 * "ip:sub-qos-policy-in=<name>" and "…-out=<name>", and its accounting reports the two policies the same way. The
 * policy is written "<in>/<out>". Read from the packet's raw Vendor-Specific attributes, not the portal's code.
 */
export const CISCO_FAKE: FakeNasVendor = {
  name: 'cisco',
  policyOf(request) {
    const raw = ((request as { raw_attributes?: Array<[number, Buffer]> }).raw_attributes ?? []).filter(
      ([type, value]) => type === 26 && value.length > 6 && value.readUInt32BE(0) === 9 && value[4] === 1,
    );
    const policies: Record<string, string> = {};
    for (const [, value] of raw) {
      const m = /^ip:sub-qos-policy-(in|out)=(.+)$/.exec(value.subarray(6, 4 + value[5]).toString('utf8'));
      if (m) policies[m[1]] = m[2];
    }
    return policies.in && policies.out ? `${policies.in}/${policies.out}` : null;
  },
  report(policy) {
    const [input, output] = policy.split('/');
    return { 'Cisco-AVPair': [`ip:sub-qos-policy-in=${input}`, `ip:sub-qos-policy-out=${output}`] };
  },
};

/** The values of one dictionary attribute in a packet's raw attributes (Vendor-Specific sub-attributes or RFC ones). */
function rawValues(request: DecodedRequest, attr: DictionaryAttribute): Buffer[] {
  const out: Buffer[] = [];
  for (const [type, value] of (request as { raw_attributes?: Array<[number, Buffer]> }).raw_attributes ?? []) {
    if (attr.vendor === null) {
      if (type === attr.number) out.push(value);
      continue;
    }
    if (type !== 26 || value.length < 6 || value.readUInt32BE(0) !== attr.vendor) continue;
    for (let at = 4; at + 2 <= value.length && value[at + 1] >= 2; at += value[at + 1])
      if (value[at] === attr.number) out.push(value.subarray(at + 2, at + value[at + 1]));
  }
  return out;
}

/**
 * A NAS that takes its rate as two integer attributes (one per direction) and reports them back in accounting
 * under the same names, e.g. Huawei-Input/Output-Average-Rate. The names, numbers and types come from the FreeRADIUS
 * dictionaries (tests/helpers/freeradius-dictionary.ts), not from the portal; `unitKbps` is the attribute's unit.
 * The policy text is "<up>/<down>" with M or k as the MikroTik profile writes it.
 */
function rateFake(name: string, dictionary: string, up: string, down: string, unitKbps: number): FakeNasVendor {
  const dict = readDictionary(dictionary);
  const [upAttr, downAttr] = [dict.attributes.get(up), dict.attributes.get(down)];
  if (!upAttr || !downAttr) throw new Error(`dictionary.${dictionary} has no ${up} / ${down}`);
  const text = (kbps: number) => (kbps % 1000 === 0 ? `${kbps / 1000}M` : `${kbps}k`);
  const kbps = (t: string) => (t.endsWith('M') ? Number(t.slice(0, -1)) * 1000 : Number(t.slice(0, -1)));
  return {
    name,
    policyOf(request) {
      const [u] = rawValues(request, upAttr);
      const [d] = rawValues(request, downAttr);
      if (u?.length !== 4 || d?.length !== 4) return null;
      return `${text(Math.round((u.readUInt32BE(0) * unitKbps) / 1))}/${text(Math.round(d.readUInt32BE(0) * unitKbps))}`;
    },
    report(policy) {
      const [u, d] = policy.split('/');
      return { [up]: Math.round(kbps(u) / unitKbps), [down]: Math.round(kbps(d) / unitKbps) };
    },
  };
}

/** Huawei ME60/NE: Huawei-Input-Average-Rate (the customer's upload) and -Output- (download), in bit/s. */
export const HUAWEI_FAKE = rateFake(
  'huawei',
  'huawei',
  'Huawei-Input-Average-Rate',
  'Huawei-Output-Average-Rate',
  0.001,
);
/** Cambium ePMP: Cambium-ePMP-Max-Burst-Uplink-Rate / -Downlink-Rate, in kbit/s. */
export const CAMBIUM_FAKE = rateFake(
  'cambium',
  'cambium',
  'Cambium-ePMP-Max-Burst-Uplink-Rate',
  'Cambium-ePMP-Max-Burst-Downlink-Rate',
  1,
);

/** A NAS that applies named policies in two string attributes and reports them back, "<in>/<out>". */
function namedPolicyFake(name: string, dictionary: string, input: string, output: string): FakeNasVendor {
  const dict = readDictionary(dictionary);
  const [inAttr, outAttr] = [dict.attributes.get(input), dict.attributes.get(output)];
  if (!inAttr || !outAttr) throw new Error(`dictionary.${dictionary} has no ${input} / ${output}`);
  return {
    name,
    policyOf(request) {
      const [i] = rawValues(request, inAttr);
      const [o] = rawValues(request, outAttr);
      return i && o ? `${i.toString('utf8')}/${o.toString('utf8')}` : null;
    },
    report(policy) {
      const [i, o] = policy.split('/');
      return { [input]: i, [output]: o };
    },
  };
}

/** Juniper MX / E-series: ERX-Ingress-Policy-Name and ERX-Egress-Policy-Name (dictionary.erx). */
export const JUNIPER_FAKE = namedPolicyFake('juniper', 'erx', 'ERX-Ingress-Policy-Name', 'ERX-Egress-Policy-Name');

/** Any other NAS: a plain Filter-Id (RFC 2865) names the policy, and accounting carries it back. */
export const GENERIC_FAKE: FakeNasVendor = {
  name: 'generic',
  policyOf(request) {
    const [v] = rawValues(request, {
      name: 'Filter-Id',
      vendor: null,
      vendorName: null,
      number: 11,
      path: '11',
      type: 'string',
    });
    return v ? v.toString('utf8') : null;
  },
  report: (policy) => ({ 'Filter-Id': policy }),
};

export interface FakeSession {
  username: string;
  acctSessionId: string;
  framedIp: string;
  policy: string;
  /** Seconds since Start, moved on by each Interim-Update (so the portal sees the session alive). */
  sessionTime: number;
  outputOctets: number;
  open: boolean;
}

export class CoaNas {
  socket!: Socket;
  port = 0;
  /** How CoA-Requests are answered. */
  coaAnswer: 'ack' | 'nak' | 'silent' = 'ack';
  /** false: ACK a CoA but keep running the old policy (and report it). */
  applyCoa = true;
  /** Send the next Interim-Update right after answering a CoA (false: the test sends it with interim()). */
  interimAfterCoa = true;
  /** How Disconnect-Requests are answered; an ACK ends the session and sends its Stop unless keepOnDisconnect. */
  disconnectAnswer: 'ack' | 'nak' | 'silent' = 'ack';
  keepOnDisconnect = false;
  readonly received: DecodedRequest[] = [];
  readonly sessions = new Map<string, FakeSession>();
  private readonly work = new Set<Promise<unknown>>();
  /** Accounting the NAS sent by itself that the portal did not answer (settled() throws the first). */
  private readonly errors: unknown[] = [];

  constructor(
    private readonly options: {
      secret: string;
      /** The portal's accounting port (a function: known only once the portal listens). */
      acctPort: () => number;
      vendor?: FakeNasVendor;
    },
  ) {}

  /** The vendor it behaves as (a test may switch it, as it switches the device's vendor). */
  vendorOverride: FakeNasVendor | null = null;

  get vendor(): FakeNasVendor {
    return this.vendorOverride ?? this.options.vendor ?? MIKROTIK_FAKE;
  }

  async start(): Promise<this> {
    this.socket = createSocket('udp4');
    this.socket.on('message', (msg, rinfo) => {
      const request = radius.decode({ packet: msg, secret: this.options.secret }) as DecodedRequest & object;
      this.received.push({ code: request.code, attributes: request.attributes });
      const coa = request.code === 'CoA-Request';
      const answer = coa ? this.coaAnswer : this.disconnectAnswer;
      if (answer === 'silent') return;
      const response = radius.encode_response({
        packet: request as never,
        code: `${coa ? 'CoA' : 'Disconnect'}-${answer === 'ack' ? 'ACK' : 'NAK'}`,
        secret: this.options.secret,
        attributes: answer === 'nak' ? [['Error-Cause', 503]] : [],
      });
      this.socket.send(response, rinfo.port, rinfo.address);
      const session = this.sessions.get(String(request.attributes['Acct-Session-Id']));
      if (!session?.open || answer !== 'ack') return;
      if (coa) {
        const policy = this.vendor.policyOf(request);
        if (this.applyCoa && policy) session.policy = policy;
        if (this.interimAfterCoa) this.track(this.interim(session.acctSessionId));
      } else if (!this.keepOnDisconnect) {
        this.track(this.stop(session.acctSessionId, 'Admin-Reset'));
      }
    });
    await new Promise<void>((resolve) => this.socket.bind(0, '127.0.0.1', resolve));
    this.port = this.socket.address().port;
    return this;
  }

  /** Resolves once the accounting the NAS sent by itself (after a CoA or Disconnect) has been answered. */
  async settled(): Promise<void> {
    while (this.work.size) await Promise.allSettled([...this.work]);
    if (this.errors.length) throw this.errors.splice(0)[0];
  }

  /** A session comes up at `policy` (what the Access-Accept gave it): its Start is sent. */
  async open(username: string, acctSessionId: string, policy: string, framedIp = '100.64.9.1'): Promise<FakeSession> {
    const session: FakeSession = {
      username,
      acctSessionId,
      framedIp,
      policy,
      sessionTime: 0,
      outputOctets: 0,
      open: true,
    };
    this.sessions.set(acctSessionId, session);
    await this.account(session, 'Start');
    return session;
  }

  /** The session's next Interim-Update: a minute later, a megabyte more, under the policy it runs now. */
  async interim(acctSessionId: string): Promise<void> {
    const session = this.sessions.get(acctSessionId);
    if (!session?.open) return;
    session.sessionTime += 60;
    session.outputOctets += 1_000_000;
    await this.account(session, 'Interim-Update');
  }

  async stop(acctSessionId: string, cause = 'User-Request'): Promise<void> {
    const session = this.sessions.get(acctSessionId);
    if (!session?.open) return;
    session.open = false;
    session.sessionTime += 1;
    await this.account(session, 'Stop', { 'Acct-Terminate-Cause': cause });
  }

  stopListening(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }

  private async account(
    session: FakeSession,
    status: 'Start' | 'Interim-Update' | 'Stop',
    extra: Record<string, string | number> = {},
  ): Promise<void> {
    const answer = await radclient(
      { port: this.options.acctPort(), secret: this.options.secret, type: 'acct' },
      {
        'User-Name': session.username,
        'Acct-Session-Id': session.acctSessionId,
        'Acct-Status-Type': status,
        'Framed-IP-Address': session.framedIp,
        'Acct-Session-Time': session.sessionTime,
        'Acct-Output-Octets': session.outputOctets,
        ...(status === 'Stop' ? {} : this.vendor.report(session.policy)),
        ...extra,
      },
    );
    if (answer.code !== 'Accounting-Response')
      throw new Error(`the portal did not answer the ${status}: ${answer.output}`);
  }

  private track(p: Promise<unknown>): void {
    const done = p.then(
      () => {},
      (error: unknown) => {
        this.errors.push(error);
      },
    );
    this.work.add(done);
    void done.finally(() => this.work.delete(done));
  }
}
