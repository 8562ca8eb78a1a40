/**
 * The LibreQoS shaper export (issue 36): GET /api/exports/libreqos/shaped-devices.csv and network.json, checked
 * against LibreQoS's own layout (the header of src/ShapedDevices.example.csv in github.com/LibreQoE/LibreQoS, copied
 * below as text, not taken from the code under test), with IPv4 and IPv6 from IP management, RFC 4180 quoting of
 * awkward names, every Parent Node a node of network.json, the roles, and the scheduled writer's two files.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Db } from '../../server/db/client';
import { plans, subscriptions } from '../../server/db/schema';
import { devices } from '../../server/db/schema/devices';
import { subscriptionAddressing } from '../../server/db/schema/ipam';
import { radiusSessions, serviceCredentials } from '../../server/db/schema/radius';
import { usageCycleCounters } from '../../server/db/schema/fair-use';
import { ManualClock } from '../../server/lib/clock';
import { LIBREQOS_EXPORT_JOB } from '../../server/modules/libreqos/plugin';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

/**
 * LibreQoS's ShapedDevices.csv header: the first line of its src/ShapedDevices.example.csv (github.com/LibreQoE/LibreQoS,
 * develop, commit 455bc13b), kept as that file's first line in fixtures/libreqos/, not taken from the code under test.
 * (The example's own data rows still have the older 13 fields, so only its header is kept; LibreQoS's
 * docs/v2.0/configuration-advanced.md shows rows of all 15.)
 */
const LIBREQOS_HEADER = readFileSync(
  fileURLToPath(new URL('./fixtures/libreqos/ShapedDevices.example.csv', import.meta.url)),
  'utf8',
).split(/\r?\n/)[0];

const START = '2026-11-20T10:00:00.000Z';
const DAY = 86_400_000;

/** A small RFC 4180 reader (quoted fields, doubled quotes, CRLF records), independent of the exporter's writer. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || record.length) throw new Error('the last record has no CRLF');
  return records;
}

type Node = {
  id: string;
  downloadBandwidthMbps: number;
  uploadBandwidthMbps: number;
  type: string;
  children?: Record<string, Node>;
};
function nodeNames(tree: Record<string, Node>): Map<string, Node> {
  const names = new Map<string, Node>();
  for (const [name, node] of Object.entries(tree)) {
    expect(names.has(name), `node name ${name} is unique`).toBe(false);
    names.set(name, node);
    for (const [child, sub] of nodeNames(node.children ?? {})) {
      expect(names.has(child), `node name ${child} is unique`).toBe(false);
      names.set(child, sub);
    }
  }
  return names;
}

describe('LibreQoS shaper export', () => {
  let t: TestApp;
  const clock = new ManualClock(START);
  const tokens: Record<string, string> = {};
  const subs: Record<string, string> = {};
  const nas: Record<string, string> = {};
  const db = (): Db => t.database.db;

  function api(method: 'GET' | 'POST' | 'PUT', url: string, role?: string, payload?: unknown) {
    return t.app.inject({
      method,
      url: `/api${url}`,
      headers: role ? bearer(tokens[role]) : {},
      payload: payload as object,
    });
  }

  /** A subscription in the given status with a PPPoE login. */
  async function subscription(
    key: string,
    name: string,
    planId: string,
    extra: Partial<typeof subscriptions.$inferInsert> = {},
  ) {
    const user = await t.createUser({ email: `${key}@example.com`, name });
    const [row] = await db()
      .insert(subscriptions)
      .values({
        userId: user.id,
        planId,
        status: 'active',
        currentPeriodStart: new Date(Date.parse(START) - DAY),
        currentPeriodEnd: new Date(Date.parse(START) + 29 * DAY),
        ...extra,
      })
      .returning();
    await db()
      .insert(serviceCredentials)
      .values({ subscriptionId: row.id, username: `pppoe-${key}`, passwordSealed: t.app.secretBox.seal('secret') });
    subs[key] = row.id;
    return row.id;
  }

  beforeAll(async () => {
    t = await createTestApp({ clock, config: { accessTokenTtlSeconds: 365 * 86_400 } });
    for (const role of ['admin', 'technician', 'support', 'billing', 'user'] as const) {
      await t.createUser({ email: `${role}-staff@example.com`, role });
      tokens[role] = (await t.login(`${role}-staff@example.com`)).token;
    }
    const [fast] = await db()
      .insert(plans)
      .values({
        name: 'Fiber 100',
        slug: 'fiber-100',
        downloadMbps: 100,
        uploadMbps: 20,
        price: 5000,
        currency: 'USD',
        billingCycle: 'monthly',
      })
      .returning();
    const [slow] = await db()
      .insert(plans)
      .values({
        name: 'Lite, "1 Mbit"',
        slug: 'lite',
        downloadMbps: 1,
        uploadMbps: 1,
        price: 1000,
        currency: 'USD',
        billingCycle: 'monthly',
      })
      .returning();
    const seal = (s: string) => t.app.secretBox.seal(s);
    const inserted = await db()
      .insert(devices)
      .values([
        { name: 'bng-north', host: '10.0.0.1', location: 'North Tower', radiusSecret: seal('s1') },
        { name: 'bng-south', host: '10.0.0.2', location: 'South POP', radiusSecret: seal('s2') },
        // Named like a site: LibreQoS needs every node name unique across the tree.
        { name: 'North Tower', host: '10.0.0.3', location: null, radiusSecret: seal('s3') },
        // A switch (no RADIUS, no session): not a node.
        { name: 'core-switch', host: '10.0.0.9', location: 'North Tower' },
      ])
      .returning();
    for (const d of inserted) nas[d.name] = d.id;

    // Static addresses routed to bng-south, and IPv6 prefixes, through IP management's API.
    const network = await api('POST', '/ipam/networks', 'admin', {
      name: 'South statics',
      cidr: '198.51.100.0/24',
      purpose: 'static',
      device_id: nas['bng-south'],
    });
    expect(network.statusCode, network.body).toBe(201);
    const networkId = network.json().data.id as string;

    // 1. Connected through bng-north (open session with a pool address), IPv6 on both columns.
    await subscription('alice', 'Alice "Al" Smith, Jr.', fast.id);
    const addressed = await api('PUT', `/subscriptions/${subs.alice}/address`, 'admin', {
      framed_ipv6_prefix: '2001:db8:1::/64',
      delegated_ipv6_prefix: '2001:db8:100::/56',
    });
    expect(addressed.statusCode, addressed.body).toBe(200);
    // 2. A static IPv4 in the network routed to bng-south, never connected.
    await subscription('bob', 'Bob Builder', slow.id);
    const bobAddress = await api('PUT', `/subscriptions/${subs.bob}/address`, 'admin', {
      network_id: networkId,
      address: '198.51.100.7',
    });
    expect(bobAddress.statusCode, bobAddress.body).toBe(200);
    // 3. Cancelled at period end (still in service), last session on the NAS named like the site.
    await subscription('carol', 'Carol\nNewline', fast.id, { status: 'cancelled' });
    // 4. Nothing known about where it connects: the generated "Unassigned" node.
    await subscription('dave', '=Dave+', fast.id);
    // The same link prefix as Alice's, by mistake (only delegated prefixes are unique in IP management).
    await db()
      .insert(subscriptionAddressing)
      .values({ subscriptionId: subs.dave, framedIpv6Prefix: '2001:db8:1::/64' });
    // Not in service: suspended, expired, cancelled and over.
    await subscription('erin', 'Erin', fast.id, { status: 'suspended' });
    await subscription('frank', 'Frank', fast.id, { status: 'expired' });
    await subscription('gina', 'Gina', fast.id, {
      status: 'cancelled',
      currentPeriodEnd: new Date(Date.parse(START) - 1000),
    });

    const now = new Date(START);
    await db()
      .insert(radiusSessions)
      .values([
        {
          acctSessionId: 'a-1',
          nasDeviceId: nas['bng-north'],
          nasIp: '10.0.0.1',
          username: 'pppoe-alice',
          subscriptionId: subs.alice,
          framedIp: '100.64.0.10',
          startedAt: now,
          updatedAt: now,
          status: 'open',
        },
        {
          acctSessionId: 'c-1',
          nasDeviceId: nas['North Tower'],
          nasIp: '10.0.0.3',
          username: 'pppoe-carol',
          subscriptionId: subs.carol,
          framedIp: '100.64.0.11',
          startedAt: new Date(Date.parse(START) - DAY),
          updatedAt: now,
          status: 'closed',
        },
      ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function exportCsv(role = 'admin') {
    const res = await api('GET', '/exports/libreqos/shaped-devices.csv', role);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toContain('ShapedDevices.csv');
    return res.body;
  }
  async function exportNetwork(role = 'admin') {
    const res = await api('GET', '/exports/libreqos/network.json', role);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    return res.json() as Record<string, Node>;
  }
  const byCircuit = (records: string[][]) => new Map(records.slice(1).map((r) => [r[0], r]));

  it("writes LibreQoS's ShapedDevices.csv header exactly, no byte-order mark, CRLF records", async () => {
    expect(LIBREQOS_HEADER.split(',')).toHaveLength(15);
    const body = await exportCsv();
    expect(body.split('\r\n')[0]).toBe(LIBREQOS_HEADER);
    expect(body.charCodeAt(0)).not.toBe(0xfeff);
    const records = parseCsv(body);
    for (const r of records) expect(r).toHaveLength(15);
    // What LibreQoS.py's validateNetworkAndDevices refuses: a Circuit ID empty or starting with "#" (a comment line),
    // a rate under 0.1 Mbps or not a number, a minimum above its maximum, an IPv6 entry twice in the file.
    const seenIpv6 = new Set<string>();
    for (const r of records.slice(1)) {
      expect(r[0]).toMatch(/^[^#]/);
      const [dMin, uMin, dMax, uMax] = r.slice(10, 14).map(Number);
      for (const rate of [dMin, uMin, dMax, uMax]) expect(rate).toBeGreaterThanOrEqual(0.1);
      expect(dMin).toBeLessThanOrEqual(dMax);
      expect(uMin).toBeLessThanOrEqual(uMax);
      for (const prefix of r[9] ? r[9].split(',') : []) {
        expect(seenIpv6.has(prefix), `${prefix} once`).toBe(false);
        seenIpv6.add(prefix);
      }
    }
  });

  it('has one circuit per subscription in service: active, and cancelled until the period ends', async () => {
    const circuits = byCircuit(parseCsv(await exportCsv()));
    expect([...circuits.keys()].sort()).toEqual([subs.alice, subs.bob, subs.carol, subs.dave].sort());
  });

  it('fills IPv4 and IPv6 from IP management and the open session, rates from the plan', async () => {
    const circuits = byCircuit(parseCsv(await exportCsv()));
    const header = LIBREQOS_HEADER.split(',');
    const col = (row: string[], name: string) => row[header.indexOf(name)];
    const alice = circuits.get(subs.alice)!;
    expect(col(alice, 'IPv4')).toBe('100.64.0.10');
    // A prefix twice would make LibreQoS refuse the whole file: it goes to the first circuit only (by id).
    const dave = circuits.get(subs.dave)!;
    const aliceFirst = subs.alice < subs.dave;
    expect(col(alice, 'IPv6')).toBe(aliceFirst ? '2001:db8:1::/64,2001:db8:100::/56' : '2001:db8:100::/56');
    expect(col(dave, 'IPv6')).toBe(aliceFirst ? '' : '2001:db8:1::/64');
    expect(col(alice, 'MAC')).toBe('pppoe-alice');
    expect(col(alice, 'Device ID')).toBe(subs.alice);
    expect(col(alice, 'Device Name')).toBe('pppoe-alice');
    expect([alice[10], alice[11], alice[12], alice[13]]).toEqual(['1', '1', '100', '20']);
    expect(col(alice, 'Comment')).toBe('Fiber 100');
    const bob = circuits.get(subs.bob)!;
    expect(col(bob, 'IPv4')).toBe('198.51.100.7');
    expect(col(bob, 'IPv6')).toBe('');
    // A 1 Mbit/s plan goes out at LibreQoS's floor of 2 for the maximum, the minimum stays 1.
    expect([bob[10], bob[11], bob[12], bob[13]]).toEqual(['1', '1', '2', '2']);
    // Carol's session is closed: no address, but her last NAS is still her parent.
    expect(col(circuits.get(subs.carol)!, 'IPv4')).toBe('');
  });

  it("a subscription in a fair-use tier this cycle is shaped at the tier's rate, back to the plan's in a new cycle", async () => {
    const header = LIBREQOS_HEADER.split(',');
    const maxRates = async () => {
      const row = byCircuit(parseCsv(await exportCsv())).get(subs.alice)!;
      return [row[header.indexOf('Download Max Mbps')], row[header.indexOf('Upload Max Mbps')]];
    };
    const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.id, subs.alice));
    const [plan] = await db().select().from(plans).where(eq(plans.id, sub.planId));
    await db()
      .update(plans)
      .set({ usageTiers: [{ afterGb: 500, downloadKbps: 10_000, uploadKbps: 2_000 }] })
      .where(eq(plans.id, plan.id));
    try {
      // Accounting put Alice past 500 GB this cycle (tier 1).
      await db()
        .insert(usageCycleCounters)
        .values({ subscriptionId: subs.alice, cycleStart: sub.currentPeriodStart!, outputOctets: 501e9, tier: 1 });
      expect(await maxRates()).toEqual(['10', '2']);
      // The counter of an earlier cycle does not count.
      await db()
        .update(usageCycleCounters)
        .set({ cycleStart: new Date(sub.currentPeriodStart!.getTime() - 30 * 86_400_000) })
        .where(eq(usageCycleCounters.subscriptionId, subs.alice));
      expect(await maxRates()).toEqual(['100', '20']);
    } finally {
      await db().delete(usageCycleCounters).where(eq(usageCycleCounters.subscriptionId, subs.alice));
      await db().update(plans).set({ usageTiers: plan.usageTiers }).where(eq(plans.id, plan.id));
    }
  });

  it('quotes names with commas, quotes and line breaks (RFC 4180), and keeps a leading = as it is', async () => {
    const body = await exportCsv();
    expect(body).toContain('"Alice ""Al"" Smith, Jr. (');
    expect(body).toContain('"Lite, ""1 Mbit"""');
    const circuits = byCircuit(parseCsv(body));
    expect(circuits.get(subs.alice)![1]).toMatch(/^Alice "Al" Smith, Jr\. \(.+\)$/);
    expect(circuits.get(subs.carol)![1]).toMatch(/^Carol Newline/);
    expect(circuits.get(subs.dave)![1]).toMatch(/^=Dave\+/);
    expect(circuits.get(subs.bob)![14]).toBe('Lite, "1 Mbit"');
  });

  it('places every circuit under a node of network.json: its NAS, its network’s NAS, or Unassigned', async () => {
    const circuits = byCircuit(parseCsv(await exportCsv()));
    const tree = await exportNetwork();
    const nodes = nodeNames(tree);
    for (const row of circuits.values()) {
      expect(nodes.has(row[4]), `Parent Node ${row[4]} is in network.json`).toBe(true);
      expect(nodes.get(row[4])!.id).toBe(row[5]);
    }
    expect(circuits.get(subs.alice)![4]).toBe('bng-north');
    expect(circuits.get(subs.bob)![4]).toBe('bng-south');
    expect(circuits.get(subs.carol)![4]).toBe('North Tower (10.0.0.3)');
    expect(circuits.get(subs.dave)![4]).toBe('Unassigned');

    // Sites (the devices' location) above their NAS devices; a NAS without a location at the top.
    expect(Object.keys(tree).sort()).toEqual(['North Tower', 'North Tower (10.0.0.3)', 'South POP', 'Unassigned']);
    expect(tree['North Tower']).toMatchObject({
      type: 'site',
      downloadBandwidthMbps: 100,
      uploadBandwidthMbps: 20,
      children: { 'bng-north': { type: 'ap', id: `portal:nas:${nas['bng-north']}`, downloadBandwidthMbps: 100 } },
    });
    expect(tree['South POP'].children!['bng-south']).toMatchObject({
      downloadBandwidthMbps: 2,
      uploadBandwidthMbps: 2,
    });
    expect(nodes.has('core-switch')).toBe(false);
  });

  it('is for admin and technicians: 403 for other roles and customers, 401 without a token', async () => {
    await exportCsv('technician');
    await exportNetwork('technician');
    for (const url of ['/exports/libreqos/shaped-devices.csv', '/exports/libreqos/network.json']) {
      for (const role of ['user', 'support', 'billing']) expect((await api('GET', url, role)).statusCode).toBe(403);
      expect((await api('GET', url)).statusCode).toBe(401);
    }
  });

  it('writes both files into a folder (temporary file, then rename), the same as the downloads', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'libreqos-'));
    try {
      const result = await t.app.libreqos.service.writeFiles(path.join(dir, 'out'));
      expect(result.circuits).toBe(4);
      expect((await readdir(path.join(dir, 'out'))).sort()).toEqual(['ShapedDevices.csv', 'network.json']);
      const csv = await readFile(path.join(dir, 'out', 'ShapedDevices.csv'), 'utf8');
      expect(csv).toBe(await exportCsv());
      const json = JSON.parse(await readFile(path.join(dir, 'out', 'network.json'), 'utf8'));
      expect(json).toEqual(await exportNetwork());
      // A second run replaces them and leaves no temporary file behind.
      await t.app.libreqos.service.writeFiles(path.join(dir, 'out'));
      expect((await readdir(path.join(dir, 'out'))).sort()).toEqual(['ShapedDevices.csv', 'network.json']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('has no scheduled export while LIBREQOS_EXPORT_DIR is unset', () => {
    expect(t.app.libreqos.config.exportDir).toBeNull();
    expect(t.app.jobs.names).not.toContain(LIBREQOS_EXPORT_JOB);
  });
});

describe('LibreQoS scheduled export (LIBREQOS_EXPORT_DIR)', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'libreqos-job-'));
    process.env.LIBREQOS_EXPORT_DIR = path.join(dir, 'shaper');
    process.env.LIBREQOS_EXPORT_INTERVAL_MINUTES = '2';
    try {
      t = await createTestApp({ clock: new ManualClock(START) });
    } finally {
      delete process.env.LIBREQOS_EXPORT_DIR;
      delete process.env.LIBREQOS_EXPORT_INTERVAL_MINUTES;
    }
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs the libreqos-export job every interval, writing both files into the folder', async () => {
    expect(t.app.libreqos.config).toEqual({ exportDir: path.join(dir, 'shaper'), intervalMinutes: 2 });
    // The first period's job is offered when the node starts.
    await t.app.ready();
    await t.app.jobs.idle([LIBREQOS_EXPORT_JOB]);
    const files = () => readdir(path.join(dir, 'shaper'));
    expect((await files()).sort()).toEqual(['ShapedDevices.csv', 'network.json']);

    const db = t.database.db;
    const [plan] = await db
      .insert(plans)
      .values({
        name: 'Air 50',
        slug: 'air-50',
        downloadMbps: 50,
        uploadMbps: 10,
        price: 3000,
        currency: 'USD',
        billingCycle: 'monthly',
      })
      .returning();
    const user = await t.createUser({ email: 'sched@example.com', name: 'Scheduled Sam' });
    const [sub] = await db
      .insert(subscriptions)
      .values({ userId: user.id, planId: plan.id, status: 'active' })
      .returning();
    await t.app.jobs.send(LIBREQOS_EXPORT_JOB, {});
    await t.app.jobs.idle([LIBREQOS_EXPORT_JOB]);
    const csv = await readFile(path.join(dir, 'shaper', 'ShapedDevices.csv'), 'utf8');
    expect(csv.split('\r\n')[0]).toBe(LIBREQOS_HEADER);
    expect(csv).toContain(`${sub.id},Scheduled Sam (`);
    expect(csv).toContain(',Unassigned,portal:generated:unassigned,,,,,1,1,50,10,Air 50\r\n');
    const network = JSON.parse(await readFile(path.join(dir, 'shaper', 'network.json'), 'utf8'));
    expect(network).toEqual({
      Unassigned: {
        id: 'portal:generated:unassigned',
        downloadBandwidthMbps: 50,
        uploadBandwidthMbps: 10,
        type: 'site',
      },
    });
    expect((await files()).sort()).toEqual(['ShapedDevices.csv', 'network.json']);
  });
});
