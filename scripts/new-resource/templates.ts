/** The files `npm run new:resource` writes, as text from the parsed request (./spec.ts). */
import { ROLES, type Role } from '../../contract/roles';
import { camel, capital, words, type FieldSpec, type FieldType, type Names, type Op } from './spec';

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
    case 'select':
      s = `z.enum(${optionList(f)}, { message: '${fieldLabel} must be one of: ${f.options!.join(', ')}' })`;
      // A select left out of a create takes its first value; an update leaves it as it is (the update schema
      // drops the default: contract/partial-update.ts).
      if (!f.optional) return `${s}.default('${f.options![0]}')`;
      break;
    case 'date':
      // A calendar date, as an API client and the form's date picker send it: 2026-11-29.
      s = `z.iso.date({ message: 'Enter ${fieldLabel.toLowerCase()} as a date (YYYY-MM-DD)' })`;
      break;
    case 'datetime':
      // An ISO date and time with its offset (the form sends UTC, ...Z); the column is a timestamp.
      s = `z.iso.datetime({ offset: true, message: 'Enter ${fieldLabel.toLowerCase()} as a date and time (2026-11-29T10:00:00Z)' }).transform((v) => new Date(v))`;
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

const optionList = (f: FieldSpec) => `[${f.options!.map((o) => `'${o}'`).join(', ')}]`;

function recordField(f: FieldSpec): string {
  const base =
    f.type === 'number' || f.type === 'money'
      ? 'z.number().int()'
      : f.type === 'boolean'
        ? 'z.boolean()'
        : f.type === 'select'
          ? `z.enum(${optionList(f)})`
          : f.type === 'date'
            ? 'z.iso.date()'
            : f.type === 'datetime'
              ? 'z.iso.datetime()'
              : 'z.string()';
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
    case 'select': {
      const length = Math.max(...f.options!.map((o) => o.length));
      return {
        code: `varchar(${n}, { length: ${length}, enum: ${optionList(f)} })${f.optional ? '' : `.notNull().default('${f.options![0]}')`}`,
        imports: ['varchar'],
      };
    }
    case 'date':
      // mode 'string': the API reads and writes 2026-11-29, never a Date at midnight in some time zone.
      return { code: `date(${n}, { mode: 'string' })`, imports: ['date'] };
    case 'datetime':
      return { code: `timestamp(${n}, { withTimezone: true })`, imports: ['timestamp'] };
  }
}

/** The front end's field type (src/components/resource/types.ts) of each scaffold type. */
const FIELD_DEF_TYPE: Record<FieldType, string> = {
  text: 'text',
  textarea: 'textarea',
  markdown: 'textarea',
  number: 'number',
  money: 'money',
  boolean: 'boolean',
  select: 'select',
  date: 'day',
  datetime: 'date',
  email: 'text',
  url: 'text',
};

function fieldLabelOf(name: string): string {
  return capital(words(name));
}

export function contractFile(n: Names, fields: FieldSpec[]): string {
  return `import { z } from 'zod';
import { partialWithoutDefaults } from '../partial-update';

/** ${n.labelPlural} (written by npm run new:resource): what the API takes and answers. */
export const ${n.singular}InputSchema = z.object({
${fields.map((f) => `  ${f.name}: ${zodField(f, fieldLabelOf(f.name))},`).join('\n')}
});
export type ${n.Singular}Input = z.input<typeof ${n.singular}InputSchema>;

/** An update sends only the fields it changes (the defaults are the create's: a field left out stays as it is). */
export const ${n.singular}UpdateSchema = partialWithoutDefaults(${n.singular}InputSchema);

export const ${n.singular}Schema = z.object({
  id: z.uuid(),
${fields.map((f) => `  ${f.name}: ${recordField(f)},`).join('\n')}
  created_at: z.string(),
  updated_at: z.string(),
});
export type ${n.Singular} = z.infer<typeof ${n.singular}Schema>;
`;
}

export function tableFile(n: Names, fields: FieldSpec[]): string {
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

const searchable = (fields: FieldSpec[]) =>
  fields.filter((f) => ['text', 'email', 'url'].includes(f.type)).map((f) => f.name);

export function crudEntry(n: Names, fields: FieldSpec[]): string {
  const search = searchable(fields);
  const filters = fields.filter((f) => f.type === 'select').map((f) => f.name);
  const sorters = [
    ...fields.filter((f) => !['textarea', 'markdown'].includes(f.type)).map((f) => f.name),
    'created_at',
  ];
  const q = (xs: string[]) => `[${xs.map((x) => `'${x}'`).join(', ')}]`;
  return `  crudModule({
    name: '${n.name}',
    table: ${n.tableVar},
    schemas: { record: ${n.singular}Schema, input: ${n.singular}InputSchema, update: ${n.singular}UpdateSchema },
    label: '${n.label}',
${search.length ? `    search: ${q(search)},\n` : ''}${filters.length ? `    filters: ${q(filters)},\n` : ''}    sorters: ${q(sorters)},
  }),`;
}

export function matrixEntry(n: Names, ops: Record<Op, Role[]>): string {
  const q = (roles: Role[]) => `[${roles.map((r) => `'${r}'`).join(', ')}]`;
  const parts = [`route: '/dashboard/${n.name}'`, `api: '/${n.name}'`, `list: ${q(ops.list)}`, `show: ${q(ops.show)}`];
  for (const op of ['create', 'update', 'delete'] as const) if (ops[op].length) parts.push(`${op}: ${q(ops[op])}`);
  const key = /^[a-z][a-z0-9]*$/.test(n.name) ? n.name : `'${n.name}'`;
  return `  // ${n.labelPlural} (npm run new:resource).\n  ${key}: { ${parts.join(', ')} },\n`;
}

export function declarationFile(n: Names, fields: FieldSpec[], ops: Record<Op, Role[]>, order: number): string {
  const first = fields[0];
  const markdown = fields.some((f) => f.type === 'markdown');
  const defs = fields.map((f, i) => {
    const parts = [
      `name: '${f.name}'`,
      `type: '${FIELD_DEF_TYPE[f.type]}'`,
      `labelKey: '${n.keyPrefix}.fields.${camel(f.name)}'`,
    ];
    const column = !['textarea', 'markdown'].includes(f.type) && i < 5;
    if (column) parts.push('column: true');
    if (f === first && column) parts.push('priority: 1');
    if (column && f.type !== 'boolean') parts.push('sortable: true');
    parts.push('form: true', `schema: s.${f.name}`);
    if (f.optional && f.type !== 'boolean') parts.push('emptyAsNull: true');
    if (f.type === 'boolean') parts.push('defaultValue: false');
    if (f.type === 'select') {
      parts.push(
        `options: [${f.options!.map((o) => `{ value: '${o}', labelKey: '${n.keyPrefix}.${camel(f.name)}.${o}' }`).join(', ')}]`,
        'filter: true',
      );
      if (!f.optional) parts.push(`defaultValue: '${f.options![0]}'`);
    }
    if (f.type === 'markdown') parts.push("render: (value) => <Markdown source={String(value ?? '')} />");
    return `    { ${parts.join(', ')} },`;
  });
  defs.push(
    `    { name: 'created_at', type: 'date', labelKey: '${n.keyPrefix}.fields.createdAt', column: true, priority: 3, sortable: true },`,
  );
  const portal = ops.list.includes('user');
  const hasSearch = searchable(fields).length > 0;
  return `import { FileTextOutlined } from '@ant-design/icons';
import { ${n.singular}InputSchema } from '../../contract/schemas/${n.contractFile}';
import { defineResource } from '../../src/components/resource/define';
${markdown ? "import { Markdown } from '../../src/site/markdown';\n" : ''}
const s = ${n.singular}InputSchema.shape;

/**
 * ${n.labelPlural} (written by npm run new:resource): the menu item, the routes and the list, show, create and
 * edit pages come from this declaration; who sees them from its entry in contract/resource-access.ts (the role matrix's resources).
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

export function i18nFile(n: Names, fields: FieldSpec[]): string {
  const lines = [
    [`${n.keyPrefix}.title`, n.labelPlural],
    [`${n.keyPrefix}.singular`, n.label],
    ...fields.map((f) => [`${n.keyPrefix}.fields.${camel(f.name)}`, fieldLabelOf(f.name)]),
    ...fields.flatMap((f) => (f.options ?? []).map((o) => [`${n.keyPrefix}.${camel(f.name)}.${o}`, capital(words(o))])),
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
    case 'select':
      // The first sample is the last value: not the default, so a reset to the default would show.
      return `'${f.options![(f.options!.length - (variant % f.options!.length)) % f.options!.length]}'`;
    case 'date':
      return `'2026-0${variant}-15'`;
    case 'datetime':
      return `'2026-0${variant}-15T10:00:00.000Z'`;
    case 'email':
      return `'person${variant}@example.com'`;
    case 'url':
      return `'https://example.com/${variant}'`;
  }
}

export function apiTestFile(n: Names, fields: FieldSpec[], ops: Record<Op, Role[]>): string {
  const body = (v: number) => `{ ${fields.map((f) => `${f.name}: ${sample(f, v)}`).join(', ')} }`;
  const required = fields.find((f) => !f.optional);
  const writer = ops.create[0];
  const outsider = ROLES.find((r) => !ops.list.includes(r) && !(r === 'super_admin' && ops.list.includes('admin')));
  const readOnly = ops.list.find(
    (r) => !ops.create.includes(r) && !(r === 'super_admin' && ops.create.includes('admin')),
  );
  const textField = fields.find((f) => f.type === 'text');
  const select = fields.find((f) => f.type === 'select' && f.options!.length > 1);
  // The field a one-field update changes: one the others could be reset by (not a select or a boolean) if any.
  const changed = fields.find((f) => f.type !== 'select' && f.type !== 'boolean') ?? fields[0];
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
    // Every field as sent (dates as YYYY-MM-DD, dates and times as ISO 8601).
    expect(record).toMatchObject(first);

    const shown = await call('GET', \`\${PATH}/\${record.id}\`, '${ops.show[0]}');
    expect(shown.statusCode).toBe(200);
    expect(shown.json().data).toEqual(record);

    const listed = await call('GET', \`\${PATH}?page=1&limit=10\`, '${ops.list[0]}');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.items.map((i: { id: string }) => i.id)).toContain(record.id);
    expect(listed.json().data.pagination).toMatchObject({ page: 1, total: expect.any(Number) });
${
  select
    ? `
    const ids = (res: { json(): { data: { items: Array<{ id: string }> } } }) => res.json().data.items.map((i) => i.id);
    expect(ids(await call('GET', \`\${PATH}?${select.name}=\${first.${select.name}}\`, '${ops.list[0]}'))).toContain(record.id);
    expect(ids(await call('GET', \`\${PATH}?${select.name}=${select.options!.find((o) => `'${o}'` !== sample(select, 1))}\`, '${ops.list[0]}'))).not.toContain(record.id);
`
    : ''
}${
  textField
    ? `
    const searched = await call('GET', \`\${PATH}?search=\${encodeURIComponent(String(first.${textField.name}))}\`, '${ops.list[0]}');
    expect(searched.json().data.items.map((i: { id: string }) => i.id)).toEqual([record.id]);
`
    : ''
}${
  ops.update.length
    ? `
    // An update of one field leaves every other one as it was, the defaulted ones too.
    const single = await call('PUT', \`\${PATH}/\${record.id}\`, '${ops.update[0]}', { ${changed.name}: ${sample(changed, 3)} });
    expect(single.statusCode).toBe(200);
    expect(single.json().data.${changed.name}).toEqual(${sample(changed, 3)});
    const { ${changed.name}: _changed, updated_at: _updated, ...kept } = single.json().data;
    const { ${changed.name}: _was, updated_at: _wasUpdated, ...unchanged } = record;
    expect(kept).toEqual(unchanged);

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

export function browserTestFile(n: Names, fields: FieldSpec[], ops: Record<Op, Role[]>): string {
  const writer = ops.create[0];
  const outsider = ROLES.find((r) => !ops.list.includes(r) && !(r === 'super_admin' && ops.list.includes('admin')));
  // A role that reads but may not create (super_admin has admin's rights).
  const reader = ops.list.find(
    (r) => !ops.create.includes(r) && !(r === 'super_admin' && ops.create.includes('admin')),
  );
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
    ? `  it('${writer} has them in the menu and creates one through the generated form', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await portal.signIn(page, '${DEMO_EMAIL[writer]}');
    // The menu has its item: a link to the list, in the DOM though perhaps not on screen (a customer's top bar
    // moves what does not fit at this width into its "more" menu, hidden from the accessibility tree until opened).
    await page.locator('a[href="/dashboard/${n.name}"]').first().waitFor({ state: 'attached' });
    await portal.open(page, '/dashboard/${n.name}');
    await page.getByRole('button', { name: /create/i }).first().click();
    await page.waitForURL(\`\${portal.url}/dashboard/${n.name}/create\`);
    // The list stays on screen until the form's code has loaded (the router's transition): wait for the form.
    const form = page.locator('form');
    await page.getByRole('button', { name: 'Save' }).waitFor();
${fills.join('\n')}
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('${n.label} created successfully').waitFor();
    await portal.open(page, '/dashboard/${n.name}');
    await page.getByRole('heading', { level: 1, name: '${n.labelPlural}' }).waitFor();
${
  shown
    ? `    await page.getByRole('cell', { name: ${sample(shown, 7)} }).waitFor();
`
    : ''
}    expect(await page.getByRole('button', { name: /create/i }).count()).toBeGreaterThan(0);
    await page.close();
  });
`
    : ''
}${
  reader
    ? `
  it('${reader}, who may read but not create, has them in the menu and sees the list without a Create button', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await portal.signIn(page, '${DEMO_EMAIL[reader]}');
    // The menu has its item: a link to the list, in the DOM though perhaps not on screen (a customer's top bar
    // moves what does not fit at this width into its "more" menu, hidden from the accessibility tree until opened).
    await page.locator('a[href="/dashboard/${n.name}"]').first().waitFor({ state: 'attached' });
    await portal.open(page, '/dashboard/${n.name}');
    await page.getByRole('heading', { level: 1, name: '${n.labelPlural}' }).waitFor();
    await page.getByRole('table').first().waitFor();
    expect(await page.getByRole('button', { name: /create/i }).count()).toBe(0);
    await portal.open(page, '/dashboard/${n.name}/create');
    await page.getByRole('heading', { level: 1, name: "You don't have access to this page" }).waitFor();
    await page.close();
  });
`
    : ''
}${
  outsider
    ? `
  it('${outsider}, outside its access, has no menu item and is told the page is not theirs', async () => {
    const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await portal.signIn(page, '${DEMO_EMAIL[outsider]}');
    expect(await page.getByRole('link', { name: '${n.labelPlural}', exact: true }).count()).toBe(0);
    await portal.open(page, '/dashboard/${n.name}');
    await page.getByRole('heading', { level: 1, name: "You don't have access to this page" }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/${n.name}');
    await page.close();
  });
`
    : ''
}});
`;
}
