/**
 * Issue 15, one query per list page: the total comes with the page's rows (count(*) over ()). The totals stay right
 * on a full page, a filtered page, the last page, an empty result, and a page past the end (counted then).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ email: 'admin@example.com', role: 'admin' });
  admin = (await t.login('admin@example.com')).token;
  for (let i = 0; i < 7; i++)
    await t.createUser({ email: `customer${i}@example.com`, status: i < 2 ? 'suspended' : 'active' });
});
afterAll(() => t?.close());

const list = async (query: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/users?${query}`, headers: bearer(admin) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    items: unknown[];
    pagination: { page: number; total: number; totalPages: number; hasNext: boolean };
  };
};

describe('list totals', () => {
  it('a full page, the last page, a filter, no match and a page past the end all report the right total', async () => {
    expect(await list('page=1&limit=3')).toMatchObject({ pagination: { total: 8, totalPages: 3, hasNext: true } });
    expect((await list('page=1&limit=3')).items).toHaveLength(3);
    const last = await list('page=3&limit=3');
    expect(last.items).toHaveLength(2);
    expect(last.pagination).toMatchObject({ total: 8, hasNext: false });
    expect(await list('status=suspended&limit=10')).toMatchObject({ pagination: { total: 2 } });
    expect(await list('search=nobody-matches-this&limit=10')).toMatchObject({
      items: [],
      pagination: { total: 0, totalPages: 1 },
    });
    const past = await list('page=9&limit=3');
    expect(past.items).toEqual([]);
    expect(past.pagination.total).toBe(8);
  });

  it('subscriptions filtered by creation day, status and search (prepared once per filter shape)', async () => {
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url: `/api${url}`, headers: bearer(admin), payload });
    const plan = (
      await call('POST', '/plans', {
        name: 'Paging Fiber',
        price: 1000,
        download_mbps: 10,
        upload_mbps: 5,
        billing_cycle: 'monthly',
      })
    ).json().data;
    const customer = await t.createUser({ email: 'subscriber@example.com', name: 'Olga Paging' });
    expect((await call('POST', '/subscriptions', { plan_id: plan.id, user_id: customer.id })).statusCode).toBe(201);
    const today = t.clock.now().toISOString().slice(0, 10);
    const tomorrow = new Date(t.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
    const total = async (query: string) => (await call('GET', `/subscriptions?${query}`)).json().data.pagination.total;
    expect(await total(`from=${today}&to=${today}`)).toBe(1);
    expect(await total(`from=${tomorrow}`)).toBe(0);
    expect(await total(`to=${today}&search=olga`)).toBe(1);
    expect(await total(`from=${today}&search=nobody`)).toBe(0);
    expect(await total(`status=pending&from=${today}`)).toBe(1);
    expect(await total(`status=active&from=${today}`)).toBe(0);
  });
});
