/**
 * Issue 32, "one input boundary": a NUL byte or a lone UTF-16 surrogate anywhere in a request — path, query,
 * JSON body at any depth, a header the portal keeps — is refused with 400 and the failure envelope naming the
 * field, never a 500 and never stored; enums in query strings are checked as the OpenAPI document says.
 */
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

let t: TestApp;
let call: CallAs;
beforeAll(async () => {
  t = await createTestApp();
  call = await signInEveryRole(t, ['admin', 'user']);
});
afterAll(() => t.close());

/** The answer is a 400 in the failure envelope whose errors name `field`. */
function expectRefused(res: LightMyRequestResponse, field: string) {
  expect([res.statusCode, res.body]).toEqual([400, expect.any(String)]);
  const body = res.json();
  expect(body).toMatchObject({ success: false, message: expect.stringContaining(field) });
  expect(body.errors).toEqual([{ field, message: expect.stringContaining('not allowed') }]);
}

describe('NUL bytes', () => {
  it('in a path id, without signing in (the sandbox checkout page)', async () => {
    expectRefused(await t.app.inject({ method: 'GET', url: '/api/payments/sandbox/checkout/%00' }), 'transactionId');
  });

  it('in the contact form, without signing in, and nothing is stored', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { name: 'Vera', email: 'vera@example.com', subject: 'Hi', message: 'Hello\u0000there' },
    });
    expectRefused(res, 'message');
    expect(await t.rows<{ n: number }>(sqlCount('contact_messages'))).toEqual([{ n: 0 }]);
  });

  it('in a search parameter of the users CSV export: 400, not a download cut after its header row', async () => {
    const res = await call('GET', '/users/export.csv?search=a%00b', 'admin');
    expectRefused(res, 'search');
    // The same export without the NUL is whole.
    const clean = await call('GET', '/users/export.csv?search=admin', 'admin');
    expect(clean.statusCode).toBe(200);
    expect(clean.body.trim().split('\n').length).toBeGreaterThan(1);
  });

  it('in a ticket reply', async () => {
    const ticket = (await call('POST', '/tickets', 'user', { subject: 'Slow line', description: 'Evenings' })).json()
      .data;
    expectRefused(
      await call('POST', `/tickets/${ticket.id}/replies`, 'user', { message: 'still\u0000slow' }),
      'message',
    );
    expect((await call('GET', `/tickets/${ticket.id}/replies`, 'user')).json().data).toEqual([]);
  });

  it('in a gateway name', async () => {
    expectRefused(
      await call('POST', '/payments/gateways', 'admin', { name: 'Cash\u0000desk', provider: 'manual' }),
      'name',
    );
  });

  it('deep in the settings (an FAQ answer), and in a field name', async () => {
    const res = await call('PUT', '/settings', 'admin', { faq: [{ question: 'Q', answer: 'A\u0000' }] });
    expectRefused(res, 'faq.0.answer');
    expectRefused(await call('PUT', '/settings', 'admin', { company: { 'na\u0000me': 'x' } }), 'company.na\\u0000me');
  });

  it('in a header the portal keeps (the browser name of a session)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'user-agent': 'Mozilla\u0000' },
      payload: { email: 'user@example.com', password: 'x', rememberMe: false },
    });
    expectRefused(res, 'headers.user-agent');
  });
});

describe('lone UTF-16 surrogates', () => {
  it('in a JSON body are refused and not stored', async () => {
    const before = (await call('GET', '/payments/gateways', 'admin')).json().data.length;
    // JSON.stringify writes a lone surrogate as the escape \ud800, which JSON.parse turns back into one.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/payments/gateways',
      headers: { ...(await adminHeaders()), 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Cash \ud800 desk', provider: 'manual' }),
    });
    expectRefused(res, 'name');
    expect((await call('GET', '/payments/gateways', 'admin')).json().data.length).toBe(before);
  });

  it('a high surrogate alone deep in a body is refused; a whole pair (an emoji) is kept', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { ...(await adminHeaders()), 'content-type': 'application/json' },
      payload: JSON.stringify({ coverage_areas: [{ name: 'North', postcode: '1000', note: 'x\udbff' }] }),
    });
    expectRefused(res, 'coverage_areas.0.note');
    const emoji = await call('POST', '/payments/gateways', 'admin', { name: 'Cash desk 😀', provider: 'manual' });
    expect([emoji.statusCode, emoji.json().data?.name]).toEqual([201, 'Cash desk 😀']);
  });
});

describe("addresses Fastify's router cannot read", () => {
  it('a malformed %-escape in a path parameter is 400 and an over-long one 414, both in the envelope', async () => {
    const bad = await call('GET', '/tickets/%E0%A4%A', 'user');
    expect([bad.statusCode, bad.json()]).toEqual([400, { success: false, message: 'The address is not valid' }]);
    const long = await call('GET', `/tickets/${'a'.repeat(600)}`, 'user');
    expect([long.statusCode, long.json()]).toEqual([
      414,
      { success: false, message: 'A part of the address is too long' },
    ]);
  });
});

describe('enums in query strings follow the OpenAPI document', () => {
  it('GET /dashboard/stats?timeFrame=bogus is 400 naming timeFrame; no time frame is this month', async () => {
    const res = await call('GET', '/dashboard/stats?timeFrame=bogus', 'admin');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toEqual(['timeFrame']);
    const none = await call('GET', '/dashboard/stats', 'admin');
    expect([none.statusCode, none.json().data.timeFrame]).toEqual([200, 'month']);
  });
});

let adminToken: string | undefined;
async function adminHeaders() {
  adminToken ??= (await t.login('admin@example.com')).token;
  return { authorization: `Bearer ${adminToken}` };
}

function sqlCount(table: 'contact_messages') {
  return sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`;
}
