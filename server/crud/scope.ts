/**
 * A crudModule scope (CrudHooks.scope) as SQL: what a caller may see of a resource, one condition per API field,
 * all of which must hold. The list ANDs it with the caller's own filters; show, update and delete answer 404 for
 * an id outside it.
 */
import { and, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, ne, notInArray, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * A scope's condition on one field: a value (equal to it; null: is null; an array: one of these), or an object of
 * comparisons that must all hold: { gte: '2026-01-01', lt: '2027-01-01' }, { in: [...] }, { ne: 'archived' }. A
 * comparison with SQL's NULL is never true: { ne: x } leaves out the rows whose field is null (add isNull: false
 * or use in).
 */
export interface ScopeComparison {
  eq?: unknown;
  ne?: unknown;
  gt?: unknown;
  gte?: unknown;
  lt?: unknown;
  lte?: unknown;
  in?: readonly unknown[];
  notIn?: readonly unknown[];
  /** true: the field is null; false: it is not. */
  isNull?: boolean;
}
export type ScopeValue = string | number | boolean | bigint | Date | null | readonly unknown[] | ScopeComparison;
/** API field → condition; every field's condition must hold (AND). A field given undefined has none. */
export type Scope = Record<string, ScopeValue | undefined>;

const COMPARISONS = { eq, ne, gt, gte, lt, lte } as const;
const KEYS = [...Object.keys(COMPARISONS), 'in', 'notIn', 'isNull'];

const isComparison = (value: ScopeValue): value is ScopeComparison =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype;

/** The conditions of a scope on the columns `column` names (by API field); `who` names the module in an error. */
export function scopeSql(scope: Scope | undefined, column: (field: string) => PgColumn, who: string): SQL[] {
  return Object.entries(scope ?? {}).flatMap(([field, value]) =>
    value === undefined ? [] : [condition(field, value)],
  );

  function condition(field: string, value: ScopeValue): SQL {
    const c = column(field);
    if (!isComparison(value))
      return value === null ? isNull(c) : Array.isArray(value) ? inArray(c, value) : eq(c, value);
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    const unknown = entries.find(([key]) => !KEYS.includes(key));
    if (unknown || !entries.length) {
      throw new Error(
        `${who}: the scope of ${field} ${unknown ? `has an unknown comparison "${unknown[0]}"` : 'is an empty condition'}; use ${KEYS.join(', ')}.`,
      );
    }
    return and(
      ...entries.map(([key, v]) => {
        if (key === 'in') return inArray(c, v as unknown[]);
        if (key === 'notIn') return notInArray(c, v as unknown[]);
        if (key === 'isNull') return v ? isNull(c) : isNotNull(c);
        return COMPARISONS[key as keyof typeof COMPARISONS](c, v);
      }),
    )!;
  }
}
