/**
 * The NAS vendor profiles (issue 36): one per DEVICE_VENDORS entry, implementing the contract in nas-profile.ts.
 * Attribute numbers and types are those of the FreeRADIUS dictionaries (Debian's freeradius-common,
 * /usr/share/freeradius/dictionary.<vendor>); tests/server/nas-profiles.test.ts reads those files and checks every
 * attribute sent here against them.
 *
 *   mikrotik  Mikrotik-Rate-Limit (14988/8, string "<up>/<down>", e.g. "10M/50M") plus WISPr-Bandwidth-Max-Up/Down
 *             (14122/7 and /8, integer bit/s), as before the profiles. CoA: the same. Cut: Disconnect, then the
 *             PPP/hotspot active entry removed over the RouterOS API.
 *   cisco     Cisco-AVPair (9/1, string) "ip:sub-qos-policy-in=PORTAL-IN-<up>" and "ip:sub-qos-policy-out=PORTAL-OUT-<down>"
 *             (IOS-XE ISG / ASR 1000 per-session QoS: policy maps of those names must exist on the router). CoA: the
 *             same AVPairs, which ISG applies to the live session (policy push) without a re-authentication.
 *   juniper   ERX-Ingress-Policy-Name (4874/10) "PORTAL-IN-<up>" and ERX-Egress-Policy-Name (4874/11)
 *             "PORTAL-OUT-<down>" (Junos MX / E-series BNG: firewall filters or policers of those names).
 *   huawei    Huawei-Input-Average-Rate / Huawei-Input-Peak-Rate (2011/2, /3: upstream CIR and PIR, integer bit/s) and
 *             Huawei-Output-Average-Rate / Huawei-Output-Peak-Rate (2011/5, /6: downstream), peak = average.
 *   cambium   Cambium-ePMP-Max-Burst-Uplink-Rate / -Downlink-Rate (17713/26, /27, integer kbit/s, ePMP subscriber
 *             modules) plus WISPr-Bandwidth-Max-Up/Down (cnPilot access points rate-limit with the WBA attributes).
 *   generic   WISPr-Bandwidth-Max-Up/Down (bit/s) and Filter-Id (11, string) "portal-<down>k-<up>k".
 *
 * Rate names: a rate that is a whole number of Mbit/s is written "<n>M", else "<n>k" (kbit/s), as MikroTik has it.
 * Attributes are built once per rate as wire-format Vendor-Specific values (RFC 2865 §5.26: vendor id, then vendor
 * type, length, value), which the codec copies as they are: the PAP fast path builds nothing per login.
 */
import type { RadiusAttribute, RadiusPacket } from '../../integrations/radius/codec';
import type { DeviceVendor } from '../../../contract/schemas/device';
import type { NasProfile, PolicyRate } from './nas-profile';

export type { NasProfile, PolicyRate } from './nas-profile';

/** Vendor ids (SMI private enterprise numbers), as the FreeRADIUS dictionaries have them. */
export const VENDOR_IDS = {
  mikrotik: 14988,
  wispr: 14122,
  cisco: 9,
  erx: 4874,
  huawei: 2011,
  cambium: 17713,
} as const;

const VENDOR_SPECIFIC = 26;
const FILTER_ID = 11;
const MAX_UINT32 = 0xffff_ffff;

// Vendor attribute numbers (the dictionaries' ATTRIBUTE lines).
const MIKROTIK_RATE_LIMIT = 8;
const WISPR_MAX_UP = 7;
const WISPR_MAX_DOWN = 8;
const CISCO_AVPAIR = 1;
const ERX_INGRESS_POLICY_NAME = 10;
const ERX_EGRESS_POLICY_NAME = 11;
const HUAWEI_INPUT_AVERAGE_RATE = 2;
const HUAWEI_INPUT_PEAK_RATE = 3;
const HUAWEI_OUTPUT_AVERAGE_RATE = 5;
const HUAWEI_OUTPUT_PEAK_RATE = 6;
const CAMBIUM_EPMP_MAX_BURST_UPLINK_RATE = 26;
const CAMBIUM_EPMP_MAX_BURST_DOWNLINK_RATE = 27;

/** "50M" for a whole number of Mbit/s, else "512k". */
export function rateUnit(kbps: number): string {
  return kbps % 1000 === 0 ? `${kbps / 1000}M` : `${kbps}k`;
}

/** Inverse of rateUnit ("50M" → 50000, "512k" → 512); null for anything else. */
function parseRateUnit(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)([kKmMgG]?)$/.exec(text.trim());
  if (!m) return null;
  const n = Number(m[1]);
  const factor = { '': 0.001, k: 1, m: 1000, g: 1_000_000 }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Math.round(n * factor);
}

/** "<up>/<down>" as MikroTik's rx/tx rate limit is written. */
const upDownText = (rate: PolicyRate) => `${rateUnit(rate.uploadKbps)}/${rateUnit(rate.downloadKbps)}`;

const bits = (kbps: number) => Math.min(MAX_UINT32, Math.max(0, Math.round(kbps * 1000)));

function uint32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n, 0);
  return b;
}

/** One Vendor-Specific attribute in wire format, one vendor attribute in it. */
export function vendorAttribute(vendor: number, type: number, value: Buffer | string | number): RadiusAttribute {
  const v = typeof value === 'number' ? uint32(value) : typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  const b = Buffer.alloc(6 + v.length);
  b.writeUInt32BE(vendor, 0);
  b.writeUInt8(type, 4);
  b.writeUInt8(2 + v.length, 5);
  v.copy(b, 6);
  return [VENDOR_SPECIFIC, b];
}

/** Every vendor attribute a packet carries, from its raw Vendor-Specific attributes: [vendor, type, value]. */
export function vendorAttributes(packet: Pick<RadiusPacket, 'raw_attributes'>): Array<[number, number, Buffer]> {
  const out: Array<[number, number, Buffer]> = [];
  for (const [type, value] of packet.raw_attributes as Array<[number, Buffer]>) {
    if (type !== VENDOR_SPECIFIC || !Buffer.isBuffer(value) || value.length < 6) continue;
    const vendor = value.readUInt32BE(0);
    let at = 4;
    while (at + 2 <= value.length) {
      const len = value[at + 1];
      if (len < 2 || at + len > value.length) break;
      out.push([vendor, value[at], value.subarray(at + 2, at + len)]);
      at += len;
    }
  }
  return out;
}

function vendorValues(packet: Pick<RadiusPacket, 'raw_attributes'>, vendor: number, type: number): Buffer[] {
  return vendorAttributes(packet)
    .filter(([v, t]) => v === vendor && t === type)
    .map(([, , value]) => value);
}

const vendorString = (packet: Pick<RadiusPacket, 'raw_attributes'>, vendor: number, type: number) => {
  const v = vendorValues(packet, vendor, type)[0];
  return v ? v.toString('utf8') : undefined;
};

const vendorInteger = (packet: Pick<RadiusPacket, 'raw_attributes'>, vendor: number, type: number) => {
  const v = vendorValues(packet, vendor, type)[0];
  return v?.length === 4 ? v.readUInt32BE(0) : undefined;
};

/** A rate reported as two integers (bit/s or kbit/s), as policy text; null unless both are there. */
function reportedRate(up: number | undefined, down: number | undefined, perKbps: number): string | null {
  if (up === undefined || down === undefined) return null;
  return upDownText({ uploadKbps: Math.round(up / perKbps), downloadKbps: Math.round(down / perKbps) });
}

/** Caches a profile's attributes per rate (the same for every customer of a plan). */
function cached(build: (rate: PolicyRate) => RadiusAttribute[]): (rate: PolicyRate) => RadiusAttribute[] {
  const byRate = new Map<string, RadiusAttribute[]>();
  return (rate) => {
    const key = `${rate.downloadKbps}/${rate.uploadKbps}`;
    let attributes = byRate.get(key);
    if (!attributes) {
      attributes = build(rate);
      if (byRate.size > 10_000) byRate.clear();
      byRate.set(key, attributes);
    }
    return attributes;
  };
}

const wisprAttributes = (rate: PolicyRate): RadiusAttribute[] => [
  vendorAttribute(VENDOR_IDS.wispr, WISPR_MAX_DOWN, bits(rate.downloadKbps)),
  vendorAttribute(VENDOR_IDS.wispr, WISPR_MAX_UP, bits(rate.uploadKbps)),
];

const wisprReported = (packet: RadiusPacket) =>
  reportedRate(
    vendorInteger(packet, VENDOR_IDS.wispr, WISPR_MAX_UP),
    vendorInteger(packet, VENDOR_IDS.wispr, WISPR_MAX_DOWN),
    1000,
  );

/** Policy names of the QoS-by-name profiles (Cisco, Juniper): upload is the NAS's input, download its output. */
export const policyNames = (rate: PolicyRate) => ({
  in: `PORTAL-IN-${rateUnit(rate.uploadKbps)}`,
  out: `PORTAL-OUT-${rateUnit(rate.downloadKbps)}`,
});
const namesText = (names: { in: string; out: string }) => `${names.in}/${names.out}`;

const mikrotikAccept = cached((rate) => [
  vendorAttribute(VENDOR_IDS.mikrotik, MIKROTIK_RATE_LIMIT, upDownText(rate)),
  ...wisprAttributes(rate),
]);

const mikrotik: NasProfile = {
  vendor: 'mikrotik',
  label: 'MikroTik RouterOS',
  acceptAttributes: mikrotikAccept,
  coaAttributes: mikrotikAccept,
  policyText: upDownText,
  reportedPolicy(packet) {
    const text = vendorString(packet, VENDOR_IDS.mikrotik, MIKROTIK_RATE_LIMIT);
    if (text === undefined) return null;
    // "rx/tx" possibly followed by bursts etc.: the first pair is the policy, normalised to rateUnit.
    const [up, down] = text.trim().split(/\s+/)[0].split('/');
    const u = up === undefined ? null : parseRateUnit(up);
    const d = down === undefined ? null : parseRateUnit(down);
    return u !== null && d !== null ? upDownText({ uploadKbps: u, downloadKbps: d }) : text;
  },
  disconnectFallback: 'api',
};

const ciscoAccept = cached((rate) => {
  const names = policyNames(rate);
  return [
    vendorAttribute(VENDOR_IDS.cisco, CISCO_AVPAIR, `ip:sub-qos-policy-in=${names.in}`),
    vendorAttribute(VENDOR_IDS.cisco, CISCO_AVPAIR, `ip:sub-qos-policy-out=${names.out}`),
  ];
});

const cisco: NasProfile = {
  vendor: 'cisco',
  label: 'Cisco IOS-XE (ISG / ASR 1000 BNG)',
  acceptAttributes: ciscoAccept,
  coaAttributes: ciscoAccept,
  policyText: (rate) => namesText(policyNames(rate)),
  reportedPolicy(packet) {
    let input: string | undefined;
    let output: string | undefined;
    for (const value of vendorValues(packet, VENDOR_IDS.cisco, CISCO_AVPAIR)) {
      const m = /^(?:ip|subscriber):sub-qos-policy-(in|out)=(.+)$/.exec(value.toString('utf8').trim());
      if (m?.[1] === 'in') input = m[2];
      else if (m?.[1] === 'out') output = m[2];
    }
    return input === undefined && output === undefined ? null : `${input ?? ''}/${output ?? ''}`;
  },
  disconnectFallback: 'none',
};

const juniperAccept = cached((rate) => {
  const names = policyNames(rate);
  return [
    vendorAttribute(VENDOR_IDS.erx, ERX_INGRESS_POLICY_NAME, names.in),
    vendorAttribute(VENDOR_IDS.erx, ERX_EGRESS_POLICY_NAME, names.out),
  ];
});

const juniper: NasProfile = {
  vendor: 'juniper',
  label: 'Juniper MX / E-series BNG',
  acceptAttributes: juniperAccept,
  coaAttributes: juniperAccept,
  policyText: (rate) => namesText(policyNames(rate)),
  reportedPolicy(packet) {
    const input = vendorString(packet, VENDOR_IDS.erx, ERX_INGRESS_POLICY_NAME);
    const output = vendorString(packet, VENDOR_IDS.erx, ERX_EGRESS_POLICY_NAME);
    return input === undefined && output === undefined ? null : `${input ?? ''}/${output ?? ''}`;
  },
  disconnectFallback: 'none',
};

const huaweiAccept = cached((rate) => [
  vendorAttribute(VENDOR_IDS.huawei, HUAWEI_INPUT_AVERAGE_RATE, bits(rate.uploadKbps)),
  vendorAttribute(VENDOR_IDS.huawei, HUAWEI_INPUT_PEAK_RATE, bits(rate.uploadKbps)),
  vendorAttribute(VENDOR_IDS.huawei, HUAWEI_OUTPUT_AVERAGE_RATE, bits(rate.downloadKbps)),
  vendorAttribute(VENDOR_IDS.huawei, HUAWEI_OUTPUT_PEAK_RATE, bits(rate.downloadKbps)),
]);

const huawei: NasProfile = {
  vendor: 'huawei',
  label: 'Huawei ME60 / NetEngine BRAS',
  acceptAttributes: huaweiAccept,
  coaAttributes: huaweiAccept,
  policyText: upDownText,
  reportedPolicy: (packet) =>
    reportedRate(
      vendorInteger(packet, VENDOR_IDS.huawei, HUAWEI_INPUT_AVERAGE_RATE),
      vendorInteger(packet, VENDOR_IDS.huawei, HUAWEI_OUTPUT_AVERAGE_RATE),
      1000,
    ),
  disconnectFallback: 'none',
};

const cambiumAccept = cached((rate) => [
  vendorAttribute(VENDOR_IDS.cambium, CAMBIUM_EPMP_MAX_BURST_UPLINK_RATE, Math.min(MAX_UINT32, rate.uploadKbps)),
  vendorAttribute(VENDOR_IDS.cambium, CAMBIUM_EPMP_MAX_BURST_DOWNLINK_RATE, Math.min(MAX_UINT32, rate.downloadKbps)),
  ...wisprAttributes(rate),
]);

const cambium: NasProfile = {
  vendor: 'cambium',
  label: 'Cambium ePMP / cnPilot',
  acceptAttributes: cambiumAccept,
  coaAttributes: cambiumAccept,
  policyText: upDownText,
  reportedPolicy: (packet) =>
    reportedRate(
      vendorInteger(packet, VENDOR_IDS.cambium, CAMBIUM_EPMP_MAX_BURST_UPLINK_RATE),
      vendorInteger(packet, VENDOR_IDS.cambium, CAMBIUM_EPMP_MAX_BURST_DOWNLINK_RATE),
      1,
    ) ?? wisprReported(packet),
  disconnectFallback: 'none',
};

/** The generic profile's Filter-Id: "portal-<down>k-<up>k". */
const filterId = (rate: PolicyRate) => `portal-${rate.downloadKbps}k-${rate.uploadKbps}k`;

const genericAccept = cached((rate) => [...wisprAttributes(rate), [FILTER_ID, Buffer.from(filterId(rate), 'utf8')]]);

const generic: NasProfile = {
  vendor: 'generic',
  label: 'Generic (WISPr, Filter-Id)',
  acceptAttributes: genericAccept,
  coaAttributes: genericAccept,
  policyText: filterId,
  reportedPolicy(packet) {
    for (const [type, value] of packet.raw_attributes as Array<[number, Buffer]>)
      if (type === FILTER_ID && Buffer.isBuffer(value) && value.length) return value.toString('utf8');
    const up = vendorInteger(packet, VENDOR_IDS.wispr, WISPR_MAX_UP);
    const down = vendorInteger(packet, VENDOR_IDS.wispr, WISPR_MAX_DOWN);
    return up === undefined || down === undefined
      ? null
      : filterId({ uploadKbps: Math.round(up / 1000), downloadKbps: Math.round(down / 1000) });
  },
  disconnectFallback: 'none',
};

export const NAS_PROFILES: Readonly<Record<DeviceVendor, NasProfile>> = {
  mikrotik,
  cisco,
  juniper,
  huawei,
  cambium,
  generic,
};

/** The profile of a device's vendor; an unknown vendor (a row older than the list) gets the generic one. */
export function nasProfileFor(vendor: string | null | undefined): NasProfile {
  return (vendor && Object.hasOwn(NAS_PROFILES, vendor) ? NAS_PROFILES[vendor as DeviceVendor] : undefined) ?? generic;
}

/** The profile used where the NAS is not known (and before issue 36 for every NAS): MikroTik's. */
export const DEFAULT_NAS_PROFILE = mikrotik;
