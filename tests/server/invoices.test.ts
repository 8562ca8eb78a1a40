import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../contract/roles';
import type { PublicUser } from '../../contract/schemas/user';
import { ManualClock } from '../../server/lib/clock';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

type Who = Role | 'other';
const tokens: Partial<Record<Who, string>> = {};
const people: Partial<Record<Who, PublicUser>> = {};
const ROLES: Who[] = ['admin', 'super_admin', 'billing', 'support', 'technician', 'user'];

describe('invoices API', () => {
  let t: TestApp;
  const clock = new ManualClock('2026-03-01T10:00:00.000Z');
  let plan: { id: string };
  /**
   * user: 3 invoices (Mar 1, Mar 5, Mar 9); other: 2 (Mar 3, Mar 7). A customer may have only one open order at a
   * time (issue 31): each cancels the order before ordering again, so mine[0], mine[1] and theirs[0] are cancelled
   * with their subscriptions, mine[2] and theirs[1] unpaid.
   */
  const mine: Array<{ id: string; number: string }> = [];
  const theirs: Array<{ id: string; number: string }> = [];

  beforeAll(async () => {
    t = await createTestApp({ clock, config: { accessTokenTtlSeconds: 365 * 86_400 } });
    for (const role of ['admin', 'billing', 'support', 'technician', 'user', 'super_admin'] as Role[]) {
      people[role] = await t.createUser({ email: `${role}@example.com`, role, name: `${role} person` });
      tokens[role] = (await t.login(`${role}@example.com`)).token;
    }
    people.other = await t.createUser({
      email: 'olga@example.com',
      role: 'user',
      name: 'Olga Other',
      company: 'Secret Corp',
    });
    tokens.other = (await t.login('olga@example.com')).token;
    plan = (
      await call('POST', '/plans', 'admin', {
        name: 'Home 100',
        download_mbps: 100,
        upload_mbps: 20,
        price: 2500,
        billing_cycle: 'monthly',
      })
    ).json().data;
    const pending: Partial<Record<Who, string>> = {};
    for (let i = 0; i < 5; i++) {
      clock.set(new Date(Date.UTC(2026, 2, 1 + 2 * i, 10)));
      const who = i % 2 === 0 ? 'user' : 'other';
      if (pending[who]) expect((await call('POST', `/subscriptions/${pending[who]}/cancel`, who)).statusCode).toBe(200);
      const order = await call('POST', '/subscriptions', who, { plan_id: plan.id });
      expect(order.statusCode, order.body).toBe(201);
      pending[who] = order.json().data.subscription.id;
      (who === 'user' ? mine : theirs).push(order.json().data.invoice);
    }
  });
  afterAll(() => t.close());

  function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, who?: Who, payload?: unknown) {
    return t.app.inject({
      method,
      url: `/api${url}`,
      headers: who ? bearer(tokens[who]!) : {},
      payload: payload as object,
    });
  }
  const ids = (res: { json(): { data: { items: Array<{ id: string }> } } }) => res.json().data.items.map((i) => i.id);

  it('staff list: admin, super_admin, billing, support; technician and customers 403; visitors 401', async () => {
    for (const who of ROLES) {
      const res = await call('GET', '/payments/invoices', who);
      expect(res.statusCode, who).toBe(['technician', 'user'].includes(who) ? 403 : 200);
    }
    expect((await call('GET', '/payments/invoices')).statusCode).toBe(401);
    const res = await call('GET', '/payments/invoices', 'billing');
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Invoices retrieved successfully',
      data: { pagination: { page: 1, totalPages: 1, total: 5, hasNext: false, hasPrev: false } },
    });
    // Newest first, with who and which plan.
    expect(ids(res)).toEqual([mine[2].id, theirs[1].id, mine[1].id, theirs[0].id, mine[0].id]);
    expect(res.json().data.items[1]).toMatchObject({
      user_name: 'Olga Other',
      user_email: 'olga@example.com',
      plan_name: 'Home 100',
      total_amount: 2500,
    });
  });

  it('staff list filters: status, user_id, issue-date range (inclusive), search on number, name and e-mail; empty filters ignored; pagination', async () => {
    await t.database.db.execute(sql`update invoices set status = 'paid', paid_date = now() where id = ${mine[0].id}`);
    const q = async (query: string) => call('GET', `/payments/invoices?${query}`, 'admin');
    expect(ids(await q('status=paid'))).toEqual([mine[0].id]);
    expect(ids(await q(`user_id=${people.other!.id}`))).toEqual([theirs[1].id, theirs[0].id]);
    expect(ids(await q('from=2026-03-03&to=2026-03-07'))).toEqual([theirs[1].id, mine[1].id, theirs[0].id]);
    expect(ids(await q('from=2026-03-08'))).toEqual([mine[2].id]);
    expect(ids(await q('to=2026-03-01'))).toEqual([mine[0].id]);
    expect(ids(await q(`search=${mine[1].number}`))).toEqual([mine[1].id]);
    expect(ids(await q('search=olga'))).toEqual([theirs[1].id, theirs[0].id]);
    expect(ids(await q('search=OTHER'))).toEqual([theirs[1].id, theirs[0].id]);
    expect(ids(await q('search=%25'))).toEqual([]);
    expect((await q('status=&user_id=&search=&from=&to=')).json().data.pagination.total).toBe(5);
    const page2 = await q('limit=2&page=2');
    expect(ids(page2)).toEqual([mine[1].id, theirs[0].id]);
    expect(page2.json().data.pagination).toEqual({ page: 2, totalPages: 3, total: 5, hasNext: true, hasPrev: true });
    expect((await q('limit=2&page=3')).json().data.pagination).toMatchObject({ hasNext: false, hasPrev: true });
    expect(ids(await q('status=cancelled'))).toEqual([mine[1].id, theirs[0].id]);
    expect(ids(await q('status=unpaid'))).toEqual([mine[2].id, theirs[1].id]);
    for (const bad of ['status=bogus', 'user_id=nope', 'from=2026-3-1', 'page=0', 'limit=101'])
      expect((await q(bad)).statusCode, bad).toBe(400);
    await t.database.db.execute(
      sql`update invoices set status = 'cancelled', paid_date = null where id = ${mine[0].id}`,
    );
  });

  it('user invoices: every signed-in user gets only their own, paginated; visitors 401', async () => {
    const res = await call('GET', '/payments/user/invoices', 'user');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'User invoices retrieved successfully',
      data: { pagination: { total: 3, page: 1, totalPages: 1 } },
    });
    expect(ids(res)).toEqual([mine[2].id, mine[1].id, mine[0].id]);
    expect(ids(await call('GET', `/payments/user/invoices?user_id=${people.user!.id}`, 'other'))).toEqual([
      theirs[1].id,
      theirs[0].id,
    ]);
    const p = await call('GET', '/payments/user/invoices?limit=1&page=2', 'user');
    expect(ids(p)).toEqual([mine[1].id]);
    expect(p.json().data.pagination).toEqual({ page: 2, totalPages: 3, total: 3, hasNext: true, hasPrev: true });
    for (const who of ['admin', 'super_admin', 'billing', 'support', 'technician'] as const) {
      const r = await call('GET', '/payments/user/invoices', who);
      expect(r.statusCode).toBe(200);
      expect(r.json().data).toEqual({
        items: [],
        pagination: { page: 1, totalPages: 1, total: 0, hasNext: false, hasPrev: false },
      });
    }
    expect((await call('GET', '/payments/user/invoices')).statusCode).toBe(401);
  });

  it('one invoice is public through its uuid: the invoice, the customer name and the plan name, no other personal data', async () => {
    // theirs[1]: Olga's open invoice (theirs[0] was cancelled with her first order).
    for (const who of [undefined, ...ROLES] as const) {
      const res = await call('GET', `/payments/invoices/${theirs[1].id}`, who);
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(res.json().message).toBe('Invoice retrieved successfully');
      expect(data).toMatchObject({
        id: theirs[1].id,
        number: theirs[1].number,
        status: 'unpaid',
        total_amount: 2500,
        customer_name: 'Olga Other',
        plan_name: 'Home 100',
      });
      expect(data).not.toHaveProperty('user_id');
      expect(JSON.stringify(data)).not.toMatch(/olga@example\.com|Secret Corp|user_email/);
    }
    for (const id of ['00000000-0000-4000-8000-000000000000', 'INV-000001', '1']) {
      const res = await call('GET', `/payments/invoices/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, message: 'Invoice not found' });
    }
  });

  it('delete: admin, super_admin and billing delete an unpaid invoice; a paid one → 409; support, technician, customers 403; visitors 401', async () => {
    const target = theirs[0].id;
    for (const who of ['support', 'technician', 'user', 'other'] as const)
      expect((await call('DELETE', `/payments/invoices/${target}`, who)).statusCode, who).toBe(403);
    expect((await call('DELETE', `/payments/invoices/${target}`)).statusCode).toBe(401);
    await t.database.db.execute(sql`update invoices set status = 'paid', paid_date = now() where id = ${target}`);
    for (const who of ['admin', 'billing'] as const) {
      const res = await call('DELETE', `/payments/invoices/${target}`, who);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ success: false, message: 'A paid invoice cannot be deleted' });
    }
    await t.database.db.execute(sql`update invoices set status = 'refunded' where id = ${target}`);
    expect((await call('DELETE', `/payments/invoices/${target}`, 'admin')).json().message).toBe(
      'A refunded invoice cannot be deleted',
    );
    expect((await call('GET', `/payments/invoices/${target}`)).statusCode).toBe(200);

    // Unpaid (mine[2], theirs[1]) and overdue (mine[1], cancelled with its order, set overdue here).
    const victims = [mine[2].id, mine[1].id, theirs[1].id];
    await t.database.db.execute(sql`update invoices set status = 'overdue' where id = ${mine[1].id}`);
    for (const [i, who] of (['admin', 'billing', 'super_admin'] as const).entries()) {
      const res = await call('DELETE', `/payments/invoices/${victims[i]}`, who);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'Invoice deleted successfully', data: null });
      expect((await call('GET', `/payments/invoices/${victims[i]}`)).statusCode).toBe(404);
    }
    expect((await call('DELETE', `/payments/invoices/${victims[0]}`, 'admin')).statusCode).toBe(404);
    expect((await call('DELETE', '/payments/invoices/not-a-uuid', 'admin')).statusCode).toBe(404);
  });
});
