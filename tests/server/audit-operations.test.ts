/**
 * Issue 13, the audit trail (operations): payment gateways, settings, devices, device configuration reads and
 * installations. Each change writes exactly one event with its actor, target and diff in the change's own
 * transaction: a refused change writes none, and an event that cannot be written takes its change with it.
 * Secrets appear in no event, neither as plain text nor as the masks or ciphertexts the API and table hold.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../contract/schemas/audit';
import { ManualClock } from '../../server/lib/clock';
import { rowsOf, withAuditRefused } from '../helpers/audit';
import { startRouterOsFake, type RouterOsFake } from '../helpers/routeros-fake';
import { bearer, createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

let t: TestApp;
let as: CallAs;
const clock = new ManualClock('2026-05-04T10:00:00.000Z');

beforeAll(async () => {
  t = await createTestApp({
    clock,
    config: { dataDir: mkdtempSync(join(tmpdir(), 'isp-audit-ops-')), accessTokenTtlSeconds: 30 * 86_400 },
  });
  as = await signInEveryRole(t);
});
afterAll(() => t.close());

/** The events of one target, newest first, through the admin's API. */
async function trail(targetType: string, targetId: string): Promise<AuditEvent[]> {
  const res = await as(
    'GET',
    `/audit?target_type=${targetType}&target_id=${encodeURIComponent(targetId)}&limit=200`,
    'admin',
  );
  expect(res.statusCode).toBe(200);
  return res.json().data.items;
}

/** Every event in the table, as one text (to look for secrets in). */
async function everyEvent(): Promise<string> {
  return JSON.stringify(rowsOf(await t.database.db.execute(sql`select * from audit_events`)));
}

/** How many events name targets of this type (other work's events, e.g. sign-ins, do not disturb the count). */
async function eventCount(targetType: string): Promise<number> {
  const [{ n }] = rowsOf(
    await t.database.db.execute(sql`select count(*)::int as n from audit_events where target_type = ${targetType}`),
  );
  return Number(n);
}

const GATEWAY_SECRET = 'sk_test_AUDIT_plaintext_4242_SECRETKEY';
const WEBHOOK_SECRET = 'whsec_AUDIT_plaintext_hook_7777HOOK';
const NEW_SECRET = 'sk_test_AUDIT_rotated_5555_ROTATEDKEY';

describe('payment gateways', () => {
  it('records created, updated (credentials only as changed), disabled, enabled and deleted: one event each', async () => {
    const created = await as('POST', '/payments/gateways', 'billing', {
      name: 'Stripe audited',
      provider: 'stripe',
      credentials: { secret_key: GATEWAY_SECRET, webhook_secret: WEBHOOK_SECRET },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id as string;

    expect(
      (
        await as('PUT', `/payments/gateways/${id}`, 'admin', {
          name: 'Stripe audited live',
          mode: 'live',
          credentials: { secret_key: NEW_SECRET, webhook_secret: '' },
        })
      ).statusCode,
    ).toBe(200);
    // A second gateway takes the default, so this one may be switched off and deleted.
    expect(
      (
        await as('POST', '/payments/gateways', 'admin', {
          name: 'Manual audited',
          provider: 'manual',
          is_default: true,
        })
      ).statusCode,
    ).toBe(201);
    expect((await as('PUT', `/payments/gateways/${id}`, 'billing', { is_active: false })).statusCode).toBe(200);
    expect((await as('PUT', `/payments/gateways/${id}`, 'super_admin', { is_active: true })).statusCode).toBe(200);
    const sealed = rowsOf(
      await t.database.db.execute(sql`select credentials from payment_gateways where id = ${id}`),
    )[0].credentials as string;
    expect((await as('DELETE', `/payments/gateways/${id}`, 'admin')).statusCode).toBe(200);

    const events = await trail('gateway', id);
    expect(events.map((e) => [e.action, e.actor_email, e.actor_role])).toEqual([
      ['gateway.deleted', 'admin@example.com', 'admin'],
      ['gateway.enabled', 'super_admin@example.com', 'super_admin'],
      ['gateway.disabled', 'billing@example.com', 'billing'],
      ['gateway.updated', 'admin@example.com', 'admin'],
      ['gateway.created', 'billing@example.com', 'billing'],
    ]);
    const [deleted, enabled, disabled, updated, made] = events;
    expect(made.changes).toMatchObject({
      name: { from: null, to: 'Stripe audited' },
      provider: { from: null, to: 'stripe' },
      'credentials.secret_key': { changed: true },
      'credentials.webhook_secret': { changed: true },
    });
    // Only what changed; the webhook secret sent blank was kept, so it is not in the diff.
    expect(updated.changes).toEqual({
      name: { from: 'Stripe audited', to: 'Stripe audited live' },
      mode: { from: 'test', to: 'live' },
      'credentials.secret_key': { changed: true },
    });
    expect(disabled.changes).toEqual({ is_active: { from: true, to: false } });
    expect(enabled.changes).toEqual({ is_active: { from: false, to: true } });
    expect(deleted.changes).toMatchObject({ name: { from: 'Stripe audited live', to: null } });

    const all = await everyEvent();
    for (const secret of [GATEWAY_SECRET, WEBHOOK_SECRET, NEW_SECRET, sealed, '••••'])
      expect(all).not.toContain(secret);
    for (const secret of [GATEWAY_SECRET, WEBHOOK_SECRET, NEW_SECRET]) expect(all).not.toContain(secret.slice(-8));
  });

  it('a refused change writes no event, and a change whose event cannot be written does not happen', async () => {
    const TYPE = 'gateway';
    const a = (await as('POST', '/payments/gateways', 'admin', { name: 'Gateway A', provider: 'manual' })).json().data;
    await as('POST', '/payments/gateways', 'admin', { name: 'Gateway B', provider: 'manual' });
    const before = await eventCount(TYPE);

    expect((await as('PUT', `/payments/gateways/${a.id}`, 'admin', { name: 'Gateway B' })).statusCode).toBe(409); // name taken
    expect(
      (await as('PUT', `/payments/gateways/${a.id}`, 'admin', { credentials: { secret_key: 'x' } })).statusCode,
    ).toBe(400); // not used by manual
    expect(
      (await as('POST', '/payments/gateways', 'admin', { name: 'Gateway A', provider: 'manual' })).statusCode,
    ).toBe(409);
    expect(await eventCount(TYPE)).toBe(before);

    const failed = await withAuditRefused(t.database.db, 'gateway.updated', () =>
      as('PUT', `/payments/gateways/${a.id}`, 'admin', { name: 'Gateway A renamed' }),
    );
    expect(failed.statusCode).toBe(500);
    expect((await as('GET', `/payments/gateways/${a.id}`, 'admin')).json().data.name).toBe('Gateway A');
    const toggled = await withAuditRefused(t.database.db, 'gateway.disabled', () =>
      as('PUT', `/payments/gateways/${a.id}`, 'admin', { is_active: false }),
    );
    expect(toggled.statusCode).toBe(500);
    expect((await as('GET', `/payments/gateways/${a.id}`, 'admin')).json().data.is_active).toBe(true);
    const created = await withAuditRefused(t.database.db, 'gateway.created', () =>
      as('POST', '/payments/gateways', 'admin', { name: 'Gateway C', provider: 'manual' }),
    );
    expect(created.statusCode).toBe(500);
    expect(
      (await as('GET', '/payments/gateways', 'admin')).json().data.map((g: { name: string }) => g.name),
    ).not.toContain('Gateway C');
    const removed = await withAuditRefused(t.database.db, 'gateway.deleted', () =>
      as('DELETE', `/payments/gateways/${a.id}`, 'admin'),
    );
    expect(removed.statusCode).toBe(500);
    expect((await as('GET', `/payments/gateways/${a.id}`, 'admin')).statusCode).toBe(200);
    expect(await eventCount(TYPE)).toBe(before);
  });
});

const SMTP_PASSWORD = 'smtp-AUDIT-plaintext-pass-31337';

describe('settings', () => {
  it('records one settings.updated event per changed section with the changed keys; the SMTP password only as changed', async () => {
    const res = await as('PUT', '/settings', 'admin', {
      company: { name: 'Audited ISP', social: { twitter: 'https://twitter.com/audited' } },
      currency: 'EUR',
      billing: { grace_days: 10 },
      smtp: { host: 'smtp.example.com', password: SMTP_PASSWORD },
      policies: { 'refund-policy': '# Refunds\n\nWithin 30 days.' },
    });
    expect(res.statusCode).toBe(200);
    const company = await trail('settings', 'company');
    expect(company).toHaveLength(1);
    expect(company[0]).toMatchObject({
      action: 'settings.updated',
      actor_email: 'admin@example.com',
      actor_role: 'admin',
    });
    expect(company[0].changes).toEqual({
      name: { from: 'ISP Portal', to: 'Audited ISP' },
      'social.twitter': { from: '', to: 'https://twitter.com/audited' },
    });
    expect((await trail('settings', 'currency'))[0].changes).toEqual({ currency: { from: 'USD', to: 'EUR' } });
    expect((await trail('settings', 'billing'))[0].changes).toEqual({ grace_days: { from: 7, to: 10 } });
    expect((await trail('settings', 'smtp'))[0].changes).toEqual({
      host: { from: '', to: 'smtp.example.com' },
      password: { changed: true },
    });
    const policies = (await trail('settings', 'policies'))[0].changes!;
    expect(Object.keys(policies)).toEqual(['refund-policy']);
    expect(policies['refund-policy']).toMatchObject({ to: '# Refunds\n\nWithin 30 days.' });

    // The whole form saved again with one change (as the settings page does): only that section is recorded.
    clock.advanceHours(1);
    const current = (await as('GET', '/settings', 'admin')).json().data;
    const { logo_url: _logo, ...companyNow } = current.company;
    const { password_set: _set, ...smtpNow } = current.smtp;
    const again = await as('PUT', '/settings', 'super_admin', {
      company: companyNow,
      currency: current.currency,
      tax_rate_bp: 750,
      achievements: current.achievements,
      faq: current.faq,
      coverage_areas: current.coverage_areas,
      billing: current.billing,
      smtp: { ...smtpNow, password: '' },
      policies: current.policies,
    });
    expect(again.statusCode).toBe(200);
    const sinceSave = await as(
      'GET',
      `/audit?action=settings.updated&from=${encodeURIComponent(clock.now().toISOString())}`,
      'admin',
    );
    expect(
      sinceSave
        .json()
        .data.items.filter((e: AuditEvent) => e.actor_role === 'super_admin')
        .map((e: AuditEvent) => [e.target_id, e.changes]),
    ).toEqual([['tax_rate_bp', { tax_rate_bp: { from: 0, to: 750 } }]]);

    // A new password and then none: recorded as changed each time, never the text.
    expect((await as('PUT', '/settings', 'admin', { smtp: { password: `${SMTP_PASSWORD}-2` } })).statusCode).toBe(200);
    expect((await as('PUT', '/settings', 'admin', { smtp: { password: null } })).statusCode).toBe(200);
    expect((await trail('settings', 'smtp')).map((e) => e.changes)).toEqual([
      { password: { changed: true } },
      { password: { changed: true } },
      { host: { from: '', to: 'smtp.example.com' }, password: { changed: true } },
    ]);
    const all = await everyEvent();
    expect(all).not.toContain(SMTP_PASSWORD);
  });

  it('records a logo upload as a change of the logo section', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
    const boundary = '----auditlogo';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const { token } = await t.login('admin@example.com');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/settings/logo',
      headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode).toBe(200);
    const [logo] = await trail('settings', 'logo');
    expect(logo).toMatchObject({
      action: 'settings.updated',
      actor_role: 'admin',
      changes: { file: { from: null }, content_type: { from: null, to: 'image/png' } },
    });
  });

  it('a refused change writes no event, and a change whose event cannot be written does not happen', async () => {
    const TYPE = 'settings';
    const before = await eventCount(TYPE);
    expect((await as('PUT', '/settings', 'admin', { currency: 'EURO' })).statusCode).toBe(400);
    expect(
      (await as('PUT', '/settings', 'admin', { company: { name: 'Never saved' }, billing: { grace_days: 500 } }))
        .statusCode,
    ).toBe(400);
    expect((await as('PUT', '/settings', 'support', { currency: 'GBP' })).statusCode).toBe(403);
    expect(await eventCount(TYPE)).toBe(before);

    const failed = await withAuditRefused(t.database.db, 'settings.updated', () =>
      as('PUT', '/settings', 'admin', { currency: 'GBP', company: { name: 'Rolled back' } }),
    );
    expect(failed.statusCode).toBe(500);
    const now = (await as('GET', '/settings', 'admin')).json().data;
    expect(now.currency).toBe('EUR');
    expect(now.company.name).toBe('Audited ISP');
    expect(await eventCount(TYPE)).toBe(before);
  });
});

const COMMUNITY = 'snmp-AUDIT-community-8080';
const API_PASSWORD = 'routeros-AUDIT-pass-6060';
const RADIUS_SECRET = 'radius-AUDIT-secret-4040';
/** What the fake router's export holds (tests/helpers/routeros-fake.ts). */
const CONFIG_SECRETS = ['Sup3rS3cretPsk', 'RadiusShared123', 'alicePw42', 'BackupPw!9'];

describe('devices', () => {
  it('records created, updated (secrets only as changed) and deleted: one event each', async () => {
    const created = await as('POST', '/devices', 'admin', {
      name: 'audit-core-1',
      host: '192.0.2.10',
      snmp_community: COMMUNITY,
      api_type: 'rest',
      api_username: 'portal',
      api_password: API_PASSWORD,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    // A new location and RADIUS secret; the community sent masked (as the form does) keeps the stored one.
    const updated = await as('PUT', `/devices/${id}`, 'super_admin', {
      location: 'Rack 4',
      radius_secret: RADIUS_SECRET,
      snmp_community: '••••8080',
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await as('PUT', `/devices/${id}`, 'admin', { api_type: null })).statusCode).toBe(200); // drops the API user and password
    expect((await as('DELETE', `/devices/${id}`, 'admin')).statusCode).toBe(200);

    const events = await trail('device', id);
    expect(events.map((e) => [e.action, e.actor_email, e.actor_role])).toEqual([
      ['device.deleted', 'admin@example.com', 'admin'],
      ['device.updated', 'admin@example.com', 'admin'],
      ['device.updated', 'super_admin@example.com', 'super_admin'],
      ['device.created', 'admin@example.com', 'admin'],
    ]);
    const [deleted, dropped, located, made] = events;
    expect(made.changes).toMatchObject({
      name: { from: null, to: 'audit-core-1' },
      host: { from: null, to: '192.0.2.10' },
      api_type: { from: null, to: 'rest' },
      snmp_community: { changed: true },
      api_password: { changed: true },
    });
    expect(made.changes).not.toHaveProperty('radius_secret');
    expect(located.changes).toEqual({ location: { from: null, to: 'Rack 4' }, radius_secret: { changed: true } });
    expect(dropped.changes).toEqual({
      api_type: { from: 'rest', to: null },
      api_username: { from: 'portal', to: null },
      api_password: { changed: true },
    });
    expect(deleted.changes).toMatchObject({
      name: { from: 'audit-core-1', to: null },
      snmp_community: { changed: true },
      radius_secret: { changed: true },
    });

    const all = await everyEvent();
    // Neither the secrets nor their last-4 masks (the form sends one back to keep a secret).
    for (const secret of [COMMUNITY, API_PASSWORD, RADIUS_SECRET, '••••']) expect(all).not.toContain(secret);
  });

  it('a refused change writes no event, and a change whose event cannot be written does not happen', async () => {
    const TYPE = 'device';
    const a = (
      await as('POST', '/devices', 'admin', { name: 'audit-a', host: '192.0.2.11', snmp_community: COMMUNITY })
    ).json().data;
    await as('POST', '/devices', 'admin', { name: 'audit-b', host: '192.0.2.12', snmp_community: COMMUNITY });
    const before = await eventCount(TYPE);

    expect((await as('PUT', `/devices/${a.id}`, 'admin', { name: 'audit-b' })).statusCode).toBe(409); // name taken
    expect((await as('PUT', `/devices/${a.id}`, 'admin', { api_type: 'rest' })).statusCode).toBe(400); // no API user or password
    expect((await as('POST', '/devices', 'admin', { name: 'audit-c', host: '192.0.2.13' })).statusCode).toBe(400); // no community
    expect((await as('PUT', `/devices/${a.id}`, 'technician', { location: 'Nope' })).statusCode).toBe(403);
    expect(await eventCount(TYPE)).toBe(before);

    expect(
      (
        await withAuditRefused(t.database.db, 'device.updated', () =>
          as('PUT', `/devices/${a.id}`, 'admin', { location: 'Rolled back' }),
        )
      ).statusCode,
    ).toBe(500);
    expect((await as('GET', `/devices/${a.id}`, 'admin')).json().data.location).toBeNull();
    expect(
      (
        await withAuditRefused(t.database.db, 'device.created', () =>
          as('POST', '/devices', 'admin', { name: 'audit-d', host: '192.0.2.14', snmp_community: COMMUNITY }),
        )
      ).statusCode,
    ).toBe(500);
    expect((await as('GET', '/devices?search=audit-d', 'admin')).json().data.items).toHaveLength(0);
    expect(
      (await withAuditRefused(t.database.db, 'device.deleted', () => as('DELETE', `/devices/${a.id}`, 'admin')))
        .statusCode,
    ).toBe(500);
    expect((await as('GET', `/devices/${a.id}`, 'admin')).statusCode).toBe(200);
    expect(await eventCount(TYPE)).toBe(before);
  });
});

describe('device configuration reads', () => {
  let router: RouterOsFake;
  beforeAll(async () => {
    router = await startRouterOsFake();
  });
  afterAll(() => router.stop());

  it('records who viewed the running or a stored configuration, compared two versions and downloaded one', async () => {
    const device = await as('POST', '/devices', 'admin', {
      name: 'audit-router',
      vendor: 'mikrotik',
      host: '127.0.0.1',
      snmp_community: COMMUNITY,
      api_type: 'rest',
      api_port: router.connection.port,
      api_tls: false,
      api_username: router.username,
      api_password: router.password,
    });
    expect(device.statusCode, device.body).toBe(201);
    const id = device.json().data.id as string;
    const backUp = async () => {
      expect((await as('POST', `/devices/${id}/backups`, 'admin')).statusCode).toBe(202);
      await t.app.jobs.idle();
    };
    await backUp();
    router.exportText = `${router.exportText}\n/system identity set name=audit-router`;
    await backUp();
    const [v2, v1] = (await as('GET', `/devices/${id}/backups`, 'admin')).json().data.items as Array<{
      id: string;
      version: number;
    }>;
    expect([v1.version, v2.version]).toEqual([1, 2]);

    expect((await as('GET', `/devices/${id}/config`, 'admin')).statusCode).toBe(200);
    expect((await as('GET', `/devices/${id}/backups/${v1.id}`, 'super_admin')).statusCode).toBe(200);
    expect((await as('GET', `/devices/${id}/backups/diff?from=${v1.id}&to=${v2.id}`, 'admin')).statusCode).toBe(200);
    const download = await as('GET', `/devices/${id}/backups/${v2.id}/download`, 'super_admin');
    expect(download.statusCode).toBe(200);
    expect(download.body).toContain('Sup3rS3cretPsk'); // the download is the export as stored

    const reads = (await trail('device', id)).filter((e) => e.action.startsWith('device_config.'));
    expect(reads.map((e) => [e.action, e.actor_email, e.actor_role, e.changes])).toEqual([
      ['device_config.downloaded', 'super_admin@example.com', 'super_admin', { backup_id: v2.id, version: 2 }],
      [
        'device_config.diff_viewed',
        'admin@example.com',
        'admin',
        { from_backup_id: v1.id, from_version: 1, to_backup_id: v2.id, to_version: 2 },
      ],
      [
        'device_config.viewed',
        'super_admin@example.com',
        'super_admin',
        { source: 'backup', backup_id: v1.id, version: 1 },
      ],
      ['device_config.viewed', 'admin@example.com', 'admin', { source: 'running', matches_backup_version: 2 }],
    ]);

    // Reads that fail or are refused record nothing; a read that cannot be recorded is not answered.
    const before = await eventCount('device');
    router.fail = '401';
    expect((await as('GET', `/devices/${id}/config`, 'admin')).statusCode).toBe(502);
    router.fail = null;
    expect((await as('GET', `/devices/${id}/backups/${v1.id}`, 'support')).statusCode).toBe(403);
    expect(
      (await as('GET', `/devices/${id}/backups/00000000-0000-4000-8000-000000000000/download`, 'admin')).statusCode,
    ).toBe(404);
    const unrecorded = await withAuditRefused(t.database.db, 'device_config.downloaded', () =>
      as('GET', `/devices/${id}/backups/${v2.id}/download`, 'admin'),
    );
    expect(unrecorded.statusCode).toBe(500);
    expect(unrecorded.body).not.toContain('Sup3rS3cretPsk');
    expect(await eventCount('device')).toBe(before);

    const all = await everyEvent();
    for (const secret of [...CONFIG_SECRETS, router.password]) expect(all).not.toContain(secret);
  });
});

describe('installations', () => {
  const slot = { scheduled_start: '2026-05-06T09:00:00.000Z', scheduled_end: '2026-05-06T11:00:00.000Z' };
  let technicianId: string;
  let planId: string;

  let customers = 0;
  /**
   * A new customer's subscription with a location, and the installation job it gets (requested). A new customer
   * each time: a customer may have only one open order at a time (issue 31).
   */
  const newJob = async (location: string): Promise<string> => {
    const email = `customer${++customers}@example.com`;
    await t.createUser({ email });
    const { token } = await t.login(email);
    const sub = await t.app.inject({
      method: 'POST',
      url: '/api/subscriptions',
      headers: bearer(token),
      payload: { plan_id: planId, location },
    });
    expect(sub.statusCode, sub.body).toBe(201);
    const list = (await as('GET', '/installations?limit=200', 'admin')).json().data.items as Array<{
      id: string;
      subscription_id: string;
    }>;
    return list.find((i) => i.subscription_id === sub.json().data.subscription.id)!.id;
  };

  beforeAll(async () => {
    technicianId = (await t.app.users.findByEmail('technician@example.com'))!.id;
    planId = (
      await as('POST', '/plans', 'admin', {
        name: 'Audit Fiber',
        download_mbps: 100,
        upload_mbps: 20,
        price: 3000,
        billing_cycle: 'monthly',
      })
    ).json().data.id;
  });

  it('records assignments and every status change with who made it', async () => {
    const id = await newJob('7 Audit Lane');
    expect(
      (await as('PATCH', `/installations/${id}/assign`, 'support', { technician_id: technicianId, ...slot }))
        .statusCode,
    ).toBe(200);
    expect((await as('PATCH', `/installations/${id}/status`, 'technician', { status: 'en_route' })).statusCode).toBe(
      200,
    );
    expect(
      (
        await as('PATCH', `/installations/${id}/status`, 'technician', {
          status: 'failed',
          failure_reason: 'Nobody home',
        })
      ).statusCode,
    ).toBe(200);
    expect((await as('PATCH', `/installations/${id}/status`, 'admin', { status: 'cancelled' })).statusCode).toBe(200);

    const events = await trail('installation', id);
    expect(events.map((e) => [e.action, e.actor_email, e.actor_role, e.changes])).toEqual([
      ['installation.status_changed', 'admin@example.com', 'admin', { status: { from: 'failed', to: 'cancelled' } }],
      [
        'installation.status_changed',
        'technician@example.com',
        'technician',
        { status: { from: 'en_route', to: 'failed' }, failure_reason: { from: null, to: 'Nobody home' } },
      ],
      [
        'installation.status_changed',
        'technician@example.com',
        'technician',
        { status: { from: 'scheduled', to: 'en_route' } },
      ],
      [
        'installation.assigned',
        'support@example.com',
        'support',
        {
          technician_id: { from: null, to: technicianId },
          scheduled_start: { from: null, to: slot.scheduled_start },
          scheduled_end: { from: null, to: slot.scheduled_end },
          status: { from: 'requested', to: 'scheduled' },
        },
      ],
    ]);
  });

  it('records an unassignment (a scheduled job goes back to requested)', async () => {
    const id = await newJob('8 Audit Lane');
    await as('PATCH', `/installations/${id}/assign`, 'admin', { technician_id: technicianId, ...slot });
    expect((await as('PATCH', `/installations/${id}/assign`, 'admin', { technician_id: null })).statusCode).toBe(200);
    const [unassigned] = await trail('installation', id);
    expect(unassigned).toMatchObject({
      action: 'installation.unassigned',
      actor_role: 'admin',
      changes: { technician_id: { from: technicianId, to: null }, status: { from: 'scheduled', to: 'requested' } },
    });
  });

  it('a refused change writes no event, and a change whose event cannot be written does not happen', async () => {
    const TYPE = 'installation';
    const id = await newJob('9 Audit Lane');
    const before = await eventCount(TYPE);
    expect((await as('PATCH', `/installations/${id}/status`, 'admin', { status: 'completed' })).statusCode).toBe(409); // not from requested
    expect((await as('PATCH', `/installations/${id}/status`, 'admin', { status: 'scheduled' })).statusCode).toBe(400); // no technician yet
    expect(
      (
        await as('PATCH', `/installations/${id}/assign`, 'admin', {
          technician_id: (await t.app.users.findByEmail('billing@example.com'))!.id,
        })
      ).statusCode,
    ).toBe(400);
    expect((await as('PATCH', `/installations/${id}/status`, 'technician', { status: 'cancelled' })).statusCode).toBe(
      404,
    ); // not their job
    expect(await eventCount(TYPE)).toBe(before);

    expect(
      (
        await withAuditRefused(t.database.db, 'installation.status_changed', () =>
          as('PATCH', `/installations/${id}/status`, 'admin', { status: 'cancelled' }),
        )
      ).statusCode,
    ).toBe(500);
    expect(
      (
        await withAuditRefused(t.database.db, 'installation.assigned', () =>
          as('PATCH', `/installations/${id}/assign`, 'admin', { technician_id: technicianId, ...slot }),
        )
      ).statusCode,
    ).toBe(500);
    const job = (await as('GET', `/installations/${id}`, 'admin')).json().data;
    expect(job).toMatchObject({ status: 'requested', technician_id: null, scheduled_start: null });
    expect(await eventCount(TYPE)).toBe(before);
  });
});
