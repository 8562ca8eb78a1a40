/**
 * List pages. A small table's page (the CRUD factory's resources) is one query: its rows carry `count(*) over ()`,
 * the number of rows matching the filters, instead of a second count query; a page past the end has no row to
 * carry it, so only then is it counted. The big lists (users, subscriptions, tickets) are two statements, a page
 * and a count: a window over the matches makes PostgreSQL read (and join) every one of them before the LIMIT,
 * 0.3 to 1.1 s at seed:large's sizes, where the page alone stops at its 20th row.
 */
import { createHash } from 'node:crypto';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * Newest first, in the order of the portal's `(column DESC, id DESC)` indexes, which Drizzle creates NULLS LAST:
 * Drizzle's desc() asks for PostgreSQL's default NULLS FIRST, which such an index cannot give, so the page was
 * sorted from every row instead of read from the index (tickets: 420 ms for the first page of 200 000). The
 * columns are NOT NULL: the order is the same.
 */
export const newestFirst = (column: AnyColumn): SQL => sql`${column} desc nulls last`;

/** `text` with LIKE's wildcards (% and _) and its escape character (a backslash) escaped, so that it matches literally. */
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The (I)LIKE pattern of a list's search: `text` anywhere, its wildcards escaped. */
export const likePattern = (text: string): string => `%${escapeLike(text)}%`;

/** The (I)LIKE pattern of `text` at the start, its wildcards escaped. */
export const prefixPattern = (text: string): string => `${escapeLike(text)}%`;

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

/**
 * A list query prepared once per shape (which filters are present, which order) with placeholders for the values:
 * building a query with Drizzle costs more than PostgreSQL takes to answer a small page (a sixth of a list request
 * in the profile), and a named statement is also parsed once per connection by PostgreSQL. At most `max` shapes.
 */
export class PreparedByShape<P> {
  private readonly cache = new Map<string, P>();

  constructor(
    private readonly prefix: string,
    private readonly max = 64,
  ) {}

  get(shape: string, build: (name: string) => P): P {
    let prepared = this.cache.get(shape);
    if (!prepared) {
      if (this.cache.size >= this.max) this.cache.delete(this.cache.keys().next().value!);
      prepared = build(`${this.prefix}_${createHash('sha1').update(shape).digest('hex').slice(0, 16)}`);
      this.cache.set(shape, prepared);
    }
    return prepared;
  }
}
