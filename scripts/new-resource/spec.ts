/**
 * What `npm run new:resource` is asked for: the resource's names, its fields and its access rules, parsed and
 * checked (a refusal is a RefusedError with the message the command prints).
 */
import { ROLES, type Role } from '../../contract/roles';

export const FIELD_TYPES = [
  'text',
  'textarea',
  'markdown',
  'number',
  'money',
  'boolean',
  'select',
  'date',
  'datetime',
  'email',
  'url',
] as const;
/** Always optional (nullable, or false for a boolean), whether or not the spec says `?`. */
const ALWAYS_OPTIONAL: readonly string[] = ['textarea', 'markdown', 'boolean', 'date', 'datetime'];
export type FieldType = (typeof FIELD_TYPES)[number];

/** Names a field or a resource may not take: JavaScript, SQL and the API's own words. */
export const RESERVED = new Set([
  // the factory's own columns and query keys
  'id',
  'created_at',
  'updated_at',
  'page',
  'limit',
  'sort',
  'order',
  'search',
  'total',
  // JavaScript
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'new',
  'null',
  'return',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'yield',
  'let',
  'static',
  'implements',
  'interface',
  'package',
  'private',
  'protected',
  'public',
  'await',
  'constructor',
  'prototype',
  '__proto__',
  // SQL (PostgreSQL reserved key words)
  'all',
  'analyse',
  'analyze',
  'and',
  'any',
  'array',
  'as',
  'asc',
  'asymmetric',
  'both',
  'cast',
  'check',
  'collate',
  'column',
  'constraint',
  'create',
  'current_date',
  'current_role',
  'current_time',
  'current_timestamp',
  'current_user',
  'deferrable',
  'desc',
  'distinct',
  'end',
  'except',
  'fetch',
  'foreign',
  'from',
  'grant',
  'group',
  'having',
  'initially',
  'intersect',
  'into',
  'lateral',
  'leading',
  'localtime',
  'localtimestamp',
  'not',
  'offset',
  'on',
  'only',
  'or',
  'placing',
  'primary',
  'references',
  'returning',
  'select',
  'session_user',
  'some',
  'symmetric',
  'table',
  'then',
  'to',
  'trailing',
  'union',
  'unique',
  'user',
  'using',
  'variadic',
  'when',
  'where',
  'window',
]);

/** Resource names the portal's paths already use. */
export const RESERVED_RESOURCES = new Set([
  'api',
  'auth',
  'health',
  'docs',
  'login',
  'register',
  'invoice',
  'plans',
  'dashboard',
  'new',
  'create',
  'edit',
  'show',
  'settings',
  'profile',
  'billing',
  'network',
  'nas',
  'payments',
  'subscription',
  'installation',
  'resource',
  'resources',
  'registry',
  'menu',
  'groups',
  'index',
]);

export class RefusedError extends Error {}

export interface FieldSpec {
  name: string;
  type: FieldType;
  optional: boolean;
  /** select: its values, the first the default of a required one (`status:select:draft|published`). */
  options?: string[];
}

export interface Names {
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

export const camel = (s: string) => s.replace(/[-_]([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const pascal = (s: string) => camel(s).replace(/^./, (c) => c.toUpperCase());
export const words = (s: string) => s.replace(/[-_]/g, ' ');
export const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

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
  if (!parts.length)
    throw new RefusedError('--fields is empty: give at least one field, e.g. --fields "title:text body:markdown".');
  const seen = new Set<string>();
  return parts.map((part) => {
    const m = /^([a-z][a-z0-9_]*):([a-z]+)(?::([^?\s]*))?(\?)?$/.exec(part);
    if (!m)
      throw new RefusedError(
        `"${part}" is not a field: write name:type in lower case, e.g. title:text or subtitle:text? (snake_case names), or status:select:draft|published.`,
      );
    const [, name, type, values, optional] = m;
    if (!(FIELD_TYPES as readonly string[]).includes(type)) {
      throw new RefusedError(`Unknown field type "${type}" in "${part}". Known types: ${FIELD_TYPES.join(', ')}.`);
    }
    let options: string[] | undefined;
    if (type === 'select') {
      options = (values ?? '').split('|');
      const bad = options.find((o) => !/^[a-z][a-z0-9_]{0,31}$/.test(o));
      if (!values || bad !== undefined) {
        throw new RefusedError(
          `"${part}": a select lists its values after a colon, separated by |, in lower case (at most 32 characters each), e.g. status:select:draft|published.`,
        );
      }
      if (new Set(options).size !== options.length)
        throw new RefusedError(`"${part}": a value of the select is given twice.`);
    } else if (values !== undefined) {
      throw new RefusedError(
        `"${part}": only a select takes values after its type (e.g. status:select:draft|published).`,
      );
    }
    if (RESERVED.has(name))
      throw new RefusedError(
        `"${name}" is a reserved word (JavaScript, SQL or the API's own); choose another field name.`,
      );
    if (name.length > 48) throw new RefusedError(`The field name "${name}" is longer than 48 characters.`);
    if (seen.has(name)) throw new RefusedError(`The field "${name}" is given twice.`);
    seen.add(name);
    const isOptional = Boolean(optional) || ALWAYS_OPTIONAL.includes(type);
    return { name, type: type as FieldType, optional: isOptional, ...(options ? { options } : {}) };
  });
}

export type Op = 'list' | 'show' | 'create' | 'update' | 'delete';

export function parseAccess(spec: string): Record<Op, Role[]> {
  const ops: Record<Op, Role[]> = { list: [], show: [], create: [], update: [], delete: [] };
  const parts = spec.trim().split(/\s+/).filter(Boolean);
  if (!parts.length)
    throw new RefusedError('--access is empty: say who may do what, e.g. --access "admin:crud user:read".');
  for (const part of parts) {
    const m = /^([a-z_]+):([a-z]+)$/.exec(part);
    if (!m)
      throw new RefusedError(`"${part}" is not an access rule: write role:letters, e.g. admin:crud or support:r.`);
    const [, role, rights] = m;
    if (!(ROLES as readonly string[]).includes(role))
      throw new RefusedError(`Unknown role "${role}". Roles: ${ROLES.join(', ')}.`);
    const letters = rights === 'read' ? 'r' : rights === 'all' ? 'crud' : rights;
    if (!/^[crud]+$/.test(letters))
      throw new RefusedError(`"${rights}" in "${part}": use the letters c, r, u, d (or read, crud).`);
    const add = (op: Op) => ops[op].includes(role as Role) || ops[op].push(role as Role);
    if (letters.includes('r')) {
      add('list');
      add('show');
    }
    if (letters.includes('c')) add('create');
    if (letters.includes('u')) add('update');
    if (letters.includes('d')) add('delete');
  }
  if (!ops.list.length)
    throw new RefusedError('No role may read the resource (give one the r letter), so nobody could open its screen.');
  return ops;
}
