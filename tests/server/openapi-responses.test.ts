/**
 * Issue 35: the OpenAPI document and what the server answers cannot drift. A walk over the API on the demo data —
 * every read operation as every role, with real ids, and the write cycle of the main resources with their failures —
 * goes through the response check of tests/helpers/openapi-responses.ts (as a validating proxy would): each answer's
 * status must be declared by its operation, its media type by that status, and a JSON body must match its schema.
 * The same check runs in the fuzz test (openapi-fuzz.test.ts) over generated requests, and over any suite with
 * OPENAPI_CHECK_RESPONSES=1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../contract/roles';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from '../../server/db/seed';
import { createResponseChecker, type OpenApiDocument } from '../helpers/openapi-responses';
import { createTestApp, type TestApp } from '../helpers/server';

type Operation = { 'x-roles'?: string[]; parameters?: Array<{ in: string; name: string; required?: boolean }> };
type Document = { paths: Record<string, Record<string, Operation>> };

let t: TestApp;
let doc: Document;
let dataDir: string;
const tokens = new Map<Role, string>();
const ROLES = DEMO_ACCOUNTS.map((a) => a.role);

const call = (role: Role | 'anonymous', method: string, url: string, payload?: object) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: role === 'anonymous' ? {} : { authorization: `Bearer ${tokens.get(role)}` },
    payload,
  });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'isp-openapi-walk-'));
  t = await createTestApp({ config: { dataDir }, checkResponses: true });
  await seedDemoData(t.app.db, { clock: t.clock, box: t.app.secretBox });
  t.app.settings.invalidate();
  for (const [i, account] of DEMO_ACCOUNTS.entries()) {
    // Each from its own address: the sign-in limit per address must not refuse the last ones.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: DEMO_PASSWORD, rememberMe: false },
      remoteAddress: `10.77.0.${i + 1}`,
    });
    if (res.statusCode !== 200) throw new Error(`sign-in of ${account.email}: ${res.statusCode} ${res.body}`);
    tokens.set(account.role, res.json().data.tokens.access.token);
  }
  doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
}, 120_000);

afterAll(async () => {
  // close() fails too if an answer after the last check did not match.
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The problems found since the last call, emptied. */
const problems = () => t.responseProblems.splice(0);

describe('every answer matches the OpenAPI document', () => {
  it('the check itself refuses an undeclared status, an undeclared media type and a body off its schema', () => {
    const check = createResponseChecker(doc as unknown as OpenApiDocument);
    const json = { 'content-type': 'application/json; charset=utf-8' };
    const plan = { success: true, message: 'ok', data: { id: 'x' } };
    expect(check('GET', '/api/plans/abc', { statusCode: 418, headers: json, body: '{}' })).toEqual([
      expect.stringContaining('answered 418, which it does not declare'),
    ]);
    expect(
      check('GET', '/api/plans/abc', { statusCode: 200, headers: { 'content-type': 'text/html' }, body: '<p>' }),
    ).toEqual([expect.stringContaining('answered text/html, the document declares application/json')]);
    expect(check('GET', '/api/plans/abc', { statusCode: 200, headers: json, body: JSON.stringify(plan) })).toEqual([
      expect.stringContaining('does not match the document'),
    ]);
    // A failure must be the failure envelope.
    expect(check('GET', '/api/plans/abc', { statusCode: 404, headers: json, body: '{"error":"nope"}' })).toEqual([
      expect.stringContaining("must have required property 'success'"),
    ]);
    expect(
      check('GET', '/api/plans/abc', {
        statusCode: 404,
        headers: json,
        body: '{"success":false,"message":"Plan not found"}',
      }),
    ).toEqual([]);
    // The literal segment is the operation, as the router decides.
    expect(
      check('GET', '/api/payments/gateways/refund', {
        statusCode: 404,
        headers: json,
        body: '{"success":false,"message":"x"}',
      }),
    ).toEqual([]);
  });

  it('every read operation, as every role and anonymous, with ids from the lists', async () => {
    const ids = new Map<string, string[]>();
    const gets = Object.entries(doc.paths)
      .filter(([, ops]) => ops.get)
      .map(([path, ops]) => [path, ops.get] as const);
    let sent = 0;
    // The lists first (their ids fill the paths after), then the records and their parts.
    for (const [path] of gets.filter(([path]) => !path.includes('{'))) {
      for (const role of ['anonymous', ...ROLES] as const) {
        const res = await call(role, 'GET', path);
        sent++;
        if (res.statusCode !== 200 || !String(res.headers['content-type']).includes('json')) continue;
        const data = res.json().data;
        const items: Array<{ id?: unknown }> = Array.isArray(data)
          ? data
          : Array.isArray(data?.items)
            ? data.items
            : [];
        const found = items.map((i) => i.id).filter((id): id is string => typeof id === 'string');
        ids.set(path, [...new Set([...(ids.get(path) ?? []), ...found])].slice(0, 3));
      }
    }
    for (const [path, operation] of gets.filter(([path]) => path.includes('{'))) {
      // The list the first parameter's ids come from: the path up to it ("/api/plans/{id}/x" → "/api/plans").
      const list = path.slice(0, path.indexOf('/{'));
      const id = ids.get(list)?.[0] ?? '00000000-0000-4000-8000-000000000000';
      const url = path.replace(/\{[^}]+\}/, id).replace(/\{[^}]+\}/g, 'unknown');
      for (const role of ['anonymous', ...ROLES] as const) {
        if (operation.parameters?.some((p) => p.in === 'query' && p.required)) continue;
        await call(role, 'GET', url);
        sent++;
      }
    }
    expect(sent).toBeGreaterThan(500);
    expect(t.responsesChecked).toBeGreaterThan(sent);
    expect(problems(), 'answers off the document').toEqual([]);
  }, 240_000);

  it('the write cycle of a plan, a ticket and a user, with the failures an integrator meets', async () => {
    const created = await call('admin', 'POST', '/api/plans', {
      name: 'Walk 100',
      price: 2500,
      download_mbps: 100,
      upload_mbps: 20,
      billing_cycle: 'monthly',
    });
    expect(created.statusCode, created.body).toBe(201);
    const planId = created.json().data.id;
    await call('admin', 'GET', `/api/plans/${planId}`);
    expect((await call('admin', 'PUT', `/api/plans/${planId}`, { price: 2600 })).statusCode).toBe(200);
    expect((await call('admin', 'POST', '/api/plans', { name: '' })).statusCode).toBe(400);
    expect((await call('user', 'POST', '/api/plans', { name: 'Nope' })).statusCode).toBe(403);
    expect((await call('anonymous', 'DELETE', `/api/plans/${planId}`)).statusCode).toBe(401);
    expect((await call('admin', 'DELETE', `/api/plans/${planId}`)).statusCode).toBe(200);
    expect((await call('admin', 'GET', `/api/plans/${planId}`)).statusCode).toBe(404);
    expect((await call('admin', 'GET', `/api/plans/${'x'.repeat(150)}`)).statusCode).toBe(414);

    const ticket = await call('user', 'POST', '/api/tickets', {
      subject: 'Walk ticket',
      description: 'The line is down since noon',
    });
    expect(ticket.statusCode, ticket.body).toBe(201);
    const ticketId = ticket.json().data.id;
    expect((await call('user', 'POST', `/api/tickets/${ticketId}/replies`, { message: 'Still down' })).statusCode).toBe(
      201,
    );
    await call('support', 'PATCH', `/api/tickets/${ticketId}/status`, { status: 'in_progress' });
    await call('support', 'GET', `/api/tickets/${ticketId}/replies`);
    await call('admin', 'DELETE', `/api/tickets/${ticketId}`);

    const user = await call('admin', 'POST', '/api/users', {
      name: 'Walk Customer',
      email: 'walk@example.com',
      password: 'Correct-Horse-9',
      role: 'user',
    });
    expect(user.statusCode, user.body).toBe(201);
    const userId = user.json().data.id;
    // The address is taken.
    expect(
      (
        await call('admin', 'POST', '/api/users', {
          name: 'Walk Again',
          email: 'walk@example.com',
          password: 'Correct-Horse-9',
          role: 'user',
        })
      ).statusCode,
    ).toBe(409);
    await call('admin', 'PUT', `/api/users/${userId}`, { name: 'Walk Customer Two' });
    await call('admin', 'PATCH', `/api/users/${userId}/status`, { status: 'suspended' });
    await call('admin', 'GET', '/api/users/export.csv');
    await call('admin', 'GET', '/api/audit?format=csv');
    await call('admin', 'DELETE', `/api/users/${userId}`);

    // Sign-in and the public calls: a wrong password, a refresh without and with a forged cookie.
    expect(
      (
        await call('anonymous', 'POST', '/api/auth/login', {
          email: 'walk@example.com',
          password: 'wrong-password-1',
          rememberMe: false,
        })
      ).statusCode,
    ).toBe(401);
    expect((await call('anonymous', 'POST', '/api/auth/refresh-token')).statusCode).toBe(204);
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh-token',
      headers: { cookie: 'refresh_token=forged.value' },
    });
    expect(forged.statusCode).toBe(401);
    expect((await call('anonymous', 'GET', '/api/settings/policies/cookies')).statusCode).toBe(404);
    expect(problems(), 'answers off the document').toEqual([]);
  }, 120_000);
});
