/**
 * The NAS profile a live session is changed and checked with (issue 36, verified changes). Until the vendor
 * profiles (nas-profiles.ts, `nasProfileFor(vendor)`) are merged, this is the one place that picks a profile: a
 * minimal MikroTik one, which is what authorize.ts already speaks (Mikrotik-Rate-Limit "<upload>/<download>",
 * e.g. "10M/50M"). At the merge, `profileFor` becomes `nasProfileFor` and nothing else changes.
 */
import type { RadiusAttribute, RadiusPacket } from '../../integrations/radius/codec';
import { MIKROTIK_VENDOR } from '../../integrations/radius/codec';
import type { DeviceVendor } from '../../../contract/schemas/device';
import type { RadiusSessionRow } from '../../db/schema/radius';
import { rateAttributes } from './authorize';
import type { NasClientDirectory } from './clients';
import type { NasProfile, PolicyRate } from './nas-profile';

const MIKROTIK_RATE_LIMIT = 8;
const VENDOR_SPECIFIC = 26;

/** "10M" for 10 000 kbit/s, "512k" otherwise: as authorize.ts writes Mikrotik-Rate-Limit. */
const unit = (kbps: number) => (kbps % 1000 === 0 ? `${kbps / 1000}M` : `${kbps}k`);

/** The value of a vendor's string attribute in a packet's raw attributes (RFC 2865 §5.26), or null. */
export function vendorString(packet: RadiusPacket, vendor: number, type: number): string | null {
  for (const [code, value] of packet.raw_attributes as Array<[number, Buffer]>) {
    if (code !== VENDOR_SPECIFIC || !Buffer.isBuffer(value) || value.length < 6) continue;
    if (value.readUInt32BE(0) !== vendor) continue;
    // One Vendor-Specific may hold several sub-attributes: type, length (2 + value), value.
    for (let at = 4; at + 2 <= value.length; ) {
      const subType = value[at];
      const length = value[at + 1];
      if (length < 2 || at + length > value.length) break;
      if (subType === type) return value.subarray(at + 2, at + length).toString('utf8');
      at += length;
    }
  }
  return null;
}

/** MikroTik, as far as verified changes need it (the full profile is nas-profiles.ts'). */
export const mikrotikSessionProfile: NasProfile = {
  vendor: 'mikrotik',
  label: 'MikroTik RouterOS',
  acceptAttributes: (rate: PolicyRate): RadiusAttribute[] => rateAttributes(rate.downloadKbps, rate.uploadKbps),
  coaAttributes: (rate: PolicyRate): RadiusAttribute[] => rateAttributes(rate.downloadKbps, rate.uploadKbps),
  policyText: (rate: PolicyRate) => `${unit(rate.uploadKbps)}/${unit(rate.downloadKbps)}`,
  reportedPolicy: (packet: RadiusPacket) => vendorString(packet, MIKROTIK_VENDOR, MIKROTIK_RATE_LIMIT),
  disconnectFallback: 'api',
};

/**
 * The profile of a vendor. Stand-in for nas-profiles.ts' nasProfileFor: every vendor gets today's attributes
 * (authorize.ts sends Mikrotik-Rate-Limit and WISPr to all), only MikroTik has the RouterOS API fallback.
 */
export function profileFor(vendor: DeviceVendor | string | null | undefined): NasProfile {
  if (!vendor || vendor === 'mikrotik') return mikrotikSessionProfile;
  return {
    ...mikrotikSessionProfile,
    vendor: vendor as DeviceVendor,
    label: String(vendor),
    disconnectFallback: 'none',
  };
}

/** The profile of the NAS a session runs on (its registered device's vendor). */
export function profileForSession(
  session: Pick<RadiusSessionRow, 'nasDeviceId'>,
  clients: Pick<NasClientDirectory, 'device'>,
): NasProfile {
  const client = session.nasDeviceId ? clients.device(session.nasDeviceId) : undefined;
  return profileFor(client?.vendor);
}
