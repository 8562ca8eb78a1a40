/**
 * A NAS's dynamic-authorization port (RFC 5176) for the RADIUS tests: a UDP listener on loopback that decodes each
 * CoA or Disconnect request with the shared secret, records it, and answers ACK, NAK (Error-Cause 503) or nothing,
 * as the test tells it. With `radiusTestConfig(nas.port)` the portal sends its requests here.
 */
import { createSocket, type Socket } from 'node:dgram';
import radius from 'radius';

export class TestNas {
  socket!: Socket;
  port = 0;
  answer: 'ack' | 'nak' | 'silent' = 'ack';
  /** Each request: its code, its attributes as the radius package names them, and the raw [type, value] list. */
  readonly received: Array<{ code: string; attributes: Record<string, unknown>; raw: Array<[number, Buffer]> }> = [];

  constructor(private readonly secret: string) {}

  async start(): Promise<this> {
    this.socket = createSocket('udp4');
    this.socket.on('message', (msg, rinfo) => {
      const request = radius.decode({ packet: msg, secret: this.secret });
      this.received.push({
        code: request.code,
        attributes: request.attributes,
        raw: request.raw_attributes as Array<[number, Buffer]>,
      });
      if (this.answer === 'silent') return;
      const base = request.code === 'CoA-Request' ? 'CoA' : 'Disconnect';
      const response = radius.encode_response({
        packet: request,
        code: `${base}-${this.answer === 'ack' ? 'ACK' : 'NAK'}`,
        secret: this.secret,
        attributes: this.answer === 'nak' ? [['Error-Cause', 503]] : [],
      });
      this.socket.send(response, rinfo.port, rinfo.address);
    });
    await new Promise<void>((resolve) => this.socket.bind(0, '127.0.0.1', resolve));
    this.port = this.socket.address().port;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }
}

/** The portal's RADIUS server on free loopback ports, sending its CoA and Disconnect requests to coaPort. */
export function radiusTestConfig(coaPort: number) {
  return {
    radiusEnabled: true,
    radiusHost: '127.0.0.1',
    radiusAuthPort: 0,
    radiusAcctPort: 0,
    radiusCoaPort: coaPort,
    radiusDisconnectTimeoutMs: 3_000,
  } as const;
}
