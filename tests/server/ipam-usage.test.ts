/**
 * The IP address screens' reads (issue 22): the networks list counts the addresses a NAS gave out from a pool
 * (open accounting sessions inside it) as used, names the NAS, and the address map of one block gives the
 * holders' customers and the pool's addresses in open sessions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, radiusSessions, subscriptions } from '../../server/db/schema';
import { ManualClock } from '../../server/lib/clock';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

describe('IP networks: usage counts and the address map of a block', () => {
  let t: TestApp;
  const clock = new ManualClock('2026-11-20T10:00:00.000Z');
  let token: string;
  let planId: string;

  beforeAll(async () => {
    t = await createTestApp({ clock });
    await t.createUser({ email: 'admin@example.com', role: 'admin' });
    token = (await t.login('admin@example.com')).token;
    planId = (
      await api('POST', '/plans', {
        name: 'Basic',
        price: 3000,
        download_mbps: 50,
        upload_mbps: 10,
        billing_cycle: 'monthly',
      })
    ).json().data.id;
  });
  afterAll(async () => t?.close());

  function api(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
    return t.app.inject({ method, url: `/api${url}`, headers: bearer(token), payload: payload as object });
  }

  it('counts open sessions inside a pool as dynamic and used; closed sessions, other networks and static networks do not count', async () => {
    const [nas] = await t.database.db
      .insert(devices)
      .values({ name: 'nas-usage', vendor: 'mikrotik', host: '127.0.0.1' })
      .returning();
    const pool = (
      await api('POST', '/ipam/networks', {
        name: 'Pool',
        cidr: '100.64.0.0/24',
        purpose: 'pool',
        pool_name: 'pppoe',
        device_id: nas.id,
      })
    ).json().data;
    const statics = (
      await api('POST', '/ipam/networks', {
        name: 'Statics',
        cidr: '203.0.113.0/29',
        purpose: 'static',
        gateway: '203.0.113.1',
      })
    ).json().data;
    const customer = await t.createUser({ email: 'c1@example.com', name: 'Ada Lovelace' });
    const [sub] = await t.database.db
      .insert(subscriptions)
      .values({ userId: customer.id, planId, status: 'active' })
      .returning();
    const session = (id: string, ip: string, open: boolean) => ({
      acctSessionId: id,
      nasDeviceId: nas.id,
      nasIp: '127.0.0.1',
      username: `u-${id}`,
      subscriptionId: sub.id,
      framedIp: ip,
      startedAt: clock.now(),
      updatedAt: clock.now(),
      stoppedAt: open ? null : clock.now(),
      status: open ? ('open' as const) : ('closed' as const),
    });
    await t.database.db.insert(radiusSessions).values([
      session('a', '100.64.0.10', true),
      session('b', '100.64.0.11', true),
      session('c', '100.64.0.12', false),
      session('d', '100.64.1.5', true), // outside every network
      session('e', '203.0.113.3', true), // in the static network: not dynamic
      session('f', '2001:db8::5', true),
    ]);
    const assigned = await api('PUT', `/subscriptions/${sub.id}/address`, { network_id: statics.id });
    expect(assigned.json().data.address).toBe('203.0.113.2');

    const list = (await api('GET', '/ipam/networks')).json().data.items as Array<{
      id: string;
      device_name: string | null;
      counts: Record<string, unknown>;
    }>;
    const p = list.find((n) => n.id === pool.id)!;
    expect(p.device_name).toBe('nas-usage');
    // 254 usable addresses, 2 in open sessions.
    expect(p.counts).toEqual({ static: 0, dynamic: 2, reserved: 0, quarantined: 0, free: '252' });
    const s = list.find((n) => n.id === statics.id)!;
    expect(s.counts).toEqual({ static: 1, dynamic: 0, reserved: 1, quarantined: 0, free: '4' });

    // The map of one block of the pool: the open sessions' addresses with their customer.
    const map = (await api('GET', `/ipam/networks/${pool.id}/addresses?from=100.64.0.0&to=100.64.0.255`)).json().data;
    expect(map.dynamic.map((d: { address: string }) => d.address).sort()).toEqual(['100.64.0.10', '100.64.0.11']);
    expect(map.dynamic[0]).toMatchObject({
      subscription_id: sub.id,
      user_id: customer.id,
      customer_name: 'Ada Lovelace',
    });
    // The static network's map names the holder; a block outside the assignments is empty.
    const staticMap = (
      await api('GET', `/ipam/networks/${statics.id}/addresses?from=203.0.113.0&to=203.0.113.7`)
    ).json().data;
    expect(staticMap.items).toEqual([
      expect.objectContaining({
        address: '203.0.113.2',
        state: 'static',
        user_id: customer.id,
        customer_name: 'Ada Lovelace',
      }),
    ]);
    expect(staticMap.dynamic).toBeUndefined();
    expect(
      (await api('GET', `/ipam/networks/${statics.id}/addresses?from=203.0.113.3&to=203.0.113.7`)).json().data.items,
    ).toEqual([]);
    expect((await api('GET', `/ipam/networks/${statics.id}/addresses?from=nope`)).statusCode).toBe(400);
  });

  it('an overlap and a taken name answer 409 naming the field, so the form shows them there', async () => {
    const overlap = (
      await api('POST', '/ipam/networks', { name: 'Inside', cidr: '203.0.113.4/30', purpose: 'static' })
    ).json();
    expect(overlap.errors).toEqual([
      { field: 'cidr', message: '203.0.113.4/30 overlaps the network "Statics" (203.0.113.0/29)' },
    ]);
    const named = (
      await api('POST', '/ipam/networks', { name: 'statics', cidr: '198.18.0.0/24', purpose: 'static' })
    ).json();
    expect(named.errors).toEqual([{ field: 'name', message: 'A network with this name already exists' }]);
  });
});
