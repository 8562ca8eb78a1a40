/**
 * IP address management (issue 22): networks (validation, overlaps, roles), static addresses (staff-chosen or
 * the first free, conflict-free with 50 allocations at once), quarantine on release and on cancellation, and
 * what a NAS sees: radclient's Access-Accept carries Framed-IP-Address / Framed-Pool / the IPv6 prefixes, an
 * address change disconnects the live session, and the address history answers who had an address at a time.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { devices, subscriptions } from '../../server/db/schema';
import { ManualClock } from '../../server/lib/clock';
import { provisionCredentials } from '../../server/modules/radius/credentials';
import { activateForPaidInvoice } from '../../server/modules/subscriptions/service';
import { ensureRadclient, radclient, type RadclientAnswer } from '../helpers/radclient';
import { bearer, createTestApp, type TestApp } from '../helpers/server';
import { radiusTestConfig, TestNas } from '../helpers/test-nas';

const SECRET = 'nas-shared-secret-ipam';
const START = '2026-11-20T10:00:00.000Z';
const DAY = 86_400_000;

describe('IP address management', () => {
  let t: TestApp;
  const clock = new ManualClock(START);
  /** The NAS's dynamic-authorization port: records each request and ACKs it. */
  const nas = new TestNas(SECRET);
  const tokens: Record<string, string> = {};
  let planId: string;
  let ports: { authPort: number; acctPort: number };
  let n = 0;

  beforeAll(async () => {
    ensureRadclient();
    await nas.start();
    t = await createTestApp({
      clock,
      config: {
        accessTokenTtlSeconds: 365 * 86_400,
        ...radiusTestConfig(nas.port),
      },
    });
    ports = t.app.radius.ports()!;
    for (const role of ['admin', 'technician', 'support', 'billing', 'user'] as const) {
      await t.createUser({ email: `${role}@example.com`, role });
      tokens[role] = (await t.login(`${role}@example.com`)).token;
    }
    planId = (
      await api('POST', '/plans', {
        name: 'Basic',
        price: 3000,
        download_mbps: 50,
        upload_mbps: 10,
        billing_cycle: 'monthly',
      })
    ).json().data.id;
    await db()
      .insert(devices)
      .values({ name: 'nas-1', vendor: 'mikrotik', host: '127.0.0.1', radiusSecret: t.app.secretBox.seal(SECRET) });
    await t.app.radius.clients.reload();
  });
  afterAll(async () => {
    await t?.close();
    await nas.stop();
  });

  const db = () => t.database.db;
  function api(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, role = 'admin') {
    return t.app.inject({ method, url: `/api${url}`, headers: bearer(tokens[role]), payload: payload as object });
  }
  async function network(body: Record<string, unknown>) {
    const res = await api('POST', '/ipam/networks', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; cidr: string };
  }
  /** An active subscription with PPPoE credentials. */
  async function customer() {
    const user = await t.createUser({ email: `customer${++n}@example.com` });
    const created = await api('POST', '/subscriptions', { plan_id: planId, user_id: user.id });
    expect(created.statusCode, created.body).toBe(201);
    const { subscription, invoice } = created.json().data as { subscription: { id: string }; invoice: { id: string } };
    const credentials = await provisionCredentials(db(), subscription.id, t.app.secretBox);
    await db().transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      await tx.execute(
        sql`update invoices set status = 'paid', paid_date = ${clock.now().toISOString()} where id = ${invoice.id}`,
      );
      await activateForPaidInvoice(tx, invoice.id, clock.now());
    });
    return {
      subscriptionId: subscription.id,
      userId: user.id,
      email: user.email,
      username: credentials.username,
      password: credentials.password!,
    };
  }
  const assign = (subscriptionId: string, body: Record<string, unknown>, role = 'admin') =>
    api('PUT', `/subscriptions/${subscriptionId}/address`, body, role);
  const login = (username: string, password: string) =>
    radclient(
      { port: ports.authPort, secret: SECRET, type: 'auth' },
      { 'User-Name': username, 'User-Password': password, 'NAS-Port-Type': 'Ethernet' },
    );
  const accepted = (a: RadclientAnswer) => expect(a.code, a.output).toBe('Access-Accept');

  it('validates networks: a CIDR, the network address, gateway and reserved ranges inside, a pool name for a pool (400 naming the field)', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ name: 'x', cidr: '10.0.0.0/33', purpose: 'static' }, 'cidr', /cidr must be a network such as/],
      [{ name: 'x', cidr: '10.0.0.5/24', purpose: 'static' }, 'cidr', /host bits set/],
      [
        { name: 'x', cidr: '10.0.0.0/24', purpose: 'static', gateway: '10.0.1.1' },
        'gateway',
        /gateway 10\.0\.1\.1 is not inside 10\.0\.0\.0\/24/,
      ],
      [{ name: 'x', cidr: '10.0.0.0/24', purpose: 'static', gateway: '10.0.0.255' }, 'gateway', /network or broadcast/],
      [
        { name: 'x', cidr: '10.0.0.0/24', purpose: 'static', reserved_ranges: [{ from: '10.0.0.10', to: '10.0.2.1' }] },
        'reserved_ranges.0.to',
        /not inside/,
      ],
      [{ name: 'x', cidr: '10.0.0.0/24', purpose: 'pool' }, 'pool_name', /pool_name is required/],
      [{ name: 'x', cidr: '10.0.0.0/24', purpose: 'ipv6_delegation' }, 'purpose', /must be an IPv6 prefix/],
      [
        { name: 'x', cidr: '10.0.0.0/24', purpose: 'static', dns_servers: ['1.1.1'] },
        'dns_servers.0',
        /valid IPv4 or IPv6/,
      ],
    ];
    for (const [body, field, message] of cases) {
      const res = await api('POST', '/ipam/networks', body);
      expect(res.statusCode, res.body).toBe(400);
      const json = res.json();
      expect(json.success).toBe(false);
      expect(json.message).toMatch(message);
      expect(json.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });

  it('refuses overlapping networks and duplicate names with 409 naming the other network; IPv6 prefixes are kept apart from IPv4', async () => {
    await network({ name: 'Core statics', cidr: '198.51.100.0/24', purpose: 'static', gateway: '198.51.100.1' });
    for (const cidr of ['198.51.100.128/25', '198.51.0.0/16', '198.51.100.7/32']) {
      const res = await api('POST', '/ipam/networks', { name: `other ${cidr}`, cidr, purpose: 'static' });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toBe(`${cidr} overlaps the network "Core statics" (198.51.100.0/24)`);
    }
    expect(
      (await api('POST', '/ipam/networks', { name: 'core STATICS', cidr: '198.51.101.0/24', purpose: 'static' })).json()
        .message,
    ).toBe('A network with this name already exists');
    const v6 = await network({ name: 'Delegation', cidr: '2001:DB8:100::/40', purpose: 'ipv6_delegation' });
    expect(v6.cidr).toBe('2001:db8:100::/40');
    expect(
      (await api('POST', '/ipam/networks', { name: 'v6 b', cidr: '2001:db8:1ff::/48', purpose: 'ipv6_delegation' }))
        .statusCode,
    ).toBe(409);
    // Adjacent is not overlapping.
    await network({ name: 'Next door', cidr: '198.51.101.0/24', purpose: 'static' });
  });

  it('roles: admin and technician manage networks, support reads, billing and customers are refused', async () => {
    expect(
      (
        await api(
          'POST',
          '/ipam/networks',
          { name: 'Tech net', cidr: '100.64.0.0/24', purpose: 'static' },
          'technician',
        )
      ).statusCode,
    ).toBe(201);
    expect((await api('GET', '/ipam/networks', undefined, 'support')).statusCode).toBe(200);
    expect((await api('GET', '/ipam/history?address=100.64.0.9', undefined, 'support')).statusCode).toBe(200);
    expect(
      (
        await api(
          'POST',
          '/ipam/networks',
          { name: 'Support net', cidr: '100.64.1.0/24', purpose: 'static' },
          'support',
        )
      ).statusCode,
    ).toBe(403);
    expect((await api('GET', '/ipam/networks', undefined, 'billing')).statusCode).toBe(403);
    expect((await api('GET', '/ipam/networks', undefined, 'user')).statusCode).toBe(403);
    const c = await customer();
    expect((await assign(c.subscriptionId, { network_id: null }, 'support')).statusCode).toBe(403);
    // A customer reads their own subscription's addressing, not another's (not found), and changes nothing.
    expect((await api('GET', `/subscriptions/${c.subscriptionId}/address`, undefined, 'user')).statusCode).toBe(404);
    expect((await assign(c.subscriptionId, { network_id: null }, 'user')).statusCode).toBe(403);
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/subscriptions/${c.subscriptionId}/address`,
      headers: bearer((await t.login(c.email)).token),
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().data).toMatchObject({ subscription_id: c.subscriptionId, address: null });
  });

  it('hands out the first free address, skipping network, gateway and reserved addresses; a staff choice of those is refused; a full network answers 409', async () => {
    const net = await network({
      name: 'Tiny',
      cidr: '192.0.2.0/29',
      purpose: 'static',
      gateway: '192.0.2.1',
      reserved_ranges: [{ from: '192.0.2.2', to: '192.0.2.3', note: 'switches' }],
    });
    const a = await customer();
    const first = await assign(a.subscriptionId, { network_id: net.id });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ address: '192.0.2.4', network_id: net.id, pool_name: null });

    const b = await customer();
    expect((await assign(b.subscriptionId, { network_id: net.id, address: '192.0.2.1' })).json()).toMatchObject({
      message: '192.0.2.1 is the gateway of "Tiny"',
    });
    expect((await assign(b.subscriptionId, { network_id: net.id, address: '192.0.2.3' })).json().message).toBe(
      '192.0.2.3 is in a reserved range of "Tiny" (192.0.2.2 – 192.0.2.3: switches)',
    );
    expect((await assign(b.subscriptionId, { network_id: net.id, address: '192.0.2.4' })).json().message).toBe(
      '192.0.2.4 is already assigned to another subscription',
    );
    const outside = await assign(b.subscriptionId, { network_id: net.id, address: '192.0.2.9' });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().message).toBe('192.0.2.9 is not inside 192.0.2.0/29');
    expect((await assign(b.subscriptionId, { network_id: net.id, address: '192.0.2.7' })).statusCode).toBe(400); // broadcast
    expect((await assign(b.subscriptionId, { network_id: net.id, address: '192.0.2.6' })).json().data.address).toBe(
      '192.0.2.6',
    );

    const c = await customer();
    expect((await assign(c.subscriptionId, { network_id: net.id })).json().data.address).toBe('192.0.2.5');
    const d = await customer();
    const full = await assign(d.subscriptionId, { network_id: net.id });
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toBe('No free address is left in this network "Tiny" (192.0.2.0/29)');

    const map = (await api('GET', `/ipam/networks/${net.id}/addresses`, undefined, 'support')).json().data;
    expect(map.network.counts).toEqual({ static: 3, dynamic: 0, reserved: 3, quarantined: 0, free: '0' });
    expect(map.items.map((i: { address: string }) => i.address)).toEqual(['192.0.2.4', '192.0.2.5', '192.0.2.6']);
  });

  it('50 allocations at once on one network all get distinct addresses', async () => {
    const net = await network({ name: 'Busy', cidr: '203.0.113.0/24', purpose: 'static', gateway: '203.0.113.1' });
    const [owner] = await t.rows<{ id: string }>(sql`select id from users where email = 'user@example.com'`);
    const subs = await db()
      .insert(subscriptions)
      .values(Array.from({ length: 50 }, () => ({ userId: owner.id, planId, status: 'active' })))
      .returning({ id: subscriptions.id });
    const answers = await Promise.all(subs.map((s) => assign(s.id, { network_id: net.id })));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const addresses = answers.map((a) => a.json().data.address as string);
    expect(new Set(addresses).size).toBe(50);
    expect(addresses).not.toContain('203.0.113.1');
    expect(addresses).not.toContain('203.0.113.0');
    const rows = await t.rows<{ n: number }>(
      sql`select count(distinct address)::int as n from ip_assignments where network_id = ${net.id} and state = 'static'`,
    );
    expect(rows[0].n).toBe(50);
  });

  it('a released address is quarantined for the network quarantine_days and handed out only after it; a cancelled subscription releases its address', async () => {
    const net = await network({ name: 'Pair', cidr: '192.0.2.64/30', purpose: 'static', quarantine_days: 10 });
    const a = await customer();
    expect((await assign(a.subscriptionId, { network_id: net.id })).json().data.address).toBe('192.0.2.65');
    const released = await api('DELETE', `/subscriptions/${a.subscriptionId}/address`);
    expect(released.json().data).toMatchObject({ address: null, network_id: null });
    const map = (await api('GET', `/ipam/networks/${net.id}/addresses`)).json().data;
    expect(map.items).toEqual([
      expect.objectContaining({
        address: '192.0.2.65',
        state: 'quarantined',
        quarantine_until: new Date(clock.now().getTime() + 10 * DAY).toISOString(),
      }),
    ]);

    const b = await customer();
    expect((await assign(b.subscriptionId, { network_id: net.id })).json().data.address).toBe('192.0.2.66');
    const c = await customer();
    expect((await assign(c.subscriptionId, { network_id: net.id, address: '192.0.2.65' })).json().message).toMatch(
      /^192\.0\.2\.65 is in quarantine until /,
    );
    expect((await assign(c.subscriptionId, { network_id: net.id })).statusCode).toBe(409);
    clock.advance(10 * DAY + 1000);
    expect((await assign(c.subscriptionId, { network_id: net.id })).json().data.address).toBe('192.0.2.65');

    // Cancelling b (at once) puts its address into quarantine.
    expect((await api('POST', `/subscriptions/${b.subscriptionId}/cancel`, { immediate: true })).statusCode).toBe(200);
    await t.app.changes.idle();
    await t.app.radius.idle();
    const after = (await api('GET', `/ipam/networks/${net.id}/addresses`)).json().data.items;
    expect(after).toContainEqual(expect.objectContaining({ address: '192.0.2.66', state: 'quarantined' }));
    expect((await api('GET', `/subscriptions/${b.subscriptionId}/address`)).json().data.address).toBeNull();
  });

  it('RADIUS: Access-Accept carries Framed-IP-Address for a static address, Framed-Pool for a pool, and the IPv6 prefixes', async () => {
    const statics = await network({
      name: 'Radius statics',
      cidr: '10.20.0.0/24',
      purpose: 'static',
      gateway: '10.20.0.1',
    });
    const pool = await network({ name: 'Dynamic', cidr: '100.72.0.0/16', purpose: 'pool', pool_name: 'pppoe-dyn' });
    const a = await customer();
    accepted(await login(a.username, a.password));
    expect((await login(a.username, a.password)).attributes['Framed-IP-Address']).toBeUndefined();

    const set = await assign(a.subscriptionId, {
      network_id: statics.id,
      framed_ipv6_prefix: '2001:db8:5::/64',
      delegated_ipv6_prefix: '2001:db8:100:200::/56',
    });
    expect(set.json().data, set.body).toMatchObject({
      address: '10.20.0.2',
      framed_ipv6_prefix: '2001:db8:5::/64',
      delegated_ipv6_prefix: '2001:db8:100:200::/56',
    });
    await t.app.radius.idle();
    const answer = await login(a.username, a.password);
    accepted(answer);
    expect(answer.attributes['Framed-IP-Address']).toBe('10.20.0.2');
    expect(answer.attributes['Framed-Pool']).toBeUndefined();
    expect(answer.attributes['Framed-IPv6-Prefix']).toBe('2001:db8:5::/64');
    expect(answer.attributes['Delegated-IPv6-Prefix']).toBe('2001:db8:100:200::/56');
    expect(answer.attributes['Mikrotik-Rate-Limit']).toBe('10M/50M');

    const toPool = await assign(a.subscriptionId, { network_id: pool.id, delegated_ipv6_prefix: null });
    expect(toPool.json().data).toMatchObject({
      address: null,
      pool_network_id: pool.id,
      pool_name: 'pppoe-dyn',
      delegated_ipv6_prefix: null,
    });
    await t.app.radius.idle();
    const pooled = await login(a.username, a.password);
    accepted(pooled);
    expect(pooled.attributes['Framed-Pool']).toBe('pppoe-dyn');
    expect(pooled.attributes['Framed-IP-Address']).toBeUndefined();
    expect(pooled.attributes['Delegated-IPv6-Prefix']).toBeUndefined();
    // A prefix delegated as "the next free one" of a delegation network reaches the NAS the same way.
    const v6 = await network({ name: 'Radius delegation', cidr: '2001:db8:300::/48', purpose: 'ipv6_delegation' });
    const delegated = await assign(a.subscriptionId, { delegated_from_network_id: v6.id });
    expect(delegated.json().data, delegated.body).toMatchObject({
      pool_network_id: pool.id,
      delegated_ipv6_prefix: '2001:db8:300::/56',
    });
    await t.app.radius.idle();
    const withPrefix = await login(a.username, a.password);
    accepted(withPrefix);
    expect(withPrefix.attributes['Delegated-IPv6-Prefix']).toBe('2001:db8:300::/56');
    expect(withPrefix.attributes['Framed-Pool']).toBe('pppoe-dyn');
    // The static address it left is quarantined, not free.
    const map = (await api('GET', `/ipam/networks/${statics.id}/addresses`)).json().data.items;
    expect(map).toEqual([expect.objectContaining({ address: '10.20.0.2', state: 'quarantined' })]);
  });

  it('an address change disconnects the live session; the history answers who had the address at a time, with the session and the NAS', async () => {
    const net = await network({ name: 'History', cidr: '10.30.0.0/24', purpose: 'static' });
    const a = await customer();
    const address = (await assign(a.subscriptionId, { network_id: net.id })).json().data.address as string;
    expect(address).toBe('10.30.0.1');
    await t.app.radius.idle();
    accepted(await login(a.username, a.password));
    const acct = (attributes: Record<string, string | number>) =>
      radclient({ port: ports.acctPort, secret: SECRET, type: 'acct' }, attributes);
    const started = clock.now();
    const start = await acct({
      'User-Name': a.username,
      'Acct-Status-Type': 'Start',
      'Acct-Session-Id': 'hist-1',
      'Framed-IP-Address': address,
      'NAS-IP-Address': '127.0.0.1',
    });
    expect(start.code, start.output).toBe('Accounting-Response');

    nas.received.length = 0;
    const moved = await assign(a.subscriptionId, { network_id: net.id, address: '10.30.0.50' });
    expect(moved.json().data.address).toBe('10.30.0.50');
    await t.app.radius.idle();
    expect(nas.received.map((r) => r.code)).toEqual(['Disconnect-Request']);
    expect(nas.received[0].attributes['Acct-Session-Id']).toBe('hist-1');
    clock.advance(60_000);
    await acct({
      'User-Name': a.username,
      'Acct-Status-Type': 'Stop',
      'Acct-Session-Id': 'hist-1',
      'Framed-IP-Address': address,
      'Acct-Session-Time': 60,
      'NAS-IP-Address': '127.0.0.1',
    });

    const at = new Date(started.getTime() + 30_000).toISOString();
    const history = await api(
      'GET',
      `/ipam/history?address=${address}&at=${encodeURIComponent(at)}`,
      undefined,
      'support',
    );
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().data.items).toEqual([
      expect.objectContaining({
        address,
        subscription_id: a.subscriptionId,
        user_id: a.userId,
        username: a.username,
        acct_session_id: 'hist-1',
        nas_name: 'nas-1',
        started_at: started.toISOString(),
        stopped_at: expect.any(String),
      }),
    ]);
    const later = new Date(clock.now().getTime() + 3_600_000).toISOString();
    expect(
      (await api('GET', `/ipam/history?address=${address}&at=${encodeURIComponent(later)}`)).json().data.items,
    ).toEqual([]);
    expect((await api('GET', '/ipam/history?address=not-an-ip')).statusCode).toBe(400);
  });
});
