/**
 * Issue 39: `npm run import` as an operator runs it, on a new embedded database: wrong arguments get the usage, an
 * unreachable source a clear line, the dry run a table of what would come, and a second real run "already here".
 * (What the import writes is checked on both databases by import-daloradius and import-phpnuxbill.)
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/cli';
import { createDaloradiusDatabase } from './fixtures/daloradius-source';

// Each run is a child process that opens (and the first time creates and migrates) an embedded database.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

describe('npm run import', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'isp-import-'));
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', SEED_DEMO: 'false' };
  let source: Awaited<ReturnType<typeof createDaloradiusDatabase>>;

  beforeAll(async () => {
    source = await createDaloradiusDatabase(new Date());
  });
  afterAll(async () => {
    await source?.drop();
  });

  it('refuses missing or unknown arguments with the usage, and an unreachable source with one clear line', async () => {
    const missing = await runCli('import', ['--from', 'splynx'], env);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('--from (phpnuxbill or daloradius) and --source are required');
    expect(missing.err).toContain('Usage: npm run import');
    const bad = await runCli(
      'import',
      ['--from', 'daloradius', '--source', 'postgres://x@127.0.0.1/db', '--dry-run'],
      env,
    );
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--source must be a mysql:// address');
  });

  it('prints the dry run, imports, and says so when everything is already here', async () => {
    const dry = await runCli('import', ['--from', 'daloradius', '--source', source.url, '--dry-run'], env);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toContain('DRY RUN: nothing was written.');
    expect(dry.out).toMatch(/Customers\s+8\s+0\s+0\s+0/);
    expect(dry.out).toMatch(/Skipped \(\d+\):[\s\S]*login frank has no rate/);
    const report = join(dataDir, 'import.json');
    const real = await runCli('import', ['--from', 'daloradius', '--source', source.url, '--report', report], env);
    expect(real.code, real.err).toBe(0);
    expect(real.out).toMatch(/Import run [0-9a-f-]{36} finished\./);
    expect(real.out).toMatch(/Subscriptions \(logins\)\s+8\s+0\s+0\s+1/);
    expect(JSON.parse(readFileSync(report, 'utf8')).counts.customer.created).toBe(8);
    const again = await runCli('import', ['--from', 'daloradius', '--source', source.url], env);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/Customers\s+0\s+0\s+8\s+0/);
  });
});
