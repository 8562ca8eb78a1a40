/**
 * Issue 35: every operationId of the OpenAPI document is pinned in fixtures/openapi-operation-ids.json, so that a
 * generated client's method names change only on purpose. Each line is "<operationId> <METHOD> <path>", sorted.
 * A new, renamed or removed operation fails here: check the id (server/plugins/openapi-operations.ts, OPERATION_IDS,
 * or the CRUD rule of operationIdOf), then rewrite the fixture with
 *   UPDATE_OPERATION_IDS=1 npx vitest run tests/server/openapi-operation-ids.test.ts
 * and commit it with the change.
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

it('answers the pinned operationIds, no more and no fewer', () => {
  if (process.env.UPDATE_OPERATION_IDS === '1') writeFileSync(FIXTURE, `${JSON.stringify(lines, null, 2)}\n`);
  const pinned = JSON.parse(readFileSync(FIXTURE, 'utf8')) as string[];
  const added = lines.filter((l) => !pinned.includes(l));
  const removed = pinned.filter((l) => !lines.includes(l));
  expect(
    { added, removed },
    'The operationIds differ from tests/server/fixtures/openapi-operation-ids.json. If the change is deliberate, run ' +
      'UPDATE_OPERATION_IDS=1 npx vitest run tests/server/openapi-operation-ids.test.ts and commit the fixture.',
  ).toEqual({ added: [], removed: [] });
  expect(new Set(lines.map((l) => l.split(' ')[0])).size).toBe(lines.length);
});
