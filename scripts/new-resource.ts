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
 * boolean, date (a date and time), email, url. Access: `<role>:<letters>` with c(reate) r(ead) u(pdate) d(elete),
 * or `read`, `crud`; super_admin gets whatever admin gets.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ROLES, resourceAccessEntries, type Role } from '../contract/roles';

const ROOT = process.env.NEW_RESOURCE_ROOT ?? new URL('..', import.meta.url).pathname;

export const FIELD_TYPES = ['text', 'textarea', 'markdown', 'number', 'money', 'boolean', 'date', 'email', 'url'] as const;
type FieldType = (typeof FIELD_TYPES)[number];

/** Names a field or a resource may not take: JavaScript, SQL and the API's own words. */
const RESERVED = new Set(
  [
    // the factory's own columns and query keys
    'id', 'created_at', 'updated_at', 'page', 'limit', 'sort', 'order', 'search', 'total',
    // JavaScript
    'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export', 'extends',
    'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this',
    'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'yield', 'let', 'static', 'implements', 'interface', 'package',
    'private', 'protected', 'public', 'await', 'constructor', 'prototype', '__proto__',
    // SQL (PostgreSQL reserved key words)
    'all', 'analyse', 'analyze', 'and', 'any', 'array', 'as', 'asc', 'asymmetric', 'both', 'cast', 'check', 'collate', 'column',
    'constraint', 'create', 'current_date', 'current_role', 'current_time', 'current_timestamp', 'current_user', 'deferrable', 'desc',
    'distinct', 'end', 'except', 'fetch', 'foreign', 'from', 'grant', 'group', 'having', 'initially', 'intersect', 'into', 'lateral',
    'leading', 'localtime', 'localtimestamp', 'not', 'offset', 'on', 'only', 'or', 'placing', 'primary', 'references', 'returning',
    'select', 'session_user', 'some', 'symmetric', 'table', 'then', 'to', 'trailing', 'union', 'unique', 'user', 'using', 'variadic',
    'when', 'where', 'window',
  ],
);

/** Resource names the portal's paths already use. */
const RESERVED_RESOURCES = new Set(['api', 'auth', 'health', 'docs', 'login', 'register', 'invoice', 'plans', 'dashboard', 'new', 'create', 'edit', 'show', 'settings', 'profile', 'billing', 'network', 'nas', 'payments', 'subscription', 'installation', 'resource', 'resources', 'registry', 'menu', 'groups', 'index']);

export class RefusedError extends Error {}

interface FieldSpec {
  name: string;
  type: FieldType;
  optional: boolean;
}

interface Names {
  /** articles (kebab, the resource, its route and API path) */
  name: string;
  /** articles (the SQL table) */
  table: string;
  /** articles (the Drizzle table's variable) */
  tableVar: string;
  /** article */
  singular: string;
  /** Article */
  Singular: string;
  /** "Article" / "Articles" (messages and titles) */
  label: string;
  labelPlural: string;
  /** articles (i18n prefix) */
  keyPrefix: string;
  /** contract/schemas/<file>.ts */
  contractFile: string;
}

const camel = (s: string) => s.replace(/[-_]([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const pascal = (s: string) => camel(s).replace(/^./, (c) => c.toUpperCase());
const words = (s: string) => s.replace(/[-_]/g, ' ');
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function singularOf(name: string): string {
  if (/ies$/.test(name)) return name.replace(/ies$/, 'y');
  if (/(ss|x|ch|sh)es$/.test(name)) return name.replace(/es$/, '');
  if (/s$/.test(name) && !/ss$/.test(name)) return name.slice(0, -1);
  return name;
}

export function namesOf(name: string): Names {
  const singular = singularOf(name);
  return {
    name,
    table: name.replace(/-/g, '_'),
    tableVar: camel(name),
    singular: camel(singular),
    Singular: pascal(singular),
    label: capital(words(singular)),
    labelPlural: capital(words(name)),
    keyPrefix: camel(name),
    contractFile: singular,
  };
}

export function parseFields(spec: string): FieldSpec[] {
  const parts = spec.trim().split(/\s+/).filter(Boolean);
  if (!parts.length) throw new RefusedError('--fields is empty: give at least one field, e.g. --fields "title:text body:markdown".');
  const seen = new Set<string>();
  return parts.map((part) => {
    const m = /^([a-z][a-z0-9_]*):([a-z]+)(\?)?$/.exec(part);
    if (!m) throw new RefusedError(`"${part}" is not a field: write name:type in lower case, e.g. title:text or subtitle:text? (snake_case names).`);
    const [, name, type, optional] = m;
    if (!(FIELD_TYPES as readonly string[]).includes(type)) {
      throw new RefusedError(`Unknown field type "${type}" in "${part}". Known types: ${FIELD_TYPES.join(', ')}.`);
    }
    if (RESERVED.has(name)) throw new RefusedError(`"${name}" is a reserved word (JavaScript, SQL or the API's own); choose another field name.`);
    if (name.length > 48) throw new RefusedError(`The field name "${name}" is longer than 48 characters.`);
    if (seen.has(name)) throw new RefusedError(`The field "${name}" is given twice.`);
    seen.add(name);
    const isOptional = Boolean(optional) || ['textarea', 'markdown', 'boolean', 'date'].includes(type);
    return { name, type: type as FieldType, optional: isOptional };
  });
}

type Op = 'list' | 'show' | 'create' | 'update' | 'delete';

export function parseAccess(spec: string): Record<Op, Role[]> {
  const ops: Record<Op, Role[]> = { list: [], show: [], create: [], update: [], delete: [] };
  const parts = spec.trim().split(/\s+/).filter(Boolean);
  if (!parts.length) throw new RefusedError('--access is empty: say who may do what, e.g. --access "admin:crud user:read".');
  for (const part of parts) {
    const m = /^([a-z_]+):([a-z]+)$/.exec(part);
    if (!m) throw new RefusedError(`"${part}" is not an access rule: write role:letters, e.g. admin:crud or support:r.`);
    const [, role, rights] = m;
    if (!(ROLES as readonly string[]).includes(role)) throw new RefusedError(`Unknown role "${role}". Roles: ${ROLES.join(', ')}.`);
    const letters = rights === 'read' ? 'r' : rights === 'all' ? 'crud' : rights;
    if (!/^[crud]+$/.test(letters)) throw new RefusedError(`"${rights}" in "${part}": use the letters c, r, u, d (or read, crud).`);
    const add = (op: Op) => ops[op].includes(role as Role) || ops[op].push(role as Role);
    if (letters.includes('r')) (add('list'), add('show'));
    if (letters.includes('c')) add('create');
    if (letters.includes('u')) add('update');
    if (letters.includes('d')) add('delete');
  }
  if (!ops.list.length) throw new RefusedError('No role may read the resource (give one the r letter), so nobody could open its screen.');
  return ops;
}

// ---------------------------------------------------------------------------------------------------------
// The files.

const LENGTH: Partial<Record<FieldType, number>> = { text: 200, email: 254, url: 2048 };

function zodField(f: FieldSpec, fieldLabel: string): string {
  const req = `{ message: '${fieldLabel} is required' }`;
  let s: string;
  switch (f.type) {
    case 'text':
      s = f.optional
        ? `z.string().trim().max(200, { message: '${fieldLabel} must be at most 200 characters' })`
        : `z.string(${req}).trim().min(1, ${req}).max(200, { message: '${fieldLabel} must be at most 200 characters' })`;
      break;
    case 'textarea':
    case 'markdown':
      s = `z.string().max(20000, { message: '${fieldLabel} must be at most 20000 characters' })`;
      break;
    case 'number':
      s = `z.number(${f.optional ? '' : req}).int({ message: '${fieldLabel} must be a whole number' })`;
      break;
    case 'money':
      s = `z.number(${f.optional ? '' : req}).int({ message: '${fieldLabel} must be in minor units (cents)' }).min(0, { message: '${fieldLabel} cannot be negative' })`;
      break;
    case 'boolean':
      s = 'z.boolean()';
      break;
    case 'date':
      // The form sends an ISO date and time; the column is a timestamp.
      s = `z.iso.datetime({ offset: true, message: 'Enter a valid date for ${fieldLabel.toLowerCase()}' }).transform((v) => new Date(v))`;
      break;
    case 'email':
      s = `z.string(${req}).trim().toLowerCase().pipe(z.email({ message: 'Enter a valid e-mail address' })).pipe(z.string().max(254))`;
      break;
    case 'url':
      s = `z.string(${req}).trim().pipe(z.url({ message: 'Enter a valid address (https://…)' })).pipe(z.string().max(2048))`;
      break;
  }
  if (f.type === 'boolean') return `${s}.optional()`;
  return f.optional ? `${s}.nullable().optional()` : s;
}

function recordField(f: FieldSpec): string {
  const base = f.type === 'number' || f.type === 'money' ? 'z.number().int()' : f.type === 'boolean' ? 'z.boolean()' : 'z.string()';
  return f.optional && f.type !== 'boolean' ? `${base}.nullable()` : base;
}

function columnOf(f: FieldSpec): { code: string; imports: string[] } {
  const n = `'${f.name}'`;
  const notNull = f.optional ? '' : '.notNull()';
  switch (f.type) {
    case 'text':
    case 'email':
    case 'url':
      return { code: `varchar(${n}, { length: ${LENGTH[f.type]} })${notNull}`, imports: ['varchar'] };
    case 'textarea':
    case 'markdown':
      return { code: `text(${n})`, imports: ['text'] };
    case 'number':
    case 'money':
      return { code: `integer(${n})${notNull}`, imports: ['integer'] };
    case 'boolean':
      return { code: `boolean(${n}).notNull().default(false)`, imports: ['boolean'] };
    case 'date':
      return { code: `timestamp(${n}, { withTimezone: true })`, imports: ['timestamp'] };
  }
}

const FIELD_DEF_TYPE: Record<FieldType, string> = {
  text: 'text', textarea: 'textarea', markdown: 'textarea', number: 'number', money: 'money', boolean: 'boolean', date: 'date', email: 'text', url: 'text',
};

function fieldLabelOf(name: string): string {
  return capital(words(name));
}

function contractFile(n: Names, fields: FieldSpec[]): string {
  return `import { z } from 'zod';

/** ${n.labelPlural} (written by npm run new:resource): what the API takes and answers. */
export const ${n.singular}InputSchema = z.object({
${fields.map((f) => `  ${f.name}: ${zodField(f, fieldLabelOf(f.name))},`).join('\n')}
});
export type ${n.Singular}Input = z.input<typeof ${n.singular}InputSchema>;

/** An update sends only the fields it changes. */
export const ${n.singular}UpdateSchema = ${n.singular}InputSchema.partial();

export const ${n.singular}Schema = z.object({
  id: z.uuid(),
${fields.map((f) => `  ${f.name}: ${recordField(f)},`).join('\n')}
  created_at: z.string(),
  updated_at: z.string(),
});
export type ${n.Singular} = z.infer<typeof ${n.singular}Schema>;
`;
}

function tableFile(n: Names, fields: FieldSpec[]): string {
  const cols = fields.map((f) => ({ f, ...columnOf(f) }));
  const imports = new Set(['index', 'pgTable', 'timestamp', 'uuid', ...cols.flatMap((c) => c.imports)]);
  // The list's default order (newest first) reads this index; searches are ilike on short text columns.
  const indexes = [`index('${n.table}_created_at_idx').on(t.createdAt)`];
  return `import { ${[...imports].sort().join(', ')} } from 'drizzle-orm/pg-core';

/** ${n.labelPlural} (written by npm run new:resource). The API's field names are the columns' SQL names. */
export const ${n.tableVar} = pgTable(
  '${n.table}',
  {
    id: uuid('id').primaryKey().defaultRandom(),
${cols.map((c) => `    ${camel(c.f.name)}: ${c.code},`).join('\n')}
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [${indexes.join(', ')}],
);

export type ${n.Singular}Row = typeof ${n.tableVar}.$inferSelect;
`;
}

const searchable = (fields: FieldSpec[]) => fields.filter((f) => ['text', 'email', 'url'].includes(f.type)).map((f) => f.name);

function crudEntry(n: Names, fields: FieldSpec[]): string {
  const search = searchable(fields);
  const sorters = [...fields.filter((f) => !['textarea', 'markdown'].includes(f.type)).map((f) => f.name), 'created_at'];
  const q = (xs: string[]) => `[${xs.map((x) => `'${x}'`).join(', ')}]`;
  return `  crudModule({
    name: '${n.name}',
    table: ${n.tableVar},
    schemas: { record: ${n.singular}Schema, input: ${n.singular}InputSchema, update: ${n.singular}UpdateSchema },
    label: '${n.label}',
${search.length ? `    search: ${q(search)},\n` : ''}    sorters: ${q(sorters)},
  }),`;
}

function matrixEntry(n: Names, ops: Record<Op, Role[]>): string {
  const q = (roles: Role[]) => `[${roles.map((r) => `'${r}'`).join(', ')}]`;
  const parts = [`route: '/dashboard/${n.name}'`, `api: '/${n.name}'`, `list: ${q(ops.list)}`, `show: ${q(ops.show)}`];
  for (const op of ['create', 'update', 'delete'] as const) if (ops[op].length) parts.push(`${op}: ${q(ops[op])}`);
  const key = /^[a-z][a-z0-9]*$/.test(n.name) ? n.name : `'${n.name}'`;
  return `  // ${n.labelPlural} (npm run new:resource).\n  ${key}: { ${parts.join(', ')} },\n`;
}

function declarationFile(n: Names, fields: FieldSpec[], ops: Record<Op, Role[]>, order: number): string {
  const first = fields[0];
  const markdown = fields.some((f) => f.type === 'markdown');
  const defs = fields.map((f, i) => {
    const parts = [`name: '${f.name}'`, `type: '${FIELD_DEF_TYPE[f.type]}'`, `labelKey: '${n.keyPrefix}.fields.${camel(f.name)}'`];
    const column = !['textarea', 'markdown'].includes(f.type) && i < 5;
    if (column) parts.push('column: true');
    if (f === first && column) parts.push('priority: 1');
    if (column && f.type !== 'boolean') parts.push('sortable: true');
    parts.push('form: true', `schema: s.${f.name}`);
    if (f.optional && f.type !== 'boolean') parts.push('emptyAsNull: true');
    if (f.type === 'boolean') parts.push('defaultValue: false');
    if (f.type === 'markdown') parts.push('render: (value) => <Markdown source={String(value ?? \'\')} />');
    return `    { ${parts.join(', ')} },`;
  });
  defs.push(`    { name: 'created_at', type: 'date', labelKey: '${n.keyPrefix}.fields.createdAt', column: true, priority: 3, sortable: true },`);
  const portal = ops.list.includes('user');
  const hasSearch = searchable(fields).length > 0;
  return `import { FileTextOutlined } from '@ant-design/icons';
import { ${n.singular}InputSchema } from '../../contract/schemas/${n.contractFile}';
import { defineResource } from '../../src/components/resource/define';
${markdown ? "import { Markdown } from '../../src/site/markdown';\n" : ''}
const s = ${n.singular}InputSchema.shape;

/**
 * ${n.labelPlural} (written by npm run new:resource): the menu item, the routes and the list, show, create and
 * edit pages come from this declaration; who sees them from its entry in contract/roles.ts.
 */
export const ${n.tableVar}Resource = defineResource({
  name: '${n.name}',
  titleKey: '${n.keyPrefix}.title',
  singularKey: '${n.keyPrefix}.singular',
  menu: { order: ${order}, icon: FileTextOutlined${portal ? ', portal: true' : ''} },
${hasSearch ? '  search: true,\n' : ''}  defaultSort: { field: 'created_at', order: 'desc' },
  messages: { created: '${n.keyPrefix}.toast.created', updated: '${n.keyPrefix}.toast.updated', deleted: '${n.keyPrefix}.toast.deleted' },
  fields: [
${defs.join('\n')}
  ],
});
`;
}

function i18nFile(n: Names, fields: FieldSpec[]): string {
  const lines = [
    [`${n.keyPrefix}.title`, n.labelPlural],
    [`${n.keyPrefix}.singular`, n.label],
    ...fields.map((f) => [`${n.keyPrefix}.fields.${camel(f.name)}`, fieldLabelOf(f.name)]),
    [`${n.keyPrefix}.fields.createdAt`, 'Created'],
    [`${n.keyPrefix}.toast.created`, `${n.label} created successfully`],
    [`${n.keyPrefix}.toast.updated`, `${n.label} updated successfully`],
    [`${n.keyPrefix}.toast.deleted`, `${n.label} deleted successfully`],
  ];
  return `/** The texts of ${n.labelPlural.toLowerCase()} (npm run new:resource), added to the portal's dictionary (src/i18n/portal.ts). */
const texts: Record<string, string> = {
${lines.map(([k, v]) => `  '${k}': ${JSON.stringify(v)},`).join('\n')}
};

export default texts;
`;
}

/** A valid value for a field, as JSON in the tests. */
function sample(f: FieldSpec, variant = 1): string {
  switch (f.type) {
    case 'text':
      return `'Sample ${f.name.replace(/_/g, ' ')} ${variant}'`;
    case 'textarea':
    case 'markdown':
      return `'Some **text** ${variant}'`;
    case 'number':
      return String(10 * variant);
    case 'money':
      return String(1999 * variant);
    case 'boolean':
      return variant % 2 ? 'true' : 'false';
    case 'date':
      return `'2026-0${variant}-15T10:00:00.000Z'`;
    case 'email':
      return `'person${variant}@example.com'`;
    case 'url':
      return `'https://example.com/${variant}'`;
  }
}

function apiTestFile(n: Names, fields: FieldSpec[], ops: Record<Op, Role[]>): string {
  const body = (v: number) => `{ ${fields.map((f) => `${f.name}: ${sample(f, v)}`).join(', ')} }`;
  const required = fields.find((f) => !f.optional);
  const writer = ops.create[0];
  const outsider = ROLES.find((r) => !ops.list.includes(r) && !(r === 'super_admin' && ops.list.includes('admin')));
  const readOnly = ops.list.find((r) => !ops.create.includes(r) && !(r === 'super_admin' && ops.create.includes('admin')));
  const textField = fields.find((f) => f.type === 'text');
  return `/** ${n.labelPlural} API (written by npm run new:resource): the crudModule from its contract schema and table. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

const PATH = '/${n.name}';
const first = ${body(1)};

describe('${n.labelPlural.toLowerCase()} API', () => {
  let t: TestApp;
  let call: CallAs;
  beforeAll(async () => {
    t = await createTestApp();
    call = await signInEveryRole(t);
  });
  afterAll(() => t.close());
${
  writer
    ? `
  it('${writer} creates, reads, lists, updates and deletes one', async () => {
    const created = await call('POST', PATH, '${writer}', first);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ success: true, message: '${n.label} created successfully' });
    const record = created.json().data;
    expect(record.id).toMatch(/^[0-9a-f-]{36}$/);

    const shown = await call('GET', \`\${PATH}/\${record.id}\`, '${ops.show[0]}');
    expect(shown.statusCode).toBe(200);
    expect(shown.json().data).toEqual(record);

    const listed = await call('GET', \`\${PATH}?page=1&limit=10\`, '${ops.list[0]}');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.items.map((i: { id: string }) => i.id)).toContain(record.id);
    expect(listed.json().data.pagination).toMatchObject({ page: 1, total: expect.any(Number) });
${
  textField
    ? `
    const searched = await call('GET', \`\${PATH}?search=\${encodeURIComponent(String(first.${textField.name}))}\`, '${ops.list[0]}');
    expect(searched.json().data.items.map((i: { id: string }) => i.id)).toEqual([record.id]);
`
    : ''
}${
  ops.update.length
    ? `
    const updated = await call('${'PUT'}', \`\${PATH}/\${record.id}\`, '${ops.update[0]}', ${body(2)});
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ success: true, message: '${n.label} updated successfully' });
`
    : ''
}${
  ops.delete.length
    ? `
    const deleted = await call('DELETE', \`\${PATH}/\${record.id}\`, '${ops.delete[0]}');
    expect(deleted.statusCode).toBe(200);
    expect((await call('GET', \`\${PATH}/\${record.id}\`, '${ops.show[0]}')).statusCode).toBe(404);
`
    : ''
}  });
${
  required
    ? `
  it('refuses a body without ${required.name} with a field error, and writes nothing', async () => {
    const before = (await call('GET', PATH, '${ops.list[0]}')).json().data.pagination.total;
    const { ${required.name}: _left, ...rest } = first;
    const res = await call('POST', PATH, '${writer}', rest);
    expect([400, 422]).toContain(res.statusCode);
    expect(res.json().success).toBe(false);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toContain('${required.name}');
    expect((await call('GET', PATH, '${ops.list[0]}')).json().data.pagination.total).toBe(before);
  });
`
    : ''
}`
    : ''
}
  it('answers 404 for an id that does not exist', async () => {
    const res = await call('GET', \`\${PATH}/00000000-0000-4000-8000-000000000000\`, '${ops.show[0]}');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, message: '${n.label} not found' });
  });

  it('checks who may call it: a visitor gets 401${outsider ? `, ${outsider} 403` : ''}${readOnly && writer ? `, ${readOnly} may read but not create` : ''}', async () => {
    expect((await call('GET', PATH)).statusCode).toBe(401);
${outsider ? `    expect((await call('GET', PATH, '${outsider}')).statusCode).toBe(403);\n` : ''}${
  readOnly && writer
    ? `    expect((await call('GET', PATH, '${readOnly}')).statusCode).toBe(200);\n    expect((await call('POST', PATH, '${readOnly}', first)).statusCode).toBe(403);\n`
    : ''
}  });
});
`;
}

const DEMO_EMAIL: Record<Role, string> = {
  admin: 'admin@isp.local',
  super_admin: 'superadmin@isp.local',
  support: 'support@isp.local',
  technician: 'technician@isp.local',
  billing: 'billing@isp.local',
  user: 'customer@isp.local',
};

function browserTestFile(n: Names, fields: FieldSpec[], ops: Record<Op, Role[]>): string {
  const writer = ops.create[0];
  const outsider = ROLES.find((r) => !ops.list.includes(r) && !(r === 'super_admin' && ops.list.includes('admin')));
  const fills = fields
    .filter((f) => !f.optional && ['text', 'email', 'url', 'number', 'money'].includes(f.type))
    .map((f) => {
      const value = f.type === 'money' ? "'19.99'" : f.type === 'number' ? "'42'" : sample(f, 7);
      return `    await form.getByLabel('${fieldLabelOf(f.name)}', { exact: true }).fill(${value});`;
    });
  const shown = fields.find((f) => f.type === 'text' && !f.optional);
  return `/** ${n.labelPlural} in the browser (written by npm run new:resource): the generated menu item and pages, and who sees them. */
import { describe, expect, it } from 'vitest';
import { usePortal } from '../helpers/browser';

const portal = usePortal();

describe('${n.labelPlural.toLowerCase()} in the back office', () => {
${
  writer
    ? `  it('${writer} opens them from the menu and creates one through the generated form', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await portal.signIn(page, '${DEMO_EMAIL[writer]}');
    await page.getByRole('link', { name: '${n.labelPlural}', exact: true }).first().click();
    await page.waitForURL(\`\${portal.url}/dashboard/${n.name}\`);
    await page.getByRole('button', { name: /create/i }).first().click();
    await page.waitForURL(\`\${portal.url}/dashboard/${n.name}/create\`);
    // The list stays on screen until the form's code has loaded (the router's transition): wait for the form.
    const form = page.locator('form');
    await page.getByRole('button', { name: 'Save' }).waitFor();
${fills.join('\n')}
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('${n.label} created successfully').waitFor();
${
  shown
    ? `    await portal.open(page, '/dashboard/${n.name}');
    await page.getByRole('cell', { name: ${sample(shown, 7)} }).waitFor();
`
    : ''
}    await page.close();
  });
`
    : ''
}${
  outsider
    ? `
  it('${outsider}, outside its access, has no menu item and is sent to /dashboard', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await portal.signIn(page, '${DEMO_EMAIL[outsider]}');
    expect(await page.getByRole('link', { name: '${n.labelPlural}', exact: true }).count()).toBe(0);
    await portal.open(page, '/dashboard/${n.name}');
    await page.waitForURL(\`\${portal.url}/dashboard\`);
    await page.close();
  });
`
    : ''
}});
`;
}

// ---------------------------------------------------------------------------------------------------------

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
    throw new RefusedError(`"${name}" is not a resource name: use lower-case words joined by hyphens, in the plural (e.g. articles, service-areas).`);
  }
  if (RESERVED.has(name) || RESERVED.has(name.replace(/-/g, '_')) || RESERVED_RESOURCES.has(name)) {
    throw new RefusedError(`"${name}" is a reserved word or a path the portal already uses; choose another name.`);
  }
  const n = namesOf(name);
  if (resourceAccessEntries().has(name)) throw new RefusedError(`A resource named "${name}" already exists (contract/roles.ts). Nothing was written.`);
  const targets = {
    contract: `contract/schemas/${n.contractFile}.ts`,
    table: `server/db/schema/${name}.ts`,
    declaration: `resources/${name}/resource.tsx`,
    i18n: `resources/${name}/i18n.ts`,
    apiTest: `tests/server/${name}.test.ts`,
    browserTest: `tests/e2e/${name}.test.ts`,
  };
  for (const path of Object.values(targets)) {
    if (existsSync(join(ROOT, path))) throw new RefusedError(`${path} already exists: "${name}" is taken. Nothing was written.`);
  }
  if (existsSync(join(ROOT, 'resources', name))) throw new RefusedError(`resources/${name}/ already exists: "${name}" is taken. Nothing was written.`);
  const schema = read('server/db/schema.ts');
  const allTables = [schema, ...readdirSync(join(ROOT, 'server/db/schema')).map((f) => read(`server/db/schema/${f}`))].join('\n');
  if (new RegExp(`pgTable\\(\\s*'${n.table}'`).test(allTables)) throw new RefusedError(`The database already has a table "${n.table}". Nothing was written.`);
  if (new RegExp(`export const ${n.tableVar}\\b`).test(allTables)) throw new RefusedError(`server/db/schema already exports "${n.tableVar}". Nothing was written.`);

  const fields = parseFields(fieldSpec);
  const ops = parseAccess(accessSpec);

  const roles = read('contract/roles.ts');
  const anchor = '} as const satisfies Record<string, ResourceAccess>;';
  if (!roles.includes(anchor)) throw new RefusedError('contract/roles.ts has no SHIPPED_RESOURCES list to add the entry to.');
  const crud = read('server/crud/index.ts');
  const listAnchor = /export const CRUD_MODULES: readonly FastifyPluginAsync\[\] = \[([\s\S]*?)\];/;
  if (!listAnchor.test(crud)) throw new RefusedError('server/crud/index.ts has no CRUD_MODULES list to add the module to.');

  const entries = crud.replace(
    listAnchor,
    (_whole, inner: string) => `export const CRUD_MODULES: readonly FastifyPluginAsync[] = [\n  ${inner.trim().replace(/,$/, '')},\n${crudEntry(n, fields)}\n];`,
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
      { path: 'contract/roles.ts', content: roles.replace(anchor, `${matrixEntry(n, ops)}${anchor}`) },
      { path: 'server/db/schema.ts', content: `${schema.trimEnd()}\nexport * from './schema/${name}';\n` },
      { path: 'server/crud/index.ts', content: withFactory },
    ],
  };
}

function main(argv: string[]): number {
  const args = [...argv];
  const name = args.find((a) => !a.startsWith('--') && args[args.indexOf(a) - 1] !== '--fields' && args[args.indexOf(a) - 1] !== '--access');
  const option = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const fields = option('--fields');
  const access = option('--access');
  if (!name || !fields || !access) {
    console.error('Usage: npm run new:resource -- <name> --fields "title:text body:markdown published:boolean" --access "admin:crud user:read"');
    console.error(`Field types: ${FIELD_TYPES.join(', ')} (add ? for optional). Access: role:letters (c r u d), e.g. admin:crud support:r.`);
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
    const r = spawnSync('npx', ['drizzle-kit', 'generate', '--name', namesOf(name).table], { cwd: ROOT, encoding: 'utf8' });
    const made = readdirSync(migrations).filter((f) => !before.has(f) && f.endsWith('.sql'));
    if (r.status !== 0 || made.length !== 1) throw new Error(`drizzle-kit generate failed:\n${r.stdout}\n${r.stderr}`);
    written.push(`server/db/migrations/${made[0]}`);
  } catch (error) {
    undo();
    // drizzle-kit's journal and snapshot are restored by git if it wrote them; say so.
    console.error(`new:resource: ${(error as Error).message}\nEverything written was removed again (check git status for server/db/migrations/meta).`);
    return 1;
  }
  console.log(`new:resource: wrote ${name}`);
  for (const path of written) console.log(`  + ${path}`);
  for (const e of plan.edits) console.log(`  ~ ${e.path}`);
  console.log('  ~ server/db/migrations/meta (drizzle-kit journal and snapshot)');
  console.log(`Next: npm start and open /dashboard/${name}; run its tests with npx vitest run ${relative(ROOT, join(ROOT, `tests/server/${name}.test.ts`))} (after npx vite build: tests/e2e/${name}.test.ts).`);
  return 0;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  process.exitCode = main(process.argv.slice(2));
}
