/**
 * `npm run new:resource -- <name> --fields "title:text body:markdown published:boolean" --access "admin:crud user:read"`
 *
 * Writes a plain CRUD resource (issue 20; docs/adding-a-resource.md): the contract schema, the table (exported
 * from server/db/schema.ts) and its migration (drizzle-kit generate), the server's crudModule entry, the role
 * matrix entry, the front-end declaration and its texts, and an API test and a browser test that pass as
 * written. It checks everything before writing anything: an existing name, an unknown field type, a reserved
 * word or a bad access rule is refused with a message and exit code 2, and nothing is written.
 *
 * Field types: text (required; `name:text?` optional), textarea, markdown, number, money (integer minor units),
 * boolean, select (`status:select:draft|published`, the first value the default), date (a calendar date,
 * 2026-11-29), datetime (an ISO date and time with its offset), email, url. Access: `<role>:<letters>` with
 * c(reate) r(ead) u(pdate) d(elete), or `read`, `crud`; super_admin gets whatever admin gets.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { resourceAccessEntries } from '../contract/roles';
import {
  FIELD_TYPES,
  RESERVED,
  RESERVED_RESOURCES,
  RefusedError,
  namesOf,
  parseAccess,
  parseFields,
} from './new-resource/spec';
import {
  apiTestFile,
  browserTestFile,
  contractFile,
  crudEntry,
  declarationFile,
  i18nFile,
  matrixEntry,
  tableFile,
} from './new-resource/templates';

const ROOT = process.env.NEW_RESOURCE_ROOT ?? new URL('..', import.meta.url).pathname;

interface Plan {
  writes: { path: string; content: string }[];
  edits: { path: string; content: string }[];
}

function read(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

function nextMenuOrder(): number {
  let max = 0;
  for (const dir of readdirSync(join(ROOT, 'resources'), { withFileTypes: true })) {
    for (const file of ['resource.ts', 'resource.tsx']) {
      const path = join(ROOT, 'resources', dir.name, file);
      if (!dir.isDirectory() || !existsSync(path)) continue;
      for (const m of readFileSync(path, 'utf8').matchAll(/order:\s*(\d+)/g)) max = Math.max(max, Number(m[1]));
    }
  }
  return max + 10;
}

export function planResource(name: string, fieldSpec: string, accessSpec: string): Plan {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) {
    throw new RefusedError(
      `"${name}" is not a resource name: use lower-case words joined by hyphens, in the plural (e.g. articles, service-areas).`,
    );
  }
  if (RESERVED.has(name) || RESERVED.has(name.replace(/-/g, '_')) || RESERVED_RESOURCES.has(name)) {
    throw new RefusedError(`"${name}" is a reserved word or a path the portal already uses; choose another name.`);
  }
  const n = namesOf(name);
  if (resourceAccessEntries().has(name))
    throw new RefusedError(
      `A resource named "${name}" already exists (contract/resource-access.ts). Nothing was written.`,
    );
  const targets = {
    contract: `contract/schemas/${n.contractFile}.ts`,
    table: `server/db/schema/${name}.ts`,
    declaration: `resources/${name}/resource.tsx`,
    i18n: `resources/${name}/i18n.ts`,
    apiTest: `tests/server/${name}.test.ts`,
    browserTest: `tests/e2e/${name}.test.ts`,
  };
  for (const path of Object.values(targets)) {
    if (existsSync(join(ROOT, path)))
      throw new RefusedError(`${path} already exists: "${name}" is taken. Nothing was written.`);
  }
  if (existsSync(join(ROOT, 'resources', name)))
    throw new RefusedError(`resources/${name}/ already exists: "${name}" is taken. Nothing was written.`);
  const schema = read('server/db/schema.ts');
  const allTables = [
    schema,
    ...readdirSync(join(ROOT, 'server/db/schema')).map((f) => read(`server/db/schema/${f}`)),
  ].join('\n');
  if (new RegExp(`pgTable\\(\\s*'${n.table}'`).test(allTables))
    throw new RefusedError(`The database already has a table "${n.table}". Nothing was written.`);
  if (new RegExp(`export const ${n.tableVar}\\b`).test(allTables))
    throw new RefusedError(`server/db/schema already exports "${n.tableVar}". Nothing was written.`);

  const fields = parseFields(fieldSpec);
  const ops = parseAccess(accessSpec);

  const roles = read('contract/resource-access.ts');
  const anchor = '} as const satisfies Record<string, ResourceAccess>;';
  if (!roles.includes(anchor))
    throw new RefusedError('contract/resource-access.ts has no SHIPPED_RESOURCES list to add the entry to.');
  const crud = read('server/crud/index.ts');
  const listAnchor = /export const CRUD_MODULES: readonly FastifyPluginAsync\[\] = \[([\s\S]*?)\];/;
  if (!listAnchor.test(crud))
    throw new RefusedError('server/crud/index.ts has no CRUD_MODULES list to add the module to.');

  const entries = crud.replace(
    listAnchor,
    (_whole, inner: string) =>
      `export const CRUD_MODULES: readonly FastifyPluginAsync[] = [\n  ${inner.trim().replace(/,$/, '')},\n${crudEntry(n, fields)}\n];`,
  );
  const imports = [
    ...(entries.includes("from './crud-module'") ? [] : ["import { crudModule } from './crud-module';"]),
    `import { ${n.singular}InputSchema, ${n.singular}Schema, ${n.singular}UpdateSchema } from '../../contract/schemas/${n.contractFile}';`,
    `import { ${n.tableVar} } from '../db/schema/${name}';`,
  ];
  const lines = entries.split('\n');
  const lastImport = lines.reduce((last, line, i) => (line.startsWith('import ') ? i : last), -1);
  lines.splice(lastImport + 1, 0, ...imports);
  const withFactory = lines.join('\n');

  return {
    writes: [
      { path: targets.contract, content: contractFile(n, fields) },
      { path: targets.table, content: tableFile(n, fields) },
      { path: targets.declaration, content: declarationFile(n, fields, ops, nextMenuOrder()) },
      { path: targets.i18n, content: i18nFile(n, fields) },
      { path: targets.apiTest, content: apiTestFile(n, fields, ops) },
      { path: targets.browserTest, content: browserTestFile(n, fields, ops) },
    ],
    edits: [
      { path: 'contract/resource-access.ts', content: roles.replace(anchor, `${matrixEntry(n, ops)}${anchor}`) },
      { path: 'server/db/schema.ts', content: `${schema.trimEnd()}\nexport * from './schema/${name}';\n` },
      { path: 'server/crud/index.ts', content: withFactory },
    ],
  };
}

function main(argv: string[]): number {
  const args = [...argv];
  const name = args.find(
    (a) => !a.startsWith('--') && args[args.indexOf(a) - 1] !== '--fields' && args[args.indexOf(a) - 1] !== '--access',
  );
  const option = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const fields = option('--fields');
  const access = option('--access');
  if (!name || !fields || !access) {
    console.error(
      'Usage: npm run new:resource -- <name> --fields "title:text body:markdown published:boolean" --access "admin:crud user:read"',
    );
    console.error(
      `Field types: ${FIELD_TYPES.join(', ')} (add ? for optional; a select lists its values: status:select:draft|published). Access: role:letters (c r u d), e.g. admin:crud support:r.`,
    );
    return 2;
  }
  let plan: Plan;
  try {
    plan = planResource(name, fields, access);
  } catch (error) {
    if (error instanceof RefusedError) {
      console.error(`new:resource: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const originals = new Map(plan.edits.map((e) => [e.path, read(e.path)]));
  const written: string[] = [];
  const undo = () => {
    for (const path of written) rmSync(join(ROOT, path), { force: true });
    for (const [path, content] of originals) writeFileSync(join(ROOT, path), content);
    rmSync(join(ROOT, 'resources', name), { recursive: true, force: true });
  };
  try {
    for (const w of plan.writes) {
      mkdirSync(dirname(join(ROOT, w.path)), { recursive: true });
      writeFileSync(join(ROOT, w.path), w.content, { flag: 'wx' });
      written.push(w.path);
    }
    for (const e of plan.edits) writeFileSync(join(ROOT, e.path), e.content);
    // The migration, from the schema as it now is (the same SQL runs on PGlite and PostgreSQL).
    const migrations = join(ROOT, 'server/db/migrations');
    const before = new Set(readdirSync(migrations));
    const r = spawnSync('npx', ['drizzle-kit', 'generate', '--name', namesOf(name).table], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const made = readdirSync(migrations).filter((f) => !before.has(f) && f.endsWith('.sql'));
    if (r.status !== 0 || made.length !== 1) throw new Error(`drizzle-kit generate failed:\n${r.stdout}\n${r.stderr}`);
    written.push(`server/db/migrations/${made[0]}`);
  } catch (error) {
    undo();
    // drizzle-kit's journal and snapshot are restored by git if it wrote them; say so.
    console.error(
      `new:resource: ${(error as Error).message}\nEverything written was removed again (check git status for server/db/migrations/meta).`,
    );
    return 1;
  }
  console.log(`new:resource: wrote ${name}`);
  for (const path of written) console.log(`  + ${path}`);
  for (const e of plan.edits) console.log(`  ~ ${e.path}`);
  console.log('  ~ server/db/migrations/meta (drizzle-kit journal and snapshot)');
  console.log(
    `Next: npm start and open /dashboard/${name}; run its tests with npx vitest run ${relative(ROOT, join(ROOT, `tests/server/${name}.test.ts`))} (after npx vite build: tests/e2e/${name}.test.ts).`,
  );
  return 0;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  process.exitCode = main(process.argv.slice(2));
}
