/**
 * NAS vendor profiles (issue 36): how a plan's policy (a rate, in kbit/s each way) is expressed to one maker's
 * equipment, how a live session's policy is changed, how the NAS reports the policy a session runs under, and how a
 * session is cut. A device's `vendor` (contract/schemas/device.ts DEVICE_VENDORS) is its profile.
 *
 * This file is the shared contract; each profile's attributes are in nas-profiles.ts (the numbers and types come
 * from the FreeRADIUS dictionaries Debian's freeradius-common ships, which the tests load to check them).
 */
import type { RadiusAttribute, RadiusPacket } from '../../integrations/radius/codec';
import type { DeviceVendor } from '../../../contract/schemas/device';

/** What a subscriber is allowed right now: the plan's rate, a fair-use tier's, or a throttled one. */
export interface PolicyRate {
  downloadKbps: number;
  uploadKbps: number;
}

export interface NasProfile {
  vendor: DeviceVendor;
  /** Human name for the docs and the device form. */
  label: string;
  /** The rate attributes of an Access-Accept. */
  acceptAttributes(rate: PolicyRate): RadiusAttribute[];
  /** The attributes of a CoA-Request that moves a live session to `rate` (besides the session's identity). */
  coaAttributes(rate: PolicyRate): RadiusAttribute[];
  /**
   * The policy as one canonical text (e.g. "10M/50M" for MikroTik, the QoS profile name for Juniper): stored as a
   * change's expected policy and compared with what the NAS reports.
   */
  policyText(rate: PolicyRate): string;
  /** The policy an accounting packet (an Interim-Update) reports for its session, as policyText would write it; null: none reported. */
  reportedPolicy(packet: RadiusPacket): string | null;
  /**
   * How a session is cut when a Disconnect-Request is not acknowledged: `api` (MikroTik: the PPP active entry is
   * removed over the management API) or `none` (the session ends at its Session-Timeout; the next login is refused).
   */
  disconnectFallback: 'api' | 'none';
}
