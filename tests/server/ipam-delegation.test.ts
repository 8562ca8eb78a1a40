/**
 * IPv6 prefix delegation from an ipv6_delegation network (issue 22): PUT /subscriptions/:id/address with
 * delegated_from_network_id gives the subscription the first free prefix of the network's delegation length
 * (default /56), skipping reserved ranges and the prefixes others hold; 30 requests at once get 30 different
 * prefixes (the advisory lock per network and the unique index); a full network is a 409; the length is checked.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptions } from '../../server/db/schema';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

describe('IPv6 prefix delegation from a network', () => {
  let t: TestApp;
  let admin: string;
  let planId: string;
  let ownerId: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { accessTokenTtlSeconds: 365 * 86_400 } });
    await t.createUser({ email: 'admin@example.com', role: 'admin' });
    admin = (await t.login('admin@example.com')).token;
    ownerId = (await t.createUser({ email: 'owner@example.com' })).id;
    planId = (
      await api('POST', '/plans', {
        name: 'Fibre',
        price: 3000,
        download_mbps: 500,
        upload_mbps: 100,
        billing_cycle: 'monthly',
      })
    ).json().data.id;
  });
  afterAll(() => t?.close());

  function api(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
    return t.app.inject({ method, url: `/api${url}`, headers: bearer(admin), payload: payload as object });
  }
  const network = async (body: Record<string, unknown>) => {
    const res = await api('POST', '/ipam/networks', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; delegation_prefix_length: number | null };
  };
  const newSubscriptions = async (count: number) =>
    t.database.db
      .insert(subscriptions)
      .values(Array.from({ length: count }, () => ({ userId: ownerId, planId, status: 'active' as const })))
      .returning({ id: subscriptions.id });
  const delegate = (subscriptionId: string, networkId: string) =>
    api('PUT', `/subscriptions/${subscriptionId}/address`, { delegated_from_network_id: networkId });

  it('the network keeps its delegation length (default /56); lengths that do not fit, or on other networks, are 400', async () => {
    const v6 = await network({ name: 'Delegation A', cidr: '2001:db8:100::/40', purpose: 'ipv6_delegation' });
    expect(v6.delegation_prefix_length).toBe(56);
    const v4 = await network({ name: 'Static A', cidr: '203.0.113.0/24', purpose: 'static' });
    expect(v4.delegation_prefix_length).toBeNull();
    for (const [body, message] of [
      [
        { name: 'x1', cidr: '2001:db8:200::/48', purpose: 'ipv6_delegation', delegation_prefix_length: 48 },
        /longer than the network's \/48/,
      ],
      [
        { name: 'x2', cidr: '2001:db8:200::/48', purpose: 'ipv6_delegation', delegation_prefix_length: 72 },
        /at most \/64/,
      ],
      [{ name: 'x3', cidr: '2001:db8:200::/56', purpose: 'ipv6_delegation' }, /required for a \/56/],
      [
        { name: 'x4', cidr: '198.51.100.0/24', purpose: 'static', delegation_prefix_length: 56 },
        /only for ipv6_delegation networks/,
      ],
    ] as const) {
      const res = await api('POST', '/ipam/networks', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors[0]).toMatchObject({
        field: 'delegation_prefix_length',
        message: expect.stringMatching(message),
      });
    }
    const changed = await api('PUT', `/ipam/networks/${v6.id}`, { delegation_prefix_length: 60 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.delegation_prefix_length).toBe(60);

    const [sub] = await newSubscriptions(1);
    const wrong = await delegate(sub!.id, v4.id);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0].field).toBe('delegated_from_network_id');
    const both = await api('PUT', `/subscriptions/${sub!.id}/address`, {
      delegated_from_network_id: v6.id,
      delegated_ipv6_prefix: '2001:db8:100::/56',
    });
    expect(both.statusCode).toBe(400);
  });

  it('30 subscriptions asking at once get the first 30 free /56 prefixes, each once, around a reserved range and a prefix already held', async () => {
    const net = await network({
      name: 'Delegation B',
      cidr: '2001:db8:4000::/44',
      purpose: 'ipv6_delegation',
      reserved_ranges: [{ from: '2001:db8:4000:200::', to: '2001:db8:4000:3ff::', note: 'routers' }],
    });
    const [first] = await newSubscriptions(1);
    // A prefix typed by staff, inside the network: the allocation goes around it.
    expect(
      (await api('PUT', `/subscriptions/${first!.id}/address`, { delegated_ipv6_prefix: '2001:db8:4000::/56' }))
        .statusCode,
    ).toBe(200);

    const subs = await newSubscriptions(30);
    const answers = await Promise.all(subs.map((s) => delegate(s.id, net.id)));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const prefixes = answers.map((a) => a.json().data.delegated_ipv6_prefix as string);
    expect(new Set(prefixes).size).toBe(30);
    // /56 steps are 0x100 in the fourth group: 2001:db8:4000::/56 is held, :200 and :300 are reserved.
    const expected = [0x100, ...Array.from({ length: 29 }, (_, i) => 0x400 + i * 0x100)].map(
      (g) => `2001:db8:4000:${g.toString(16)}::/56`,
    );
    expect([...prefixes].sort()).toEqual([...expected].sort());
    const [stored] = await t.rows<{ n: number }>(
      sql`select count(distinct delegated_ipv6_prefix)::int as n from subscription_addressing where delegated_ipv6_prefix like '2001:db8:4000:%'`,
    );
    expect(stored!.n).toBe(31);

    // Asking again keeps the prefix held; the prefix of another subscription typed by hand is a 409.
    expect((await delegate(subs[0]!.id, net.id)).json().data.delegated_ipv6_prefix).toBe(prefixes[0]);
    const taken = await api('PUT', `/subscriptions/${subs[0]!.id}/address`, { delegated_ipv6_prefix: prefixes[1] });
    expect(taken.statusCode).toBe(409);
  });

  it('a network with no free prefix left answers 409', async () => {
    const net = await network({
      name: 'Delegation C',
      cidr: '2001:db8:8000::/60',
      purpose: 'ipv6_delegation',
      delegation_prefix_length: 62,
    });
    const subs = await newSubscriptions(5);
    const got: string[] = [];
    for (const s of subs.slice(0, 4)) got.push((await delegate(s.id, net.id)).json().data.delegated_ipv6_prefix);
    expect(got).toEqual(['2001:db8:8000::/62', '2001:db8:8000:4::/62', '2001:db8:8000:8::/62', '2001:db8:8000:c::/62']);
    const full = await delegate(subs[4]!.id, net.id);
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toBe('No free /62 is left in "Delegation C" (2001:db8:8000::/60)');
  });
  it('a delegation network cannot shrink away from, change the purpose of, or be deleted under the prefixes it delegated', async () => {
    const net = await network({ name: 'Delegation D', cidr: '2001:db8:9000::/44', purpose: 'ipv6_delegation' });
    const [sub] = await newSubscriptions(1);
    expect((await delegate(sub!.id, net.id)).json().data.delegated_ipv6_prefix).toBe('2001:db8:9000::/56');

    const shrink = await api('PUT', `/ipam/networks/${net.id}`, { cidr: '2001:db8:9008::/45' });
    expect(shrink.statusCode).toBe(409);
    expect(shrink.json().message).toBe(
      '2001:db8:9000::/56 is delegated from this network and would be outside 2001:db8:9008::/45',
    );
    const repurpose = await api('PUT', `/ipam/networks/${net.id}`, {
      purpose: 'static',
      delegation_prefix_length: null,
    });
    expect(repurpose.statusCode).toBe(409);
    expect(repurpose.json().message).toBe('The purpose of a network with subscriptions on it cannot change');
    const gone = await api('DELETE', `/ipam/networks/${net.id}`);
    expect(gone.statusCode).toBe(409);
    expect(gone.json().message).toBe('The network is in use by 1 subscription: release their addresses first');
    expect((await api('GET', `/ipam/networks/${net.id}`)).json().data.cidr).toBe('2001:db8:9000::/44');

    // A shrink that keeps the prefix inside is fine; once released, the network can go.
    expect((await api('PUT', `/ipam/networks/${net.id}`, { cidr: '2001:db8:9000::/45' })).statusCode).toBe(200);
    expect((await api('DELETE', `/subscriptions/${sub!.id}/address`)).statusCode).toBe(200);
    expect((await api('DELETE', `/ipam/networks/${net.id}`)).statusCode).toBe(200);
  });
});
