/**
 * Issue 32: a fuzzer over the API's own OpenAPI document. For every operation in GET /api/openapi.json and every
 * caller (anonymous and each demo role), requests are generated from the operation's parameter and body schemas —
 * values that fit, and hostile ones (NUL bytes, lone surrogates, huge and negative numbers, wrong types, bogus
 * enum values, long strings, made-up and real ids) — and sent through the real app. No answer may be a 5xx, and
 * every failure must be the envelope {success: false, message}, and every status answered is one the operation
 * declares in the document. Values outside a documented enum are never accepted either.
 *
 * Seeded (FUZZ_SEED, default below) so a failure is reproducible; bounded by the number of requests per operation
 * (FUZZ_RUNS), about a minute and a half on two cores. Each finding is printed with the request that caused it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../contract/roles';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from '../../server/db/seed';
import { createTestApp, type TestApp } from '../helpers/server';

const SEED = Number(process.env.FUZZ_SEED ?? 3201);
/** Generated requests per operation for a caller it admits, and for one it refuses (401/403 come before input). */
const RUNS_ADMITTED = Number(process.env.FUZZ_RUNS ?? 8);
const RUNS_REFUSED = 2;
/** Only the operations whose "METHOD /path" matches this expression (for following up one finding). */
const ONLY = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : null;

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchema;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  default?: unknown;
};
type Parameter = { in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema: JsonSchema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  'x-roles'?: string[];
  responses?: Record<string, unknown>;
};
type Document = { paths: Record<string, Record<string, Operation>> };

const ROLES = DEMO_ACCOUNTS.map((a) => a.role);
type Caller = Role | 'anonymous';
const CALLERS: Caller[] = ['anonymous', ...ROLES];

/**
 * Operations left out, each for a reason that is not "it fails":
 * - POST /auth/logout ends the caller's own session, which every later request of that role needs (a 401 on
 *   logout is still checked below, as anonymous).
 * - POST /devices/test-connection and /devices/{id}/test-connection, /devices/{id}/poll, /devices/{id}/backups,
 *   POST /settings/test-email: each opens a connection to the host in its input (SNMP, the RouterOS API, SMTP) and
 *   waits for it to time out; a fuzzer's made-up hosts would spend its minutes waiting, not testing. Their input
 *   still passes the same boundary and schemas (checked as anonymous and by the refused roles).
 */
const CALL_OUT = new Set([
  'POST /api/devices/test-connection',
  'POST /api/devices/{id}/test-connection',
  'POST /api/devices/{id}/poll',
  'POST /api/devices/{id}/backups',
  'POST /api/settings/test-email',
]);
const OWN_SESSION = new Set(['POST /api/auth/logout']);
/**
 * Pages a person's browser opens (the Sandbox provider's hosted checkout and card set-up): their failures are HTML
 * pages for that person, not the API's envelope. They still must never answer 5xx.
 */
const BROWSER_PAGES = new Set([
  'GET /api/payments/sandbox/checkout/{transactionId}',
  'POST /api/payments/sandbox/checkout/{transactionId}/approve',
  'POST /api/payments/sandbox/checkout/{transactionId}/decline',
  'GET /api/payments/sandbox/setup/{transactionId}',
  'POST /api/payments/sandbox/setup/{transactionId}/{choice}',
]);

// ---------------------------------------------------------------------------------------------------------------
// Values.

/** Values no schema of ours allows in a string, a number or an object field. */
const HOSTILE: unknown[] = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'tail\udfff',
  '',
  ' ',
  'A'.repeat(5000),
  '9'.repeat(400),
  '-1',
  '1e400',
  'NaN',
  '../../../etc/passwd',
  "' OR '1'='1",
  '<script>alert(1)</script>',
  'bogus-enum-value',
  '2026-02-30',
  '9999-99-99T99:99:99Z',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '%00',
  '😀',
  -1,
  0,
  1.5,
  2 ** 31,
  2 ** 63,
  Number.MAX_SAFE_INTEGER + 2,
  1e308,
  -1e308,
  true,
  null,
  [],
  {},
  { nested: { deeper: ['\u0000'] } },
  [1, 'two', null],
];
const hostile = fc.constantFrom(...HOSTILE);

/** Ids seen in the API's own lists, by the first segment of the path that listed them (tickets, plans, …). */
const ids = new Map<string, string[]>();
const allIds = () => [...new Set([...ids.values()].flat())];

function idFor(path: string): fc.Arbitrary<string> {
  const own = ids.get(path.split('/')[2]) ?? [];
  const all = allIds();
  return fc.oneof(
    ...(own.length ? [{ weight: 5, arbitrary: fc.constantFrom(...own) }] : []),
    ...(all.length ? [{ weight: 2, arbitrary: fc.constantFrom(...all) }] : []),
    { weight: 2, arbitrary: fc.uuid() },
  );
}

const isoDay = fc
  .date({ min: new Date('1990-01-01'), max: new Date('2040-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const isoTime = fc
  .date({ min: new Date('1990-01-01'), max: new Date('2040-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString());

function patterned(pattern: string): fc.Arbitrary<string> | null {
  try {
    const re = new RegExp(pattern);
    return fc.stringMatching(re).filter((s) => s.length <= 300);
  } catch {
    return null;
  }
}

/** Values that fit the schema (mostly; a pattern or a rule the schema cannot say may still refuse them). */
function fitting(schema: JsonSchema, path: string, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((b) => fitting(b, path, depth)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      if (schema.format === 'uuid') return idFor(path);
      if (schema.format === 'date-time') return isoTime;
      if (schema.format === 'date' || schema.pattern === '^\\d{4}-\\d{2}-\\d{2}$') return isoDay;
      if (schema.format === 'email') return fc.emailAddress();
      const byPattern = schema.pattern ? patterned(schema.pattern) : null;
      if (byPattern) return byPattern;
      const minLength = schema.minLength ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40));
      return fc
        .string({ minLength, maxLength, unit: 'grapheme' })
        .map((s) => (s.length > (schema.maxLength ?? Infinity) ? s.slice(0, schema.maxLength) : s));
    }
    case 'integer':
    case 'number': {
      const min = Math.max(
        schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1_000_000),
        -1_000_000,
      );
      const max = Math.min(
        schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1_000_000),
        1_000_000,
      );
      return fc.integer({ min: Math.ceil(Math.min(min, max)), max: Math.floor(Math.max(min, max)) });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const maxLength = Math.min(schema.maxItems ?? 3, 3);
      return depth > 4 ? fc.constant([]) : fc.array(value(schema.items ?? {}, path, depth + 1), { maxLength });
    }
    case 'object': {
      if (depth > 4) return fc.constant({});
      const properties = schema.properties ?? {};
      const record = fc.record(
        Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, value(s, path, depth + 1)])),
        { requiredKeys: (schema.required ?? []).filter((k) => k in properties) },
      );
      if (typeof schema.additionalProperties !== 'object') return record;
      const extra = fc.dictionary(
        schema.propertyNames
          ? (fitting(schema.propertyNames, path, depth + 1) as fc.Arbitrary<string>)
          : fc.string({ maxLength: 12 }),
        value(schema.additionalProperties, path, depth + 1),
        { maxKeys: 3 },
      );
      return fc.tuple(record, extra).map(([a, b]) => ({ ...b, ...a }));
    }
    default:
      return fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean(), fc.constant(null));
  }
}

/** A field's value: usually one that fits, sometimes a hostile one. */
function value(schema: JsonSchema, path: string, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 5, arbitrary: fitting(schema, path, depth) }, { weight: 1, arbitrary: hostile });
}

/** A query or path value as text. */
const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** Percent-encoding that also writes a lone surrogate (as the three bytes a careless encoder would send). */
function encode(text: string): string {
  let out = '';
  for (const ch of text) {
    try {
      out += encodeURIComponent(ch);
    } catch {
      const c = ch.charCodeAt(0);
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    }
  }
  return out;
}

interface GeneratedRequest {
  method: string;
  url: string;
  payload?: string;
  contentType?: string;
}

function requests(method: string, path: string, operation: Operation): fc.Arbitrary<GeneratedRequest> {
  const params = operation.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const pathValues = fc.record(
    Object.fromEntries(
      pathParams.map((p) => [
        p.name,
        fc.oneof(
          {
            weight: 6,
            arbitrary:
              p.schema.format === 'uuid' || p.name.endsWith('id') || p.name.endsWith('Id')
                ? idFor(path)
                : fitting(p.schema, path),
          },
          { weight: 1, arbitrary: hostile },
        ),
      ]),
    ),
  );
  const queryValues = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, value(p.schema, path)])), {
    requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name),
  });
  const json = operation.requestBody?.content['application/json']?.schema;
  const body: fc.Arbitrary<{ payload?: string; contentType?: string }> = json
    ? fc.oneof(
        {
          weight: 8,
          arbitrary: value(json, path).map((v) => ({ payload: JSON.stringify(v), contentType: 'application/json' })),
        },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom('{"a":', '[]', 'null', '"text"', '1e999')
            .map((payload) => ({ payload, contentType: 'application/json' })),
        },
      )
    : operation.requestBody
      ? fc.constant({
          payload:
            '--x\r\nContent-Disposition: form-data; name="files"; filename="a\u0000.png"\r\n\r\nnot a png\r\n--x--\r\n',
          contentType: 'multipart/form-data; boundary=x',
        })
      : fc.constant({});
  return fc.tuple(pathValues, queryValues, body).map(([pv, qv, b]) => {
    const url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => encode(asText(pv[name])) || '%20');
    const query = Object.entries(qv)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${encode(k)}=${encode(asText(v))}`)
      .join('&');
    return { method: method.toUpperCase(), url: query ? `${url}?${query}` : url, ...b };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The run.

let t: TestApp;
let doc: Document;
let dataDir: string;
const tokens = new Map<Role, string>();
const userIds = new Set<string>();

async function signIn(role: Role) {
  const account = DEMO_ACCOUNTS.find((a) => a.role === role)!;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: account.email, password: DEMO_PASSWORD, rememberMe: false },
    remoteAddress: '10.255.0.1',
  });
  if (res.statusCode !== 200) throw new Error(`the fuzzer lost the ${role} account: ${res.statusCode} ${res.body}`);
  const body = res.json();
  tokens.set(role, body.data.tokens.access.token);
  userIds.add(body.data.user.id);
}

let ipCounter = 0;
async function send(caller: Caller, request: GeneratedRequest): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (caller !== 'anonymous') headers.authorization = `Bearer ${tokens.get(caller)}`;
  if (request.contentType) headers['content-type'] = request.contentType;
  // A new client address each time: the per-address limits (sign-in, registration) must not end the run.
  ipCounter++;
  const remoteAddress = `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
  const response = await t.app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers,
    payload: request.payload,
    remoteAddress,
  });
  // A generated request may have ended the caller's session (e.g. a password change that happened to be right);
  // sign in again so the rest of the run still speaks as that role.
  if (caller !== 'anonymous' && response.statusCode === 401) {
    const check = await t.app.inject({
      method: 'GET',
      url: '/api/auth/profile',
      headers: { authorization: headers.authorization },
    });
    if (check.statusCode === 401) await signIn(caller);
  }
  return response;
}

/** What is wrong with an answer, or null. */
function problemWith(response: LightMyRequestResponse, page: boolean): string | null {
  if (response.statusCode >= 500) return `status ${response.statusCode}: ${response.body.slice(0, 300)}`;
  if (response.statusCode < 400) return null;
  if (page && String(response.headers['content-type']).startsWith('text/html')) return null;
  let body: unknown;
  try {
    body = response.json();
  } catch {
    return `status ${response.statusCode} without a JSON envelope: ${response.body.slice(0, 200)}`;
  }
  const b = body as { success?: unknown; message?: unknown };
  if (b.success !== false || typeof b.message !== 'string' || !b.message)
    return `status ${response.statusCode} without the failure envelope: ${response.body.slice(0, 200)}`;
  return null;
}

/** Collects ids from every list the super admin can read, for path parameters and id fields. */
async function collectIds() {
  for (const [path, operations] of Object.entries(doc.paths)) {
    const get = operations.get;
    if (!get || path.includes('{') || /export|\.csv|\.pdf|openapi|outbox/.test(path)) continue;
    const res = await t.app.inject({
      method: 'GET',
      url: path,
      headers: { authorization: `Bearer ${tokens.get('super_admin')}` },
    });
    if (res.statusCode !== 200 || !String(res.headers['content-type']).includes('json')) continue;
    const found: string[] = [];
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) {
          if (
            (k === 'id' || k.endsWith('_id')) &&
            typeof x === 'string' &&
            /^[0-9a-f-]{36}$/.test(x) &&
            !userIds.has(x)
          )
            found.push(x);
          else walk(x);
        }
    };
    walk(res.json());
    const segment = path.split('/')[2];
    ids.set(segment, [...new Set([...(ids.get(segment) ?? []), ...found])]);
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'isp-fuzz-'));
  // Every answer is also checked against the document: declared status, media type, and body schema (see
  // tests/helpers/openapi-responses.ts); the main test below reports what did not match.
  t = await createTestApp({ config: { dataDir }, checkResponses: true });
  await seedDemoData(t.app.db, { clock: t.clock, box: t.app.secretBox });
  t.app.settings.invalidate();
  for (const role of ROLES) await signIn(role);
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  doc = res.json();
  // Something to point at: a ticket and a subscription of the customer, a device, an IP network.
  const as = (role: Role, method: 'POST', url: string, payload: object) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens.get(role)}` }, payload });
  const plans = (await t.app.inject({ method: 'GET', url: '/api/plans' })).json().data;
  const planId = (Array.isArray(plans) ? plans : plans.items)[0].id;
  await as('user', 'POST', '/api/tickets', { subject: 'Fuzz ticket', description: 'Something to reply to' });
  await as('user', 'POST', '/api/subscriptions', { plan_id: planId, location: '1 Fuzz Lane' });
  await as('admin', 'POST', '/api/devices', {
    name: 'Fuzz NAS',
    host: '127.0.0.1',
    vendor: 'mikrotik',
    snmp_community: 'public',
    hotspot_url: 'http://10.5.50.1/login',
  });
  await as('admin', 'POST', '/api/ipam/networks', { name: 'Fuzz pool', cidr: '10.99.0.0/24', purpose: 'pool' });
  await as('billing', 'POST', '/api/payments/gateways', { name: 'Fuzz cash desk', provider: 'manual' });
  await collectIds();
}, 120_000);

afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function operations(): Array<[string, string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => [method, path, op] as [string, string, Operation]),
  );
}

const admits = (operation: Operation, caller: Caller) => {
  const roles = operation['x-roles'] ?? [];
  if (roles.includes('public')) return true;
  if (caller === 'anonymous') return false;
  return roles.includes('authenticated') || roles.includes(caller);
};

describe('fuzzing every operation of the OpenAPI document as every role', () => {
  it('no answer is a 5xx, and every failure is the {success:false, message} envelope', async () => {
    const findings: string[] = [];
    const undeclared = new Set<string>();
    let sent = 0;
    const all = operations();
    if (!ONLY) expect(all.length).toBeGreaterThan(100);
    for (const [index, [method, path, operation]] of all.entries()) {
      const key = `${method.toUpperCase()} ${path}`;
      if (ONLY && !ONLY.test(key)) continue;
      const arbitrary = requests(method, path, operation);
      for (const [c, caller] of CALLERS.entries()) {
        if (OWN_SESSION.has(key) && caller !== 'anonymous') continue;
        const admitted = admits(operation, caller);
        if (CALL_OUT.has(key) && admitted && caller !== 'anonymous') continue;
        const samples = fc.sample(arbitrary, {
          seed: SEED + index * 31 + c,
          numRuns: admitted ? RUNS_ADMITTED : RUNS_REFUSED,
        });
        for (const request of samples) {
          const response = await send(caller, request);
          sent++;
          const problem = problemWith(response, BROWSER_PAGES.has(key));
          if (problem)
            findings.push(
              `${caller} ${request.method} ${request.url.slice(0, 200)} ${request.payload?.slice(0, 300) ?? ''}\n    → ${problem}`,
            );
          // The document is the contract: every status the API answered is one the operation declares.
          const declared = operation.responses ?? {};
          if (!(String(response.statusCode) in declared) && !('default' in declared))
            undeclared.add(`${key} answered ${response.statusCode} (declared: ${Object.keys(declared).join(', ')})`);
        }
      }
    }
    console.log(`openapi fuzz: ${sent} requests over ${all.length} operations, seed ${SEED}`);
    expect(findings, findings.join('\n')).toEqual([]);
    expect([...undeclared].sort(), [...undeclared].sort().join('\n')).toEqual([]);
    // And each answer's body matches the schema the document gives for its status (failures: the envelope).
    const offSchema = [...new Set(t.responseProblems.splice(0))]
      .filter((p) => !/which it does not declare/.test(p))
      .sort();
    expect(offSchema, offSchema.join('\n')).toEqual([]);
  }, 400_000);

  it('a value outside a documented enum in the query string is refused (400), never served', async () => {
    const accepted: string[] = [];
    for (const [method, path, operation] of operations()) {
      if (method !== 'get' || path.includes('{')) continue;
      for (const p of operation.parameters ?? []) {
        if (p.in !== 'query' || !p.schema.enum) continue;
        const caller = (operation['x-roles'] ?? []).includes('public') ? 'anonymous' : 'super_admin';
        const res = await send(caller, { method: 'GET', url: `${path}?${p.name}=not-${String(p.schema.enum[0])}` });
        if (res.statusCode !== 400) accepted.push(`${path}?${p.name}: ${res.statusCode}`);
      }
    }
    expect(accepted).toEqual([]);
  });
});
