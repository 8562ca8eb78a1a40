/**
 * The network simulator (issue 16) against a started portal: the real app listening on loopback (HTTP, its
 * RADIUS server, its dynamic-authorization client and its SNMP poller), the simulated MikroTik NAS as its peer.
 * The simulator registers itself through the API, dials in the active customers, reports growing usage; a
 * suspension in the back office cuts the customer off through a Disconnect-Request (the NAS sends its Stop and
 * the next login is refused), a plan change reaches the live session by CoA with the new rate, and the portal's
 * SNMP poll of the simulated device reads interface counters that grow.
 */
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import {
  devices as devicesTable,
  interfaceSamples,
  radiusDisconnects,
  radiusSessions,
  radiusUsageDaily,
} from '../../server/db/schema';
import { provisionCredentials } from '../../server/modules/radius/credentials';
import { activateForPaidInvoice } from '../../server/modules/subscriptions/service';
import { startSimulator, type RunningSimulator, type SimEvent } from '../../server/simulator';
import { ConfigError, loadConfig } from '../../server/config';
import { createSnmpSession, snmpGet } from '../../server/integrations/snmp/session';
import { OID } from '../../server/integrations/snmp/oids';
import { startServer } from '../../server/server';
import { bearer, createTestApp, createThrowawayPostgres, type TestApp } from '../helpers/server';

const silent = { info() {}, warn() {}, debug() {}, error() {} };

/**
 * A UDP port for the simulator's CoA listener, free now and outside Linux's ephemeral range (32768-60999): the
 * portal, started after this is chosen, binds its RADIUS ports to port 0, and one of those once got the very port
 * this had just given back (EADDRINUSE when the simulator bound it).
 */
async function freeUdpPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const socket = createSocket('udp4');
    const free = await new Promise<boolean>((resolve) => {
      socket.once('error', () => resolve(false));
      socket.bind(port, '127.0.0.1', () => resolve(true));
    });
    if (!free) continue;
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    return port;
  }
}

/** Polls `check` until it returns something truthy, or fails after `ms`. */
async function eventually<T>(
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  ms = 8_000,
  what = 'condition',
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('network simulator against a started portal', () => {
  let t: TestApp;
  let sim: RunningSimulator;
  let admin: string;
  let url: string;
  let fastPlan: { id: string };
  const customers: Array<{ userId: string; subscriptionId: string; username: string }> = [];
  const events: SimEvent[] = [];
  const db = () => t.database.db;
  const api = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${path}`, headers: bearer(admin), payload: payload as object });

  beforeAll(async () => {
    const coaPort = await freeUdpPort();
    t = await createTestApp({
      config: {
        accessTokenTtlSeconds: 86_400,
        radiusEnabled: true,
        radiusHost: '127.0.0.1',
        radiusAuthPort: 0,
        radiusAcctPort: 0,
        radiusCoaPort: coaPort,
        radiusDisconnectTimeoutMs: 3_000,
      },
    });
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
    await t.createUser({ email: 'admin@example.com', role: 'admin' });
    admin = (await t.login('admin@example.com')).token;
    const plan = async (body: object) => (await api('POST', '/plans', body)).json().data as { id: string };
    const basicPlan = await plan({
      name: 'Basic',
      price: 3000,
      download_mbps: 50,
      upload_mbps: 10,
      billing_cycle: 'monthly',
    });
    fastPlan = await plan({ name: 'Fast', price: 6000, download_mbps: 200, upload_mbps: 40, billing_cycle: 'monthly' });
    // Three active customers with PPPoE logins (created through the API, paid and activated by the services).
    for (let n = 1; n <= 3; n++) {
      const user = await t.createUser({ email: `customer${n}@example.com` });
      const created = await api('POST', '/subscriptions', { plan_id: basicPlan.id, user_id: user.id });
      expect(created.statusCode, created.body).toBe(201);
      const { subscription, invoice } = created.json().data as {
        subscription: { id: string };
        invoice: { id: string };
      };
      const credentials = await provisionCredentials(db(), subscription.id, t.app.secretBox);
      await db().transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        await tx.execute(
          sql`update invoices set status = 'paid', paid_date = ${t.clock.now().toISOString()} where id = ${invoice.id}`,
        );
        await activateForPaidInvoice(tx, invoice.id, t.clock.now());
      });
      customers.push({ userId: user.id, subscriptionId: subscription.id, username: credentials.username });
    }
    const ports = t.app.radius.ports()!;
    sim = await startSimulator({
      portalUrl: url,
      auth: async () => admin,
      radius: { host: '127.0.0.1', authPort: ports.authPort, acctPort: ports.acctPort, coaPort },
      maxPacketsPerSecond: 100,
      refreshSeconds: 3_600,
      nas: {
        maxInterimSeconds: 1,
        startSpreadSeconds: 0,
        meanSessionMinutes: 24 * 60,
        redialSeconds: [0.3, 0.6],
        rejectRetrySeconds: 1,
        tickMs: 200,
        radiusTimeoutMs: 1_500,
      },
      log: silent,
    });
    sim.nas.onEvent((e) => events.push(e));
  }, 30_000);

  afterAll(async () => {
    await sim?.stop();
    await t?.close();
  });

  const openSession = async (subscriptionId: string) =>
    (
      await db()
        .select()
        .from(radiusSessions)
        .where(and(eq(radiusSessions.subscriptionId, subscriptionId), eq(radiusSessions.status, 'open')))
    )[0];

  it('registers itself as a MikroTik device with SNMP settings and a RADIUS secret, on loopback', async () => {
    const device = (await api('GET', `/devices/${sim.deviceId}`)).json().data;
    expect(device).toMatchObject({
      name: 'Simulated NAS',
      vendor: 'mikrotik',
      host: '127.0.0.1',
      snmp_version: 'v2c',
      snmp_port: sim.snmpPort,
    });
    expect(device.radius_secret_last4).toBeTruthy();
    // "Test connection" reaches its SNMP agent.
    const check = (await api('POST', `/devices/${sim.deviceId}/test-connection`)).json().data;
    expect(check.snmp).toMatchObject({ status: 'reachable' });
    expect(check.snmp.details).toMatchObject({ sys_name: 'Simulated NAS' });
  });

  it('every active customer dials in: open sessions at this NAS with the plan rate', async () => {
    for (const c of customers) {
      const session = await eventually(() => openSession(c.subscriptionId), 8_000, `${c.username}'s session`);
      expect(session).toMatchObject({ username: c.username, nasDeviceId: sim.deviceId, nasIp: '127.0.0.1' });
      expect(session.framedIp).toMatch(/^100\.64\./);
      expect(sim.nas.session(c.username)?.rate).toEqual({ downloadKbps: 50_000, uploadKbps: 10_000 });
    }
    expect(sim.nas.stats().online).toBe(3);
  });

  it("usage grows with each Interim-Update, in the session and in the customer's usage", async () => {
    const c = customers[0];
    const first = await eventually(
      async () => {
        const s = await openSession(c.subscriptionId);
        return s && s.outputOctets > 0 ? s : null;
      },
      5_000,
      'a first Interim-Update with bytes',
    );
    const later = await eventually(
      async () => {
        const s = await openSession(c.subscriptionId);
        return s && s.outputOctets > first.outputOctets && s.inputOctets > first.inputOctets ? s : null;
      },
      5_000,
      'growing totals',
    );
    expect(later.outputOctets).toBeGreaterThan(later.inputOctets); // customers download more than they send
    const [{ booked }] = await db()
      .select({
        booked: sql<string>`coalesce(sum(${radiusUsageDaily.inputOctets} + ${radiusUsageDaily.outputOctets}), 0)`,
      })
      .from(radiusUsageDaily)
      .where(eq(radiusUsageDaily.subscriptionId, c.subscriptionId));
    expect(Number(booked)).toBeGreaterThan(0);
    const usage = (await api('GET', `/usage?user_id=${c.userId}`)).json().data;
    expect(usage.totals.total).toBeGreaterThan(0);
    expect(usage.session).toMatchObject({ username: c.username });
    expect(usage.session.download).toBeGreaterThan(0);
  });

  it('a suspension in the back office ends the session through a Disconnect-Request; the next login is refused', async () => {
    const c = customers[1];
    const session = await openSession(c.subscriptionId);
    const startedAt = Date.now();
    const res = await api('PATCH', `/subscriptions/${c.subscriptionId}/status`, {
      status: 'suspended',
      suspension_reason: 'Overdue invoice',
    });
    expect(res.statusCode, res.body).toBe(200);
    const disconnect = await eventually(
      () => events.find((e) => e.type === 'disconnect' && e.username === c.username),
      5_000,
      'the Disconnect-Request',
    );
    expect(disconnect.acctSessionId).toBe(session.acctSessionId);
    const stop = await eventually(
      () => events.find((e) => e.type === 'stop' && e.username === c.username),
      5_000,
      'the Stop',
    );
    expect(stop.cause).toBe('Admin-Reset');
    const closed = await eventually(
      async () => {
        const [row] = await db().select().from(radiusSessions).where(eq(radiusSessions.id, session.id));
        return row.status === 'closed' ? row : null;
      },
      5_000,
      'the session closed in the portal',
    );
    expect(closed.terminateCause).toBe('Admin-Reset');
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    const [record] = await db().select().from(radiusDisconnects).where(eq(radiusDisconnects.sessionId, session.id));
    expect(record).toMatchObject({ kind: 'disconnect', result: 'ack' });
    // The Stop closed the cut-off: nothing left for the sweep to check or send again.
    await eventually(
      async () =>
        (await db().select().from(radiusDisconnects).where(eq(radiusDisconnects.id, record.id)))[0].completedAt,
      5_000,
      'the disconnect completed',
    );
    // The customer's router dials again and is turned away; the others stay online.
    await eventually(
      () => events.find((e) => e.type === 'reject' && e.username === c.username && e.at > stop.at),
      5_000,
      'a refused redial',
    );
    expect(sim.nas.session(c.username)).toBeNull();
    expect(sim.nas.session(customers[0].username)).not.toBeNull();
  });

  it('a plan change reaches the live session by CoA with the new rate', async () => {
    const c = customers[2];
    const session = await openSession(c.subscriptionId);
    const res = await api('PATCH', `/subscriptions/${c.subscriptionId}/upgrade`, { plan_id: fastPlan.id });
    expect(res.statusCode, res.body).toBe(200);
    const coa = await eventually(
      () => events.find((e) => e.type === 'coa' && e.username === c.username),
      5_000,
      'the CoA-Request',
    );
    expect(coa.rate).toEqual({ downloadKbps: 200_000, uploadKbps: 40_000 });
    expect(sim.nas.session(c.username)).toMatchObject({
      acctSessionId: session.acctSessionId,
      rate: { downloadKbps: 200_000, uploadKbps: 40_000 },
    });
    const coaRecord = async () =>
      (
        await db()
          .select()
          .from(radiusDisconnects)
          .where(and(eq(radiusDisconnects.sessionId, session.id), eq(radiusDisconnects.kind, 'coa')))
      )[0];
    // The record is written 'pending' when the request leaves and gets the NAS's answer when it comes back.
    const record = await eventually(
      async () => {
        const r = await coaRecord();
        return r && r.result !== 'pending' ? r : null;
      },
      5_000,
      'the CoA answer recorded',
    );
    expect(['ack', 'confirmed']).toContain(record.result);
    expect((await openSession(c.subscriptionId))?.id).toBe(session.id); // same session, not a reconnect
    // The simulated NAS reports the rate in its accounting: its next Interim-Update confirms the change (issue 36).
    const confirmed = await eventually(
      async () => {
        const r = await coaRecord();
        return r?.result === 'confirmed' ? r : null;
      },
      15_000,
      'the CoA confirmed by an Interim-Update',
    );
    expect(confirmed).toMatchObject({ expectedPolicy: '40M/200M', detail: 'The session reported 40M/200M.' });
  });

  it("the portal's SNMP poll of the simulated device reads its interfaces, and their counters grow", async () => {
    const first = await api('POST', `/devices/${sim.deviceId}/poll`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ status: 'up', interfaces: 4 });
    const interfaces = (await api('GET', `/devices/${sim.deviceId}/interfaces`)).json().data.items as Array<{
      id: string;
      name: string;
      high_speed_mbps: number;
      oper_status: string;
      counter_bits: number;
    }>;
    expect(interfaces.map((i) => i.name)).toEqual(['ether1', 'ether2', 'ether3', 'lo']);
    const uplink = interfaces.find((i) => i.name === 'ether1')!;
    expect(uplink).toMatchObject({ high_speed_mbps: 10_000, oper_status: 'up', counter_bits: 64 });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    t.clock.advanceMinutes(1);
    expect((await api('POST', `/devices/${sim.deviceId}/poll`)).statusCode).toBe(200);
    const samples = await db()
      .select()
      .from(interfaceSamples)
      .where(eq(interfaceSamples.interfaceId, uplink.id))
      .orderBy(interfaceSamples.takenAt);
    expect(samples).toHaveLength(2);
    expect(samples[1].inOctets).toBeGreaterThan(samples[0].inOctets);
    expect(samples[1]).toMatchObject({ intervalKind: 'rate' });
    expect(samples[1].inBytes).toBeGreaterThan(0);
    const listed = (await api('GET', `/devices/${sim.deviceId}/interfaces`))
      .json()
      .data.items.find((i: { name: string }) => i.name === 'ether1');
    expect(listed.in_bps).toBeGreaterThan(0);
  });

  it('stops cleanly: every session gets its Stop and the portal has none open at this NAS', async () => {
    const before = sim.nas.stats();
    expect(before.online).toBeGreaterThanOrEqual(2);
    await sim.stop();
    const sessions = await db().select().from(radiusSessions).where(eq(radiusSessions.nasDeviceId, sim.deviceId));
    expect(sessions.filter((s) => s.status === 'open')).toHaveLength(0);
    // Each ended by its own Stop (Admin-Reboot), with its final totals; not merely by the Accounting-Off after them.
    const rebooted = sessions.filter((s) => s.terminateCause === 'Admin-Reboot');
    expect(rebooted).toHaveLength(before.online);
    for (const s of rebooted) expect(s.outputOctets).toBeGreaterThan(0);
    const after = sim.nas.stats();
    expect(after.online).toBe(0);
    // Bounded: never more packets than the budget allows over the test's run.
    expect(after.radiusTimeouts).toBe(0);
  });
});

describe('SIMULATE=true', () => {
  it('is refused in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SIMULATE: 'true', DATA_DIR: '/tmp/isp-test-unused' })).toThrow(
      ConfigError,
    );
  });

  it("starts the simulated NAS with the portal (registered, answering SNMP) and stops it with the portal's close", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'isp-sim-start-'));
    const coaPort = await freeUdpPort();
    // The PostgreSQL run starts the portal on a throwaway database of its own; the default one on a PGlite folder.
    const postgres = process.env.TEST_DATABASE_URL
      ? await createThrowawayPostgres(process.env.TEST_DATABASE_URL)
      : null;
    const running = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      databaseUrl: postgres?.url,
      distDir: null,
      print: false,
      logger: false,
      env: {
        NODE_ENV: 'test',
        SIMULATE: 'true',
        RADIUS_ENABLED: 'true',
        RADIUS_HOST: '127.0.0.1',
        RADIUS_AUTH_PORT: '0',
        RADIUS_ACCT_PORT: '0',
        RADIUS_COA_PORT: String(coaPort),
      },
    });
    let snmp: { port: number; community: string };
    try {
      const login = await fetch(`${running.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@isp.local', password: 'Password123!', rememberMe: false }),
      });
      const token = (await login.json()).data.tokens.access.token as string;
      const devices = (
        await (await fetch(`${running.url}/api/devices?search=Simulated`, { headers: bearer(token) })).json()
      ).data.items;
      expect(devices).toEqual([
        expect.objectContaining({ name: 'Simulated NAS', host: '127.0.0.1', vendor: 'mikrotik' }),
      ]);
      const test = await (
        await fetch(`${running.url}/api/devices/${devices[0].id}/test-connection`, {
          method: 'POST',
          headers: bearer(token),
        })
      ).json();
      expect(test.data.snmp).toMatchObject({ status: 'reachable', details: { sys_name: 'Simulated NAS' } });
      // Its community, as the portal keeps it (sealed), to ask the agent directly after the close.
      const [row] = await running.database.db.select().from(devicesTable).where(eq(devicesTable.id, devices[0].id));
      snmp = { port: row.snmpPort, community: running.app.secretBox.open(row.snmpCommunity!)! };
      const direct = createSnmpSession({ version: 'v2c', host: '127.0.0.1', ...snmp });
      const [name] = await snmpGet(direct, [OID.sysName]);
      direct.close();
      expect(String(name.value)).toBe('Simulated NAS');
    } finally {
      await running.close();
    }
    // Closed with the portal: the agent answers no more, and the Disconnect/CoA port is free again.
    const session = createSnmpSession({ version: 'v2c', host: '127.0.0.1', ...snmp!, timeoutMs: 300, retries: 0 });
    await expect(snmpGet(session, [OID.sysName])).rejects.toThrow();
    session.close();
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(coaPort, '127.0.0.1', () => resolve());
    });
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);
});
