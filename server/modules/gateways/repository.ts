import { and, asc, count, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { paymentGateways, type NewPaymentGatewayRow, type PaymentGatewayRow } from '../../db/schema';

export function createGatewayRepository(db: Db) {
  return {
    async all(options: { activeOnly?: boolean } = {}): Promise<PaymentGatewayRow[]> {
      return db
        .select()
        .from(paymentGateways)
        .where(options.activeOnly ? eq(paymentGateways.isActive, true) : undefined)
        .orderBy(asc(paymentGateways.displayOrder), asc(paymentGateways.name), asc(paymentGateways.id));
    },

    async findById(id: string): Promise<PaymentGatewayRow | undefined> {
      const [row] = await db.select().from(paymentGateways).where(eq(paymentGateways.id, id)).limit(1);
      return row;
    },

    async findDefault(): Promise<PaymentGatewayRow | undefined> {
      const [row] = await db.select().from(paymentGateways).where(eq(paymentGateways.isDefault, true)).limit(1);
      return row;
    },

    async count(): Promise<number> {
      const [{ total }] = await db.select({ total: count() }).from(paymentGateways);
      return Number(total);
    },

    /** Inserts a gateway; when it is the default, the others stop being it in the same transaction. */
    async insert(values: NewPaymentGatewayRow): Promise<PaymentGatewayRow> {
      return db.transaction(async (tx) => {
        if (values.isDefault) await tx.update(paymentGateways).set({ isDefault: false }).where(eq(paymentGateways.isDefault, true));
        const [row] = await tx.insert(paymentGateways).values(values).returning();
        return row;
      });
    },

    /** Updates a gateway; made the default, the others stop being it in the same transaction. */
    async update(id: string, values: Partial<NewPaymentGatewayRow>): Promise<PaymentGatewayRow | undefined> {
      return db.transaction(async (tx) => {
        if (values.isDefault) {
          await tx
            .update(paymentGateways)
            .set({ isDefault: false })
            .where(and(eq(paymentGateways.isDefault, true), ne(paymentGateways.id, id)));
        }
        const [row] = await tx.update(paymentGateways).set(values).where(eq(paymentGateways.id, id)).returning();
        return row;
      });
    },

    async delete(id: string): Promise<boolean> {
      const rows = await db.delete(paymentGateways).where(eq(paymentGateways.id, id)).returning({ id: paymentGateways.id });
      return rows.length > 0;
    },
  };
}

export type GatewayRepository = ReturnType<typeof createGatewayRepository>;
