import { prefixPattern, PreparedByShape } from '../../db/paging';
import { and, asc, count, desc, eq, isNotNull, like, lt, or, sql, type SQL } from 'drizzle-orm';
import type { UserListQueryParsed } from '../../../contract/schemas/user';
import type { Db } from '../../db/client';
import { invoices, subscriptions, users, type NewUserRow, type UserRow } from '../../db/schema';
import { userWritten } from '../../lib/user-cache';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type UserFilterInput = Pick<UserListQueryParsed, 'search' | 'role' | 'status' | 'company'>;

/**
 * The list's filters as SQL. The search is a prefix match on lower(name), e-mail, phone and customer number:
 * each has a pattern-ops btree index (migration 0007), so a page stays fast with 100 000 users; a number alone
 * ("123") also finds customer C-000123.
 */
/** The values the filters compare with, by name (a number alone also names a customer number). */
function filterValues(filters: UserFilterInput) {
  const search = filters.search?.trim() || undefined;
  return {
    role: filters.role,
    status: filters.status,
    company: filters.company,
    search,
    lower: search && prefixPattern(search.toLowerCase()),
    phone: search && prefixPattern(search),
    customerPrefix: search && prefixPattern(search.toUpperCase()),
    customer: search && /^\d{1,6}$/.test(search) ? `C-${search.padStart(6, '0')}` : undefined,
  };
}
type FilterValues = ReturnType<typeof filterValues>;

/** Which filters are present: one prepared statement per shape. */
const filterShape = (v: FilterValues) =>
  [v.role && 'r', v.status && 's', v.company && 'c', v.search && 'q', v.customer && 'n'].filter(Boolean).join('');

/**
 * The filters as SQL, with the values inline, or (`placeholders`) as named placeholders for a prepared statement.
 */
function filterConditions(filters: UserFilterInput, placeholders = false): SQL | undefined {
  const v = filterValues(filters);
  // A value, or a placeholder standing for it (typed loosely: Drizzle's operators take either).
  // biome-ignore lint/suspicious/noExplicitAny: Drizzle's operators take a value or a placeholder, which no one type covers
  const bind = (name: keyof FilterValues): any => (placeholders ? sql.placeholder(name) : v[name]);
  const conditions: SQL[] = [];
  if (v.role) conditions.push(eq(users.role, bind('role')));
  if (v.status) conditions.push(eq(users.status, bind('status')));
  if (v.company) conditions.push(eq(users.company, bind('company')));
  if (v.search) {
    const alternatives: SQL[] = [
      like(sql`lower(${users.name})`, bind('lower')),
      like(users.email, bind('lower')),
      like(users.phone, bind('phone')),
      like(users.customerNumber, bind('customerPrefix')),
    ];
    if (v.customer) alternatives.push(eq(users.customerNumber, bind('customer')));
    conditions.push(or(...alternatives)!);
  }
  return conditions.length ? and(...conditions) : undefined;
}

export function createUserRepository(db: Db) {
  const pages = new PreparedByShape<ReturnType<typeof preparePage>>('users_page');
  const counts = new PreparedByShape<ReturnType<typeof prepareCount>>('users_count');
  function preparePage(query: UserListQueryParsed, name: string) {
    return db
      .select()
      .from(users)
      .where(filterConditions(query, true))
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name);
  }
  function prepareCount(query: UserListQueryParsed, name: string) {
    return db.select({ total: count() }).from(users).where(filterConditions(query, true)).prepare(name);
  }
  return {
    async findById(id: string): Promise<UserRow | undefined> {
      // A malformed id can never match; asking PostgreSQL would raise invalid_text_representation.
      if (!UUID.test(id)) return undefined;
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
      return row;
    },

    /** The user a pending e-mail change's token (its SHA-256) belongs to. */
    async findByPendingEmailToken(tokenHash: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.pendingEmailTokenHash, tokenHash)).limit(1);
      return row;
    },

    /**
     * Makes the pending address the account's (confirmed by the link, so verified) and clears the pending change,
     * unless the change was replaced or withdrawn meanwhile (then undefined).
     */
    async confirmPendingEmail(id: string, tokenHash: string, at: Date): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({
          email: sql`${users.pendingEmail}`,
          pendingEmail: null,
          pendingEmailTokenHash: null,
          pendingEmailExpiresAt: null,
          isVerified: true,
          emailVerifiedAt: at,
          updatedAt: at,
        })
        .where(and(eq(users.id, id), eq(users.pendingEmailTokenHash, tokenHash), isNotNull(users.pendingEmail)))
        .returning();
      userWritten(id);
      return row;
    },

    async insert(values: NewUserRow): Promise<UserRow> {
      const [row] = await db
        .insert(users)
        .values({ ...values, email: values.email.trim().toLowerCase() })
        .returning();
      return row;
    },

    async update(id: string, values: Partial<Omit<NewUserRow, 'id'>>): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set(values.email ? { ...values, email: values.email.trim().toLowerCase() } : values)
        .where(eq(users.id, id))
        .returning();
      userWritten(id);
      return row;
    },

    /**
     * Ends every access token of the user (issue 32): raises the session version the tokens must carry. Every
     * process forgets its cached row at commit (the users trigger), this one at once.
     */
    async endAccessTokens(id: string): Promise<void> {
      await db
        .update(users)
        .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
        .where(eq(users.id, id));
      userWritten(id);
    },

    async delete(id: string): Promise<boolean> {
      const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
      userWritten(id);
      return rows.length > 0;
    },

    async count(): Promise<number> {
      const [{ n }] = await db.select({ n: count() }).from(users);
      return Number(n);
    },

    /**
     * One page of the user list, newest first, and the number of users matching the filters: two statements, not
     * a count(*) over () on the page's, which makes PostgreSQL read every matching row before the LIMIT (270 ms for
     * the first page of 100 000 users, 320 ms for a name search walking the created_at index). The page stops at its
     * 20th row; the count uses the prefix indexes (a search) or an index-only scan (no filter).
     */
    async page(query: UserListQueryParsed): Promise<{ items: UserRow[]; total: number }> {
      const values = filterValues(query);
      const shape = filterShape(values);
      const offset = (query.page - 1) * query.limit;
      const [items, counted] = await Promise.all([
        pages.get(shape, (name) => preparePage(query, name)).execute({ ...values, limit: query.limit, offset }),
        counts.get(shape, (name) => prepareCount(query, name)).execute(values),
      ]);
      return { items, total: Number(counted[0].total) };
    },

    /** Every matching user in batches (keyset on created_at, id: no growing offsets), for the CSV export. */
    async *scan(filters: UserFilterInput, batchSize = 1000): AsyncGenerator<UserRow[]> {
      const base = filterConditions(filters);
      let after: { createdAt: Date; id: string } | undefined;
      for (;;) {
        const cursor = after
          ? or(lt(users.createdAt, after.createdAt), and(eq(users.createdAt, after.createdAt), lt(users.id, after.id)))
          : undefined;
        const where = base && cursor ? and(base, cursor) : (base ?? cursor);
        const rows = await db
          .select()
          .from(users)
          .where(where)
          .orderBy(desc(users.createdAt), desc(users.id))
          .limit(batchSize);
        if (rows.length) yield rows;
        if (rows.length < batchSize) return;
        const last = rows[rows.length - 1];
        after = { createdAt: last.createdAt, id: last.id };
      }
    },

    /** The companies users belong to, alphabetically (the list's company filter). */
    async companies(): Promise<string[]> {
      const rows = await db
        .selectDistinct({ company: users.company })
        .from(users)
        .where(and(isNotNull(users.company), sql`${users.company} <> ''`))
        .orderBy(asc(users.company));
      return rows.map((r) => r.company!).filter(Boolean);
    },

    /**
     * Applies a change that would take a super_admin away (update or delete) only while another active
     * super_admin remains: the active super_admins are locked first, so two super_admins demoting each other
     * at the same moment cannot both succeed. 'last' when refused.
     */
    /** Runs work in one transaction (a change and its audit event commit together). */
    transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(tx as unknown as Db));
    },

    async withoutLosingLastSuperAdmin<T>(change: (db: Db) => Promise<T>): Promise<T | 'last'> {
      return db.transaction(async (tx) => {
        const active = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.role, 'super_admin'), eq(users.status, 'active')))
          .for('update');
        if (active.length <= 1) return 'last' as const;
        return change(tx as unknown as Db);
      });
    },

    /** Active admins and super_admins: none means a new install still needs its first administrator. */
    async activeAdministratorCount(): Promise<number> {
      const [{ n }] = await db
        .select({ n: count() })
        .from(users)
        .where(and(or(eq(users.role, 'admin'), eq(users.role, 'super_admin')), eq(users.status, 'active')));
      return Number(n);
    },

    async activeSuperAdminCount(): Promise<number> {
      const [{ n }] = await db
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.role, 'super_admin'), eq(users.status, 'active')));
      return Number(n);
    },

    /** Does the user have billing history (invoices) or subscriptions? Such users are disabled, not deleted. */
    async hasBillingHistory(id: string): Promise<boolean> {
      const [inv] = await db.select({ id: invoices.id }).from(invoices).where(eq(invoices.userId, id)).limit(1);
      if (inv) return true;
      const [sub] = await db
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(eq(subscriptions.userId, id))
        .limit(1);
      return Boolean(sub);
    },
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
