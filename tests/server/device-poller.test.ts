/**
 * The device poller against Debian's real snmpd on loopback (interfaces discovered, samples stored, rates),
 * up/down with backoff for an unreachable device, the roll-up job (aggregates and prunes per retention), and
 * the traffic API (series, totals and 95th percentile against a hand computation) with its role rules.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../../server/db/schema/devices';
import {
  deviceInterfaces,
  interfaceRatesDaily,
  interfaceRatesHourly,
  interfaceSamples,
} from '../../server/db/schema/traffic';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../server/lib/clock';
import { DevicePoller } from '../../server/modules/traffic/poller';
import { limitingSpeedMbps, readInterfaces } from '../../server/modules/traffic/if-mib';
import { createSnmpSession } from '../../server/integrations/snmp';
import { DEVICE_POLL_JOB, TRAFFIC_ROLLUP_JOB } from '../../server/modules/traffic/plugin';
import { ratesOf, type CounterSample } from '../../server/modules/traffic/rates';
import type { Role } from '../../contract/roles';
import { bearer, createTestApp, type ApiMethod, type TestApp } from '../helpers/server';
import { freeUdpPort, startSnmpd, type Snmpd } from '../helpers/snmpd';

const OLD_DEVICE_COMMUNITY = 'no-ifx-mib';
let t: TestApp;
let agent: Snmpd;
const tokens = new Map<Role, { token: string; at: number }>();
/** Calls the API as `<role>@example.com`, signing in again when the test clock has moved (tokens expire). */
async function callAs(method: ApiMethod, url: string, role: Role, payload?: unknown) {
  const at = t.clock.now().getTime();
  let held = tokens.get(role);
  if (!held || at < held.at || at - held.at > 5 * MINUTE_MS) {
    held = { token: (await t.login(`${role}@example.com`)).token, at };
    tokens.set(role, held);
  }
  return t.app.inject({ method, url: `/api${url}`, headers: bearer(held.token), payload: payload as object });
}
/**
 * A poller with short SNMP timeouts, so "unreachable" costs about a second (not the 20 s default); a second, not a
 * quarter of one, so a loaded machine's snmpd still answers in time when a device is meant to be up.
 */
let poller: DevicePoller;

beforeAll(async () => {
  [t, agent] = await Promise.all([
    createTestApp(),
    // A second community sees everything but IF-X-MIB, like an old device without 64-bit counters.
    startSnmpd({
      extraConfig: [
        'view noifx included .1',
        'view noifx excluded .1.3.6.1.2.1.31',
        `rocommunity ${OLD_DEVICE_COMMUNITY} 127.0.0.1 -V noifx`,
      ],
    }),
  ]);
  t.clock.set('2026-03-02T10:00:00Z');
  for (const role of ['admin', 'technician', 'support', 'user'] as const)
    await t.createUser({ email: `${role}@example.com`, role });
  poller = new DevicePoller({
    db: t.app.db,
    clock: t.clock,
    box: t.app.secretBox,
    log: t.app.log,
    pollIntervalMinutes: 5,
    snmpTimeoutMs: 1000,
    snmpRetries: 0,
    deviceTimeoutMs: 3000,
  });
});
afterAll(async () => {
  await t?.close();
  await agent?.stop();
});

async function addDevice(name: string, port: number, community = agent.community): Promise<string> {
  const now = t.clock.now();
  const [row] = await t.app.db
    .insert(devices)
    .values({
      name,
      host: '127.0.0.1',
      snmpPort: port,
      snmpCommunity: t.app.secretBox.seal(community),
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: devices.id });
  return row.id;
}

const deviceRow = async (id: string) => (await t.app.db.select().from(devices).where(eq(devices.id, id)))[0];

describe('polling a real SNMP agent', () => {
  let deviceId: string;

  it('discovers the interfaces (the loopback at least) and stores one sample each', async () => {
    deviceId = await addDevice('core-1', agent.port);
    const round = await poller.pollOnce(t.clock.now());
    expect(round.outcomes.find((o) => o.deviceId === deviceId)).toMatchObject({ status: 'up', error: null });

    const ifs = await t.app.db
      .select()
      .from(deviceInterfaces)
      .where(eq(deviceInterfaces.deviceId, deviceId))
      .orderBy(asc(deviceInterfaces.ifIndex));
    const lo = ifs.find((i) => i.name === 'lo');
    expect(lo).toBeDefined();
    expect(lo).toMatchObject({ operStatus: 'up', adminStatus: 'up', counterBits: 64, mac: '' });
    const samples = await t.app.db.select().from(interfaceSamples).where(eq(interfaceSamples.interfaceId, lo!.id));
    expect(samples).toHaveLength(1);
    expect(samples[0].inOctets).toBeGreaterThan(0n);
    expect(samples[0].intervalKind).toBeNull(); // nothing to compare with yet

    const device = await deviceRow(deviceId);
    expect(device).toMatchObject({ status: 'up', pollFailures: 0 });
    expect(device.statusChangedAt?.toISOString()).toBe('2026-03-02T10:00:00.000Z');
    expect(device.nextPollAt?.toISOString()).toBe('2026-03-02T10:05:00.000Z');
  });

  it('is not polled again before its next poll time', async () => {
    t.clock.advanceMinutes(2);
    const round = await poller.pollOnce(t.clock.now());
    expect(round.outcomes.map((o) => o.deviceId)).not.toContain(deviceId);
  });

  it('a second poll five minutes later turns the real counters into non-negative rates', async () => {
    t.clock.set('2026-03-02T10:05:00Z');
    await poller.pollOnce(t.clock.now());
    const [lo] = await t.app.db.select().from(deviceInterfaces).where(eq(deviceInterfaces.name, 'lo'));
    const samples = await t.app.db
      .select()
      .from(interfaceSamples)
      .where(eq(interfaceSamples.interfaceId, lo.id))
      .orderBy(asc(interfaceSamples.takenAt));
    expect(samples).toHaveLength(2);
    expect(samples[1]).toMatchObject({ intervalKind: 'rate', intervalSeconds: 300 });
    expect(samples[1].inBps).toBeGreaterThanOrEqual(0);
    expect(samples[1].outBps).toBeGreaterThanOrEqual(0);
    expect(samples[1].inOctets).toBeGreaterThanOrEqual(samples[0].inOctets);
    expect(samples[1].inBytes).toBe(Number(samples[1].inOctets - samples[0].inOctets));

    // The API shows the interfaces with their live status and the last rate; the technician may read them.
    for (const role of ['admin', 'technician'] as const) {
      const res = await callAs('GET', `/devices/${deviceId}/interfaces`, role);
      expect(res.statusCode).toBe(200);
      const body = res.json().data;
      expect(body.device).toMatchObject({ id: deviceId, status: 'up' });
      const apiLo = body.items.find((i: { name: string }) => i.name === 'lo');
      expect(apiLo).toMatchObject({
        oper_status: 'up',
        admin_status: 'up',
        last_sample_at: '2026-03-02T10:05:00.000Z',
      });
      expect(apiLo.in_bps).toBeGreaterThanOrEqual(0);
    }
    expect((await callAs('GET', `/devices/${deviceId}/interfaces`, 'support')).statusCode).toBe(403);
    expect((await callAs('GET', `/devices/${deviceId}/interfaces`, 'user')).statusCode).toBe(403);
  });

  it('"poll now" polls at once (admin only) and a device that is not there is a 404', async () => {
    t.clock.set('2026-03-02T10:07:00Z');
    expect((await callAs('POST', `/devices/${deviceId}/poll`, 'technician')).statusCode).toBe(403);
    const res = await callAs('POST', `/devices/${deviceId}/poll`, 'admin');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      device_id: deviceId,
      status: 'up',
      error: null,
      next_poll_at: '2026-03-02T10:12:00.000Z',
    });
    expect(res.json().data.interfaces).toBeGreaterThanOrEqual(1);
    expect((await callAs('POST', '/devices/00000000-0000-4000-8000-000000000000/poll', 'admin')).statusCode).toBe(404);
    expect((await callAs('GET', '/devices/not-a-uuid/interfaces', 'admin')).statusCode).toBe(400);
  });

  it('an interface the device no longer lists stays, with its last-seen time, and shows as not present', async () => {
    const [gone] = await t.app.db
      .insert(deviceInterfaces)
      .values({
        deviceId,
        ifIndex: 9999,
        name: '<pppoe-gone>',
        operStatus: 'up',
        adminStatus: 'up',
        lastSeenAt: new Date('2026-03-01T00:00:00Z'),
      })
      .returning();
    t.clock.set('2026-03-02T10:08:00Z');
    await poller.pollDevice(deviceId, t.clock.now());
    const [after] = await t.app.db.select().from(deviceInterfaces).where(eq(deviceInterfaces.id, gone.id));
    expect(after).toMatchObject({ operStatus: 'notPresent', lastSeenAt: new Date('2026-03-01T00:00:00Z') });
    const [lo] = await t.app.db
      .select()
      .from(deviceInterfaces)
      .where(sql`${deviceInterfaces.deviceId} = ${deviceId} and ${deviceInterfaces.name} = 'lo'`);
    expect(lo.operStatus).toBe('up');
  });
});

describe('a device added through the API', () => {
  it('is polled over SNMPv3 (authPriv, SHA/AES) with the keys the admin entered', async () => {
    t.clock.set('2026-03-02T11:00:00Z');
    const res = await callAs('POST', '/devices', 'admin', {
      name: 'core-v3',
      host: '127.0.0.1',
      snmp_version: 'v3',
      snmp_port: agent.port,
      snmp_v3_user: agent.v3User,
      snmp_v3_auth_protocol: 'sha',
      snmp_v3_auth_key: agent.v3AuthKey,
      snmp_v3_priv_protocol: 'aes',
      snmp_v3_priv_key: agent.v3PrivKey,
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id as string;
    // SNMPv3 takes an engine discovery round trip and key hashing before the first answer, which the shared
    // poller's 250 ms (meant for "unreachable") does not always leave on a loaded machine.
    const patient = new DevicePoller({
      db: t.app.db,
      clock: t.clock,
      box: t.app.secretBox,
      log: t.app.log,
      pollIntervalMinutes: 5,
      snmpTimeoutMs: 3000,
      snmpRetries: 0,
      deviceTimeoutMs: 10_000,
    });
    await patient.pollOnce(t.clock.now());
    expect(await deviceRow(id)).toMatchObject({ status: 'up', lastError: null });
    const list = (await callAs('GET', `/devices/${id}/interfaces`, 'technician')).json().data;
    expect(list.items.map((i: { name: string }) => i.name)).toContain('lo');
  });
});

describe('the poll and roll-up jobs', () => {
  it('a device-poll job polls the due devices and a traffic-roll-up job rolls the samples up (the job queue runs both)', async () => {
    t.clock.set('2026-03-02T12:00:00Z');
    const id = await addDevice('core-timer', agent.port);
    await t.app.jobs.send(DEVICE_POLL_JOB, {});
    await t.app.jobs.idle([DEVICE_POLL_JOB]);
    expect((await t.app.jobs.latest(DEVICE_POLL_JOB))?.status).toBe('done');
    await t.app.jobs.send(TRAFFIC_ROLLUP_JOB, {});
    await t.app.jobs.idle([TRAFFIC_ROLLUP_JOB]);
    expect((await deviceRow(id)).lastSeenAt?.toISOString()).toBe('2026-03-02T12:00:00.000Z');
    const hourly = await t.app.db.select().from(interfaceRatesHourly);
    expect(hourly.some((h) => h.bucket.toISOString() === '2026-03-02T10:00:00.000Z' && h.sampleCount >= 1)).toBe(true);
  });
});

describe('interface types', () => {
  it("reads each interface's type: the loopback's nominal 10 Mbit/s does not limit its rates, a real port's speed does", async () => {
    const session = createSnmpSession({
      version: 'v2c',
      host: '127.0.0.1',
      port: agent.port,
      community: agent.community,
      timeoutMs: 1000,
      retries: 0,
    });
    try {
      const reading = await readInterfaces(session, { timeoutMs: 2000 });
      const lo = reading.interfaces.find((i) => i.name === 'lo');
      expect(lo).toBeDefined();
      expect(lo!.ifType).toBe(24); // softwareLoopback
      expect(limitingSpeedMbps(lo!)).toBeNull();
      // An Ethernet port at 1 Gbit/s keeps its speed as the limit; an unknown speed does not limit.
      expect(limitingSpeedMbps({ ifType: 6, highSpeedMbps: 1000 })).toBe(1000);
      expect(limitingSpeedMbps({ ifType: 6, highSpeedMbps: 0 })).toBeNull();
    } finally {
      session.close();
    }
  });
});

describe('a device without IF-X-MIB', () => {
  it('is read through ifTable: names from ifDescr, 32-bit counters, rates still computed', async () => {
    t.clock.set('2026-03-02T13:00:00Z');
    const id = await addDevice('old-switch', agent.port, OLD_DEVICE_COMMUNITY);
    await poller.pollDevice(id, t.clock.now());
    t.clock.set('2026-03-02T13:05:00Z');
    await poller.pollDevice(id, t.clock.now());
    const [lo] = await t.app.db
      .select()
      .from(deviceInterfaces)
      .where(sql`${deviceInterfaces.deviceId} = ${id} and ${deviceInterfaces.name} = 'lo'`);
    expect(lo).toMatchObject({ counterBits: 32, alias: '' });
    const samples = await t.app.db
      .select()
      .from(interfaceSamples)
      .where(eq(interfaceSamples.interfaceId, lo.id))
      .orderBy(asc(interfaceSamples.takenAt));
    expect(samples.map((x) => x.counterBits)).toEqual([32, 32]);
    expect(samples[1].intervalKind).toBe('rate');
    expect(samples[1].inBps).toBeGreaterThanOrEqual(0);
  });
});

describe('an unreachable device', () => {
  it('goes down, is retried later and later, and comes back up when it answers', async () => {
    t.clock.set('2026-03-03T08:00:00Z');
    const deadPort = await freeUdpPort();
    const id = await addDevice('edge-unreachable', deadPort);

    const started = Date.now();
    await poller.pollOnce(t.clock.now());
    // Far under the 20 s per-device default: the poller's short SNMP timeout applied.
    expect(Date.now() - started).toBeLessThan(6000);
    let d = await deviceRow(id);
    expect(d).toMatchObject({ status: 'down', pollFailures: 1 });
    expect(d.lastError).toMatch(/No SNMP answer|unreachable/);
    expect(d.statusChangedAt?.toISOString()).toBe('2026-03-03T08:00:00.000Z');
    expect(d.nextPollAt?.toISOString()).toBe('2026-03-03T08:05:00.000Z');

    t.clock.set('2026-03-03T08:05:00Z');
    await poller.pollOnce(t.clock.now());
    d = await deviceRow(id);
    expect(d).toMatchObject({ status: 'down', pollFailures: 2 });
    expect(d.nextPollAt?.toISOString()).toBe('2026-03-03T08:15:00.000Z'); // 10 minutes
    expect(d.statusChangedAt?.toISOString()).toBe('2026-03-03T08:00:00.000Z'); // still down since then

    t.clock.set('2026-03-03T08:10:00Z'); // not due yet: left alone
    expect((await poller.pollOnce(t.clock.now())).outcomes.map((o) => o.deviceId)).not.toContain(id);

    t.clock.set('2026-03-03T08:15:00Z');
    await poller.pollOnce(t.clock.now());
    expect((await deviceRow(id)).nextPollAt?.toISOString()).toBe('2026-03-03T08:35:00.000Z'); // 20 minutes

    // The agent is reachable again (the device moved to the port snmpd listens on).
    await t.app.db.update(devices).set({ snmpPort: agent.port }).where(eq(devices.id, id));
    t.clock.set('2026-03-03T08:35:00Z');
    await poller.pollOnce(t.clock.now());
    d = await deviceRow(id);
    expect(d).toMatchObject({ status: 'up', pollFailures: 0, lastError: null });
    expect(d.statusChangedAt?.toISOString()).toBe('2026-03-03T08:35:00.000Z');
    expect(d.lastSeenAt?.toISOString()).toBe('2026-03-03T08:35:00.000Z');
    expect(d.nextPollAt?.toISOString()).toBe('2026-03-03T08:40:00.000Z');
  });

  it('a wrong community looks the same as no answer: down with the reason', async () => {
    t.clock.set('2026-03-03T09:00:00Z');
    const id = await addDevice('edge-wrong-community', agent.port, 'not-the-community');
    await poller.pollOnce(t.clock.now());
    const d = await deviceRow(id);
    expect(d.status).toBe('down');
    expect(d.lastError).toMatch(/wrong community/);
  });
});

/** An interface with no SNMP behind it, for synthetic samples. */
async function syntheticInterface(name: string): Promise<{ deviceId: string; interfaceId: string }> {
  const now = t.clock.now();
  const [device] = await t.app.db
    .insert(devices)
    .values({ name, host: '192.0.2.1', nextPollAt: new Date('2100-01-01T00:00:00Z'), createdAt: now, updatedAt: now })
    .returning({ id: devices.id });
  const [iface] = await t.app.db
    .insert(deviceInterfaces)
    .values({ deviceId: device.id, ifIndex: 1, name: 'ether1', highSpeedMbps: 1000, lastSeenAt: now })
    .returning({ id: deviceInterfaces.id });
  return { deviceId: device.id, interfaceId: iface.id };
}

/** Stores readings (time, in/out counters) as the poller would: each with the interval to the one before. */
async function storeReadings(
  interfaceId: string,
  readings: Array<[Date, bigint, bigint]>,
  pollIntervalMs = 5 * MINUTE_MS,
) {
  const samples: CounterSample[] = readings.map(([takenAt, inOctets, outOctets]) => ({
    takenAt,
    inOctets,
    outOctets,
    uptimeTicks: null,
    width: 64,
  }));
  const intervals = ratesOf(samples, { pollIntervalMs, speedMbps: 1000 });
  const rows = samples.map((s, i) => {
    const r = i === 0 ? null : intervals[i - 1];
    return {
      interfaceId,
      takenAt: s.takenAt,
      inOctets: s.inOctets,
      outOctets: s.outOctets,
      counterBits: 64,
      intervalKind: r?.kind ?? null,
      intervalSeconds: r?.seconds ?? null,
      inBps: r?.inBps ?? null,
      outBps: r?.outBps ?? null,
      inBytes: r?.inBytes == null ? null : Number(r.inBytes),
      outBytes: r?.outBytes == null ? null : Number(r.outBytes),
    };
  });
  for (let i = 0; i < rows.length; i += 500) await t.app.db.insert(interfaceSamples).values(rows.slice(i, i + 500));
}

describe('traffic API on a fixed dataset', () => {
  // Twelve 5-minute intervals in the last hour; in-bytes per interval are 1..12 MB, out-bytes 100 kB each,
  // except that the device restarted before the 8th reading (that interval has no rate).
  const now = new Date('2026-04-01T12:00:00Z');
  const perInterval = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((mb) => BigInt(mb) * 1_000_000n);
  let ids: { deviceId: string; interfaceId: string };

  beforeAll(async () => {
    t.clock.set(now);
    ids = await syntheticInterface('traffic-fixed');
    const readings: Array<[Date, bigint, bigint]> = [];
    let inC = 5_000_000_000n;
    let outC = 1_000_000_000n;
    readings.push([new Date(now.getTime() - 60 * MINUTE_MS), inC, outC]);
    perInterval.forEach((bytes, i) => {
      inC += bytes;
      outC += 100_000n;
      if (i === 6) {
        inC = 1000n; // counters cleared: the 7th interval is a reset
        outC = 500n;
      }
      readings.push([new Date(now.getTime() - (55 - i * 5) * MINUTE_MS), inC, outC]);
    });
    await storeReadings(ids.interfaceId, readings);
  });

  it('the last hour: raw series with a hole at the reset, totals and the 95th percentile by hand', async () => {
    const res = await callAs(
      'GET',
      `/devices/${ids.deviceId}/interfaces/${ids.interfaceId}/traffic?range=hour`,
      'admin',
    );
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.resolution).toBe('raw');
    expect(data.stats_resolution).toBe('raw');
    // The first reading (exactly an hour ago) is the range's start; its 12 successors are the points.
    expect(data.points).toHaveLength(12);
    expect(data.points[6]).toMatchObject({ in_bps: null, out_bps: null });
    expect(data.points[0]).toMatchObject({ t: '2026-04-01T11:05:00.000Z', in_bps: (1_000_000 * 8) / 300 });

    // By hand: the 11 rate intervals carry 1..12 MB except 7 MB: 71 MB in, 11 × 100 kB out.
    expect(data.totals).toEqual({ in_bytes: 71_000_000, out_bytes: 1_100_000 });
    // Rates in bit/s are MB × 8e6 / 300; 11 rates → rank ceil(10.45) = 11: the highest, 12 MB.
    expect(data.p95.in_bps).toBeCloseTo((12_000_000 * 8) / 300, 6);
    expect(data.p95.out_bps).toBeCloseTo((100_000 * 8) / 300, 6);
    expect(data.max.in_bps).toBeCloseTo((12_000_000 * 8) / 300, 6);
    expect(data.avg.in_bps).toBeCloseTo((71_000_000 * 8) / 3300, 6);
  });

  it('a custom range takes part of it; the month comes from the hourly roll-up (p95 within 1%)', async () => {
    const from = '2026-04-01T11:12:00Z';
    const to = '2026-04-01T11:31:00Z'; // readings at 11:15, 11:20, 11:25, 11:30: 3, 4, 5, 6 MB
    const res = await callAs(
      'GET',
      `/devices/${ids.deviceId}/interfaces/${ids.interfaceId}/traffic?range=custom&from=${from}&to=${to}`,
      'admin',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data.totals.in_bytes).toBe(18_000_000);
    expect(res.json().data.p95.in_bps).toBeCloseTo((6_000_000 * 8) / 300, 6);

    await t.app.traffic.rollup.run({ now });
    const month = (
      await callAs('GET', `/devices/${ids.deviceId}/interfaces/${ids.interfaceId}/traffic?range=month`, 'admin')
    ).json().data;
    expect(month.resolution).toBe('hourly');
    expect(month.stats_resolution).toBe('hourly');
    expect(month.totals).toEqual({ in_bytes: 71_000_000, out_bytes: 1_100_000 });
    expect(month.p95.in_bps / ((12_000_000 * 8) / 300)).toBeGreaterThan(0.99);
    expect(month.p95.in_bps / ((12_000_000 * 8) / 300)).toBeLessThanOrEqual(1);
    expect(month.points.length).toBeGreaterThanOrEqual(1);
  });

  it('rejects bad ranges, unknown interfaces and callers other than admin', async () => {
    const base = `/devices/${ids.deviceId}/interfaces/${ids.interfaceId}/traffic`;
    const bad = await callAs('GET', `${base}?range=custom&from=2026-04-01T12:00:00Z&to=2026-04-01T11:00:00Z`, 'admin');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false });
    expect((await callAs('GET', `${base}?range=custom`, 'admin')).statusCode).toBe(400);
    expect((await callAs('GET', `${base}?range=year`, 'admin')).statusCode).toBe(400);
    expect(
      (await callAs('GET', `/devices/${ids.deviceId}/interfaces/00000000-0000-4000-8000-000000000000/traffic`, 'admin'))
        .statusCode,
    ).toBe(404);
    expect((await callAs('GET', `${base}?range=hour`, 'technician')).statusCode).toBe(403);
  });
});

describe('roll-up job', () => {
  it('aggregates samples into hours and days, prunes raw after 7 days and hourly after a year, and re-runs to the same result', async () => {
    const start = new Date('2026-06-01T00:00:00Z');
    t.clock.set(start);
    const { interfaceId } = await syntheticInterface('rollup');
    // Nine days of readings every 20 minutes; in-bytes grow by 600 kB + 1 kB × (reading number % 7) each time.
    const readings: Array<[Date, bigint, bigint]> = [];
    let inC = 0n;
    let outC = 0n;
    for (let i = 0; i <= 9 * 72; i++) {
      readings.push([new Date(start.getTime() + i * 20 * MINUTE_MS), inC, outC]);
      inC += 600_000n + BigInt(i % 7) * 1000n;
      outC += 50_000n;
    }
    await storeReadings(interfaceId, readings, 20 * MINUTE_MS);
    const all = await t.app.db
      .select()
      .from(interfaceSamples)
      .where(eq(interfaceSamples.interfaceId, interfaceId))
      .orderBy(asc(interfaceSamples.takenAt));
    const rates = all.filter((s) => s.intervalKind === 'rate');
    const byHour = new Map<number, number>();
    const byDay = new Map<number, number>();
    for (const s of rates) {
      const h = Math.floor(s.takenAt.getTime() / HOUR_MS) * HOUR_MS;
      const d = Math.floor(s.takenAt.getTime() / DAY_MS) * DAY_MS;
      byHour.set(h, (byHour.get(h) ?? 0) + s.inBytes!);
      byDay.set(d, (byDay.get(d) ?? 0) + s.inBytes!);
    }

    const now = new Date(start.getTime() + 9 * DAY_MS + 10 * MINUTE_MS);
    t.clock.set(now);
    await t.app.traffic.rollup.run({ now });

    const hourly = await t.app.db
      .select()
      .from(interfaceRatesHourly)
      .where(eq(interfaceRatesHourly.interfaceId, interfaceId))
      .orderBy(asc(interfaceRatesHourly.bucket));
    expect(hourly).toHaveLength(byHour.size);
    for (const h of hourly) expect(h.inBytes).toBe(byHour.get(h.bucket.getTime()));
    const h0 = hourly[1]; // a full hour: 3 intervals of 20 minutes
    expect(h0.sampleCount).toBe(3);
    expect(h0.seconds).toBe(3600);
    expect(h0.avgInBps).toBeCloseTo((h0.inBytes * 8) / 3600, 6);
    expect(Object.values(h0.inHist).reduce((a, b) => a + b, 0)).toBe(3);

    const daily = await t.app.db
      .select()
      .from(interfaceRatesDaily)
      .where(eq(interfaceRatesDaily.interfaceId, interfaceId))
      .orderBy(asc(interfaceRatesDaily.bucket));
    expect(daily.map((d) => d.inBytes)).toEqual([...byDay.values()]);
    expect(daily[1].sampleCount).toBe(72);

    // Raw samples older than 7 days (whole hours) are gone; the rest stay.
    const kept = await t.app.db.select().from(interfaceSamples).where(eq(interfaceSamples.interfaceId, interfaceId));
    const cutoff = Math.floor((now.getTime() - 7 * DAY_MS) / HOUR_MS) * HOUR_MS;
    expect(kept.length).toBe(all.filter((s) => s.takenAt.getTime() >= cutoff).length);
    expect(kept.length).toBeLessThan(all.length);

    // Running again changes nothing.
    await t.app.traffic.rollup.run({ now });
    const snapshot = async () =>
      JSON.stringify([
        await t.app.db
          .select()
          .from(interfaceRatesHourly)
          .where(eq(interfaceRatesHourly.interfaceId, interfaceId))
          .orderBy(asc(interfaceRatesHourly.bucket)),
        await t.app.db
          .select()
          .from(interfaceRatesDaily)
          .where(eq(interfaceRatesDaily.interfaceId, interfaceId))
          .orderBy(asc(interfaceRatesDaily.bucket)),
      ]);
    const before = await snapshot();
    await t.app.traffic.rollup.run({ now });
    expect(await snapshot()).toBe(before);
    expect(JSON.parse(before)[0]).toHaveLength(hourly.length);

    // A year and a bit later: no raw samples, no hourly rows of that time; the daily rows stay for ever.
    const later = new Date(now.getTime() + 367 * DAY_MS);
    t.clock.set(later);
    await t.app.traffic.rollup.run({ now: later });
    const counts = await t.app.db.execute(sql`
      select (select count(*) from interface_samples where interface_id = ${interfaceId})::int as raw,
             (select count(*) from interface_rates_hourly where interface_id = ${interfaceId})::int as hourly,
             (select count(*) from interface_rates_daily where interface_id = ${interfaceId})::int as daily`);
    const row = ((counts as { rows?: unknown[] }).rows ?? (counts as unknown[]))[0] as {
      raw: number;
      hourly: number;
      daily: number;
    };
    expect(row).toEqual({ raw: 0, hourly: 0, daily: daily.length });
  });

  it('counts a sample stored late, after the next hour had been rolled up already', async () => {
    const base = new Date('2028-01-10T10:00:00Z');
    t.clock.set(base);
    const { interfaceId } = await syntheticInterface('rollup-late');
    // Readings at 10:50 and 11:00 are rolled up at 11:01 ...
    await storeReadings(interfaceId, [
      [new Date('2028-01-10T10:50:00Z'), 0n, 0n],
      [new Date('2028-01-10T11:00:00Z'), 6_000_000n, 0n],
    ]);
    await t.app.traffic.rollup.run({ now: new Date('2028-01-10T11:01:00Z') });
    // ... then the 10:55 reading (taken before the hour turned) is stored, with its interval from 10:50.
    await t.app.db.insert(interfaceSamples).values({
      interfaceId,
      takenAt: new Date('2028-01-10T10:55:00Z'),
      inOctets: 3_000_000n,
      outOctets: 0n,
      counterBits: 64,
      intervalKind: 'rate',
      intervalSeconds: 300,
      inBps: 80_000,
      outBps: 0,
      inBytes: 3_000_000,
      outBytes: 0,
    });
    await t.app.traffic.rollup.run({ now: new Date('2028-01-10T11:06:00Z') });
    const [ten] = await t.app.db
      .select()
      .from(interfaceRatesHourly)
      .where(
        sql`${interfaceRatesHourly.interfaceId} = ${interfaceId} and ${interfaceRatesHourly.bucket} = '2028-01-10T10:00:00Z'::timestamptz`,
      );
    expect(ten).toMatchObject({ sampleCount: 1, inBytes: 3_000_000 });
  });
});
