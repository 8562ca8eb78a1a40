import { count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users, type NewUserRow, type UserRow } from '../../db/schema';

export function createUserRepository(db: Db) {
  return {
    async findById(id: string): Promise<UserRow | undefined> {
      // A malformed id can never match; asking PostgreSQL would raise invalid_text_representation.
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
      return row;
    },

    async insert(values: NewUserRow): Promise<UserRow> {
      const [row] = await db
        .insert(users)
        .values({ ...values, email: values.email.trim().toLowerCase() })
        .returning();
      return row;
    },

    async update(id: string, values: Partial<Omit<NewUserRow, 'id' | 'email'>>): Promise<UserRow | undefined> {
      const [row] = await db.update(users).set(values).where(eq(users.id, id)).returning();
      return row;
    },

    async count(): Promise<number> {
      const [{ n }] = await db.select({ n: count() }).from(users);
      return Number(n);
    },
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
