/** Reading gateways for payments (adapters, webhooks) and seeding the first one; the API's CRUD is module.ts. */
import { asc, count, eq } from 'drizzle-orm';
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
  };
}

export type GatewayRepository = ReturnType<typeof createGatewayRepository>;
