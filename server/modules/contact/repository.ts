import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { ContactStatus } from '../../../contract/schemas/contact';
import type { Db } from '../../db/client';
import { contactMessages, type ContactMessageRow } from '../../db/schema';

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createContactRepository(db: Db) {
  return {
    async insert(values: typeof contactMessages.$inferInsert): Promise<ContactMessageRow> {
      const [row] = await db.insert(contactMessages).values(values).returning();
      return row;
    },

    async page(q: { page: number; limit: number; status?: ContactStatus; search?: string }): Promise<{ items: ContactMessageRow[]; total: number }> {
      const conditions: SQL[] = [];
      if (q.status) conditions.push(eq(contactMessages.status, q.status));
      if (q.search) {
        const p = likePattern(q.search);
        conditions.push(or(ilike(contactMessages.name, p), ilike(contactMessages.email, p), ilike(contactMessages.subject, p))!);
      }
      const where = conditions.length ? and(...conditions) : undefined;
      const [items, [{ total }]] = await Promise.all([
        db
          .select()
          .from(contactMessages)
          .where(where)
          .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
        db.select({ total: count() }).from(contactMessages).where(where),
      ]);
      return { items, total: Number(total) };
    },

    async findById(id: string): Promise<ContactMessageRow | undefined> {
      const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id)).limit(1);
      return row;
    },

    async update(id: string, values: Partial<typeof contactMessages.$inferInsert>): Promise<ContactMessageRow | undefined> {
      const [row] = await db.update(contactMessages).set(values).where(eq(contactMessages.id, id)).returning();
      return row;
    },

    async count(): Promise<number> {
      const [{ total }] = await db.select({ total: count() }).from(contactMessages);
      return Number(total);
    },
  };
}

export type ContactRepository = ReturnType<typeof createContactRepository>;
