/**
 * The simulated NAS's RADIUS side, with the project's codec (server/integrations/radius/codec.ts):
 *   - RadiusNasClient sends Access-Requests and Accounting-Requests to the portal from one loopback UDP socket,
 *     retransmitting the same bytes (same identifier) after a time-out as a real NAS does, every packet taking
 *     a token from the simulator's PacketBudget;
 *   - DynAuthListener is the NAS's RFC 5176 port: it checks each Disconnect-Request and CoA-Request against the
 *     shared secret and answers ACK or NAK (with its Error-Cause) as the handler decides.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import {
  decodeRequest,
  decodeResponse,
  encodeRequest,
  encodeResponse,
  type RadiusAttribute,
  type RadiusPacket,
} from '../integrations/radius/codec';
import type { PacketBudget } from './packet-budget';

export interface RadiusTarget {
  host: string;
  authPort: number;
  acctPort: number;
  secret: string;
}

interface Pending {
  request: Buffer;
  resolve: (answer: RadiusPacket | null) => void;
}

/** RFC 5176 Error-Cause 503: Session Context Not Found. */
export const SESSION_CONTEXT_NOT_FOUND = 503;

function bind(socket: Socket, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
}

export class RadiusNasClient {
  private socket: Socket | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closed = false;
  /** Requests that got no answer after every retransmission. */
  timeouts = 0;

  constructor(
    private readonly options: {
      host: string;
      target: RadiusTarget;
      budget: PacketBudget;
      timeoutMs?: number;
      retries?: number;
    },
  ) {}

  async start(): Promise<void> {
    const socket = createSocket('udp4');
    socket.on('message', (msg) => this.onMessage(msg));
    socket.on('error', () => {
      // A send error reaches its callback; the request then times out and is retried.
    });
    await bind(socket, this.options.host, 0);
    this.socket = socket;
  }

  /** Sends a request and resolves with the portal's checked answer, or null after the last retransmission. */
  async request(
    code: 'Access-Request' | 'Accounting-Request',
    attributes: RadiusAttribute[],
  ): Promise<RadiusPacket | null> {
    const identifier = await this.freeIdentifier();
    if (identifier < 0) return null;
    const { target } = this.options;
    const request = encodeRequest(code, target.secret, identifier, attributes);
    const port = code === 'Access-Request' ? target.authPort : target.acctPort;
    const answer = new Promise<RadiusPacket | null>((resolve) => this.pending.set(identifier, { request, resolve }));
    const tries = 1 + (this.options.retries ?? 2);
    for (let attempt = 0; attempt < tries && !this.closed; attempt++) {
      await this.options.budget.take();
      if (this.closed || !this.pending.has(identifier)) break;
      this.socket?.send(request, port, target.host);
      const result = await Promise.race([answer, sleep(this.options.timeoutMs ?? 3_000).then(() => undefined)]);
      if (result !== undefined) return result;
    }
    this.pending.get(identifier)?.resolve(null);
    this.pending.delete(identifier);
    if (!this.closed) this.timeouts++;
    return null;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.pending.values()) p.resolve(null);
    this.pending.clear();
    const socket = this.socket;
    this.socket = null;
    if (socket) await new Promise<void>((resolve) => socket.close(() => resolve()));
  }

  /** 256 identifiers on one socket: a burst beyond that waits for answers. */
  private async freeIdentifier(): Promise<number> {
    while (!this.closed) {
      for (let i = 0; i < 256; i++) {
        const candidate = (this.nextId + i) % 256;
        if (!this.pending.has(candidate)) {
          this.nextId = (candidate + 1) % 256;
          this.pending.set(candidate, { request: Buffer.alloc(0), resolve: () => {} });
          return candidate;
        }
      }
      await sleep(10);
    }
    return -1;
  }

  private onMessage(msg: Buffer): void {
    if (msg.length < 20) return;
    const pending = this.pending.get(msg[1]);
    if (!pending?.request.length) return;
    const decoded = decodeResponse(pending.request, msg, this.options.target.secret);
    if (!decoded) return; // not the answer to this request (or another secret): keep waiting
    this.pending.delete(msg[1]);
    pending.resolve(decoded);
  }
}

export type DynAuthDecision = { ack: true; attributes?: RadiusAttribute[] } | { ack: false; errorCause: number };
export type DynAuthHandler = (kind: 'disconnect' | 'coa', request: RadiusPacket, from: RemoteInfo) => DynAuthDecision;

/** The NAS's Disconnect/CoA port (RFC 5176). Requests with a wrong authenticator are dropped, as RFC 5176 says. */
export class DynAuthListener {
  private socket: Socket | null = null;
  /** Requests dropped for a bad authenticator or an unknown code. */
  dropped = 0;

  constructor(private readonly options: { host: string; port: number; secret: () => string; handle: DynAuthHandler }) {}

  async start(): Promise<number> {
    const socket = createSocket('udp4');
    socket.on('message', (msg, rinfo) => this.onMessage(socket, msg, rinfo));
    socket.on('error', () => {});
    await bind(socket, this.options.host, this.options.port);
    this.socket = socket;
    return socket.address().port;
  }

  async close(): Promise<void> {
    const socket = this.socket;
    this.socket = null;
    if (socket) await new Promise<void>((resolve) => socket.close(() => resolve()));
  }

  private onMessage(socket: Socket, msg: Buffer, rinfo: RemoteInfo): void {
    const secret = this.options.secret();
    let request: RadiusPacket;
    try {
      request = decodeRequest(msg, secret);
    } catch {
      this.dropped++;
      return;
    }
    const kind = request.code === 'Disconnect-Request' ? 'disconnect' : request.code === 'CoA-Request' ? 'coa' : null;
    if (!kind) {
      this.dropped++;
      return;
    }
    const decision = this.options.handle(kind, request, rinfo);
    const base = kind === 'disconnect' ? 'Disconnect' : 'CoA';
    const response = decision.ack
      ? encodeResponse(request, `${base}-ACK`, secret, decision.attributes ?? [])
      : encodeResponse(request, `${base}-NAK`, secret, [['Error-Cause', decision.errorCause]]);
    socket.send(response, rinfo.port, rinfo.address);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());
