/**
 * Issue 13, the audit trail (first part): events for sign-ins, plan changes and backups, written with the change
 * they record; GET /api/audit for admins with filters, pagination and CSV; the table refuses changes.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../contract/schemas/audit';
import { ManualClock } from '../../server/lib/clock';
import { createTestApp, signInEveryRole, TEST_PASSWORD, type CallAs, type TestApp } from '../helpers/server';

let t: TestApp;
let as: CallAs;
const clock = new ManualClock('2026-05-04T10:00:00.000Z');

beforeAll(async () => {
  t = await createTestApp({
    clock,
    config: { dataDir: mkdtempSync(join(tmpdir(), 'isp-audit-')), accessTokenTtlSeconds: 30 * 86_400 },
  });
  as = await signInEveryRole(t);
});
afterAll(() => t.close());

async function events(query = ''): Promise<AuditEvent[]> {
  const res = await as('GET', `/audit${query}`, 'admin');
  expect(res.statusCode).toBe(200);
  return res.json().data.items;
}

const PLAN = { name: 'Fiber 300', download_mbps: 300, upload_mbps: 100, price: 4900, billing_cycle: 'monthly' };

describe('the audit trail', () => {
  it('records sign-ins and failed attempts with the account, role and address', async () => {
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'billing@example.com', password: TEST_PASSWORD, rememberMe: false },
      remoteAddress: '198.51.100.9',
    });
    expect(ok.statusCode).toBe(200);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'Billing@Example.com', password: 'wrong-password', rememberMe: false },
      remoteAddress: '198.51.100.9',
    });
    expect(bad.statusCode).toBe(401);

    const [failed] = await events('?action=auth.sign_in_failed');
    expect(failed).toMatchObject({
      actor_id: null,
      actor_email: 'billing@example.com',
      actor_role: 'anonymous',
      ip: '198.51.100.9',
    });
    const signedIn = (await events('?action=auth.signed_in')).find((e) => e.ip === '198.51.100.9')!;
    expect(signedIn).toMatchObject({ actor_email: 'billing@example.com', actor_role: 'billing', target_type: 'user' });
    expect(signedIn.request_id).toBeTruthy();
    expect(JSON.stringify(await events())).not.toContain('wrong-password');
  });

  it('records a plan created, its price changed, switched off and deleted: one event each, with the diff', async () => {
    const created = await as('POST', '/plans', 'billing', PLAN);
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    expect((await as('PUT', `/plans/${id}`, 'admin', { price: 5900 })).statusCode).toBe(200);
    expect((await as('PUT', `/plans/${id}`, 'admin', { status: 'inactive' })).statusCode).toBe(200);
    expect((await as('DELETE', `/plans/${id}`, 'admin')).statusCode).toBe(200);

    const trail = await events(`?target_type=plan&target_id=${id}`);
    expect(trail.map((e) => e.action)).toEqual(['plan.deleted', 'plan.deactivated', 'plan.updated', 'plan.created']);
    expect(trail[3]).toMatchObject({ actor_email: 'billing@example.com', actor_role: 'billing' });
    expect(trail[3].changes).toMatchObject({ name: { from: null, to: 'Fiber 300' }, price: { from: null, to: 4900 } });
    expect(trail[2]).toMatchObject({
      actor_email: 'admin@example.com',
      actor_role: 'admin',
      changes: { price: { from: 4900, to: 5900 } },
    });
    expect(Object.keys(trail[2].changes!)).toEqual(['price']);
    expect(trail[1].changes).toEqual({ status: { from: 'active', to: 'inactive' } });
    expect(trail[0].changes).toMatchObject({ name: { from: 'Fiber 300', to: null } });
  });

  it('a change that fails writes no event', async () => {
    const a = (await as('POST', '/plans', 'admin', { ...PLAN, name: 'Plan A', slug: 'plan-a' })).json().data;
    await as('POST', '/plans', 'admin', { ...PLAN, name: 'Plan B', slug: 'plan-b' });
    const before = (await events(`?target_id=${a.id}`)).length;
    // The slug is taken: refused (409) inside the transaction, so no event for it either.
    const refused = await as('PUT', `/plans/${a.id}`, 'admin', { slug: 'plan-b' });
    expect(refused.statusCode).toBe(409);
    expect(await events(`?target_id=${a.id}`)).toHaveLength(before);
  });

  it('records backups taken and downloaded by an admin', async () => {
    const made = await as('POST', '/backups', 'admin');
    expect(made.statusCode).toBe(201);
    const { name, download_url } = made.json().data;
    expect((await as('GET', download_url.replace(/^\/api/, ''), 'super_admin')).statusCode).toBe(200);
    const trail = await events(`?target_type=backup&target_id=${name}`);
    expect(trail.map((e) => [e.action, e.actor_role])).toEqual([
      ['backup.downloaded', 'super_admin'],
      ['backup.taken', 'admin'],
    ]);
  });

  it('records API tokens created and revoked, never their secret', async () => {
    const made = await as('POST', '/api-tokens', 'admin', { name: 'Billing sync', role: 'billing' });
    expect(made.statusCode).toBe(201);
    const { id, secret } = made.json().data;
    expect((await as('DELETE', `/api-tokens/${id}`, 'admin')).statusCode).toBe(200);
    const trail = await events(`?target_type=api_token&target_id=${id}`);
    expect(trail.map((e) => e.action)).toEqual(['api_token.revoked', 'api_token.created']);
    expect(trail[1].changes).toMatchObject({
      name: { to: 'Billing sync' },
      role: { to: 'billing' },
      secret: { changed: true },
    });
    expect(trail[0].changes).toMatchObject({ status: { from: 'active', to: 'revoked' } });
    expect(JSON.stringify(await events('?limit=200'))).not.toContain(secret.slice(4));
  });

  it('is for admins only, filters by actor and time, pages, and exports CSV', async () => {
    for (const role of ['support', 'billing', 'technician', 'user'] as const)
      expect([role, (await as('GET', '/audit', role)).statusCode]).toEqual([role, 403]);
    expect((await t.app.inject({ method: 'GET', url: '/api/audit' })).statusCode).toBe(401);

    const admin = await t.app.users.findByEmail('admin@example.com');
    const mine = await events(`?actor_id=${admin!.id}&limit=200`);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e) => e.actor_id === admin!.id)).toBe(true);

    const paged = (await as('GET', '/audit?limit=2&page=2', 'admin')).json().data;
    expect(paged.items).toHaveLength(2);
    expect(paged.pagination).toMatchObject({ page: 2, hasPrev: true });

    clock.advanceHours(2);
    await as('POST', '/plans', 'admin', { ...PLAN, name: 'Later plan' });
    const later = await events(`?from=${encodeURIComponent(new Date(clock.now().getTime() - 60_000).toISOString())}`);
    expect(later.map((e) => e.action)).toEqual(['plan.created']);

    const csv = await as('GET', '/audit?format=csv&action=plan.created', 'admin');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).toBe('at,actor_email,actor_role,actor_id,action,target_type,target_id,changes,ip,request_id');
    expect(lines.length - 1).toBe((await events('?action=plan.created&limit=200')).length);
    expect(csv.body).toContain('"Later plan"'.replace(/"/g, '""'));

    expect((await as('GET', '/audit?from=yesterday', 'admin')).statusCode).toBe(400);
  });

  it('no query can change or delete an event', async () => {
    const refusal = (query: Promise<unknown>) =>
      query.then(
        () => 'done',
        (e: Error & { cause?: Error }) => `${e.message} ${e.cause?.message ?? ''}`,
      );
    expect(await refusal(t.database.db.execute(sql`update audit_events set action = 'x'`))).toMatch(
      /append-only \(UPDATE refused\)/,
    );
    expect(await refusal(t.database.db.execute(sql`delete from audit_events`))).toMatch(
      /append-only \(DELETE refused\)/,
    );
    expect((await events()).length).toBeGreaterThan(0);
  });
});
