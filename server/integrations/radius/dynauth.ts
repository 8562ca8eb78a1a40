/**
 * Dynamic authorization client (RFC 5176): sends Disconnect-Request and CoA-Request to a NAS (port 3799 by
 * default) and waits for its ACK or NAK, checking the answer's authenticator with the shared secret. One UDP
 * socket for all requests; answers are matched by NAS address, port and identifier.
 */
import { createSocket, type Socket } from 'node:dgram';
import { isIP } from 'node:net';
import { ATTR, decodeResponse, encodeRequest, integerAttribute, type RadiusAttribute } from './codec';

export type DynAuthKind = 'disconnect' | 'coa';
export type DynAuthAnswer = { result: 'ack' } | { result: 'nak'; errorCause: number | null } | { result: 'timeout' };

export interface DynAuthTarget {
  host: string;
  port: number;
  secret: string;
}

interface Pending {
  request: Buffer;
  secret: string;
  kind: DynAuthKind;
  resolve: (answer: DynAuthAnswer) => void;
  timer: NodeJS.Timeout;
}

export class DynAuthClient {
  private sockets: Partial<Record<'udp4' | 'udp6', Promise<Socket>>> = {};
  private readonly pending = new Map<string, Pending>();
  private nextId = Math.floor(Math.random() * 256);

  constructor(private readonly options: { timeoutMs: number }) {}

  /** Sends one request and resolves with the NAS's answer, or timeout. Never throws for network trouble. */
  async send(kind: DynAuthKind, target: DynAuthTarget, attributes: RadiusAttribute[]): Promise<DynAuthAnswer> {
    const family = isIP(target.host) === 6 ? 'udp6' : 'udp4';
    const socket = await this.socket(family);
    // 256 identifiers per NAS: a mass cut-off (the billing run suspending many at once) waits for a free one.
    const gaveUpAt = Date.now() + this.options.timeoutMs * 4;
    let identifier = this.freeIdentifier(target);
    while (identifier < 0) {
      if (Date.now() > gaveUpAt) return { result: 'timeout' };
      await new Promise((resolve) => setTimeout(resolve, 5));
      identifier = this.freeIdentifier(target);
    }
    this.nextId = (identifier + 1) % 256;
    const request = encodeRequest(
      kind === 'disconnect' ? 'Disconnect-Request' : 'CoA-Request',
      target.secret,
      identifier,
      attributes,
    );
    const k = key(target.host, target.port, identifier);
    return new Promise<DynAuthAnswer>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(k);
        resolve({ result: 'timeout' });
      }, this.options.timeoutMs);
      this.pending.set(k, { request, secret: target.secret, kind, resolve, timer });
      socket.send(request, target.port, target.host, (error) => {
        if (!error) return;
        clearTimeout(timer);
        this.pending.delete(k);
        resolve({ result: 'timeout' });
      });
    });
  }

  private freeIdentifier(target: DynAuthTarget): number {
    for (let i = 0; i < 256; i++) {
      const candidate = (this.nextId + i) % 256;
      if (!this.pending.has(key(target.host, target.port, candidate))) return candidate;
    }
    return -1;
  }

  async close(): Promise<void> {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.resolve({ result: 'timeout' });
    }
    this.pending.clear();
    const sockets = Object.values(this.sockets);
    this.sockets = {};
    for (const s of sockets) {
      const socket = await s.catch(() => null);
      if (socket) await new Promise<void>((resolve) => socket.close(() => resolve()));
    }
  }

  private socket(family: 'udp4' | 'udp6'): Promise<Socket> {
    this.sockets[family] ??= new Promise<Socket>((resolve, reject) => {
      const socket = createSocket(family);
      socket.on('message', (msg, rinfo) => this.onMessage(msg, rinfo.address, rinfo.port));
      socket.on('error', () => {
        // A send error is reported to its callback; nothing else to do with socket-level errors here.
      });
      socket.once('error', reject);
      socket.bind(0, () => {
        socket.unref();
        resolve(socket);
      });
    });
    return this.sockets[family]!;
  }

  private onMessage(msg: Buffer, address: string, port: number): void {
    if (msg.length < 20) return;
    const k = key(address.startsWith('::ffff:') ? address.slice(7) : address, port, msg[1]);
    const pending = this.pending.get(k);
    if (!pending) return;
    const decoded = decodeResponse(pending.request, msg, pending.secret);
    if (!decoded) return; // wrong authenticator: not our NAS's answer; keep waiting
    clearTimeout(pending.timer);
    this.pending.delete(k);
    if (decoded.code === 'Disconnect-ACK' || decoded.code === 'CoA-ACK') pending.resolve({ result: 'ack' });
    else if (decoded.code === 'Disconnect-NAK' || decoded.code === 'CoA-NAK')
      pending.resolve({ result: 'nak', errorCause: integerAttribute(decoded, ATTR.ERROR_CAUSE) ?? null });
  }
}

const key = (host: string, port: number, identifier: number) => `${host}|${port}|${identifier}`;
