/**
 * The address map's paging and cells (issue 22): a big network is drawn one /24 at a time (a /16 is 256 blocks
 * of 256 cells, never 65 536 at once), and each cell's state follows the network (network and broadcast address,
 * gateway, reserved ranges), the assignments and, for a pool, the open sessions.
 */
import { describe, expect, it } from 'vitest';
import { formatIp } from '../../contract/ip';
import type { IpNetwork } from '../../contract/schemas/ipam';
import { blocksOf, cellsOf } from '../../resources/ip-networks/AddressMap';

function network(cidr: string, extra: Partial<IpNetwork> = {}): IpNetwork {
  return {
    id: 'n1',
    name: 'n',
    cidr,
    family: cidr.includes(':') ? 6 : 4,
    prefix_length: Number(cidr.split('/')[1]),
    purpose: 'static',
    pool_name: null,
    gateway: null,
    dns_servers: [],
    device_id: null,
    site: null,
    reserved_ranges: [],
    quarantine_days: 30,
    notes: null,
    size: '0',
    counts: { static: 0, reserved: 0, quarantined: 0, free: '0' },
    created_at: '',
    updated_at: '',
    ...extra,
  };
}

describe('address map', () => {
  it('pages a /16 by /24: 256 blocks, each of 256 addresses; a /24 or smaller is one block; IPv6 has no map', () => {
    const big = blocksOf(network('10.20.0.0/16'))!;
    expect(big.count).toBe(256);
    const third = big.block(2);
    expect([formatIp(4, third.start), formatIp(4, third.end)]).toEqual(['10.20.2.0', '10.20.2.255']);
    const last = big.block(255);
    expect(formatIp(4, last.end)).toBe('10.20.255.255');
    const small = blocksOf(network('192.0.2.64/27'))!;
    expect(small.count).toBe(1);
    expect([formatIp(4, small.block(0).start), formatIp(4, small.block(0).end)]).toEqual(['192.0.2.64', '192.0.2.95']);
    expect(blocksOf(network('2001:db8::/48'))).toBeNull();
  });

  it('gives every address of a block its state, with the holder', () => {
    const net = network('192.0.2.0/28', {
      gateway: '192.0.2.1',
      reserved_ranges: [{ from: '192.0.2.2', to: '192.0.2.3', note: 'switches' }],
    });
    const { start, end } = blocksOf(net)!.block(0);
    const cells = cellsOf(net, start, end, {
      network: net,
      pagination: { page: 1, limit: 500, total: 2, totalPages: 1 } as never,
      items: [
        {
          address: '192.0.2.5',
          state: 'static',
          subscription_id: 's1',
          user_id: 'u1',
          customer_name: 'Ada',
          quarantine_until: null,
          note: null,
          updated_at: '',
        },
        {
          address: '192.0.2.6',
          state: 'quarantined',
          subscription_id: null,
          quarantine_until: '2026-12-01T00:00:00.000Z',
          note: null,
          updated_at: '',
        },
      ],
      dynamic: [
        {
          address: '192.0.2.9',
          subscription_id: 's2',
          user_id: 'u2',
          customer_name: 'Bob',
          username: 'c2',
          started_at: '2026-11-20T10:00:00.000Z',
        },
      ],
    });
    expect(cells).toHaveLength(16);
    const state = (a: string) => cells.find((c) => c.address === a)!.state;
    expect(
      [
        '192.0.2.0',
        '192.0.2.1',
        '192.0.2.2',
        '192.0.2.3',
        '192.0.2.4',
        '192.0.2.5',
        '192.0.2.6',
        '192.0.2.9',
        '192.0.2.15',
      ].map(state),
    ).toEqual(['network', 'gateway', 'reserved', 'reserved', 'free', 'static', 'quarantined', 'dynamic', 'broadcast']);
    expect(cells.find((c) => c.address === '192.0.2.5')).toMatchObject({
      customer: 'Ada',
      userId: 'u1',
      subscriptionId: 's1',
    });
    expect(cells.find((c) => c.address === '192.0.2.2')!.note).toBe('switches');
    expect(cells.find((c) => c.address === '192.0.2.9')).toMatchObject({ customer: 'Bob', username: 'c2' });
  });
});
