/** The public contact form's write: a new message (staff read and handle them through module.ts, the CRUD factory). */
import type { Db } from '../../db/client';
import { contactMessages, type ContactMessageRow } from '../../db/schema';

export function createContactRepository(db: Db) {
  return {
    async insert(values: typeof contactMessages.$inferInsert): Promise<ContactMessageRow> {
      const [row] = await db.insert(contactMessages).values(values).returning();
      return row;
    },
  };
}
