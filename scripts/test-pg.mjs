// `npm run test:pg`: the server tests against PostgreSQL instead of PGlite. Each test file creates its own
// throwaway database (isp_test_<random>) through TEST_DATABASE_URL and drops it afterwards.
// Extra arguments go to vitest, e.g. `npm run test:pg -- --reporter=json --outputFile=pg.json`.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Real peers the server tests start (radclient plays the NAS in the RADIUS tests): installed when missing.
spawnSync(process.execPath, [new URL('./ensure-radclient.mjs', import.meta.url).pathname], { stdio: 'inherit' });
// The PDF language tests render pages with pdftoppm and read them back with tesseract.
spawnSync(process.execPath, [new URL('./ensure-ocr.mjs', import.meta.url).pathname], { stdio: 'inherit' });
// The PostgreSQL backup tests run pg_dump and pg_restore.
spawnSync(process.execPath, [new URL('./ensure-pg-client.mjs', import.meta.url).pathname], { stdio: 'inherit' });

// Files that never open the test database (protocol clients against their peers, processes started on their own
// PGlite folder, pure functions) run the same here as in `npm test`: they are not run twice.
const DATABASE_HELPERS =
  /createTestApp|createTestDatabase|createThrowawayPostgres|TEST_DATABASE_URL|helpers\/(server|multi-node|test-nas)'/;
/**
 * Files whose subject is not the database, though they keep their data in one: what they prove holds on either, and
 * `npm test` proves it on PGlite (PostgreSQL itself, compiled to WebAssembly). Run once to keep CI within its time:
 * the PDFs' text read back by OCR, delivery to a real SMTP server, and the OpenAPI fuzzer (the HTTP contract: no
 * 5xx for any input the document allows).
 */
const NOT_ABOUT_THE_DATABASE = new Set(['pdf-language.test.ts', 'smtp-delivery.test.ts', 'openapi-fuzz.test.ts']);
const serverTests = new URL('../tests/server/', import.meta.url).pathname;
const withoutDatabase = readdirSync(serverTests)
  .filter(
    (f) =>
      f.endsWith('.test.ts') &&
      (NOT_ABOUT_THE_DATABASE.has(f) || !DATABASE_HELPERS.test(readFileSync(join(serverTests, f), 'utf8'))),
  )
  .flatMap((f) => ['--exclude', `tests/server/${f}`]);

const url = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const result = spawnSync(
  'npx',
  ['vitest', 'run', '--project', 'server', ...withoutDatabase, ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    env: { ...process.env, TEST_DATABASE_URL: url },
  },
);
if (result.error) console.error(result.error.message);
process.exit(result.status ?? 1);
