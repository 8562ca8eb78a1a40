/**
 * A data line's login (issue 31), decided without I/O: accepted while it has data and time, refused once its
 * allowance is used (even before its status caught up) and once its time limit passed; a line without an
 * allowance is untouched by either rule.
 */
import { describe, expect, it } from 'vitest';
import { authorize } from '../../server/modules/radius/authorize';
import type { Subscriber } from '../../server/modules/radius/directory';

const now = new Date('2026-06-01T12:00:00.000Z');
const line = (over: Partial<Subscriber>): Subscriber => ({
  subscriptionId: '00000000-0000-4000-8000-000000000001',
  username: 'c000001',
  password: 'secret',
  status: 'active',
  periodStart: new Date('2026-06-01T00:00:00.000Z'),
  periodEnd: null,
  planId: '00000000-0000-4000-8000-000000000002',
  downloadMbps: 20,
  uploadMbps: 5,
  dataCapBytes: null,
  dataCapAction: 'reject',
  throttleDownloadKbps: 1024,
  throttleUploadKbps: 1024,
  dataAllowanceBytes: 1_000_000,
  dataUsedBytes: 0,
  framedIp: null,
  framedPool: null,
  framedIpv6Prefix: null,
  delegatedIpv6Prefix: null,
  ...over,
});
const decide = (sub: Subscriber) =>
  authorize(sub, { now, interimInterval: 300, walledGardenPool: null, usageBytes: 0 });
const message = (d: ReturnType<typeof decide>) => d.attributes.find(([name]) => name === 'Reply-Message')?.[1];

describe('a data line at login', () => {
  it('is accepted with data left and no time limit, refused once the data is used', () => {
    expect(decide(line({ dataUsedBytes: 999_999 }))).toMatchObject({ accept: true, reason: 'active' });
    const used = decide(line({ dataUsedBytes: 1_000_000 }));
    expect(used).toMatchObject({ accept: false, reason: 'data_cap' });
    expect(message(used)).toBe('Data allowance used');
  });

  it('with a time limit: accepted before it, refused at it', () => {
    expect(decide(line({ periodEnd: new Date(now.getTime() + 1_000) })).accept).toBe(true);
    expect(decide(line({ periodEnd: now }))).toMatchObject({ accept: false, reason: 'not_active' });
  });

  it('a paid line (no allowance) past its period end is still served by its status, as before', () => {
    expect(
      decide(
        line({ dataAllowanceBytes: null, dataUsedBytes: 5_000_000, periodEnd: new Date(now.getTime() - 86_400_000) }),
      ).accept,
    ).toBe(true);
  });
});
