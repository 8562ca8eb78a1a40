/**
 * Issue 35: the operationIds of the OpenAPI document are pinned in fixtures/openapi-operation-ids.json, so that a
 * generated client's method names change only on purpose. Each line is "<operationId> <METHOD> <path>", sorted.
 * A renamed or removed operation fails here (that breaks an integrator's generated client): check the id
 * (server/plugins/openapi-operations.ts, OPERATION_IDS, or the CRUD rule of operationIdOf), then rewrite the fixture with
 *   UPDATE_OPERATION_IDS=1 npx vitest run tests/server/openapi-operation-ids.test.ts
 * and commit it with the change. A new operation breaks no client: it passes (openapi.test.ts still checks its id's
 * form and uniqueness), so a declared resource needs no edit here, and is pinned the next time the fixture is written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/server';

const FIXTURE = fileURLToPath(new URL('./fixtures/openapi-operation-ids.json', import.meta.url));

let t: TestApp;
let lines: string[];
beforeAll(async () => {
  t = await createTestApp();
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  lines = Object.entries(doc.paths)
    .flatMap(([path, operations]) =>
      Object.entries(operations).map(
        ([method, op]) => `${op.operationId} ${method.toUpperCase()} ${path.replace(/^\/api/, '')}`,
      ),
    )
    .sort();
});
afterAll(() => t?.close());

it('still answers every pinned operationId, under the same method and path', () => {
  if (process.env.UPDATE_OPERATION_IDS === '1') writeFileSync(FIXTURE, `${JSON.stringify(lines, null, 2)}\n`);
  const pinned = JSON.parse(readFileSync(FIXTURE, 'utf8')) as string[];
  const removed = pinned.filter((l) => !lines.includes(l));
  expect(
    removed,
    'Pinned operationIds are gone or now name another method or path (tests/server/fixtures/openapi-operation-ids.json): ' +
      "a generated client's method breaks. If the change is deliberate, run " +
      'UPDATE_OPERATION_IDS=1 npx vitest run tests/server/openapi-operation-ids.test.ts and commit the fixture.',
  ).toEqual([]);
  expect(new Set(lines.map((l) => l.split(' ')[0])).size).toBe(lines.length);
});
