/**
 * Is anything listening on a UDP port? A connected UDP socket learns of an ICMP "port unreachable" as an
 * ECONNREFUSED error, which an unconnected one (net-snmp's) never sees. An SNMP timeout can then be told apart:
 * port closed (unreachable) versus silence (agent dropping us, filtered, or down).
 */
import { createSocket } from 'node:dgram';
import { isIPv6 } from 'node:net';

export type UdpProbeResult = 'refused' | 'silent' | 'error';

export function probeUdpPort(host: string, port: number, timeoutMs: number): Promise<UdpProbeResult> {
  return new Promise((resolve) => {
    const socket = createSocket(isIPv6(host) ? 'udp6' : 'udp4');
    let settled = false;
    const finish = (result: UdpProbeResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.close();
      resolve(result);
    };
    const timer = setTimeout(() => finish('silent'), timeoutMs);
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code === 'ECONNREFUSED' ? 'refused' : 'error'));
    socket.on('message', () => finish('silent'));
    socket.once('connect', () => {
      // An empty BER sequence: an SNMP agent discards it as unparseable; a closed port answers with ICMP.
      const datagram = Buffer.from([0x30, 0x00]);
      socket.send(datagram, 0, datagram.length, (error) => {
        if (error) finish((error as NodeJS.ErrnoException).code === 'ECONNREFUSED' ? 'refused' : 'error');
      });
    });
    socket.connect(port, host);
  });
}
