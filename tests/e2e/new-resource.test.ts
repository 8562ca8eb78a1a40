/**
 * Issue 20: `npm run new:resource` on a throwaway copy of the repository (the files a clone has, plus this
 * working tree's changes; node_modules linked). The resource it writes typechecks, and its generated API test
 * and browser test pass as written, run by Vitest in the copy (the browser test against the copy's own build).
 * Running it again with the same name, an unknown field type or a reserved word changes nothing and says why.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
let copy: string;

/** The environment of a fresh shell: the outer Vitest's variables would steer the inner one. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|TEST|NODE_ENV$|TINYPOOL)/.test(k)));
}

function run(command: string, args: string[], timeout = 300_000): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd: copy, encoding: 'utf8', env: cleanEnv(), timeout, maxBuffer: 64 * 1024 * 1024 });
}

const scaffold = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'scripts/new-resource.ts', ...args], 120_000);

/** A digest of every file in the copy but node_modules, dist and caches: "changes nothing" means equal digests. */
function treeDigest(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (['node_modules', 'dist', 'test-results', '.git'].includes(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(path.slice(copy.length)).update(readFileSync(path));
    }
  };
  walk(copy);
  return hash.digest('hex');
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'isp-scaffold-'));
  // What a clone of this tree has: tracked files and new ones not ignored (deleted files left out).
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    const from = join(ROOT, file);
    if (!existsSync(from) || !statSync(from).isFile()) continue;
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(from, join(copy, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
});
afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

const FIELDS = 'title:text body:markdown published:boolean published_at:date';
const ACCESS = 'admin:crud user:read';

describe('npm run new:resource', () => {
  it('refuses an unknown field type, a reserved word, an existing name and a bad access rule, writing nothing', () => {
    const before = treeDigest();
    const cases: [string[], RegExp][] = [
      [['notes', '--fields', 'title:colour', '--access', ACCESS], /Unknown field type "colour"/],
      [['notes', '--fields', 'order:text', '--access', ACCESS], /"order" is a reserved word/],
      [['plans', '--fields', 'title:text', '--access', ACCESS], /reserved word or a path the portal already uses|already exists/],
      [['contact-messages', '--fields', 'title:text', '--access', ACCESS], /already exists/],
      [['notes', '--fields', 'title:text', '--access', 'janitor:crud'], /Unknown role "janitor"/],
    ];
    for (const [args, message] of cases) {
      const r = scaffold(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(treeDigest()).toBe(before);
  });

  // Not retried: a second attempt would find its own resource. Ten minutes at most (a build and two test files).
  it('writes a resource whose files typecheck and whose generated API and browser tests pass; a second run changes nothing', { timeout: 600_000, retry: 0 }, async () => {
    const first = scaffold('articles', '--fields', FIELDS, '--access', ACCESS);
    expect(first.status, first.stderr).toBe(0);
    const written = [
      'contract/schemas/article.ts',
      'server/db/schema/articles.ts',
      'resources/articles/resource.tsx',
      'resources/articles/i18n.ts',
      'tests/server/articles.test.ts',
      'tests/e2e/articles.test.ts',
    ];
    for (const file of written) {
      expect(first.stdout).toContain(`+ ${file}`);
      expect(existsSync(join(copy, file)), file).toBe(true);
    }
    expect(first.stdout).toMatch(/\+ server\/db\/migrations\/\d{4}_articles\.sql/);
    for (const edited of ['contract/resource-access.ts', 'server/db/schema.ts', 'server/crud/index.ts']) expect(first.stdout).toContain(`~ ${edited}`);
    // No route line, no page file, no server module: the declaration, the schema, the table and the texts.
    expect(readFileSync(join(copy, 'src/routes.tsx'), 'utf8')).not.toContain('articles');
    expect(readdirSync(join(copy, 'resources/articles')).sort()).toEqual(['i18n.ts', 'resource.tsx']);
    expect(existsSync(join(copy, 'server/modules/articles'))).toBe(false);

    const afterFirst = treeDigest();
    const again = scaffold('articles', '--fields', FIELDS, '--access', ACCESS);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/A resource named "articles" already exists.*Nothing was written/);
    expect(treeDigest()).toBe(afterFirst);

    // Typecheck: what it wrote and edited, with everything those files import, under the project's settings.
    writeFileSync(
      join(copy, 'tsconfig.scaffold.json'),
      JSON.stringify({ extends: './tsconfig.json', include: [], files: [...written, 'contract/resource-access.ts', 'server/db/schema.ts', 'server/crud/index.ts'] }),
    );
    const tsc = run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.scaffold.json']);
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);

    // The generated tests, as a contributor runs them: the browser test needs the copy's own build.
    const build = run('npx', ['vite', 'build', '--logLevel', 'error']);
    expect(build.status, build.stdout + build.stderr).toBe(0);
    // One file at a time, with the hooks' time the browser suite allows (this runs beside the outer suite's workers).
    const tests = run('npx', ['vitest', 'run', '--retry', '0', '--maxWorkers', '1', '--hookTimeout', '180000', 'tests/server/articles.test.ts', 'tests/e2e/articles.test.ts'], 540_000);
    const out = (tests.stdout + tests.stderr).replace(/\x1b\[[0-9;]*m/g, '');
    expect(tests.status, out.slice(-4000)).toBe(0);
    expect(out).toMatch(/Tests\s+6 passed \(6\)/);
  });
});
