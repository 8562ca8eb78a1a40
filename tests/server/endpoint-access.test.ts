/**
 * Every endpoint of the API with every role: the matrix in contract/roles.ts is what the server enforces.
 * For each ENDPOINT_ACCESS entry the test calls the real route (path parameters filled with harmless values,
 * an empty body) as a visitor and as each role, and checks who gets 401, who gets 403 and who gets past the
 * guard (any other answer: 200, 400 for the empty body, 404 for the made-up id...). A route listed in the
 * matrix but not served answers 'Route not found', which fails the test, so the matrix and the server cannot
 * drift apart in either direction (the server already refuses to start with an unlisted route).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, allows, endpointAccessEntries } from '../../contract/roles';
import { createTestApp, signInEveryRole, type ApiMethod, type CallAs, type TestApp } from '../helpers/server';

let t: TestApp;
let call: CallAs;

beforeAll(async () => {
  t = await createTestApp();
  call = await signInEveryRole(t, ROLES);
});
afterAll(() => t.close());

const PARAMS: Record<string, () => string> = {
  id: () => randomUUID(),
  name: () => 'isp-portal-2026-01-01T00-00-00-000Z.tar.gz',
  attachmentId: () => randomUUID(),
  photoId: () => randomUUID(),
  backupId: () => randomUUID(),
  jobId: () => randomUUID(),
  interfaceId: () => randomUUID(),
  providerId: () => randomUUID(),
  provider: () => 'sandbox',
  transactionId: () => 'sbx_does_not_exist',
  choice: () => 'ok',
  type: () => 'privacy-policy',
};

function concretePath(pattern: string): string {
  // A wildcard (the API reference's files) is tried with one of its real files.
  if (pattern === '/docs/static/*') return '/docs/static/swagger-ui.css';
  return pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = PARAMS[name];
    if (!value) throw new Error(`endpoint-access.test: no sample value for path parameter :${name} in ${pattern}`);
    return value();
  });
}

const entries = Object.entries(endpointAccessEntries()).map(([key, audience]) => {
  const [method, pattern] = key.split(' ') as [ApiMethod, string];
  return { key, method, pattern, audience };
});

/** Signing out ends every access token of the user (issue 32): the roles sign in again after it. */
const SIGNS_OUT = new Set(['POST /auth/logout']);

async function signInAgain(): Promise<CallAs> {
  const tokens = new Map<string, string>();
  for (const role of ROLES) tokens.set(role, (await t.login(`${role}@example.com`)).token);
  return (method, url, role, payload) =>
    t.app.inject({
      method,
      url: `/api${url}`,
      headers: role ? { authorization: `Bearer ${tokens.get(role)}` } : {},
      payload: payload as object,
    });
}

/** Public routes that answer 204 (nothing to do, issue 34) when their own credential (the refresh cookie) is missing. */
const OWN_CREDENTIAL = new Set(['POST /auth/refresh-token']);

const messageOf = (body: string): unknown => {
  try {
    return (JSON.parse(body) as { message?: unknown }).message;
  } catch {
    return undefined; // an HTML page (the sandbox's hosted checkout)
  }
};

const FORBIDDEN = { success: false, message: 'You do not have permission to perform this action' };
const UNAUTHENTICATED = { success: false, message: 'Authentication required' };

describe('every endpoint answers every role as contract/roles.ts says', () => {
  it('the matrix lists endpoints', () => {
    expect(entries.length).toBeGreaterThan(40);
  });

  for (const { key, method, pattern, audience } of entries) {
    it(`${key} → ${Array.isArray(audience) ? audience.join(', ') : audience}`, async () => {
      const payload = method === 'GET' || method === 'DELETE' ? undefined : {};
      const anonymous = await call(method, concretePath(pattern), undefined, payload);
      expect(messageOf(anonymous.body), `${key} is served`).not.toBe('Route not found');
      if (audience === 'public' && OWN_CREDENTIAL.has(key)) expect(anonymous.statusCode).toBe(204);
      else if (audience === 'public') expect([401, 403], `${key} visitor`).not.toContain(anonymous.statusCode);
      else {
        expect(anonymous.statusCode, `${key} visitor`).toBe(401);
        expect(anonymous.json()).toEqual(UNAUTHENTICATED);
      }

      for (const role of ROLES) {
        // Deleting with a made-up id changes nothing, so every call is safe to make as every role.
        const res = await call(method, concretePath(pattern), role, payload);
        if (OWN_CREDENTIAL.has(key)) {
          expect(res.statusCode).toBe(204);
          expect(res.body).toBe('');
        } else if (allows(audience, role)) {
          expect([401, 403], `${key} as ${role} passes the guard (got ${res.statusCode} ${res.body})`).not.toContain(
            res.statusCode,
          );
        } else {
          expect(res.statusCode, `${key} as ${role}`).toBe(403);
          expect(res.json()).toEqual(FORBIDDEN);
        }
        if (SIGNS_OUT.has(key)) call = await signInAgain();
      }
    });
  }
});
