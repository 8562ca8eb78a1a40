import { and, asc, count, desc, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { mailOutbox, type MailRow, type MailStatus } from '../../db/schema';

export function createMailRepository(db: Db) {
  return {
    async insert(values: {
      to: string;
      subject: string;
      text: string;
      html: string | null;
      createdAt: Date;
    }): Promise<MailRow> {
      const [row] = await db
        .insert(mailOutbox)
        .values({ ...values, status: 'queued' })
        .returning();
      return row;
    },

    async find(id: string): Promise<MailRow | undefined> {
      const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
      return row;
    },

    /** Ids of messages still queued that were stored before `before` (oldest first, at most 500). */
    async queuedBefore(before: Date): Promise<string[]> {
      const rows = await db
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.status, 'queued'), lt(mailOutbox.createdAt, before)))
        .orderBy(asc(mailOutbox.createdAt))
        .limit(500);
      return rows.map((r) => r.id);
    },

    async setStatus(
      id: string,
      status: MailStatus,
      fields: { error?: string | null; sentAt?: Date | null } = {},
    ): Promise<void> {
      await db
        .update(mailOutbox)
        .set({ status, ...fields })
        .where(eq(mailOutbox.id, id));
    },

    async page(page: number, limit: number): Promise<{ items: MailRow[]; total: number }> {
      const [items, [{ total }]] = await Promise.all([
        db
          .select()
          .from(mailOutbox)
          .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ total: count() }).from(mailOutbox),
      ]);
      return { items, total: Number(total) };
    },
  };
}

export type MailRepository = ReturnType<typeof createMailRepository>;
