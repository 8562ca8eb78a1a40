/**
 * NAS vendor profiles (issue 36), checked against FreeRADIUS' own dictionaries (Debian's freeradius-common in
 * /usr/share/freeradius, read by tests/helpers/freeradius-dictionary.ts): every vendor attribute the portal sends
 * must have the vendor id, number and type the dictionary gives its name, and the value the plan's rate gives.
 *
 * Per vendor, against the running portal: a NAS device of that vendor, a customer logging in through radclient
 * (which decodes the Access-Accept by name with the same dictionaries) and through a raw UDP exchange (whose
 * Vendor-Specific attributes are looked up by number in the parsed dictionaries), accounting that reports the
 * policy (stored as the session's reported_policy), and a plan change whose CoA-Request carries the new rate as
 * that vendor takes it. Only MikroTik falls back to the RouterOS API when a session will not go.
 */
import { createSocket } from 'node:dgram';
import { eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { devices, radiusDisconnects, radiusSessions } from '../../server/db/schema';
import { ManualClock } from '../../server/lib/clock';
import {
  decodeRequest,
  decodeResponse,
  encodeRequest,
  type RadiusAttribute,
} from '../../server/integrations/radius/codec';
import { provisionCredentials, type ServiceCredentials } from '../../server/modules/radius/credentials';
import { NAS_PROFILES, nasProfileFor, vendorAttributes } from '../../server/modules/radius/nas-profiles';
import type { PolicyRate } from '../../server/modules/radius/nas-profile';
import { activateForPaidInvoice } from '../../server/modules/subscriptions/service';
import { DEVICE_VENDORS, type DeviceVendor } from '../../contract/schemas/device';
import { readDictionary, type DictionaryAttribute } from '../helpers/freeradius-dictionary';
import { ensureRadclient, radclient } from '../helpers/radclient';
import { RouterOsFake } from '../helpers/routeros-fake';
import { radiusTestConfig, TestNas } from '../helpers/test-nas';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const SECRET = 'nas-profile-secret-1';
const START = '2026-03-01T10:00:00.000Z';

/** The dictionaries of the attributes each vendor's NAS is sent (dictionary.rfc2865 for Filter-Id). */
const dictionary = readDictionary('rfc2865', 'mikrotik', 'wispr', 'cisco', 'erx', 'huawei', 'cambium');

type Expected = Array<[name: string, value: string | number]>;

/** A rate as MikroTik writes it: "50M", or "512k" when not a whole number of Mbit/s. */
const unit = (kbps: number) => (kbps % 1000 === 0 ? `${kbps / 1000}M` : `${kbps}k`);

/** What each vendor's NAS must be sent for a rate, by dictionary name (written here, not taken from the profiles). */
const EXPECTED: Record<DeviceVendor, (rate: PolicyRate) => Expected> = {
  mikrotik: (r) => [
    ['Mikrotik-Rate-Limit', `${unit(r.uploadKbps)}/${unit(r.downloadKbps)}`],
    ['WISPr-Bandwidth-Max-Down', r.downloadKbps * 1000],
    ['WISPr-Bandwidth-Max-Up', r.uploadKbps * 1000],
  ],
  cisco: (r) => [
    ['Cisco-AVPair', `ip:sub-qos-policy-in=PORTAL-IN-${unit(r.uploadKbps)}`],
    ['Cisco-AVPair', `ip:sub-qos-policy-out=PORTAL-OUT-${unit(r.downloadKbps)}`],
  ],
  juniper: (r) => [
    ['ERX-Ingress-Policy-Name', `PORTAL-IN-${unit(r.uploadKbps)}`],
    ['ERX-Egress-Policy-Name', `PORTAL-OUT-${unit(r.downloadKbps)}`],
  ],
  huawei: (r) => [
    ['Huawei-Input-Average-Rate', r.uploadKbps * 1000],
    ['Huawei-Input-Peak-Rate', r.uploadKbps * 1000],
    ['Huawei-Output-Average-Rate', r.downloadKbps * 1000],
    ['Huawei-Output-Peak-Rate', r.downloadKbps * 1000],
  ],
  cambium: (r) => [
    ['Cambium-ePMP-Max-Burst-Uplink-Rate', r.uploadKbps],
    ['Cambium-ePMP-Max-Burst-Downlink-Rate', r.downloadKbps],
    ['WISPr-Bandwidth-Max-Down', r.downloadKbps * 1000],
    ['WISPr-Bandwidth-Max-Up', r.uploadKbps * 1000],
  ],
  generic: (r) => [
    ['WISPr-Bandwidth-Max-Down', r.downloadKbps * 1000],
    ['WISPr-Bandwidth-Max-Up', r.uploadKbps * 1000],
    ['Filter-Id', `portal-${r.downloadKbps}k-${r.uploadKbps}k`],
  ],
};

/** The vendor attributes (and Filter-Id) of a packet's raw attributes, looked up by number in the dictionaries. */
function policyAttributes(raw: Array<[number, Buffer]>): Expected {
  const out: Expected = [];
  const add = (vendor: number | null, number: number, value: Buffer) => {
    const attr: DictionaryAttribute | undefined = dictionary.byNumber.get(`${vendor}:${number}`);
    expect(attr, `attribute ${vendor}:${number} is in the FreeRADIUS dictionaries`).toBeDefined();
    if (attr!.type === 'integer') {
      expect(value.length, `${attr!.name} is a 4-byte integer`).toBe(4);
      out.push([attr!.name, value.readUInt32BE(0)]);
    } else {
      expect(attr!.type, `${attr!.name}'s type`).toBe('string');
      out.push([attr!.name, value.toString('utf8')]);
    }
  };
  for (const [vendor, number, value] of vendorAttributes({ raw_attributes: raw })) add(vendor, number, value);
  for (const [type, value] of raw) if (type === 11) add(null, 11, value);
  return out;
}

/** The raw [type, value] list of attributes as the portal sends them ([name, value] ones left out). */
const rawOf = (attributes: RadiusAttribute[]) =>
  attributes.filter((a): a is [number, Buffer] => typeof a[0] === 'number' && Buffer.isBuffer(a[1]));

const sorted = (list: Expected) => [...list].map(([n, v]) => `${n}=${v}`).sort();

const RATES: PolicyRate[] = [
  { downloadKbps: 50_000, uploadKbps: 10_000 },
  { downloadKbps: 2_000, uploadKbps: 512 },
  { downloadKbps: 1_500, uploadKbps: 768 },
];

describe('NAS vendor profiles: attributes as the FreeRADIUS dictionaries define them', () => {
  it('every vendor has a profile; an unknown vendor gets the generic one', () => {
    expect(Object.keys(NAS_PROFILES).sort()).toEqual([...DEVICE_VENDORS].sort());
    for (const vendor of DEVICE_VENDORS) expect(nasProfileFor(vendor).vendor).toBe(vendor);
    expect(nasProfileFor('nokia').vendor).toBe('generic');
    expect(nasProfileFor(null).vendor).toBe('generic');
    expect(NAS_PROFILES.mikrotik.disconnectFallback).toBe('api');
    for (const vendor of DEVICE_VENDORS.filter((v) => v !== 'mikrotik'))
      expect(NAS_PROFILES[vendor].disconnectFallback).toBe('none');
  });

  it('the dictionaries name the vendors with the ids the profiles use', () => {
    expect(dictionary.vendors.get('Mikrotik')).toBe(14988);
    expect(dictionary.vendors.get('WISPr')).toBe(14122);
    expect(dictionary.vendors.get('Cisco')).toBe(9);
    expect(dictionary.vendors.get('ERX')).toBe(4874);
    expect(dictionary.vendors.get('Huawei')).toBe(2011);
    expect(dictionary.vendors.get('Cambium')).toBe(17713);
    expect(dictionary.attributes.get('Cisco-AVPair')).toMatchObject({ vendor: 9, number: 1, type: 'string' });
    expect(dictionary.attributes.get('Filter-Id')).toMatchObject({ vendor: null, number: 11, type: 'string' });
  });

  for (const vendor of DEVICE_VENDORS) {
    it(`${vendor}: Access-Accept and CoA attributes, and policy text ⇄ reported policy`, () => {
      const profile = NAS_PROFILES[vendor];
      for (const rate of RATES) {
        const accept = profile.acceptAttributes(rate);
        expect(sorted(policyAttributes(rawOf(accept)))).toEqual(sorted(EXPECTED[vendor](rate)));
        expect(rawOf(accept)).toHaveLength(accept.length);
        expect(sorted(policyAttributes(rawOf(profile.coaAttributes(rate))))).toEqual(sorted(EXPECTED[vendor](rate)));
        // Built once per rate: the fast path copies the same buffers.
        expect(profile.acceptAttributes({ ...rate })).toBe(accept);

        // An Interim-Update that carries the policy attributes reports the policy as policyText writes it.
        const interim = (extra: RadiusAttribute[]) =>
          decodeRequest(
            encodeRequest('Accounting-Request', SECRET, 7, [
              ['User-Name', 'c000001'],
              ['Acct-Status-Type', 'Interim-Update'],
              ['Acct-Session-Id', 'acct-1'],
              ...extra,
            ]),
            SECRET,
          );
        expect(profile.reportedPolicy(interim(profile.coaAttributes(rate)))).toBe(profile.policyText(rate));
        expect(profile.reportedPolicy(interim([]))).toBeNull();
      }
      expect(profile.policyText(RATES[0])).not.toBe(profile.policyText(RATES[1]));
    });
  }

  it('policy texts', () => {
    const rate = RATES[0];
    expect(NAS_PROFILES.mikrotik.policyText(rate)).toBe('10M/50M');
    expect(NAS_PROFILES.cisco.policyText(rate)).toBe('PORTAL-IN-10M/PORTAL-OUT-50M');
    expect(NAS_PROFILES.juniper.policyText(rate)).toBe('PORTAL-IN-10M/PORTAL-OUT-50M');
    expect(NAS_PROFILES.huawei.policyText(rate)).toBe('10M/50M');
    expect(NAS_PROFILES.cambium.policyText(rate)).toBe('10M/50M');
    expect(NAS_PROFILES.generic.policyText(rate)).toBe('portal-50000k-10000k');
  });
});

describe('NAS vendor profiles through the portal: Access-Accept, accounting and CoA per vendor', () => {
  let t: TestApp;
  const clock = new ManualClock(START);
  const nas = new TestNas(SECRET);
  const router = new RouterOsFake();
  let admin: string;
  let ports: { authPort: number; acctPort: number };
  let basicPlan: { id: string };
  let fastPlan: { id: string };
  let n = 0;
  const BASIC: PolicyRate = { downloadKbps: 50_000, uploadKbps: 10_000 };
  const FAST: PolicyRate = { downloadKbps: 200_000, uploadKbps: 40_000 };

  beforeAll(async () => {
    ensureRadclient();
    await Promise.all([nas.start(), router.start()]);
    t = await createTestApp({ clock, config: { accessTokenTtlSeconds: 365 * 86_400, ...radiusTestConfig(nas.port) } });
    ports = t.app.radius.ports()!;
    await t.createUser({ email: 'admin@example.com', role: 'admin' });
    admin = (await t.login('admin@example.com')).token;
    const plan = async (body: object) => (await api('POST', '/plans', body)).json().data;
    basicPlan = await plan({
      name: 'Basic',
      price: 3000,
      download_mbps: 50,
      upload_mbps: 10,
      billing_cycle: 'monthly',
    });
    fastPlan = await plan({ name: 'Fast', price: 6000, download_mbps: 200, upload_mbps: 40, billing_cycle: 'monthly' });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([nas.stop(), router.stop()]);
  });

  const db = () => t.database.db;
  function api(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) {
    return t.app.inject({ method, url: `/api${url}`, headers: bearer(admin), payload: payload as object });
  }

  /** The NAS at 127.0.0.1 becomes a new device of `vendor` (the previous one loses its secret, so is no client). */
  async function nasOf(vendor: DeviceVendor, withApi = false): Promise<string> {
    await db().update(devices).set({ radiusSecret: null }).where(isNotNull(devices.radiusSecret));
    const [device] = await db()
      .insert(devices)
      .values({
        name: `nas-${vendor}-${++n}`,
        vendor,
        host: '127.0.0.1',
        radiusSecret: t.app.secretBox.seal(SECRET),
        ...(withApi
          ? {
              apiType: 'rest' as const,
              apiPort: router.connection.port,
              apiTls: false,
              apiUsername: router.username,
              apiPassword: t.app.secretBox.seal(router.password),
            }
          : {}),
      })
      .returning();
    await t.app.radius.clients.reload();
    return device.id;
  }

  async function customer() {
    const user = await t.createUser({ email: `customer${++n}@example.com` });
    const created = await api('POST', '/subscriptions', { plan_id: basicPlan.id, user_id: user.id });
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
    return { subscriptionId: subscription.id, ...credentials } as ServiceCredentials & {
      subscriptionId: string;
      password: string;
    };
  }

  /** An Access-Request sent over UDP by hand, its answer's raw attributes. */
  async function rawLogin(username: string, password: string): Promise<Array<[number, Buffer]>> {
    const request = encodeRequest('Access-Request', SECRET, 99, [
      ['User-Name', username],
      ['User-Password', password],
    ]);
    const socket = createSocket('udp4');
    try {
      const response = await new Promise<Buffer>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no answer')), 5_000);
        socket.once('message', (msg) => {
          clearTimeout(timer);
          resolve(msg);
        });
        socket.send(request, ports.authPort, '127.0.0.1');
      });
      const decoded = decodeResponse(request, response, SECRET);
      expect(decoded?.code).toBe('Access-Accept');
      return decoded!.raw_attributes as Array<[number, Buffer]>;
    } finally {
      socket.close();
    }
  }

  const session = async (acctSessionId: string) =>
    (await db().select().from(radiusSessions).where(eq(radiusSessions.acctSessionId, acctSessionId)))[0];

  /** radclient's input for the expected attributes (a repeated name: its values in a list). */
  function asInput(expected: Expected): Record<string, string | number | Array<string | number>> {
    const input: Record<string, Array<string | number>> = {};
    for (const [name, value] of expected) input[name] = [...(input[name] ?? []), value];
    return input;
  }

  for (const vendor of DEVICE_VENDORS) {
    it(`${vendor} NAS: Access-Accept, reported policy and CoA in its attributes`, async () => {
      await nasOf(vendor);
      const profile = NAS_PROFILES[vendor];
      const c = await customer();

      // radclient decodes the answer by name with FreeRADIUS' dictionaries.
      const answer = await radclient(
        { port: ports.authPort, secret: SECRET, type: 'auth' },
        { 'User-Name': c.username, 'User-Password': c.password },
      );
      expect(answer.code, answer.output).toBe('Access-Accept');
      const expected = EXPECTED[vendor](BASIC);
      for (const name of new Set(expected.map(([name]) => name)))
        expect(answer.all[name], `${name} in ${answer.output}`).toEqual(
          expected.filter(([n]) => n === name).map(([, v]) => String(v)),
        );
      if (vendor !== 'mikrotik') expect(answer.attributes['Mikrotik-Rate-Limit']).toBeUndefined();
      expect(answer.attributes['Session-Timeout']).toBeDefined();

      // The same answer's raw Vendor-Specific attributes: vendor id, number and type as the dictionaries say.
      expect(sorted(policyAttributes(await rawLogin(c.username, c.password)))).toEqual(sorted(expected));

      // Accounting that carries the policy: stored as the session's reported policy, in the profile's words.
      const acctSessionId = `acct-${vendor}`;
      const acct = await radclient(
        { port: ports.acctPort, secret: SECRET, type: 'acct' },
        {
          'User-Name': c.username,
          'Acct-Session-Id': acctSessionId,
          'Acct-Status-Type': 'Start',
          ...asInput(expected),
        },
      );
      expect(acct.code, acct.output).toBe('Accounting-Response');
      expect((await session(acctSessionId)).reportedPolicy).toBe(profile.policyText(BASIC));

      // A plan change: the CoA-Request carries the new rate as this vendor takes it.
      nas.answer = 'ack';
      nas.received.length = 0;
      const res = await api('PATCH', `/subscriptions/${c.subscriptionId}/upgrade`, { plan_id: fastPlan.id });
      expect(res.statusCode, res.body).toBe(200);
      await t.app.radius.idle();
      expect(nas.received.map((r) => r.code)).toEqual(['CoA-Request']);
      expect(nas.received[0].attributes['Acct-Session-Id']).toBe(acctSessionId);
      expect(sorted(policyAttributes(nas.received[0].raw))).toEqual(sorted(EXPECTED[vendor](FAST)));

      // An Interim-Update reporting the new policy moves the stored one.
      await radclient(
        { port: ports.acctPort, secret: SECRET, type: 'acct' },
        {
          'User-Name': c.username,
          'Acct-Session-Id': acctSessionId,
          'Acct-Status-Type': 'Interim-Update',
          'Acct-Session-Time': 60,
          'Acct-Input-Octets': 1000,
          ...asInput(EXPECTED[vendor](FAST)),
        },
      );
      expect((await session(acctSessionId)).reportedPolicy).toBe(profile.policyText(FAST));

      // One that reports none (most NAS report the policy only now and then) leaves the stored one alone.
      await radclient(
        { port: ports.acctPort, secret: SECRET, type: 'acct' },
        {
          'User-Name': c.username,
          'Acct-Session-Id': acctSessionId,
          'Acct-Status-Type': 'Interim-Update',
          'Acct-Session-Time': 120,
          'Acct-Input-Octets': 2000,
        },
      );
      expect(await session(acctSessionId)).toMatchObject({
        reportedPolicy: profile.policyText(FAST),
        sessionTime: 120,
      });
    });
  }

  it('a session that will not go: only a MikroTik NAS falls back to the RouterOS API', async () => {
    for (const vendor of ['cisco', 'mikrotik'] as const) {
      await nasOf(vendor, true);
      const c = await customer();
      const acctSessionId = `acct-stuck-${vendor}`;
      await radclient(
        { port: ports.acctPort, secret: SECRET, type: 'acct' },
        { 'User-Name': c.username, 'Acct-Session-Id': acctSessionId, 'Acct-Status-Type': 'Start' },
      );
      router.pppActive.push({
        '.id': `*${n}`,
        name: c.username,
        service: 'pppoe',
        address: '100.64.0.40',
        uptime: '5m',
        radius: 'true',
      });
      router.requests.length = 0;
      nas.answer = 'nak';
      const res = await api('PATCH', `/subscriptions/${c.subscriptionId}/status`, {
        status: 'suspended',
        suspension_reason: 'Overdue invoice',
      });
      expect(res.statusCode, res.body).toBe(200);
      await t.app.radius.idle();
      for (let i = 0; i < 2; i++) {
        clock.advance(31_000);
        await t.app.radius.sweep();
      }
      const s = await session(acctSessionId);
      const [record] = await db().select().from(radiusDisconnects).where(eq(radiusDisconnects.sessionId, s.id));
      if (vendor === 'mikrotik') {
        expect(record).toMatchObject({ result: 'fallback_removed', attempts: 2 });
        expect(router.requests.some((r) => r.method === 'DELETE')).toBe(true);
      } else {
        expect(record).toMatchObject({ result: 'failed', attempts: 2 });
        expect(record.detail).toMatch(/no API fallback/);
        expect(record.completedAt).not.toBeNull();
        expect(router.requests).toHaveLength(0);
        expect(router.pppActive.some((e) => e.name === c.username)).toBe(true);
      }
    }
  });
});
