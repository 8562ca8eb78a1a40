/**
 * Issue 12: the API reference. GET /api/openapi.json is a valid OpenAPI 3.1 document generated from the
 * routes' zod schemas, with every route the server serves, who may call it and how; /api/docs shows it.
 */
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpointAccessEntries } from '../../contract/roles';
import { loginBodySchema } from '../../contract/schemas/auth';
import { planInputSchema } from '../../contract/schemas/plan';
import { DOCS_CONTENT_SECURITY_POLICY } from '../../server/plugins/openapi';
import { createTestApp, signInEveryRole, type TestApp } from '../helpers/server';

type Operation = {
  tags?: string[];
  description?: string;
  security?: unknown[];
  'x-roles'?: string[];
  parameters?: Array<{ in: string; name: string; required?: boolean }>;
  requestBody?: {
    content: Record<
      string,
      { schema: { type?: string; properties?: Record<string, { type?: unknown }>; required?: string[] } }
    >;
  };
  responses: Record<
    string,
    { content?: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> }
  >;
};
type Document = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
};

let t: TestApp;
let doc: Document;
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('application/json');
  doc = res.json();
});
afterAll(() => t.close());

/** "GET /plans/:id" → ["/api/plans/{id}", "get"]. */
const toOpenApi = (key: string): [string, string] => {
  const [method, path] = key.split(' ');
  return [`/api${path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`, method.toLowerCase()];
};
const documented = Object.keys(endpointAccessEntries()).filter((key) => !/ \/(openapi\.json|docs)(\/|$)/.test(key));

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('ISP Portal API');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('describes every route the server serves, and nothing else', () => {
    expect(documented.length).toBeGreaterThan(60);
    for (const key of documented) {
      const [method, path] = key.split(' ');
      // The role matrix and the routes are the same list (the server refuses a route missing from the matrix) ...
      expect([key, t.app.hasRoute({ method: method as 'GET', url: `/api${path}` })]).toEqual([key, true]);
      // ... and each is in the document.
      const [docPath, docMethod] = toOpenApi(key);
      expect([key, Boolean(doc.paths[docPath]?.[docMethod])]).toEqual([key, true]);
    }
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    expect(operations.sort()).toEqual(documented.map((k) => toOpenApi(k).reverse().join(' ')).sort());
    // Neither the web app nor the reference itself is in it.
    expect(Object.keys(doc.paths).every((p) => p.startsWith('/api/') && !p.startsWith('/api/docs'))).toBe(true);
  });

  it('says who may call each operation, from the role matrix, and which need a bearer token', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    const create = doc.paths['/api/plans'].post;
    expect(create['x-roles']).toEqual(['admin', 'billing', 'super_admin']);
    expect(create.description).toContain('Roles: admin, billing, super_admin.');
    expect(create.security).toEqual([{ bearerAuth: [] }]);
    expect(create.tags).toEqual(['plans']);

    const list = doc.paths['/api/plans'].get;
    expect(list['x-roles']).toEqual(['public']);
    // A public operation says so: an empty requirement, no sign-in.
    expect(list.security).toEqual([]);
    expect(doc.paths['/api/auth/profile'].get['x-roles']).toEqual(['authenticated']);
    expect(doc.paths['/api/users'].get['x-roles']).toEqual(expect.arrayContaining(['admin', 'support', 'super_admin']));
    expect(doc.paths['/api/users'].get['x-roles']).not.toContain('user');
  });

  it('takes request bodies and parameters from the zod schemas the server validates with', () => {
    const body = doc.paths['/api/plans'].post.requestBody!.content['application/json'].schema;
    const zodJson = z.toJSONSchema(planInputSchema, { io: 'input' }) as {
      required?: string[];
      properties: Record<string, unknown>;
    };
    expect(body.type).toBe('object');
    expect(Object.keys(body.properties!).sort()).toEqual(Object.keys(zodJson.properties).sort());
    expect([...(body.required ?? [])].sort()).toEqual([...(zodJson.required ?? [])].sort());
    expect(body.required).toEqual(expect.arrayContaining(['name', 'price']));
    expect(body.properties!.price.type).toBe('integer');

    const login = doc.paths['/api/auth/login'].post.requestBody!.content['application/json'].schema;
    expect(Object.keys(login.properties!).sort()).toEqual(Object.keys(loginBodySchema.shape).sort());
    expect(login.required).toEqual(expect.arrayContaining(['email', 'password']));

    const query = doc.paths['/api/plans'].get.parameters!.filter((p) => p.in === 'query').map((p) => p.name);
    expect(query).toEqual(expect.arrayContaining(['page', 'limit', 'status', 'billing_cycle', 'search']));
    const params = doc.paths['/api/plans/{id}'].put.parameters!.filter((p) => p.in === 'path');
    expect(params).toEqual([expect.objectContaining({ name: 'id', required: true })]);
  });

  it('shows answers in the envelope', () => {
    const ok = doc.paths['/api/plans'].get.responses['200'].content!['application/json'].schema;
    expect(Object.keys(ok.properties!)).toEqual(['success', 'message', 'data']);
    const created = doc.paths['/api/plans'].post.responses['201'].content!['application/json'].schema;
    expect(created.required).toEqual(expect.arrayContaining(['success', 'message', 'data']));
  });

  it('describes the failures the guard and the validation give, in the failure envelope', async () => {
    const failures = (path: string, method: string) =>
      Object.fromEntries(Object.entries(doc.paths[path][method].responses).filter(([code]) => /^4/.test(code)));
    // Staff only, with a body: invalid input, not signed in, wrong role, a name already taken, a body too large or
    // of a type no parser takes.
    expect(failures('/api/plans', 'post')).toEqual({
      400: { $ref: '#/components/responses/ValidationFailed' },
      401: { $ref: '#/components/responses/Unauthorized' },
      403: { $ref: '#/components/responses/Forbidden' },
      409: { $ref: '#/components/responses/Conflict' },
      413: { $ref: '#/components/responses/PayloadTooLarge' },
      415: { $ref: '#/components/responses/UnsupportedMediaType' },
      429: { $ref: '#/components/responses/TooManyRequests' },
    });
    // A body naming a record (the plan to subscribe to) may name one that is not there.
    expect(failures('/api/subscriptions', 'post')['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    // An id longer than any the API gives is refused before routing.
    expect(failures('/api/plans/{id}', 'get')['414']).toEqual({ $ref: '#/components/responses/UriTooLong' });
    // Public, with a query: invalid input, and the rate limit every route has.
    expect(Object.keys(failures('/api/plans', 'get'))).toEqual(['400', '429']);
    // Any signed-in user, no input: the missing sign-in, and an account no longer active.
    expect(Object.keys(failures('/api/auth/profile', 'get'))).toEqual(['401', '403', '429']);
    // Public: a wrong password, an account not active.
    expect(Object.keys(failures('/api/auth/login', 'post'))).toEqual(['400', '401', '403', '409', '413', '415', '429']);
    // A record named in the path may not exist.
    expect(failures('/api/plans/{id}', 'get')['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    // Every operation may meet the rate limit and a database outage, both with Retry-After.
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const operation of Object.values(operations)) {
        expect(operation.responses['429']).toEqual({ $ref: '#/components/responses/TooManyRequests' });
        // The readiness check says which of its checks failed, in its own 503.
        if (path === '/api/health/ready') continue;
        expect(operation.responses['503']).toEqual({ $ref: '#/components/responses/ServiceUnavailable' });
      }
    }
    const ready = doc.paths['/api/health/ready'].get.responses['503'].content!['application/json'].schema;
    expect(ready.required).toEqual(['success', 'message']);
    expect(Object.keys(ready.properties!)).toEqual(['success', 'message', 'data']);

    const { components } = doc as unknown as {
      components: {
        responses: Record<string, { content: Record<string, { schema: unknown }> }>;
        schemas: Record<string, { required: string[] }>;
      };
    };
    expect(components.responses.Forbidden.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ApiFailure',
    });
    expect(components.schemas.ApiFailure.required).toEqual(['success', 'message']);

    // What the server really answers has that shape.
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/plans', payload: {} });
    expect(anonymous.statusCode).toBe(401);
    expect(Object.keys(anonymous.json())).toEqual(expect.arrayContaining(components.schemas.ApiFailure.required));
  });
});

describe('the document for integrators (issue 35)', () => {
  it('names every operation with a stable, unique, readable operationId', () => {
    const ids: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations) as Array<
        [string, Operation & { operationId?: string }]
      >) {
        expect(operation.operationId, `${method} ${path}`).toMatch(/^[a-z][a-zA-Z0-9]+$/);
        ids.push(operation.operationId!);
      }
    }
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const id = (path: string, method: string) => (doc.paths[path][method] as { operationId?: string }).operationId;
    expect(id('/api/plans', 'get')).toBe('listPlans');
    expect(id('/api/plans', 'post')).toBe('createPlan');
    expect(id('/api/plans/{id}', 'get')).toBe('getPlan');
    expect(id('/api/plans/{id}', 'put')).toBe('updatePlan');
    expect(id('/api/plans/{id}', 'delete')).toBe('deletePlan');
    expect(id('/api/payments/{id}/refund', 'post')).toBe('refundPayment');
    expect(id('/api/tickets/stats', 'get')).toBe('getTicketStats');
  });

  it('names an operationId in OPERATION_IDS only for a route that exists', async () => {
    const { OPERATION_IDS } = await import('../../server/plugins/openapi-operations');
    const stale = Object.keys(OPERATION_IDS).filter((key) => !doc.paths[toOpenApi(key)[0]]?.[toOpenApi(key)[1]]);
    expect(stale).toEqual([]);
  });

  it("passes redocly lint with the repository's redocly.yaml: no error, no warning", async () => {
    const { loadConfig, lintFromString } = await import('@redocly/openapi-core');
    const config = await loadConfig({ configPath: fileURLToPath(new URL('../../redocly.yaml', import.meta.url)) });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    expect(
      problems
        .filter((p) => !p.ignored)
        .map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`),
    ).toEqual([]);
  });

  it('has no ambiguous paths but the four redocly.yaml names, which the router tells apart', async () => {
    const { createConfig, lintFromString } = await import('@redocly/openapi-core');
    // The rule redocly.yaml switches off, run alone: the pairs it finds are exactly the ones explained there.
    const config = await createConfig({ rules: { 'no-ambiguous-paths': 'error' } });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    const pairs = problems
      .map((p) =>
        [...p.message.matchAll(/`([^`]+)`/g)]
          .map((m) => m[1])
          .sort()
          .join(' ~ '),
      )
      .sort();
    expect(pairs).toEqual([
      '/api/payments/gateways/{id} ~ /api/payments/{id}/refund',
      '/api/payments/methods/{id} ~ /api/payments/{id}/refund',
      '/api/payments/webhooks/{provider} ~ /api/payments/{id}/refund',
      '/api/vouchers/batches/{id} ~ /api/vouchers/{id}/revoke',
    ]);
    // And the server does tell them apart: the literal segment wins over the parameter.
    const as = await signInEveryRole(t, ['admin']);
    const gateway = await as('GET', '/payments/gateways/refund', 'admin');
    expect(gateway.statusCode).toBe(404);
    expect(gateway.json().message).toMatch(/gateway/i);
  });

  it('gives every operation a summary, a tag described in the tag list, and security', () => {
    const { tags } = doc as unknown as { tags: Array<{ name: string; description?: string }> };
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations) as Array<
        [string, Operation & { summary?: string }]
      >) {
        expect(operation.summary, `${method} ${path}`).toMatch(/^[A-Z]\S* \S/);
        expect(tags.find((tag) => tag.name === operation.tags?.[0])?.description, `${method} ${path}`).toBeTruthy();
        expect(Array.isArray(operation.security), `${method} ${path}`).toBe(true);
      }
    }
    expect(doc.paths['/api/plans/{id}'].delete).toMatchObject({ summary: 'Delete a plan' });
    expect(doc.paths['/api/payments/{id}/refund'].post).toMatchObject({ summary: 'Refund a payment' });
    // The refresh cookie is a scheme of its own; refresh and sign-out work without it too.
    expect(doc.paths['/api/auth/refresh-token'].post.security).toEqual([{ refreshCookie: [] }, {}]);
    expect(doc.components.securitySchemes.refreshCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'refresh_token',
    });
  });

  it('names every summary it holds for a route that exists', async () => {
    const { SUMMARIES } = await import('../../server/plugins/openapi-operations');
    const stale = Object.keys(SUMMARIES).filter((key) => !doc.paths[toOpenApi(key)[0]]?.[toOpenApi(key)[1]]);
    expect(stale).toEqual([]);
  });

  it('declares the media type of answers that are not JSON', () => {
    const content = (path: string, code = '200') =>
      Object.keys((doc.paths[path].get.responses[code] as { content?: object }).content ?? {});
    expect(content('/api/users/export.csv')).toEqual(['text/csv']);
    expect(content('/api/payments/invoices/{id}/pdf')).toEqual(['application/pdf']);
    // A page, or the JSON failure when the Sandbox provider is off (production).
    expect(content('/api/payments/sandbox/checkout/{transactionId}', '404')).toEqual(['application/json', 'text/html']);
  });
});

describe('/api/docs', () => {
  it('serves the interactive reference of that document under the portal’s script policy', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger-ui-bundle.js');
    expect(page.body).toContain('<title>ISP Portal API reference</title>');
    expect(page.body).not.toMatch(/<script>[^<]/);
    // Its own policy: scripts from this origin only, inline styles and data: images (Swagger UI writes both).
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data:");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toBe(DOCS_CONTENT_SECURITY_POLICY); // not the web app's, which may change on its own

    const init = await t.app.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    expect(init.body).toContain('/api/openapi.json');
    const bundle = await t.app.inject({ method: 'GET', url: '/api/docs/static/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-security-policy']).toBe(csp);
  });
});
