/**
 * The demo's network: two MikroTik NAS devices (registered through the device service; their addresses are in
 * TEST-NET-1, so they never answer and the poller marks them down once the portal runs), a week of 5-minute
 * interface samples in the traffic module's storage (rates computed by the poller's own rateBetween, then
 * rolled up by the roll-up job into hourly and daily buckets), and RADIUS accounting for every served
 * customer through the accounting store, packet by packet (Interim-Updates once a day, Stop at the end of a
 * session, the last session still open), so the usage pages and the dashboard's bandwidth and connections
 * come from the same tables a real NAS fills.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { deviceInputSchema } from '../../../contract/schemas/device';
import { ACCT_STATUS } from '../../integrations/radius/codec';
import { DAY_MS, HOUR_MS, MINUTE_MS, type ManualClock } from '../../lib/clock';
import { AccountingStore } from '../../modules/radius/accounting';
import { rateBetween, type CounterSample } from '../../modules/traffic/rates';
import { TrafficRollup } from '../../modules/traffic/rollup';
import type { Db } from '../client';
import {
  devices,
  deviceInterfaces,
  installations,
  interfaceSamples,
  plans,
  serviceCredentials,
  subscriptions,
} from '../schema';
import type { DemoRandom } from './random';
import type { DemoServices } from './services';
import { DEFAULT_SIMULATED_NAS_NAME } from '../../simulator';

export interface NetworkSummary {
  devices: number;
  interfaces: number;
  samples: number;
  sessions: number;
  accountingPackets: number;
}

/** The demo NAS devices ask for one Interim-Update a day (a session silent for two days is closed as stale). */
export const DEMO_INTERIM_SECONDS = 86_400;
/** Traffic history kept raw: one week (the roll-ups keep it after that). */
export const TRAFFIC_DAYS = 7;
const SAMPLE_MS = 5 * MINUTE_MS;
/** Accounting history per customer: the last two weeks (or since the installation). */
const ACCOUNTING_DAYS = 14;
const GB = 1_000_000_000;
/** Average download per day by plan, in GB (upload is a fifth of it). */
const DAILY_GB: Record<string, number> = {
  'basic-25': 4,
  'home-100': 12,
  'pro-300': 25,
  'business-1000': 60,
  'legacy-10-mbps': 2,
};

/**
 * The first NAS is the one the network simulator plays (npm run simulate, SIMULATE=true): same name and loopback
 * address, so the simulator takes it over (its SNMP port, community and RADIUS secret) and its Accounting-On ends
 * the demo's open sessions there before it dials the same customers in again – the week of history then goes on
 * live, and no customer is online twice. Without the simulator nothing answers on it (SNMP on a closed port).
 * Every customer online now is on it; the second NAS, in a documentation range, holds only past sessions.
 */
const NAS = [
  {
    name: DEFAULT_SIMULATED_NAS_NAME,
    host: '127.0.0.1',
    snmpPort: 1161,
    location: 'Central exchange, rack 2',
    model: 'CCR2004-16G-2S+',
    notes:
      'Played by the network simulator (npm run simulate, or SIMULATE=true npm start); without it, it does not answer.',
  },
  {
    name: 'NAS North',
    host: '192.0.2.20',
    snmpPort: 161,
    location: 'North street cabinet 7',
    model: 'CCR2116-12G-4S+',
    notes: 'Demo device: its address is in a documentation range (TEST-NET-1), so it never answers.',
  },
];

const INTERFACES = [
  { ifIndex: 1, name: 'sfp-sfpplus1', alias: 'Uplink to transit', speed: 10_000, peakMbps: 900, downShare: 0.85 },
  { ifIndex: 2, name: 'ether2', alias: 'PPPoE access', speed: 1_000, peakMbps: 520, downShare: 0.15 },
  { ifIndex: 3, name: 'ether8-mgmt', alias: 'Management', speed: 100, peakMbps: 0.4, downShare: 0.5 },
];

/** Share of the peak in use at a time of day: quiet at night, busiest around 9 pm (UTC here). */
function load(at: Date, jitter: number): number {
  const h = at.getUTCHours() + at.getUTCMinutes() / 60;
  const evening = Math.exp(-((h - 21) ** 2) / 8) + 0.6 * Math.exp(-((h - 13) ** 2) / 10);
  return Math.max(0.03, Math.min(1, 0.12 + 0.75 * evening + jitter));
}

export async function seedDemoNetwork(
  db: Db,
  deps: { clock: ManualClock; services: DemoServices; rng: DemoRandom; end: Date },
): Promise<NetworkSummary> {
  const { clock, services, rng, end } = deps;
  const created = [];
  for (const [i, nas] of NAS.entries()) {
    clock.set(end.getTime() - (TRAFFIC_DAYS + 30 - i * 10) * DAY_MS);
    created.push(
      await services.devices.create(
        deviceInputSchema.parse({
          name: nas.name,
          vendor: 'mikrotik',
          model: nas.model,
          host: nas.host,
          location: nas.location,
          tags: ['nas', 'pppoe'],
          snmp_community: 'public',
          snmp_port: nas.snmpPort,
          radius_secret: `demo-radius-secret-${i + 1}`,
          notes: nas.notes,
        }),
      ),
    );
  }
  clock.set(end);

  // Interfaces and a week of samples, as the poller would have stored them.
  let samples = 0;
  let interfaceCount = 0;
  const last = Math.floor(end.getTime() / SAMPLE_MS) * SAMPLE_MS;
  const first = last - TRAFFIC_DAYS * DAY_MS + SAMPLE_MS;
  for (const device of created) {
    await db
      .update(devices)
      .set({
        status: 'up',
        statusChangedAt: new Date(first),
        lastSeenAt: new Date(last),
        pollFailures: 0,
        lastError: null,
      })
      .where(eq(devices.id, device.id));
    const rows = await db
      .insert(deviceInterfaces)
      .values(
        INTERFACES.map((i) => ({
          deviceId: device.id,
          ifIndex: i.ifIndex,
          name: i.name,
          alias: i.alias,
          operStatus: 'up',
          adminStatus: 'up',
          highSpeedMbps: i.speed,
          mac: `4c:5e:0c:${device.id.slice(0, 2)}:${device.id.slice(2, 4)}:0${i.ifIndex}`,
          counterBits: 64,
          lastSeenAt: new Date(last),
          createdAt: new Date(first),
        })),
      )
      .returning({ id: deviceInterfaces.id, ifIndex: deviceInterfaces.ifIndex });
    interfaceCount += rows.length;
    const scale = device === created[0] ? 1 : 0.55;
    for (const iface of INTERFACES) {
      const interfaceId = rows.find((r) => r.ifIndex === iface.ifIndex)!.id;
      let previous: CounterSample | null = null;
      let inOctets = BigInt(rng.int(1, 1_000_000)) * 1_000_000n;
      let outOctets = BigInt(rng.int(1, 1_000_000)) * 1_000_000n;
      const batch: Array<typeof interfaceSamples.$inferInsert> = [];
      for (let t = first; t <= last; t += SAMPLE_MS) {
        const takenAt = new Date(t);
        const bps = iface.peakMbps * 1e6 * scale * load(takenAt, (rng.float() - 0.5) * 0.1);
        const seconds = SAMPLE_MS / 1000;
        // in = towards the NAS on the uplink (customers' downloads), mostly away from it on the access port.
        inOctets += BigInt(
          Math.round(
            (bps * (1 - iface.downShare) * seconds) / 8 +
              ((bps * iface.downShare * seconds) / 8) * (iface.ifIndex === 1 ? 1 : 0.2),
          ),
        );
        outOctets += BigInt(Math.round(((bps * iface.downShare * seconds) / 8) * (iface.ifIndex === 1 ? 0.25 : 1)));
        const uptimeTicks = BigInt(Math.floor((t - first) / 10) + 8_640_000);
        const current: CounterSample = { takenAt, inOctets, outOctets, uptimeTicks, width: 64 };
        const interval = previous
          ? rateBetween(previous, current, { pollIntervalMs: SAMPLE_MS, speedMbps: iface.speed })
          : null;
        batch.push({
          interfaceId,
          takenAt,
          inOctets,
          outOctets,
          uptimeTicks,
          counterBits: 64,
          intervalKind: interval?.kind ?? null,
          intervalSeconds: interval?.seconds ?? null,
          inBps: interval?.inBps ?? null,
          outBps: interval?.outBps ?? null,
          inBytes: interval?.inBytes == null ? null : Number(interval.inBytes),
          outBytes: interval?.outBytes == null ? null : Number(interval.outBytes),
        });
        previous = current;
      }
      for (let i = 0; i < batch.length; i += 500) await db.insert(interfaceSamples).values(batch.slice(i, i + 500));
      samples += batch.length;
    }
  }
  await new TrafficRollup({ db, clock }).run({ now: end });

  // RADIUS accounting for every customer served now (active), from the installation or two weeks back.
  const served = await db
    .select({
      subscriptionId: subscriptions.id,
      username: serviceCredentials.username,
      slug: plans.slug,
      installedAt: installations.completedAt,
    })
    .from(subscriptions)
    .innerJoin(serviceCredentials, eq(serviceCredentials.subscriptionId, subscriptions.id))
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .leftJoin(
      installations,
      and(eq(installations.subscriptionId, subscriptions.id), eq(installations.status, 'completed')),
    )
    .where(inArray(subscriptions.status, ['active']))
    .orderBy(serviceCredentials.username);
  const subscriptionOf = new Map(served.map((s) => [s.username, s.subscriptionId]));
  const accounting = new AccountingStore({
    db,
    clock,
    interimInterval: DEMO_INTERIM_SECONDS,
    subscriptionOf: async (u) => subscriptionOf.get(u) ?? null,
  });
  let sessions = 0;
  let packets = 0;
  for (const [n, s] of served.entries()) {
    const from = Math.max(
      end.getTime() - ACCOUNTING_DAYS * DAY_MS,
      (s.installedAt?.getTime() ?? end.getTime() - DAY_MS) + HOUR_MS,
    );
    const perDay = (DAILY_GB[s.slug] ?? 8) * GB * (0.5 + rng.float());
    const mac = `02:de:m0:${String(n).padStart(2, '0')}`.replace('m0', '00');
    let start = from + rng.int(0, 120) * MINUTE_MS;
    let k = 0;
    while (start < end.getTime() - HOUR_MS) {
      const length = rng.int(3, 8) * DAY_MS + rng.int(0, 600) * MINUTE_MS;
      const stop = start + length;
      const open = stop >= end.getTime() - 10 * MINUTE_MS;
      // Online now: on the simulator's NAS; before: either.
      const at = open ? 0 : (n + k) % created.length;
      const nasRef = { deviceId: created[at].id, ip: NAS[at].host };
      const id = `demo-${s.username}-${++k}`;
      const framedIp = `100.64.${Math.floor(n / 200)}.${(n % 200) + 10}`;
      let input = 0;
      let output = 0;
      let previousAt = start;
      const packet = async (at: number, statusType: number) => {
        const hours = (at - previousAt) / HOUR_MS;
        output += Math.round((perDay / 24) * hours * (0.6 + 0.8 * rng.float()));
        input += Math.round((perDay / 24 / 5) * hours * (0.6 + 0.8 * rng.float()));
        previousAt = at;
        clock.set(at);
        await accounting.record(nasRef, {
          statusType,
          acctSessionId: id,
          username: s.username,
          framedIp,
          callingStationId: `${mac}:${String(k).padStart(2, '0')}`,
          nasPortId: `ether2-vlan${100 + (n % 8)}`,
          inputOctets: input,
          outputOctets: output,
          sessionTime: Math.round((at - start) / 1000),
          delaySeconds: 0,
          terminateCause: statusType === ACCT_STATUS.STOP ? 'User-Request' : undefined,
        });
        packets++;
      };
      for (let t = start + DAY_MS; t < Math.min(stop, end.getTime()); t += DAY_MS) await packet(t, ACCT_STATUS.INTERIM);
      if (open) {
        // Still connected: its last Interim-Update arrived a few minutes ago.
        await packet(end.getTime() - rng.int(1, 9) * MINUTE_MS, ACCT_STATUS.INTERIM);
      } else {
        await packet(stop, ACCT_STATUS.STOP);
      }
      sessions++;
      // Reconnects a few seconds to a few minutes later.
      start = stop + rng.int(1, 300) * 1000;
    }
  }
  clock.set(end);
  return { devices: created.length, interfaces: interfaceCount, samples, sessions, accountingPackets: packets };
}
