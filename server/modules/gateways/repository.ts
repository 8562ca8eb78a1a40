/** Reading gateways for payments (adapters, webhooks), seeding the first one, and the queries of module.ts's hooks (the API's CRUD is the factory's). */
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

    async count(): Promise<number> {
      const [{ total }] = await db.select({ total: count() }).from(paymentGateways);
      return Number(total);
    },

    async insert(values: NewPaymentGatewayRow): Promise<PaymentGatewayRow> {
      const [row] = await db.insert(paymentGateways).values(values).returning();
      return row;
    },

    /** Making a gateway the default: the others (all but `exceptId`) stop being it. */
    async clearOtherDefaults(exceptId?: string): Promise<void> {
      await db
        .update(paymentGateways)
        .set({ isDefault: false })
        .where(
          exceptId
            ? and(eq(paymentGateways.isDefault, true), ne(paymentGateways.id, exceptId))
            : eq(paymentGateways.isDefault, true),
        );
    },

    /** The active gateways, locked until the transaction ends. */
    async lockActive(): Promise<Array<{ id: string; provider: string }>> {
      return db
        .select({ id: paymentGateways.id, provider: paymentGateways.provider })
        .from(paymentGateways)
        .where(eq(paymentGateways.isActive, true))
        .for('update');
    },
  };
}

export type GatewayRepository = ReturnType<typeof createGatewayRepository>;
