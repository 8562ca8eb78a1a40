/**
 * The RADIUS server's network side: two UDP sockets (authentication and accounting), the client check by
 * source address, decoding with the client's secret, and duplicate detection (RFC 5080 §2.2.2): a
 * retransmitted request (same source, identifier and authenticator) gets the answer already sent, and one
 * still being worked on is dropped, so a NAS that retries never makes us do the work twice.
 *
 * What to answer is the handlers' business (server/modules/radius); a handler returning null sends nothing
 * (e.g. accounting that could not be stored: the NAS will retry).
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { encodePapResponse, parsePapAccessRequest, warmUpPapFastPath, type PapAccessRequest } from './pap-fast-path';
import {
  decodeRequest,
  encodeResponse,
  RadiusDecodeError,
  WARM_UP_SECRET,
  warmUpCodec,
  type RadiusAttribute,
  type RadiusPacket,
} from './codec';

export interface RadiusClientInfo {
  secret: string;
  name: string;
}

export interface RadiusReply {
  code: string;
  attributes?: RadiusAttribute[];
}

export interface RadiusHandlers<C extends RadiusClientInfo> {
  /** The client for a source address, or undefined (the packet is dropped and logged). */
  client(address: string): C | undefined | Promise<C | undefined>;
  access(request: RadiusPacket, client: C, from: RemoteInfo): RadiusReply | null | Promise<RadiusReply | null>;
  accounting(request: RadiusPacket, client: C, from: RemoteInfo): RadiusReply | null | Promise<RadiusReply | null>;
  /** PAP logins parsed by the fast path (pap-fast-path.ts); without it every request goes through access(). */
  accessPap?(
    username: string,
    password: string,
    client: C,
    from: RemoteInfo,
    callingStationId?: string,
  ): RadiusReply | Promise<RadiusReply>;
  log: {
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
}

export interface RadiusListenOptions {
  host: string;
  authPort: number;
  acctPort: number;
  /** false in cluster workers: they share one socket per port (node:cluster). Default true. */
  exclusive?: boolean;
}

/** How long an answer is kept for retransmissions. */
const DUPLICATE_WINDOW_MS = 10_000;
/** Unknown-client warnings: at most one per address per minute. */
const UNKNOWN_LOG_EVERY_MS = 60_000;

export class RadiusUdpServer<C extends RadiusClientInfo> {
  private auth: Socket | null = null;
  private acct: Socket | null = null;
  // Two generations: entries live between one and two windows, without a timer per entry.
  private recent = new Map<string, Buffer | null>();
  private older = new Map<string, Buffer | null>();
  private rotatedAt = Date.now();
  private readonly unknownLogged = new Map<string, number>();
  /** Packets answered / dropped, for logs and the bench. */
  readonly counters = { access: 0, accounting: 0, duplicates: 0, unknownClient: 0, badPacket: 0, errors: 0 };

  constructor(private readonly handlers: RadiusHandlers<C>) {}

  async listen(options: RadiusListenOptions): Promise<{ authPort: number; acctPort: number }> {
    warmUpPapFastPath(warmUpCodec(), WARM_UP_SECRET);
    const family = options.host.includes(':') ? 'udp6' : 'udp4';
    const exclusive = options.exclusive ?? true;
    this.auth = await bind(family, options.host, options.authPort, exclusive, (msg, rinfo) =>
      this.onPacket('auth', msg, rinfo),
    );
    try {
      this.acct = await bind(family, options.host, options.acctPort, exclusive, (msg, rinfo) =>
        this.onPacket('acct', msg, rinfo),
      );
    } catch (error) {
      await close(this.auth);
      this.auth = null;
      throw error;
    }
    return this.ports()!;
  }

  ports(): { authPort: number; acctPort: number } | null {
    if (!this.auth || !this.acct) return null;
    return { authPort: this.auth.address().port, acctPort: this.acct.address().port };
  }

  async close(): Promise<void> {
    const sockets = [this.auth, this.acct];
    this.auth = this.acct = null;
    for (const s of sockets) if (s) await close(s);
  }

  // The path below stays synchronous while nothing needs waiting for (client known, subscriber in memory):
  // at tens of thousands of packets a second, every avoided promise counts.
  private onPacket(kind: 'auth' | 'acct', msg: Buffer, rinfo: RemoteInfo): void {
    try {
      const pending = this.handle(kind, msg, rinfo);
      if (pending) pending.catch((error: unknown) => this.failed(error, rinfo));
    } catch (error) {
      this.failed(error, rinfo);
    }
  }

  private failed(error: unknown, rinfo: RemoteInfo): void {
    this.counters.errors++;
    this.handlers.log.error({ err: error, from: rinfo.address }, 'RADIUS request failed');
  }

  private handle(kind: 'auth' | 'acct', msg: Buffer, rinfo: RemoteInfo): Promise<void> | void {
    if (msg.length < 20) {
      this.counters.badPacket++;
      return;
    }
    const dupKey = `${rinfo.address}|${rinfo.port}|${kind}|${msg[1]}|${msg.toString('latin1', 4, 20)}`;
    const seen = this.lookup(dupKey);
    if (seen !== undefined) {
      this.counters.duplicates++;
      if (seen) this.send(kind, seen, rinfo);
      return;
    }
    const client = this.handlers.client(rinfo.address);
    if (client instanceof Promise) return client.then((c) => this.withClient(kind, msg, rinfo, dupKey, c));
    return this.withClient(kind, msg, rinfo, dupKey, client);
  }

  private withClient(
    kind: 'auth' | 'acct',
    msg: Buffer,
    rinfo: RemoteInfo,
    dupKey: string,
    client: C | undefined,
  ): Promise<void> | void {
    if (!client) {
      this.counters.unknownClient++;
      const last = this.unknownLogged.get(rinfo.address) ?? 0;
      if (Date.now() - last > UNKNOWN_LOG_EVERY_MS) {
        if (this.unknownLogged.size > 10_000) this.unknownLogged.clear();
        this.unknownLogged.set(rinfo.address, Date.now());
        this.handlers.log.warn(
          { from: rinfo.address },
          'RADIUS packet from an unknown client ignored (no device with a RADIUS secret at this address)',
        );
      }
      return;
    }
    if (kind === 'auth' && this.handlers.accessPap) {
      let pap: PapAccessRequest | null;
      try {
        pap = parsePapAccessRequest(msg, client.secret);
      } catch {
        this.counters.badPacket++;
        this.handlers.log.warn(
          { from: rinfo.address, nas: client.name },
          'RADIUS packet with a wrong Message-Authenticator (shared secret mismatch?) ignored',
        );
        return;
      }
      if (pap) return this.papLogin(msg, pap, client, rinfo, dupKey);
    }
    let request: RadiusPacket;
    try {
      request = decodeRequest(msg, client.secret);
    } catch (error) {
      this.counters.badPacket++;
      const badSecret = error instanceof RadiusDecodeError && error.badSecret;
      this.handlers.log.warn(
        { from: rinfo.address, nas: client.name },
        badSecret
          ? 'RADIUS packet with a wrong authenticator (shared secret mismatch?) ignored'
          : 'Malformed RADIUS packet ignored',
      );
      return;
    }
    const expected = kind === 'auth' ? 'Access-Request' : 'Accounting-Request';
    if (request.code !== expected) {
      this.counters.badPacket++;
      return;
    }
    this.remember(dupKey, null);
    let reply: RadiusReply | null | Promise<RadiusReply | null>;
    try {
      reply =
        kind === 'auth'
          ? this.handlers.access(request, client, rinfo)
          : this.handlers.accounting(request, client, rinfo);
    } catch (error) {
      this.forget(dupKey);
      throw error;
    }
    if (reply instanceof Promise) {
      return reply.then(
        (r) => this.answer(kind, request, client, rinfo, dupKey, r),
        (error: unknown) => {
          this.forget(dupKey);
          throw error;
        },
      );
    }
    this.answer(kind, request, client, rinfo, dupKey, reply);
  }

  private papLogin(
    msg: Buffer,
    pap: PapAccessRequest,
    client: C,
    rinfo: RemoteInfo,
    dupKey: string,
  ): Promise<void> | void {
    this.remember(dupKey, null);
    let reply: RadiusReply | Promise<RadiusReply>;
    try {
      reply = this.handlers.accessPap!(pap.username, pap.password, client, rinfo, pap.callingStationId ?? undefined);
    } catch (error) {
      this.forget(dupKey);
      throw error;
    }
    const answer = (r: RadiusReply) => {
      const code = r.code === 'Access-Accept' ? 'Access-Accept' : 'Access-Reject';
      // An attribute the fast path cannot write: the package encodes this one.
      const response =
        encodePapResponse(pap, code, r.attributes ?? [], client.secret) ??
        encodeResponse(decodeRequest(msg, client.secret), code, client.secret, r.attributes ?? []);
      this.remember(dupKey, response);
      this.counters.access++;
      this.send('auth', response, rinfo);
    };
    if (reply instanceof Promise) {
      return reply.then(answer, (error: unknown) => {
        this.forget(dupKey);
        throw error;
      });
    }
    answer(reply);
  }

  private answer(
    kind: 'auth' | 'acct',
    request: RadiusPacket,
    client: C,
    rinfo: RemoteInfo,
    dupKey: string,
    reply: RadiusReply | null,
  ): void {
    if (!reply) {
      this.forget(dupKey);
      return;
    }
    const response = encodeResponse(request, reply.code, client.secret, reply.attributes ?? []);
    this.remember(dupKey, response);
    if (kind === 'auth') this.counters.access++;
    else this.counters.accounting++;
    this.send(kind, response, rinfo);
  }

  private send(kind: 'auth' | 'acct', response: Buffer, rinfo: RemoteInfo): void {
    const socket = kind === 'auth' ? this.auth : this.acct;
    socket?.send(response, rinfo.port, rinfo.address);
  }

  private rotate(): void {
    const now = Date.now();
    if (now - this.rotatedAt < DUPLICATE_WINDOW_MS) return;
    this.older = this.recent;
    this.recent = new Map();
    this.rotatedAt = now;
  }

  private lookup(key: string): Buffer | null | undefined {
    this.rotate();
    if (this.recent.has(key)) return this.recent.get(key);
    return this.older.get(key);
  }

  private remember(key: string, value: Buffer | null): void {
    this.rotate();
    this.recent.set(key, value);
  }

  private forget(key: string): void {
    this.recent.delete(key);
    this.older.delete(key);
  }
}

function bind(
  family: 'udp4' | 'udp6',
  host: string,
  port: number,
  exclusive: boolean,
  onMessage: (msg: Buffer, rinfo: RemoteInfo) => void,
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket({ type: family, reuseAddr: false });
    socket.on('message', onMessage);
    socket.once('error', reject);
    socket.bind({ port, address: host, exclusive }, () => {
      socket.off('error', reject);
      socket.on('error', () => {});
      // A reconnect storm arrives faster than one event-loop turn drains it: give the kernel room to queue.
      try {
        socket.setRecvBufferSize(8 * 1024 * 1024);
      } catch {
        // not permitted here: the default buffer then
      }
      resolve(socket);
    });
  });
}

function close(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    try {
      socket.close(() => resolve());
    } catch {
      resolve();
    }
  });
}
