/**
 * Tickets API (issue 5), the reading side: list scopes by role, filters, paging with the newest activity first,
 * and the statistics on a known data set, each for the caller's scope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../helpers/server';
import { caller, setup, type Ctx, type T, type Who } from '../helpers/tickets';

describe('ticket lists: scopes by role, filters, paging, newest activity first', () => {
  let ctx: Ctx;
  let call: ReturnType<typeof caller>;
  const n: Record<string, T> = {};

  beforeAll(async () => {
    ctx = await setup();
    call = caller(ctx);
    const make = async (key: string, who: Who, body: Record<string, unknown>) => {
      ctx.clock.advanceMinutes(10);
      const res = await call('POST', '/tickets', who, { subject: key, description: 'details', ...body });
      expect(res.statusCode, res.body).toBe(201);
      n[key] = res.json().data;
    };
    await make('u-billing', 'user', { category: 'billing', priority: 'high' });
    await make('u-technical', 'user', { category: 'technical', priority: 'urgent' });
    await make('u-account', 'user', { category: 'account' });
    await make('o-installation', 'other', { category: 'installation', priority: 'low' });
    await make('o-other', 'other', { category: 'other' });
    await make('tech-own-billing', 'technician', { category: 'billing' });
    ctx.clock.advanceMinutes(10);
    // u-account is assigned to the technician: it joins their scope.
    expect(
      (await call('PATCH', `/tickets/${n['u-account'].id}/assign`, 'admin', { assigned_to: ctx.people.technician!.id }))
        .statusCode,
    ).toBe(200);
  });
  afterAll(() => ctx.t.close());

  const subjects = async (who: Who, query = '') => {
    const res = await call('GET', `/tickets${query}`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res
      .json()
      .data.items.map((x: { subject: string }) => x.subject)
      .sort();
  };

  it('scopes GET /tickets by role', async () => {
    const all = Object.keys(n).sort();
    expect(await subjects('admin')).toEqual(all);
    expect(await subjects('super_admin')).toEqual(all);
    expect(await subjects('support')).toEqual(all);
    expect(await subjects('technician')).toEqual(['o-installation', 'tech-own-billing', 'u-account', 'u-technical']);
    expect(await subjects('tech2')).toEqual(['o-installation', 'u-technical']);
    expect(await subjects('billing')).toEqual(['tech-own-billing', 'u-billing']);
    expect(await subjects('user')).toEqual(['u-account', 'u-billing', 'u-technical']);
    expect(await subjects('other')).toEqual(['o-installation', 'o-other']);
    // Detail follows the same rule.
    expect((await call('GET', `/tickets/${n['o-other'].id}`, 'user')).statusCode).toBe(404);
    expect((await call('GET', `/tickets/${n['o-other'].id}`, 'technician')).statusCode).toBe(404);
    expect((await call('GET', `/tickets/${n['u-account'].id}`, 'technician')).statusCode).toBe(200);
    expect((await call('GET', `/tickets/${n['u-account'].id}`, 'billing')).statusCode).toBe(404);
  });

  it('filters by status, priority, category, assignee and search (number, subject, creator)', async () => {
    await call('PATCH', `/tickets/${n['u-technical'].id}/status`, 'support', { status: 'in_progress' });
    expect(await subjects('admin', '?status=in_progress')).toEqual(['u-technical']);
    expect(await subjects('admin', '?priority=low')).toEqual(['o-installation']);
    expect(await subjects('admin', '?category=billing')).toEqual(['tech-own-billing', 'u-billing']);
    expect(await subjects('billing', '?category=technical')).toEqual([]);
    expect(await subjects('admin', `?assigned_to=${ctx.people.technician!.id}`)).toEqual(['u-account']);
    expect(await subjects('admin', '?assigned_to=none&category=billing')).toEqual(['tech-own-billing', 'u-billing']);
    expect(await subjects('admin', `?search=${n['o-other'].number}`)).toEqual(['o-other']);
    expect(await subjects('admin', '?search=U-ACC')).toEqual(['u-account']);
    expect(await subjects('admin', '?search=olga')).toEqual(['o-installation', 'o-other']);
    expect(await subjects('admin', '?search=Olga%20Other')).toEqual(['o-installation', 'o-other']);
    expect(await subjects('user', '?search=olga')).toEqual([]);
    expect(await subjects('admin', '?search=100%25')).toEqual([]);
    expect(await subjects('admin', '?status=&priority=&search=')).toHaveLength(6);
    const bad = await call('GET', '/tickets?status=lost&assigned_to=bob', 'admin');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { field: string }) => e.field)).toEqual(['status', 'assigned_to']);
  });

  it('pages the list, newest activity first (a public reply moves a ticket up, an internal note does not)', async () => {
    const order = async () =>
      (await call('GET', '/tickets?limit=100', 'admin')).json().data.items.map((x: { subject: string }) => x.subject);
    ctx.clock.advanceMinutes(10);
    await call('POST', `/tickets/${n['u-billing'].id}/replies`, 'support', { message: 'Looking into it' });
    ctx.clock.advanceMinutes(10);
    await call('POST', `/tickets/${n['o-other'].id}/replies`, 'support', { message: 'note', is_internal: true });
    const now = await order();
    expect(now[0]).toBe('u-billing');
    expect(now.indexOf('o-other')).toBeGreaterThan(now.indexOf('tech-own-billing'));

    const page1 = (await call('GET', '/tickets?limit=4&page=1', 'admin')).json().data;
    const page2 = (await call('GET', '/tickets?limit=4&page=2', 'admin')).json().data;
    expect(page1.pagination).toEqual({ page: 1, totalPages: 2, total: 6, hasNext: true, hasPrev: false });
    expect(page2.pagination).toEqual({ page: 2, totalPages: 2, total: 6, hasNext: false, hasPrev: true });
    expect([...page1.items, ...page2.items].map((x: { subject: string }) => x.subject)).toEqual(now);
    const userPage = (await call('GET', '/tickets?limit=2', 'user')).json().data;
    expect(userPage.pagination).toMatchObject({ total: 3, totalPages: 2 });
    expect((await call('GET', '/tickets?limit=101', 'admin')).statusCode).toBe(400);
  });
});

describe('ticket statistics on a known data set', () => {
  let ctx: Ctx;
  let call: ReturnType<typeof caller>;
  const T0 = Date.parse('2026-04-01T08:00:00.000Z');

  beforeAll(async () => {
    ctx = await setup('2026-04-01T08:00:00.000Z');
    call = caller(ctx);
    const at = (minutes: number) => ctx.clock.set(T0 + minutes * 60_000);
    const create = async (who: Who, body: Record<string, unknown>) => {
      const res = await call('POST', '/tickets', who, { subject: 'Stats ticket', description: 'x', ...body });
      expect(res.statusCode).toBe(201);
      return res.json().data.id as string;
    };
    // A: technical/high by user at 0; first staff reply at +60 min; resolved at +180 min.
    at(0);
    const a = await create('user', { category: 'technical', priority: 'high' });
    // B: billing/normal by user at +10; internal note at +20 (not a response); staff reply at +40 (30 min); closed at +610 (600 min).
    at(10);
    const b = await create('user', { category: 'billing' });
    at(20);
    await call('POST', `/tickets/${b}/replies`, 'billing', { message: 'internal', is_internal: true });
    at(40);
    await call('POST', `/tickets/${b}/replies`, 'billing', { message: 'We are on it' });
    // C: installation/urgent by other at +30; still open, the customer's own reply is no response.
    at(30);
    const c = await create('other', { category: 'installation', priority: 'urgent' });
    at(50);
    await call('POST', `/tickets/${c}/replies`, 'other', { message: 'Any news?' });
    // D: account/low by other at +100; support replies at +190 (90 min); in progress.
    at(100);
    const d = await create('other', { category: 'account', priority: 'low' });
    at(60);
    await call('POST', `/tickets/${a}/replies`, 'technician', { message: 'Checking the line' });
    at(180);
    await call('PATCH', `/tickets/${a}/status`, 'technician', { status: 'resolved' });
    at(190);
    await call('POST', `/tickets/${d}/replies`, 'support', { message: 'Which account?' });
    await call('PATCH', `/tickets/${d}/status`, 'support', { status: 'in_progress' });
    at(610);
    await call('PATCH', `/tickets/${b}/status`, 'billing', { status: 'closed' });
  });
  afterAll(() => ctx.t.close());

  const stats = async (who: Who) => {
    const res = await call('GET', '/tickets/stats', who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  it('counts by status and priority and averages response and resolution times for everything (admin, support)', async () => {
    const expected = {
      total: 4,
      by_status: { open: 1, in_progress: 1, waiting_customer: 0, resolved: 1, closed: 1 },
      by_priority: { low: 1, normal: 1, high: 1, urgent: 1 },
      // First responses: A 60 min, B 30 min, D 90 min → 60 min.
      avg_first_response_seconds: 3600,
      // Resolutions: A 180 min, B 600 min → 390 min.
      avg_resolution_seconds: 23_400,
    };
    expect(await stats('admin')).toEqual(expected);
    expect(await stats('support')).toEqual(expected);
    expect(await stats('super_admin')).toEqual(expected);
  });

  it('limits the statistics to the caller’s scope', async () => {
    // user: A and B.
    expect(await stats('user')).toEqual({
      total: 2,
      by_status: { open: 0, in_progress: 0, waiting_customer: 0, resolved: 1, closed: 1 },
      by_priority: { low: 0, normal: 1, high: 1, urgent: 0 },
      avg_first_response_seconds: 2700,
      avg_resolution_seconds: 23_400,
    });
    // technician: A (technical) and C (installation).
    expect(await stats('technician')).toEqual({
      total: 2,
      by_status: { open: 1, in_progress: 0, waiting_customer: 0, resolved: 1, closed: 0 },
      by_priority: { low: 0, normal: 0, high: 1, urgent: 1 },
      avg_first_response_seconds: 3600,
      avg_resolution_seconds: 10_800,
    });
    // billing: B only.
    expect(await stats('billing')).toMatchObject({
      total: 1,
      avg_first_response_seconds: 1800,
      avg_resolution_seconds: 36_000,
    });
    // other: C and D; no resolution yet.
    expect(await stats('other')).toMatchObject({
      total: 2,
      avg_first_response_seconds: 5400,
      avg_resolution_seconds: null,
    });
    // A customer with no ticket.
    await ctx.t.createUser({ email: 'new@example.com' });
    const token = (await ctx.t.login('new@example.com')).token;
    const empty = await ctx.t.app.inject({ method: 'GET', url: '/api/tickets/stats', headers: bearer(token) });
    expect(empty.json().data).toEqual({
      total: 0,
      by_status: { open: 0, in_progress: 0, waiting_customer: 0, resolved: 0, closed: 0 },
      by_priority: { low: 0, normal: 0, high: 0, urgent: 0 },
      avg_first_response_seconds: null,
      avg_resolution_seconds: null,
    });
  });
});
