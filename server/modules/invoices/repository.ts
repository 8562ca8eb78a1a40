/** Reading and deleting invoices (staff list with filters, the caller's own, public by id). */
import { and, count, desc, eq, gte, ilike, lte, or, type SQL } from 'drizzle-orm';
import type { InvoiceListQueryParsed } from '../../../contract/schemas/invoice';
import type { Db } from '../../db/client';
import { invoices, plans, subscriptions, users, type InvoiceRow } from '../../db/schema';
import { likePattern } from '../../db/paging';

export interface InvoiceWithNames {
  row: InvoiceRow;
  userName: string;
  userEmail: string;
  planName: string | null;
}

export function createInvoiceRepository(db: Db) {
  const joined = () =>
    db
      .select({ row: invoices, userName: users.name, userEmail: users.email, planName: plans.name })
      .from(invoices)
      .innerJoin(users, eq(users.id, invoices.userId))
      .leftJoin(subscriptions, eq(subscriptions.id, invoices.subscriptionId))
      .leftJoin(plans, eq(plans.id, subscriptions.planId));

  return {
    async page(query: Partial<InvoiceListQueryParsed> & { page: number; limit: number }): Promise<{ items: InvoiceWithNames[]; total: number }> {
      const conditions: SQL[] = [];
      if (query.status) conditions.push(eq(invoices.status, query.status));
      if (query.user_id) conditions.push(eq(invoices.userId, query.user_id));
      if (query.from) conditions.push(gte(invoices.issueDate, query.from));
      if (query.to) conditions.push(lte(invoices.issueDate, query.to));
      if (query.search) {
        const p = likePattern(query.search);
        conditions.push(or(ilike(invoices.number, p), ilike(users.name, p), ilike(users.email, p))!);
      }
      const where = conditions.length ? and(...conditions) : undefined;
      const [items, [{ total }]] = await Promise.all([
        joined()
          .where(where)
          .orderBy(desc(invoices.issueDate), desc(invoices.createdAt), desc(invoices.number))
          .limit(query.limit)
          .offset((query.page - 1) * query.limit),
        db.select({ total: count() }).from(invoices).innerJoin(users, eq(users.id, invoices.userId)).where(where),
      ]);
      return { items, total: Number(total) };
    },

    async findById(id: string): Promise<InvoiceWithNames | undefined> {
      const [row] = await joined().where(eq(invoices.id, id)).limit(1);
      return row;
    },
  };
}

export type InvoiceRepository = ReturnType<typeof createInvoiceRepository>;
