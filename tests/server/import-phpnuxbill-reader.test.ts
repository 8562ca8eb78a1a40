/**
 * The phpnuxbill reader (issue 39) against a real phpnuxbill-shaped MariaDB database (fixtures/phpnuxbill-source):
 * what an operator's ISP becomes in the import model, and the findings that tell them what was left out or changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding, SourceSnapshot, SourceUsage } from '../../server/import/model';
import { openMysql } from '../../server/import/sources/mysql';
import { phpnuxbillReader } from '../../server/import/sources/phpnuxbill';
import { createPhpnuxbillDatabase, PHPNUXBILL_NOW } from './fixtures/phpnuxbill-source';

describe('phpnuxbill reader', () => {
  let db: Awaited<ReturnType<typeof createPhpnuxbillDatabase>>;
  let reader: ReturnType<typeof phpnuxbillReader>;
  let snap: SourceSnapshot;
  const finding = (kind: Finding['kind'], key: string) => snap.findings.filter((f) => f.kind === kind && f.key === key);

  beforeAll(async () => {
    db = await createPhpnuxbillDatabase();
    reader = phpnuxbillReader(await openMysql(db.url), { currency: 'IDR', now: PHPNUXBILL_NOW });
    snap = await reader.read();
  });
  afterAll(async () => {
    await reader?.close();
    await db?.drop();
  });

  it('routers become MikroTik devices reached at their host, without the API port', () => {
    expect(snap.source).toBe('phpnuxbill');
    expect(snap.devices).toEqual([
      {
        key: '1',
        name: 'Kantor Pusat',
        host: '192.168.88.1',
        vendor: 'mikrotik',
        radiusSecret: null,
        apiUsername: 'admin',
        apiPassword: 'mikrotik-api',
        notes: 'Main router at the office',
      },
      expect.objectContaining({ key: '2', host: '10.20.0.1', apiUsername: 'api', notes: null }),
    ]);
    expect(finding('device', '2').map((f) => f.reason)).toEqual([
      expect.stringContaining('API port 8729'),
      expect.stringContaining('disabled'),
    ]);
    expect(finding('device', '1')).toEqual([]);
  });

  // IDR has two minor digits (ISO 4217), so 250000 rupiah are 25,000,000 minor units.
  it('plans carry their speeds, price in IDR, cycle and data cap; the Balance package is no plan', () => {
    expect(snap.plans.map((p) => p.key)).toEqual(['1', '2', '4']);
    const [home, day, business] = snap.plans;
    expect(home).toMatchObject({
      name: 'Home 20M',
      downloadKbps: 20_000,
      uploadKbps: 10_000,
      price: 25_000_000,
      billingCycle: 'monthly',
      dataCapBytes: null,
    });
    // 512 Kbps stays 512 kbit/s (the plans step rounds it to whole Mbit/s and says so); 1 GB is 1024³ bytes.
    expect(day).toMatchObject({ downloadKbps: 512, uploadKbps: 256, price: 500_000, dataCapBytes: 1024 ** 3 });
    expect(business).toMatchObject({ billingCycle: 'quarterly', price: 75_000_000, downloadKbps: 10_000 });
    expect(finding('plan', '3')).toEqual([expect.objectContaining({ level: 'skipped' })]);
    expect(finding('plan', '2')).toEqual([
      expect.objectContaining({ level: 'changed', reason: expect.stringContaining('validity is kept on') }),
    ]);
    expect(finding('plan', '4')).toEqual([
      expect.objectContaining({ level: 'changed', reason: expect.stringContaining('burst') }),
    ]);
    expect(finding('plan', '1')).toEqual([]);
  });

  it('the pool keeps its range', () => {
    expect(snap.pools).toEqual([
      { key: '1', name: 'pool-home', firstAddress: '10.10.0.2', lastAddress: '10.10.0.254' },
    ]);
  });

  it('customers: the portal password, a real e-mail only, the banned one suspended, a balance reported', () => {
    expect(snap.customers).toHaveLength(4);
    const [budi, siti, andi, rina] = snap.customers;
    expect(budi).toEqual({
      key: '1',
      name: 'Budi Santoso',
      email: 'budi@example.co.id',
      phone: '081234567890',
      address: 'Jl. Merdeka 12, Bandung',
      company: null,
      portalPassword: 'budi-portal',
      status: 'active',
    });
    expect(siti).toMatchObject({ email: null, address: null, portalPassword: 'siti2024', status: 'active' });
    expect(andi).toMatchObject({ status: 'suspended' });
    expect(rina).toMatchObject({ email: null, status: 'active' });
    expect(finding('customer', '2')).toEqual([
      expect.objectContaining({ level: 'changed', reason: expect.stringContaining('balance of 15000.00 IDR') }),
    ]);
    expect(finding('customer', '3')).toEqual([expect.objectContaining({ reason: expect.stringContaining('banned') })]);
  });

  it("each customer's latest recharge per service is their subscription, with the right password and status", () => {
    const byUser = new Map(snap.subscriptions.map((s) => [s.username, s]));
    expect(snap.subscriptions).toHaveLength(4);
    expect(byUser.get('budi')).toEqual({
      key: '2',
      customerKey: '1',
      planKey: '1',
      username: 'budi',
      password: 'rahasia123',
      status: 'active',
      periodStart: new Date('2026-11-01T10:00:00Z'),
      periodEnd: new Date('2026-12-01T10:00:00Z'),
      framedIp: null,
      poolKey: '1',
      note: 'phpnuxbill recharge 2 (admin - Administrator)',
    });
    // An old row without customer_id is found by its username; a hotspot login uses the customer's password.
    expect(byUser.get('siti')).toMatchObject({ key: '3', customerKey: '2', password: 'siti2024', status: 'active' });
    expect(byUser.get('siti')?.poolKey).toBeNull();
    expect(byUser.get('rina')).toMatchObject({ status: 'expired', periodEnd: new Date('2026-11-20T09:00:00Z') });
    // andi's PPPoE has no pppoe_password: his password is the PPPoE one; banned: suspended though paid up.
    expect(byUser.get('andi')).toMatchObject({ password: 'andi-pass', status: 'suspended', planKey: '4' });
    expect(finding('subscription', 'older-recharges')).toEqual([
      expect.objectContaining({ reason: expect.stringContaining('1 earlier recharge is history') }),
    ]);
    expect(finding('subscription', '6')).toEqual([expect.objectContaining({ level: 'skipped' })]);
  });

  it('transactions become paid invoices; a deleted customer’s is reported', () => {
    expect(snap.invoices.map((i) => i.key)).toEqual(['1', '2', '3', '5']);
    expect(snap.invoices[0]).toEqual({
      key: '1',
      customerKey: '1',
      subscriptionKey: null,
      description: 'Home 20M (2026-10-01 – 2026-11-01)',
      amount: 25_000_000,
      paidAt: new Date('2026-10-01T10:00:00Z'),
      method: 'Cash - Administrator',
      reference: 'INV-0001',
    });
    expect(snap.invoices[3]).toMatchObject({ customerKey: '2', description: 'Balance top-up', amount: 10_000_000 });
    expect(finding('invoice', '4')).toEqual([
      expect.objectContaining({ level: 'skipped', reason: expect.stringContaining('joko') }),
    ]);
  });

  it('unused vouchers keep their code and their plan’s terms; the used ones are one summary', () => {
    expect(snap.vouchers).toEqual([
      { key: '1', planKey: '2', code: 'NUX7K2PQR', validityMinutes: 1440, dataAllowanceMb: 1074, price: 500_000 },
      { key: '2', planKey: '2', code: 'abc123xyz', validityMinutes: 1440, dataAllowanceMb: 1074, price: 500_000 },
      { key: '4', planKey: '2', code: 'HEMAT#10', validityMinutes: 1440, dataAllowanceMb: 1074, price: 500_000 },
      { key: '5', planKey: '2', code: 'kartu2024', validityMinutes: 1440, dataAllowanceMb: 1074, price: 500_000 },
    ]);
    expect(finding('voucher', 'used')).toEqual([
      expect.objectContaining({ level: 'skipped', reason: expect.stringContaining('1 used voucher was left out') }),
    ]);
  });

  it('usage: the finished radacct sessions in batches, by their start day (UTC); the open one is left', async () => {
    expect(await snap.usageCount()).toBe(2);
    const batches: SourceUsage[][] = [];
    for await (const batch of snap.usage(1)) batches.push(batch);
    expect(batches).toEqual([
      [{ key: '101', username: 'budi', day: '2026-11-29', inputOctets: 1_500_000, outputOctets: 52_000_000 }],
      [{ key: '102', username: 'siti', day: '2026-11-30', inputOctets: 2_000_000, outputOctets: 30_000_000 }],
    ]);
  });
});
