/**
 * One query per list page (issue 15): the page's rows carry `count(*) over ()`, the number of rows matching the
 * filters, instead of a second count query. A page past the end has no row to carry it, so only then is it counted.
 */
import { sql } from 'drizzle-orm';

/** The total of matching rows, on every row of the page (select it as `total`). */
export const totalOver = () => sql<number>`count(*) over ()`.mapWith(Number);

/** The page's items (without `total`) and the total: from the first row, or 0 on an empty first page, else counted. */
export async function withTotal<T extends { total: number }>(
  rows: T[],
  offset: number,
  countAll: () => Promise<number>,
): Promise<{ items: Omit<T, 'total'>[]; total: number }> {
  const total = rows.length ? rows[0].total : offset === 0 ? 0 : await countAll();
  return { items: rows.map(({ total: _total, ...item }) => item), total };
}
