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
const serverTests = new URL('../tests/server/', import.meta.url).pathname;
const withoutDatabase = readdirSync(serverTests)
  .filter((f) => f.endsWith('.test.ts') && !DATABASE_HELPERS.test(readFileSync(join(serverTests, f), 'utf8')))
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
