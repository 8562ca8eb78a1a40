/**
 * Between a table's rows and the API's records, by the columns' SQL names: the API's snake_case field
 * `download_mbps` is the column whose SQL name is `download_mbps` (Drizzle's key for it may be `downloadMbps`).
 * Dates leave as ISO strings. What a record needs beyond its table (masking, joins) is a module's toRecord hook.
 */
import { getTableColumns } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';

/** The table's columns by SQL name: { key (Drizzle's property), column }. */
export function columnsBySqlName(table: PgTable): Map<string, { key: string; column: PgColumn }> {
  return new Map(
    Object.entries(getTableColumns(table)).map(([key, column]) => [column.name, { key, column: column as PgColumn }]),
  );
}

/** A mapper from a row to the record `schema` describes: each of its fields from the column of that SQL name. */
export function rowToRecord<TRecord extends z.ZodObject>(
  table: PgTable,
  schema: TRecord,
): (row: object) => z.output<TRecord> {
  const columns = columnsBySqlName(table);
  const fields = Object.keys(schema.shape).map((field) => [field, columns.get(field)?.key] as const);
  return (row) => {
    const source = row as Record<string, unknown>;
    const record: Record<string, unknown> = {};
    for (const [field, key] of fields) {
      if (key === undefined) continue;
      const value = source[key];
      record[field] = value instanceof Date ? value.toISOString() : value;
    }
    return record as z.output<TRecord>;
  };
}

/**
 * A mapper from parsed input (API field names) to row values: each field that is defined and names a column,
 * except the primary key and the timestamps the factory sets itself.
 */
export function inputToRow(table: PgTable): (input: object) => Record<string, unknown> {
  const columns = columnsBySqlName(table);
  return (input) => {
    const values: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(input)) {
      const target = columns.get(field);
      if (value === undefined || !target || target.column.primary || field === 'created_at' || field === 'updated_at')
        continue;
      values[target.key] = value;
    }
    return values;
  };
}
