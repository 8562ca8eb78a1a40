/**
 * `npm run lint:openapi`: lints the API's OpenAPI document with the Redocly CLI, as an integrator's tooling would,
 * and fails on any error or warning. The document is the one GET /api/openapi.json serves, from an app built on a
 * fresh in-memory database (the test set-up: no server, no port); the rules are the repository's redocly.yaml.
 *
 * The CLI version is pinned here, and only here. tests/server/openapi.test.ts lints the same document with the same
 * redocly.yaml through @redocly/openapi-core (the CLI's engine, a devDependency), so `npm test` catches a problem
 * too; this script checks it with the CLI itself.
 *
 *   npm run lint:openapi                 lint (exit 1 on any error or warning)
 *   npm run lint:openapi -- --out x.json also keep the document in x.json
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestApp } from '../tests/helpers/server';

export const REDOCLY_CLI_VERSION = '2.77.0';

const root = resolve(import.meta.dirname, '..');
const outIndex = process.argv.indexOf('--out');
const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
const file = outIndex > 0 ? resolve(process.argv[outIndex + 1]) : join(dir, 'openapi.json');

const t = await createTestApp();
let status = 1;
try {
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`GET /api/openapi.json answered ${res.statusCode}`);
  writeFileSync(file, JSON.stringify(res.json(), null, 2));
  // JSON output, read here: the CLI exits 1 on errors only, and warnings must fail too.
  const run = spawnSync(
    'npx',
    [
      '--yes',
      `@redocly/cli@${REDOCLY_CLI_VERSION}`,
      'lint',
      file,
      '--config',
      join(root, 'redocly.yaml'),
      '--format',
      'json',
      '--max-problems',
      '10000',
    ],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  const json = run.stdout.slice(run.stdout.indexOf('{'));
  let report: {
    totals: { errors: number; warnings: number };
    problems: Array<{ severity: string; ruleId: string; message: string; location: Array<{ pointer: string }> }>;
  };
  try {
    report = JSON.parse(json);
  } catch {
    process.stderr.write(run.stdout + run.stderr);
    throw new Error(`redocly lint (CLI ${REDOCLY_CLI_VERSION}) gave no report (exit ${run.status})`);
  }
  for (const p of report.problems) console.log(`${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
  const { errors, warnings } = report.totals;
  console.log(`redocly lint (CLI ${REDOCLY_CLI_VERSION}, redocly.yaml): ${errors} errors, ${warnings} warnings.`);
  status = errors === 0 && warnings === 0 ? 0 : 1;
} finally {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
