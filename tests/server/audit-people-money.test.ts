/**
 * Issue 13, the audit trail (people and money): user management, passwords and sessions, subscriptions,
 * invoices and payments. Each change writes exactly one event with its actor, target and diff in the change's
 * own transaction (an event the database refuses takes its change with it); passwords appear in no event.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../contract/schemas/audit';
import { buildSandboxWebhook } from '../../server/integrations/payments/sandbox';
import { ManualClock } from '../../server/lib/clock';
import { rowsOf, withAuditRefused } from '../helpers/audit';
import { recordAudit, SYSTEM } from '../../server/modules/audit/trail';
import {
  createTestApp,
  linkIn,
  refreshCookieHeader,
  signInEveryRole,
  TEST_PASSWORD,
  type CallAs,
  type TestApp,
} from '../helpers/server';

let t: TestApp;
let as: CallAs;
const clock = new ManualClock('2026-06-01T09:00:00.000Z');
const WEBHOOK_SECRET = 'whsec_audit_people_money_secret';
let planId: string;
let biggerPlanId: string;

beforeAll(async () => {
  t = await createTestApp({
    clock,
    config: { dataDir: mkdtempSync(join(tmpdir(), 'isp-audit-pm-')), accessTokenTtlSeconds: 30 * 86_400 },
  });
  as = await signInEveryRole(t);
  expect(
    (
      await as('POST', '/payments/gateways', 'admin', {
        name: 'Sandbox',
        provider: 'sandbox',
        credentials: { webhook_secret: WEBHOOK_SECRET },
        is_default: true,
      })
    ).statusCode,
  ).toBe(201);
  planId = (
    await as('POST', '/plans', 'admin', {
      name: 'Fiber 100',
      download_mbps: 100,
      upload_mbps: 20,
      price: 3000,
      billing_cycle: 'monthly',
    })
  ).json().data.id;
  biggerPlanId = (
    await as('POST', '/plans', 'admin', {
      name: 'Fiber 500',
      download_mbps: 500,
      upload_mbps: 100,
      price: 6000,
      billing_cycle: 'monthly',
    })
  ).json().data.id;
});
afterAll(() => t.close());

async function trail(targetType: string, targetId: string): Promise<AuditEvent[]> {
  const res = await as(
    'GET',
    `/audit?target_type=${targetType}&target_id=${encodeURIComponent(targetId)}&limit=200`,
    'admin',
  );
  expect(res.statusCode).toBe(200);
  return res.json().data.items;
}

async function eventCount(action: string): Promise<number> {
  const [{ n }] = rowsOf(
    await t.database.db.execute(sql`select count(*)::int as n from audit_events where action = ${action}`),
  );
  return Number(n);
}

function webhook(event: {
  type: 'payment.succeeded' | 'payment.refunded';
  transactionId: string;
  amount?: number;
  currency?: string;
  id?: string;
}) {
  const w = buildSandboxWebhook(event, WEBHOOK_SECRET, Math.floor(t.clock.now().getTime() / 1000));
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/webhooks/sandbox',
    headers: w.headers,
    payload: w.body,
    remoteAddress: '203.0.113.50',
  });
}

describe('users', () => {
  it('records created, updated, role changed, suspended, password reset and deleted: one event each, never the password', async () => {
    const password = 'Audited-Pass-4711';
    const created = await as('POST', '/users', 'admin', {
      name: 'Ada Field',
      email: 'ada.field@example.com',
      password,
      role: 'user',
      status: 'active',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    expect((await as('PUT', `/users/${id}`, 'admin', { phone: '+1 555 0100' })).statusCode).toBe(200);
    expect((await as('PUT', `/users/${id}`, 'admin', { role: 'technician', name: 'Ada Fielding' })).statusCode).toBe(
      200,
    );
    // Nothing changes: nothing to record.
    expect((await as('PUT', `/users/${id}`, 'admin', { name: 'Ada Fielding' })).statusCode).toBe(200);
    expect((await as('PATCH', `/users/${id}/status`, 'support', { status: 'suspended' })).statusCode).toBe(403); // support may not manage staff
    expect((await as('PATCH', `/users/${id}/status`, 'admin', { status: 'suspended' })).statusCode).toBe(200);
    const newPassword = 'Reset-By-Admin-8842';
    expect((await as('PATCH', `/users/${id}/password`, 'admin', { newPassword })).statusCode).toBe(200);
    expect((await as('DELETE', `/users/${id}`, 'super_admin')).statusCode).toBe(200);

    const events = await trail('user', id);
    expect(events.map((e) => e.action)).toEqual([
      'user.deleted',
      'user.password_reset',
      'user.status_changed',
      'user.role_changed',
      'user.updated',
      'user.created',
    ]);
    const [deleted, reset, status, role, updated, made] = events;
    expect(made).toMatchObject({
      actor_email: 'admin@example.com',
      actor_role: 'admin',
      target_type: 'user',
      target_id: id,
    });
    expect(made.changes).toMatchObject({
      email: { from: null, to: 'ada.field@example.com' },
      role: { from: null, to: 'user' },
      password: { changed: true },
    });
    expect(updated.changes).toEqual({ phone: { from: null, to: '+1 555 0100' } });
    expect(role.changes).toEqual({
      role: { from: 'user', to: 'technician' },
      name: { from: 'Ada Field', to: 'Ada Fielding' },
    });
    expect(status.changes).toEqual({ status: { from: 'active', to: 'suspended' } });
    expect(reset.changes).toEqual({ password: { changed: true } });
    expect(deleted).toMatchObject({ actor_email: 'super_admin@example.com', actor_role: 'super_admin' });
    expect(deleted.changes).toMatchObject({ email: { from: 'ada.field@example.com', to: null } });
    // Fields empty on both sides (no company, no last login) are not listed as "changed".
    for (const e of [made, deleted])
      expect(Object.values(e.changes as Record<string, unknown>)).not.toContainEqual({ from: null, to: null });

    const all = JSON.stringify(rowsOf(await t.database.db.execute(sql`select * from audit_events`)));
    expect(all).not.toContain(password);
    expect(all).not.toContain(newPassword);
    expect(all).not.toContain('$argon2');
  });

  it('a change whose event cannot be written is not made either', async () => {
    const u = await t.createUser({ email: 'kept.active@example.com' });
    const refused = await withAuditRefused(t.database.db, 'user.status_changed', () =>
      as('PATCH', `/users/${u.id}/status`, 'admin', { status: 'disabled' }),
    );
    expect(refused.statusCode).toBe(500);
    expect((await as('GET', `/users/${u.id}`, 'admin')).json().data.status).toBe('active');
    expect(await trail('user', u.id)).toEqual([]);
    // A refused change (a duplicate e-mail) writes nothing.
    const before = await eventCount('user.created');
    expect(
      (
        await as('POST', '/users', 'admin', {
          name: 'Twin',
          email: 'kept.active@example.com',
          password: 'Another-Pass-123',
          role: 'user',
          status: 'active',
        })
      ).statusCode,
    ).toBe(409);
    expect(await eventCount('user.created')).toBe(before);
  });
});

describe('passwords and sessions', () => {
  it('records a password change and a reset through the e-mailed link, by the account itself', async () => {
    const u = await t.createUser({ email: 'self.service@example.com' });
    const signedIn = await t.login('self.service@example.com');
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: { authorization: `Bearer ${signedIn.token}`, cookie: signedIn.cookie },
      payload: {
        currentPassword: TEST_PASSWORD,
        newPassword: 'Changed-Pass-5521',
        confirmPassword: 'Changed-Pass-5521',
      },
      remoteAddress: '192.0.2.33',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    // A wrong current password changes nothing and records nothing (the change ended the old access token).
    const again = await t.login('self.service@example.com', 'Changed-Pass-5521');
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: { authorization: `Bearer ${again.token}` },
      payload: {
        currentPassword: 'not-the-password',
        newPassword: 'Other-Pass-9912',
        confirmPassword: 'Other-Pass-9912',
      },
    });
    expect(wrong.statusCode).toBe(400);

    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/forgot-password',
          payload: { email: 'self.service@example.com' },
        })
      ).statusCode,
    ).toBe(200);
    const { token } = linkIn(await t.lastMailTo('self.service@example.com'));
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'From-Link-7733', confirmPassword: 'From-Link-7733' },
      remoteAddress: '192.0.2.34',
    });
    expect(reset.statusCode, reset.body).toBe(200);

    const events = (await trail('user', u.id)).filter((e) => e.action !== 'auth.signed_in');
    expect(events.map((e) => e.action)).toEqual(['auth.password_reset', 'auth.password_changed']);
    expect(events[1]).toMatchObject({
      actor_id: u.id,
      actor_email: 'self.service@example.com',
      actor_role: 'user',
      ip: '192.0.2.33',
      changes: { password: { changed: true } },
    });
    expect(events[0]).toMatchObject({
      actor_id: u.id,
      actor_email: 'self.service@example.com',
      ip: '192.0.2.34',
      changes: { password: { changed: true } },
    });
    const all = JSON.stringify(events);
    expect(all).not.toContain('Changed-Pass-5521');
    expect(all).not.toContain('From-Link-7733');
    expect(all).not.toContain(token);
  });

  it('records a refresh token presented again (copied): once, naming the account whose sessions ended', async () => {
    const u = await t.createUser({ email: 'copied.cookie@example.com' });
    const signedIn = await t.login('copied.cookie@example.com');
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh-token',
      headers: { cookie: signedIn.cookie },
    });
    expect(first.statusCode).toBe(200);
    // The old cookie again (a copy): refused, the family revoked, the event written.
    const replay = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh-token',
      headers: { cookie: signedIn.cookie },
      remoteAddress: '198.51.100.66',
    });
    expect(replay.statusCode).toBe(401);
    // The family is over: the newest cookie no longer works either, and its refusal is not another reuse.
    const after = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh-token',
      headers: { cookie: refreshCookieHeader(first) },
    });
    expect(after.statusCode).toBe(401);
    const events = (await trail('user', u.id)).filter((e) => e.action === 'auth.refresh_token_reused');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor_id: null,
      actor_email: 'copied.cookie@example.com',
      actor_role: 'anonymous',
      ip: '198.51.100.66',
    });
  });
});

describe('subscriptions, invoices and payments', () => {
  it('records a subscription created, paid by hand, suspended, reactivated, upgraded, renewed and cancelled', async () => {
    const customer = await t.createUser({ email: 'sub.customer@example.com' });
    const created = await as('POST', '/subscriptions', 'billing', { plan_id: planId, user_id: customer.id });
    expect(created.statusCode, created.body).toBe(201);
    const { subscription, invoice } = created.json().data as {
      subscription: { id: string };
      invoice: { id: string; number: string; total_amount: number };
    };
    const paid = await as('POST', `/payments/invoices/${invoice.id}/manual`, 'billing', {
      amount: invoice.total_amount,
      payment_method: 'cash',
      reference: 'Receipt 0042',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const paymentId = paid.json().data.id as string;
    expect(
      (
        await as('PATCH', `/subscriptions/${subscription.id}/status`, 'admin', {
          status: 'suspended',
          suspension_reason: 'Unpaid balance',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await as('PATCH', `/subscriptions/${subscription.id}/status`, 'admin', { status: 'active' })).statusCode,
    ).toBe(200);
    const upgraded = await as('PATCH', `/subscriptions/${subscription.id}/upgrade`, 'billing', {
      plan_id: biggerPlanId,
    });
    expect(upgraded.statusCode, upgraded.body).toBe(200);
    const renewed = await as('PATCH', `/subscriptions/${subscription.id}/renew`, 'billing');
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(
      (
        await as('POST', `/subscriptions/${subscription.id}/cancel`, 'admin', {
          immediate: true,
          suspension_reason: 'Moving away',
        })
      ).statusCode,
    ).toBe(200);

    const events = await trail('subscription', subscription.id);
    expect(events.map((e) => e.action)).toEqual([
      'subscription.cancelled',
      'subscription.renewed',
      'subscription.upgraded',
      'subscription.status_changed',
      'subscription.status_changed',
      'subscription.created',
    ]);
    const [cancelled, renewal, upgrade, reactivated, suspended, made] = events;
    expect(made).toMatchObject({ actor_email: 'billing@example.com', actor_role: 'billing' });
    expect(made.changes).toMatchObject({
      plan: { from: null, to: 'Fiber 100' },
      status: { from: null, to: 'pending' },
      invoice: { from: null, to: invoice.number },
    });
    expect(suspended.changes).toMatchObject({
      status: { from: 'active', to: 'suspended' },
      suspension_reason: { from: null, to: 'Unpaid balance' },
    });
    expect(reactivated.changes).toMatchObject({
      status: { from: 'suspended', to: 'active' },
      suspension_reason: { from: 'Unpaid balance', to: null },
    });
    expect(upgrade.changes).toMatchObject({
      plan: { from: 'Fiber 100', to: 'Fiber 500' },
      invoice: { from: null, to: upgraded.json().data.invoice.number },
    });
    expect(renewal.changes).toMatchObject({ invoice: { from: null, to: renewed.json().data.invoice.number } });
    expect(cancelled).toMatchObject({ actor_email: 'admin@example.com' });
    expect(cancelled.changes).toMatchObject({
      status: { from: 'active', to: 'cancelled' },
      immediate: { from: null, to: true },
    });

    const [payment] = await trail('payment', paymentId);
    expect(payment).toMatchObject({
      action: 'payment.recorded_manually',
      actor_email: 'billing@example.com',
      actor_role: 'billing',
    });
    expect(payment.changes).toMatchObject({
      status: { from: 'pending', to: 'paid' },
      amount: { from: null, to: invoice.total_amount },
      invoice: { from: null, to: invoice.number },
      payment_method: { from: null, to: 'cash' },
      reference: { from: null, to: 'Receipt 0042' },
    });
  });

  it('records a pending subscription cancelled and deleted, and an unpaid invoice deleted', async () => {
    const customer = await t.createUser({ email: 'short.lived@example.com' });
    const { subscription } = (
      await as('POST', '/subscriptions', 'admin', { plan_id: planId, user_id: customer.id })
    ).json().data;
    // Its invoice is open: deleting is refused, and writes nothing.
    expect((await as('DELETE', `/subscriptions/${subscription.id}`, 'admin')).statusCode).toBe(409);
    expect(
      (await as('POST', `/subscriptions/${subscription.id}/cancel`, 'admin', { immediate: true })).statusCode,
    ).toBe(200);
    expect((await as('DELETE', `/subscriptions/${subscription.id}`, 'admin')).statusCode).toBe(200);
    expect((await trail('subscription', subscription.id)).map((e) => e.action)).toEqual([
      'subscription.deleted',
      'subscription.cancelled',
      'subscription.created',
    ]);

    const other = await as('POST', '/subscriptions', 'admin', { plan_id: planId, user_id: customer.id });
    const inv = other.json().data.invoice as { id: string; number: string; total_amount: number };
    expect((await as('DELETE', `/payments/invoices/${inv.id}`, 'support')).statusCode).toBe(403);
    expect((await as('DELETE', `/payments/invoices/${inv.id}`, 'billing')).statusCode).toBe(200);
    const [deleted] = await trail('invoice', inv.id);
    expect(deleted).toMatchObject({
      action: 'invoice.deleted',
      actor_email: 'billing@example.com',
      actor_role: 'billing',
    });
    expect(deleted.changes).toMatchObject({
      number: { from: inv.number, to: null },
      total_amount: { from: inv.total_amount, to: null },
    });
  });

  it('records a payment completed by the provider, a staff refund, an automatic refund and a refund the provider reports', async () => {
    const { invoice } = (await as('POST', '/subscriptions', 'user', { plan_id: planId })).json().data as {
      invoice: { id: string; total_amount: number; currency: string };
    };
    const a = (await as('POST', '/payments/initiate', 'user', { invoice_id: invoice.id })).json().data;
    const b = (await as('POST', '/payments/initiate', 'user', { invoice_id: invoice.id })).json().data;
    expect(
      (
        await webhook({
          type: 'payment.succeeded',
          id: 'evt_audit_a',
          transactionId: a.transactionId,
          amount: invoice.total_amount,
          currency: invoice.currency,
        })
      ).statusCode,
    ).toBe(200);
    // The same event again: a no-op, no second event.
    expect(
      (
        await webhook({
          type: 'payment.succeeded',
          id: 'evt_audit_a',
          transactionId: a.transactionId,
          amount: invoice.total_amount,
          currency: invoice.currency,
        })
      ).statusCode,
    ).toBe(200);
    // A second payment for the paid invoice is given back by the portal itself.
    expect(
      (
        await webhook({
          type: 'payment.succeeded',
          id: 'evt_audit_b',
          transactionId: b.transactionId,
          amount: invoice.total_amount,
          currency: invoice.currency,
        })
      ).statusCode,
    ).toBe(200);

    const [completed] = await trail('payment', a.payment.id);
    expect(completed).toMatchObject({
      action: 'payment.completed',
      actor_id: null,
      actor_role: 'system',
      ip: '203.0.113.50',
    });
    expect(completed.changes).toMatchObject({
      status: { from: 'pending', to: 'paid' },
      provider: { from: null, to: 'sandbox' },
      event_id: { from: null, to: 'evt_audit_a' },
    });
    expect((await trail('payment', a.payment.id)).filter((e) => e.action === 'payment.completed')).toHaveLength(1);
    const auto = await trail('payment', b.payment.id);
    expect(auto.map((e) => e.action)).toEqual(['payment.refunded']);
    expect(auto[0]).toMatchObject({
      actor_role: 'system',
      changes: { refunded_by: { from: null, to: 'automatic' }, status: { from: 'failed', to: 'refunded' } },
    });

    const refunded = await as('POST', `/payments/${a.payment.id}/refund`, 'billing');
    expect(refunded.statusCode, refunded.body).toBe(200);
    const [staff] = await trail('payment', a.payment.id);
    expect(staff).toMatchObject({
      action: 'payment.refunded',
      actor_email: 'billing@example.com',
      actor_role: 'billing',
    });
    expect(staff.changes).toMatchObject({
      status: { from: 'paid', to: 'refunded' },
      amount: { from: null, to: invoice.total_amount },
      refunded_by: { from: null, to: 'staff' },
    });
    expect(String((staff.changes as { refund_id: { to: string } }).refund_id.to)).toMatch(/^sbx_refund_/);

    // A refund made in the provider's own dashboard arrives as a webhook.
    const { invoice: second } = (await as('POST', '/subscriptions', 'user', { plan_id: planId })).json().data as {
      invoice: { id: string; total_amount: number; currency: string };
    };
    const c = (await as('POST', '/payments/initiate', 'user', { invoice_id: second.id })).json().data;
    await webhook({
      type: 'payment.succeeded',
      transactionId: c.transactionId,
      amount: second.total_amount,
      currency: second.currency,
    });
    expect(
      (await webhook({ type: 'payment.refunded', id: 'evt_audit_refund', transactionId: c.transactionId })).statusCode,
    ).toBe(200);
    const [byProvider] = await trail('payment', c.payment.id);
    expect(byProvider).toMatchObject({
      action: 'payment.refunded',
      actor_role: 'system',
      changes: { refunded_by: { from: null, to: 'provider' }, event_id: { from: null, to: 'evt_audit_refund' } },
    });
  });

  it('a payment whose event cannot be written is not counted: the provider retries and it completes then', async () => {
    const { invoice } = (await as('POST', '/subscriptions', 'user', { plan_id: planId })).json().data as {
      invoice: { id: string; total_amount: number; currency: string };
    };
    const p = (await as('POST', '/payments/initiate', 'user', { invoice_id: invoice.id })).json().data;
    const event = {
      type: 'payment.succeeded' as const,
      id: 'evt_audit_retry',
      transactionId: p.transactionId,
      amount: invoice.total_amount,
      currency: invoice.currency,
    };
    const refused = await withAuditRefused(t.database.db, 'payment.completed', () => webhook(event));
    expect(refused.statusCode).toBe(500);
    expect((await as('GET', `/payments/status/${p.payment.id}`, 'user')).json().data.payment.status).toBe('pending');
    expect(await trail('payment', p.payment.id)).toEqual([]);
    // The provider delivers the same event again: it was not recorded as seen, so it completes now.
    expect((await webhook(event)).statusCode).toBe(200);
    expect((await as('GET', `/payments/status/${p.payment.id}`, 'user')).json().data.payment.status).toBe('paid');
    expect((await trail('payment', p.payment.id)).map((e) => e.action)).toEqual(['payment.completed']);
  });
});

describe('who may read the trail', () => {
  it('admin and super_admin read it; billing, support, technician and customers get 403; visitors 401', async () => {
    const [one] = (await as('GET', '/audit?limit=1', 'admin')).json().data.items as AuditEvent[];
    for (const role of ['admin', 'super_admin'] as const) {
      expect((await as('GET', '/audit', role)).statusCode).toBe(200);
      const shown = await as('GET', `/audit/${one.id}`, role);
      expect(shown.statusCode).toBe(200);
      expect(shown.json().data).toEqual(one);
    }
    for (const role of ['billing', 'support', 'technician', 'user'] as const) {
      expect((await as('GET', '/audit', role)).statusCode).toBe(403);
      expect((await as('GET', `/audit/${one.id}`, role)).statusCode).toBe(403);
      expect((await as('GET', '/audit?format=csv', role)).statusCode).toBe(403);
    }
    expect((await as('GET', '/audit')).statusCode).toBe(401);
    expect((await as('GET', '/audit/00000000-0000-4000-8000-000000000000', 'admin')).statusCode).toBe(404);
    expect((await as('GET', '/audit/not-an-id', 'admin')).statusCode).toBe(404);
  });
});

describe('retention', () => {
  it('keeps every event by default; with a retention period the job prunes older events only, and records that it did', async () => {
    const { pruneAuditTrail } = await import('../../server/modules/audit/retention');
    const db = t.database.db;
    const count = async () => Number(rowsOf(await db.execute(sql`select count(*)::int as n from audit_events`))[0].n);
    const total = await count();
    expect(total).toBeGreaterThan(5);
    // 400 days on (the job's own clock; the signed-in tokens would have expired on the app's).
    const later = new ManualClock(new Date(clock.now().getTime() + 400 * 86_400_000).toISOString());
    // Default (0): nothing goes, however old.
    expect(await pruneAuditTrail(db, later, t.config.auditRetentionDays)).toEqual({ deleted: 0, before: null });
    expect(await count()).toBe(total);

    // One fresh event, then a 365-day retention: everything older than a year goes, the fresh one stays.
    await recordAudit(db, later, SYSTEM, {
      action: 'plan.updated',
      targetType: 'plan',
      targetId: planId,
      changes: { price: { from: 3000, to: 3100 } },
    });
    const result = await pruneAuditTrail(db, later, 365);
    expect(result.deleted).toBe(total);
    const left = (await as('GET', '/audit?limit=200', 'admin')).json().data.items as AuditEvent[];
    expect(left.map((e) => e.action).sort()).toEqual(['audit.pruned', 'plan.updated']);
    const pruned = left.find((e) => e.action === 'audit.pruned')!;
    expect(pruned).toMatchObject({
      actor_role: 'system',
      actor_id: null,
      changes: { deleted: { from: null, to: total }, retention_days: { from: null, to: 365 } },
    });

    // Outside the job the table still refuses deletes and updates.
    await expect(db.execute(sql`delete from audit_events`)).rejects.toThrow();
    await expect(db.execute(sql`update audit_events set action = 'x'`)).rejects.toThrow();
    expect(await count()).toBe(2);
  });
});
