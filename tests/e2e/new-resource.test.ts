/**
 * Issues 20 and 35: `npm run new:resource` on a throwaway copy of the repository (the files a clone has, plus this
 * working tree's changes; node_modules linked), for three access specs and every field type. The resources it
 * writes typecheck, and their generated API and browser tests pass as written, run by Vitest in the copy (the
 * browser tests against the copy's own build), beside the portal's menu and audit-target tests, which need no
 * edit for them. Running it again with the same name, an unknown field type or a reserved word changes nothing
 * and says why.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
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
  return spawnSync(command, args, {
    cwd: copy,
    encoding: 'utf8',
    env: cleanEnv(),
    timeout,
    maxBuffer: 64 * 1024 * 1024,
  });
}

const scaffold = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/new-resource.ts', ...args], 120_000);

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
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
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

const FIELDS =
  'title:text body:markdown kind:select:news|outage|maintenance published:boolean publish_on:date published_at:datetime';
const ACCESS = 'admin:crud user:read';

/**
 * Three access specs, each a resource of its own in the one copy (one build for the three): every role reads
 * (no role is refused, so the browser test has no "outside its access" case), staff only (customers refused),
 * and customers create (the writer of the browser test is a customer, in the customer's layout).
 */
const SPECS = [
  {
    name: 'articles',
    singular: 'article',
    fields: FIELDS,
    access: 'admin:crud support:read technician:read billing:read user:read',
  },
  {
    name: 'service-notes',
    singular: 'service-note',
    fields: 'subject:text priority:select:low|high? due_on:date cost:money',
    access: 'admin:crud support:cru billing:r',
  },
  {
    name: 'feedback-items',
    singular: 'feedback-item',
    fields: 'summary:text rating:number contact:email? link:url?',
    access: 'user:cr support:rud admin:crud',
  },
];

describe('npm run new:resource', () => {
  it('refuses an unknown field type, a reserved word, an existing name and a bad access rule, writing nothing', () => {
    const before = treeDigest();
    const cases: [string[], RegExp][] = [
      [['notes', '--fields', 'title:colour', '--access', ACCESS], /Unknown field type "colour"/],
      [['notes', '--fields', 'order:text', '--access', ACCESS], /"order" is a reserved word/],
      [['notes', '--fields', 'kind:select', '--access', ACCESS], /a select lists its values after a colon/],
      [['notes', '--fields', 'kind:select:Big|small', '--access', ACCESS], /a select lists its values after a colon/],
      [['notes', '--fields', 'kind:select:a|a', '--access', ACCESS], /a value of the select is given twice/],
      [['notes', '--fields', 'title:text:a|b', '--access', ACCESS], /only a select takes values/],
      [
        ['plans', '--fields', 'title:text', '--access', ACCESS],
        /reserved word or a path the portal already uses|already exists/,
      ],
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

  // Not retried: a second attempt would find its own resources. Twenty minutes at most (a build, six generated
  // test files and two of the portal's own).
  it('writes resources for three access specs whose files typecheck and whose generated API and browser tests pass, with no other file to edit; a second run changes nothing', {
    timeout: 1_200_000,
    retry: 0,
  }, async () => {
    const written: string[] = [];
    for (const spec of SPECS) {
      const r = scaffold(spec.name, '--fields', spec.fields, '--access', spec.access);
      expect(r.status, r.stderr).toBe(0);
      const files = [
        `contract/schemas/${spec.singular}.ts`,
        `server/db/schema/${spec.name}.ts`,
        `resources/${spec.name}/resource.tsx`,
        `resources/${spec.name}/i18n.ts`,
        `tests/server/${spec.name}.test.ts`,
        `tests/e2e/${spec.name}.test.ts`,
      ];
      for (const file of files) {
        expect(r.stdout).toContain(`+ ${file}`);
        expect(existsSync(join(copy, file)), file).toBe(true);
      }
      written.push(...files);
      expect(r.stdout).toMatch(new RegExp(`\\+ server/db/migrations/\\d{4}_${spec.name.replace(/-/g, '_')}\\.sql`));
      for (const edited of ['contract/resource-access.ts', 'server/db/schema.ts', 'server/crud/index.ts'])
        expect(r.stdout).toContain(`~ ${edited}`);
    }
    // No route line, no page file, no server module: the declaration, the schema, the table and the texts.
    expect(readFileSync(join(copy, 'src/routes.tsx'), 'utf8')).not.toContain('articles');
    expect(readdirSync(join(copy, 'resources/articles')).sort()).toEqual(['i18n.ts', 'resource.tsx']);
    expect(existsSync(join(copy, 'server/modules/articles'))).toBe(false);
    // A calendar date is a date column; a date and time a timestamp with its zone.
    const migration = readdirSync(join(copy, 'server/db/migrations')).find((f) => /_articles\.sql$/.test(f))!;
    expect(readFileSync(join(copy, 'server/db/migrations', migration), 'utf8')).toMatch(
      /"publish_on" date,[\s\S]*"published_at" timestamp with time zone/,
    );

    const afterFirst = treeDigest();
    const again = scaffold('articles', '--fields', FIELDS, '--access', ACCESS);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/A resource named "articles" already exists.*Nothing was written/);
    expect(treeDigest()).toBe(afterFirst);

    // Typecheck: what it wrote and edited, with everything those files import, under the project's settings
    // (noUnusedLocals: a generated test with nothing to expect would fail here).
    writeFileSync(
      join(copy, 'tsconfig.scaffold.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        include: [],
        files: [...written, 'contract/resource-access.ts', 'server/db/schema.ts', 'server/crud/index.ts'],
      }),
    );
    const tsc = run(process.execPath, [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      '--noEmit',
      '-p',
      'tsconfig.scaffold.json',
    ]);
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);

    // The generated tests, as a contributor runs them: the browser tests need the copy's own build. With them the
    // portal's tests of the lists that name resources (the menu, the audit target types), which must need no edit.
    const build = run('npx', ['vite', 'build', '--logLevel', 'error']);
    expect(build.status, build.stdout + build.stderr).toBe(0);
    const generated = SPECS.flatMap((spec) => [`tests/server/${spec.name}.test.ts`, `tests/e2e/${spec.name}.test.ts`]);
    // One file at a time, with the hooks' time the browser suite allows (this runs beside the outer suite's workers).
    const tests = run(
      'npx',
      [
        'vitest',
        'run',
        '--retry',
        '0',
        '--maxWorkers',
        '1',
        '--hookTimeout',
        '180000',
        ...generated,
        'tests/web/menu-and-splash.test.ts',
        'tests/web/declared-lists.test.ts',
      ],
      1_080_000,
    );
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes, which start with ESC
    const out = (tests.stdout + tests.stderr).replace(/\x1b\[[0-9;]*m/g, '');
    // On failure: each test's line (which ones failed), then the end of the output (why).
    const summary = out
      .split('\n')
      .filter((line) => /[✓×↓]|FAIL/.test(line))
      .join('\n');
    expect(tests.status, `${summary}\n…\n${out.slice(-3000)}`).toBe(0);
    expect(out).toMatch(/Test Files\s+8 passed \(8\)/);
    // Each access spec's browser test ran its cases: a writer and a reader each time, an outsider where there is one.
    expect(out).toMatch(/Tests\s+28 passed \(28\)/);
  });
});
