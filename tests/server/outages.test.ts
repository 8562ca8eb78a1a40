/**
 * Outages (issue 38) against Debian's real snmpd as each NAS's SNMP agent: customers A and B online through NAS 1,
 * C through NAS 2, D never online, E through NAS 1 but gone hours ago. NAS 1's agent stops → the poll opens one
 * outage that reaches exactly A and B (one "started" message each), shows on their home and on the public status
 * page by area; the agent answers again → one "ended" message each. A second node's poller changes nothing. Staff
 * maintenance windows start and end by the clock; staff resolve early.
 */
import { eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { devices } from '../../server/db/schema/devices';
import { incidents } from '../../server/db/schema/messaging';
import { messages } from '../../server/db/schema';
import { ACCT_STATUS } from '../../server/integrations/radius/codec';
import { MINUTE_MS } from '../../server/lib/clock';
import { AccountingStore } from '../../server/modules/radius/accounting';
import { OutageService } from '../../server/modules/outages/service';
import { getDeviceWithSecrets } from '../../server/modules/devices/repository';
import { DevicePoller } from '../../server/modules/traffic/poller';
import { bearer, createTestApp, type TestApp } from '../helpers/server';
import { startSnmpd, type Snmpd } from '../helpers/snmpd';

let t: TestApp;
let db: Db;
let agent1: Snmpd;
let agent2: Snmpd;
const tokens: Record<string, { token: string; at: number }> = {};
const users: Record<string, string> = {};
let nas1: string;
let nas2: string;
let pollerA: DevicePoller;
let pollerB: DevicePoller;

/** Calls the API as `<who>@example.com` (null: a visitor), signing in again when the test clock has moved. */
async function as(who: string | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  const at = t.clock.now().getTime();
  if (who && (!tokens[who] || at < tokens[who].at || at - tokens[who].at > 5 * MINUTE_MS))
    tokens[who] = { token: (await t.login(`${who}@example.com`)).token, at };
  return t.app.inject({ method, url: `/api${url}`, headers: who ? bearer(tokens[who].token) : {}, payload });
}
const later = (minutes: number) => t.clock.set(new Date(t.clock.now().getTime() + minutes * MINUTE_MS).toISOString());

/** Who got a message of this kind about this incident (one row per e-mail). */
async function recipients(incidentId: string, event: 'started' | 'ended'): Promise<string[]> {
  const rows = await db
    .select({ userId: messages.userId })
    .from(messages)
    .where(like(messages.eventKey, `incident:${incidentId}:${event}:%`));
  const names = Object.fromEntries(Object.entries(users).map(([name, id]) => [id, name]));
  return rows.map((r) => names[r.userId ?? ''] ?? '?').sort();
}

/** A poller as one node runs it, with short SNMP timeouts, telling that node's outage service. */
function nodePoller(): DevicePoller {
  const poller = new DevicePoller({
    db,
    clock: t.clock,
    box: t.app.secretBox,
    log: t.app.log,
    pollIntervalMinutes: 5,
    snmpTimeoutMs: 1000,
    snmpRetries: 0,
    deviceTimeoutMs: 3000,
  });
  const outages = new OutageService({
    db,
    clock: t.clock,
    notifier: t.app.notifier,
    log: t.app.log,
    context: async () => ({ timeZone: 'Europe/Madrid', appUrl: 'https://isp.example' }),
  });
  poller.onPolled((event) => outages.devicePolled(event));
  return poller;
}

beforeAll(async () => {
  [t, agent1, agent2] = await Promise.all([createTestApp(), startSnmpd(), startSnmpd()]);
  db = t.database.db as Db;
  t.clock.set('2026-11-10T09:00:00Z');
  for (const role of ['admin', 'support', 'technician'] as const) {
    await t.createUser({ email: `${role}@example.com`, role });
  }
  for (const who of ['a', 'b', 'c', 'd', 'e']) {
    users[who] = (await t.createUser({ email: `${who}@example.com`, name: who.toUpperCase() })).id;
  }
  const plan = await as('admin', 'POST', '/plans', {
    name: 'Home 100',
    download_mbps: 100,
    upload_mbps: 20,
    price: 2500,
    setup_fee: 0,
    billing_cycle: 'monthly',
  });
  expect(plan.statusCode, plan.body).toBe(201);
  const line: Record<string, string> = {};
  for (const who of ['a', 'b', 'c', 'd', 'e']) {
    const r = await as('admin', 'POST', '/subscriptions', { plan_id: plan.json().data.id, user_id: users[who] });
    expect(r.statusCode, r.body).toBe(201);
    line[who] = r.json().data.subscription.id;
  }
  const nas = async (name: string, agent: Snmpd, location: string) => {
    const now = t.clock.now();
    const [row] = await db
      .insert(devices)
      .values({
        name,
        host: '127.0.0.1',
        location,
        snmpPort: agent.port,
        snmpCommunity: t.app.secretBox.seal(agent.community),
        radiusSecret: t.app.secretBox.seal('radius-secret-1'),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: devices.id });
    return row.id;
  };
  nas1 = await nas('nas-north-1', agent1, 'North Hill');
  nas2 = await nas('nas-river-1', agent2, 'Riverside');

  // Sessions as the NAS reports them (RADIUS accounting through the accounting service).
  const store = new AccountingStore({
    db,
    clock: t.clock,
    interimInterval: 300,
    subscriptionOf: async (username) => line[username] ?? null,
  });
  const acct = (deviceId: string, who: string, statusType: number) =>
    store.record(
      { deviceId, ip: '127.0.0.1' },
      {
        statusType,
        acctSessionId: `S-${who}`,
        username: who,
        inputOctets: 0,
        outputOctets: 0,
        sessionTime: 0,
        delaySeconds: 0,
      },
    );
  await acct(nas1, 'e', ACCT_STATUS.START);
  await acct(nas1, 'e', ACCT_STATUS.STOP); // E left at 09:00, hours before the outage
  t.clock.set('2026-11-10T11:00:00Z');
  await acct(nas1, 'a', ACCT_STATUS.START);
  await acct(nas1, 'b', ACCT_STATUS.START);
  await acct(nas2, 'c', ACCT_STATUS.START);

  pollerA = nodePoller();
  pollerB = nodePoller();
});

afterAll(async () => {
  await t?.close();
  await agent1?.stop();
  await agent2?.stop();
});

describe('an outage seen by the device poller', () => {
  let incidentId: string;

  it('both NAS answer: no incident', async () => {
    const round = await pollerA.pollOnce(t.clock.now());
    expect(round.outcomes.map((o) => o.status)).toEqual(['up', 'up']);
    expect(await db.select().from(incidents)).toEqual([]);
  });

  it('NAS 1 stops answering: one outage reaching exactly A and B, once, whichever node polls', async () => {
    await agent1.stop();
    later(5);
    // Two nodes poll NAS 1 at the same moment (the API's "poll now" on one, the round on the other).
    await Promise.all([pollerA.pollDevice(nas1, t.clock.now()), pollerB.pollDevice(nas1, t.clock.now())]);
    await pollerB.pollOnce(t.clock.now()); // NAS 2 is still up

    const open = await db.select().from(incidents);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ kind: 'outage', source: 'poller', area: 'North Hill', deviceId: nas1 });
    incidentId = open[0].id;
    expect(await recipients(incidentId, 'started')).toEqual(['a', 'b']);

    const mail = await t.lastMailTo('a@example.com');
    expect(mail.subject).toBe('Service interruption: Service interruption in North Hill');
    expect(mail.text).toContain('https://isp.example/status');
    expect(mail.text).toContain('12:05'); // 11:05 UTC in the ISP's zone (Madrid)
    const others = (await t.sentMail()).filter((m) => /interruption/i.test(m.subject ?? '')).map((m) => m.to);
    expect(others.sort()).toEqual(['a@example.com', 'b@example.com']);
  });

  it('A sees the banner on the home; C does not', async () => {
    const a = (await as('a', 'GET', '/me/home')).json().data;
    expect(a.incidents).toEqual([
      expect.objectContaining({ id: incidentId, kind: 'outage', area: 'North Hill', resolved_at: null }),
    ]);
    expect((await as('c', 'GET', '/me/home')).json().data.incidents).toEqual([]);
  });

  it('the public status page lists it by area, with nothing personal or internal', async () => {
    const r = await as(null, 'GET', '/status');
    expect(r.statusCode).toBe(200);
    const status = r.json().data;
    expect(status.areas).toEqual([
      { area: 'North Hill', current: [expect.objectContaining({ id: incidentId, kind: 'outage' })], upcoming: [] },
    ]);
    for (const secret of ['nas-north-1', nas1, users.a, 'a@example.com', '127.0.0.1'])
      expect(r.body).not.toContain(secret);
  });

  it('a poll while it is still down opens nothing more', async () => {
    later(10);
    await pollerA.pollDevice(nas1, t.clock.now());
    expect(await db.select().from(incidents)).toHaveLength(1);
    expect(await recipients(incidentId, 'started')).toEqual(['a', 'b']);
  });

  it('NAS 1 answers again: resolved, one "ended" message each to A and B', async () => {
    agent1 = await startSnmpd();
    await db
      .update(devices)
      .set({ snmpPort: agent1.port, snmpCommunity: t.app.secretBox.seal(agent1.community) })
      .where(eq(devices.id, nas1));
    later(20);
    await Promise.all([pollerA.pollDevice(nas1, t.clock.now()), pollerB.pollDevice(nas1, t.clock.now())]);
    later(5);
    await pollerA.pollDevice(nas1, t.clock.now());

    const [row] = await db.select().from(incidents).where(eq(incidents.id, incidentId));
    expect(row.resolvedAt?.toISOString()).toBe('2026-11-10T11:35:00.000Z');
    expect(await recipients(incidentId, 'ended')).toEqual(['a', 'b']);
    expect((await t.lastMailTo('b@example.com')).subject).toBe('Over: Service interruption in North Hill');
    expect((await as('a', 'GET', '/me/home')).json().data.incidents).toEqual([]);
    const status = (await as(null, 'GET', '/status')).json().data;
    expect(status.areas).toEqual([]);
    expect(status.resolved.map((i: { id: string }) => i.id)).toEqual([incidentId]);
  });
});

describe('an uplink going down (a device tag names the interface)', () => {
  it('opens one outage for that interface, reaching the NAS customers; back up resolves it', async () => {
    await db
      .update(devices)
      .set({ tags: ['uplink:sfp-sfpplus1'] })
      .where(eq(devices.id, nas2));
    const device = (await getDeviceWithSecrets(db, nas2, t.app.secretBox))!;
    const report = (before: string | null, now: string) =>
      t.app.outages.devicePolled({
        device,
        status: 'up',
        at: t.clock.now(),
        interfaces: [
          { name: 'lo', before: 'up', now: 'up' },
          { name: 'sfp-sfpplus1', before, now },
        ],
      });
    t.clock.set('2026-11-10T11:50:00Z');
    await report('up', 'down');
    await report('down', 'down'); // still down at the next poll: nothing more
    const open = await db.select().from(incidents).where(eq(incidents.interfaceName, 'sfp-sfpplus1'));
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ source: 'poller', deviceId: nas2, area: 'Riverside', resolvedAt: null });
    expect(await recipients(open[0].id, 'started')).toEqual(['c']);

    t.clock.set('2026-11-10T11:55:00Z');
    await report('down', 'up');
    const [done] = await db.select().from(incidents).where(eq(incidents.id, open[0].id));
    expect(done.resolvedAt?.toISOString()).toBe('2026-11-10T11:55:00.000Z');
    expect(await recipients(open[0].id, 'ended')).toEqual(['c']);
    await db.update(devices).set({ tags: [] }).where(eq(devices.id, nas2));
  });
});

describe('staff incidents', () => {
  let windowId: string;

  it('customers and visitors may not post one; one needs a device or an area', async () => {
    const body = { kind: 'maintenance', title: 'Works', area: 'Riverside', starts_at: '2026-11-10T13:00:00Z' };
    expect((await as('c', 'POST', '/incidents', body)).statusCode).toBe(403);
    expect((await as(null, 'POST', '/incidents', body)).statusCode).toBe(401);
    const r = await as('technician', 'POST', '/incidents', { ...body, area: null });
    expect(r.statusCode).toBe(400);
    expect(r.json().errors).toEqual([expect.objectContaining({ field: 'area' })]);
  });

  it('a maintenance window by area: announced when it starts, once; over when it ends', async () => {
    t.clock.set('2026-11-10T12:00:00Z');
    const created = await as('technician', 'POST', '/incidents', {
      kind: 'maintenance',
      title: 'Fibre splicing on River Road',
      description: 'A new cable to the river district.',
      area: 'riverside',
      starts_at: '2026-11-10T13:00:00Z',
      ends_at: '2026-11-10T15:00:00Z',
    });
    expect(created.statusCode, created.body).toBe(201);
    windowId = created.json().data.id;
    expect(created.json().data).toMatchObject({ source: 'staff', resolved_at: null });
    expect(await recipients(windowId, 'started')).toEqual([]);
    const upcoming = (await as(null, 'GET', '/status')).json().data.areas;
    expect(upcoming).toEqual([
      { area: 'riverside', current: [], upcoming: [expect.objectContaining({ id: windowId })] },
    ]);

    t.clock.set('2026-11-10T13:00:30Z');
    await t.app.outages.tick();
    await t.app.outages.tick();
    expect(await recipients(windowId, 'started')).toEqual(['c']);
    const mail = await t.lastMailTo('c@example.com');
    expect(mail.subject).toBe('Planned maintenance: Fibre splicing on River Road');
    expect(mail.text).toContain('A new cable to the river district.');
    expect((await as('c', 'GET', '/me/home')).json().data.incidents).toEqual([
      expect.objectContaining({ id: windowId, kind: 'maintenance', ends_at: '2026-11-10T15:00:00.000Z' }),
    ]);

    t.clock.set('2026-11-10T15:00:10Z');
    await t.app.outages.tick();
    await t.app.outages.tick();
    expect(await recipients(windowId, 'ended')).toEqual(['c']);
    expect((await as('c', 'GET', '/me/home')).json().data.incidents).toEqual([]);
    const audit = await t.rows<{ action: string }>(
      sql`select action from audit_events where target_id = ${windowId} order by at`,
    );
    expect(audit.map((a) => a.action)).toEqual(['incident.created']);
  });

  it('an outage notice about a device, resolved early by support (audited, once)', async () => {
    t.clock.set('2026-11-10T16:00:00Z');
    const created = await as('support', 'POST', '/incidents', {
      kind: 'outage',
      title: 'Power cut at the north hill cabinet',
      device_id: nas1,
      starts_at: '2026-11-10T15:55:00Z',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id;
    // Saved after its start: announced at once, to the customers of that NAS in the last days (E too).
    expect(await recipients(id, 'started')).toEqual(['a', 'b', 'e']);

    later(30);
    const resolved = await as('support', 'POST', `/incidents/${id}/resolve`);
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json().data.resolved_at).toBe('2026-11-10T16:30:00.000Z');
    expect((await as('support', 'POST', `/incidents/${id}/resolve`)).statusCode).toBe(409);
    expect((await as('c', 'POST', `/incidents/${id}/resolve`)).statusCode).toBe(403);
    expect(await recipients(id, 'ended')).toEqual(['a', 'b', 'e']);
    const audit = await t.rows<{ action: string }>(
      sql`select action from audit_events where target_id = ${id} order by at`,
    );
    expect(audit.map((a) => a.action)).toEqual(['incident.created', 'incident.resolved']);
  });
});
