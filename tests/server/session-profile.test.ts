/**
 * The MikroTik NAS profile as verified changes use it (server/modules/radius/nas-profiles.ts): MikroTik's policy text is what the Access-Accept's Mikrotik-Rate-Limit says, and the policy an accounting
 * packet reports is read from its Vendor-Specific attributes, however the NAS packs them.
 */
import { describe, expect, it } from 'vitest';
import { decodeRequest, encodeRequest, MIKROTIK_VENDOR, WISPR_VENDOR } from '../../server/integrations/radius/codec';
import { rateAttributes } from '../../server/modules/radius/authorize';
import { nasProfileFor } from '../../server/modules/radius/nas-profiles';

const mikrotikSessionProfile = nasProfileFor('mikrotik');

const SECRET = 's3cret';
const packet = (attributes: Parameters<typeof encodeRequest>[3]) =>
  decodeRequest(encodeRequest('Accounting-Request', SECRET, 7, attributes), SECRET);

describe('session profile (MikroTik)', () => {
  it('writes the policy as the Access-Accept does ("<upload>/<download>")', () => {
    const rate = { downloadKbps: 200_000, uploadKbps: 40_000 };
    expect(mikrotikSessionProfile.policyText(rate)).toBe('40M/200M');
    expect(mikrotikSessionProfile.policyText({ downloadKbps: 2000, uploadKbps: 512 })).toBe('512k/2M');
    const accept = packet([['User-Name', 'u'], ...mikrotikSessionProfile.acceptAttributes(rate)]);
    expect(mikrotikSessionProfile.reportedPolicy(accept)).toBe('40M/200M');
  });

  it('reads Mikrotik-Rate-Limit from an accounting packet, alone, among other vendors, or packed with other sub-attributes', () => {
    expect(
      mikrotikSessionProfile.reportedPolicy(
        packet([
          ['User-Name', 'u'],
          ['Vendor-Specific', MIKROTIK_VENDOR, [['Mikrotik-Rate-Limit', '10M/50M']]],
        ]),
      ),
    ).toBe('10M/50M');
    // WISPr only: nothing MikroTik reports.
    expect(
      mikrotikSessionProfile.reportedPolicy(packet([['User-Name', 'u'], ...rateAttributes(50_000, 10_000).slice(1)])),
    ).toBeNull();
    // One Vendor-Specific holding two MikroTik sub-attributes (type 6, then 8 = Mikrotik-Rate-Limit).
    const text = Buffer.from('5M/20M');
    const packed = Buffer.concat([
      Buffer.from([0, 0, 0x3a, 0x8c]), // 14988
      Buffer.from([6, 2 + 3]),
      Buffer.from('abc'),
      Buffer.from([8, 2 + text.length]),
      text,
    ]);
    expect(
      mikrotikSessionProfile.reportedPolicy(
        packet([
          ['User-Name', 'u'],
          [26, packed],
        ]),
      ),
    ).toBe('5M/20M');
    // The same bytes under another vendor's id are not MikroTik's.
    const otherVendor = Buffer.from(packed);
    otherVendor.writeUInt32BE(WISPR_VENDOR, 0);
    expect(
      mikrotikSessionProfile.reportedPolicy(
        packet([
          ['User-Name', 'u'],
          [26, otherVendor],
        ]),
      ),
    ).toBeNull();
  });

  it('only MikroTik has the API fallback; each vendor writes its own policy text', () => {
    expect(nasProfileFor('mikrotik').disconnectFallback).toBe('api');
    expect(nasProfileFor('cisco')).toMatchObject({ vendor: 'cisco', disconnectFallback: 'none' });
    expect(nasProfileFor('generic').policyText({ downloadKbps: 50_000, uploadKbps: 10_000 })).toBe(
      'portal-50000k-10000k',
    );
  });
});
