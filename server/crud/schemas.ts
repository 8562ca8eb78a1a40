/**
 * The CRUD factory's schemas and words: the default update body and list query built from a module's options,
 * the envelope of its answers, and the messages made from its label.
 */
import { z } from 'zod';
import type { CrudMessages } from './crud-module';

export const idParams = z.object({ id: z.string() });

/** "Payment gateway" → "payment gateway"; "API token" stays. */
export const lowerFirst = (label: string) =>
  /^[A-Z][a-z]/.test(label) ? label[0].toLowerCase() + label.slice(1) : label;
export const withArticle = (label: string) => `${/^[aeiou]/i.test(label) ? 'An' : 'A'} ${lowerFirst(label)}`;

/** The messages made from a label: "Article created successfully", "Article not found"... */
export function defaultMessages(label: string): CrudMessages {
  return {
    list: `${label}s retrieved successfully`,
    detail: `${label} retrieved successfully`,
    created: `${label} created successfully`,
    updated: `${label} updated successfully`,
    deleted: `${label} deleted successfully`,
    notFound: `${label} not found`,
    conflict: `${withArticle(label)} with the same details already exists`,
    inUse: `This ${lowerFirst(label)} is in use and cannot be deleted`,
  };
}

/** The fields a parsed body really sent (present and not undefined). */
export function sentFields(input: object | null): string[] {
  return input
    ? Object.entries(input)
        .filter(([, v]) => v !== undefined)
        .map(([k]) => k)
    : [];
}

/** Was this body only `field` (a toggle)? */
export function onlySent(input: object | null, field: string): boolean {
  const sent = sentFields(input);
  return sent.length === 1 && sent[0] === field;
}

/** The innermost schema under optional/nullable/default wrappers. */
function baseOf(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let i = 0; i < 8; i++) {
    const inner = (s as unknown as { def?: { innerType?: z.ZodType } }).def?.innerType;
    if (!inner) break;
    s = inner;
  }
  return s;
}

/** The default update body: every field of the create body optional and without its default (contract/partial-update.ts). */
export { partialWithoutDefaults } from '../../contract/partial-update';

/** A query parameter checked as the record's field: numbers and booleans arrive as text. */
function filterParam(field: z.ZodType): z.ZodType {
  const base = baseOf(field);
  if (base instanceof z.ZodNumber) return z.coerce.number().pipe(base).optional();
  if (base instanceof z.ZodBoolean)
    return z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional();
  return base.optional();
}

/** The list's query from a module's options: page and limit (when paginated), sort and order, search, filters. */
export function defaultListQuery(o: {
  paginate: boolean;
  sorters: readonly string[];
  search: readonly string[];
  filters: readonly string[];
  record: Record<string, z.ZodType>;
}): z.ZodObject {
  return z.object({
    ...(o.paginate
      ? {
          page: z.coerce.number().int().min(1).optional().default(1),
          limit: z.coerce.number().int().min(1).max(100).optional().default(20),
        }
      : {}),
    ...(o.sorters.length
      ? { sort: z.enum(o.sorters as [string, ...string[]]).optional(), order: z.enum(['asc', 'desc']).optional() }
      : {}),
    ...(o.search.length ? { search: z.string().trim().max(100).optional() } : {}),
    ...Object.fromEntries(o.filters.map((f) => [f, filterParam(o.record[f])])),
  });
}
