/** Payments storage: payments, processed webhook events, and the row locks the completion path takes. */
import {
  and,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNull,
  lt,
  lte,
  ne,
  notExists,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { PAYMENT_FAILURE_REASONS, type PaymentListQueryParsed } from '../../../contract/schemas/payment';
import type { Db } from '../../db/client';
import { likePattern, newestFirst } from '../../db/paging';
import {
  autopayCharges,
  invoices,
  paymentGateways,
  payments,
  subscriptions,
  users,
  webhookEvents,
  type InvoiceRow,
  type NewPaymentRow,
  type PaymentRow,
} from '../../db/schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A row of the staff payments list: the payment, its customer, its invoice's number and its gateway's name. */
export interface PaymentWithNames {
  row: PaymentRow;
  userName: string;
  userEmail: string;
  invoiceNumber: string;
  gatewayName: string | null;
}

/** The created_at conditions of a from/to filter: a day counts whole (UTC), an instant as given; both inclusive. */
function createdBetween(from: string | undefined, to: string | undefined): SQL[] {
  const c: SQL[] = [];
  if (from) c.push(gte(payments.createdAt, new Date(DAY.test(from) ? `${from}T00:00:00Z` : from)));
  if (to) {
    if (DAY.test(to)) c.push(lt(payments.createdAt, new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000)));
    else c.push(lte(payments.createdAt, new Date(to)));
  }
  return c;
}

export function createPaymentRepository(db: Db) {
  return {
    /** Pending checkouts (not manual, not autopay charges) created before `before` become expired; their count. */
    async expireCheckouts(before: Date, now: Date): Promise<number> {
      const expired = await db
        .update(payments)
        .set({ status: 'expired', updatedAt: now })
        .where(
          and(
            eq(payments.status, 'pending'),
            ne(payments.provider, 'manual'),
            lt(payments.createdAt, before),
            notExists(db.select({ one: sql`1` }).from(autopayCharges).where(eq(autopayCharges.paymentId, payments.id))),
          ),
        )
        .returning({ id: payments.id });
      return expired.length;
    },

    /** Pending manual recordings created before `before` fail (the recording died); their count. */
    async failDeadRecordings(before: Date, now: Date): Promise<number> {
      const failed = await db
        .update(payments)
        .set({ status: 'failed', failureReason: PAYMENT_FAILURE_REASONS.recordingDied, updatedAt: now })
        .where(and(eq(payments.status, 'pending'), eq(payments.provider, 'manual'), lt(payments.createdAt, before)))
        .returning({ id: payments.id });
      return failed.length;
    },

    async insert(values: NewPaymentRow, tx: Db = db): Promise<PaymentRow> {
      const [row] = await tx.insert(payments).values(values).returning();
      return row;
    },

    async findById(id: string): Promise<PaymentRow | undefined> {
      if (!UUID.test(id)) return undefined;
      const [row] = await db.select().from(payments).where(eq(payments.id, id)).limit(1);
      return row;
    },

    /**
     * The staff list (GET /payments): a page, newest first in the order of payments_created_at_id_idx, and the
     * number of matches (two statements: a window count would read every match before the LIMIT). The count joins
     * customers and invoices only when the search needs them.
     */
    async page(query: PaymentListQueryParsed): Promise<{ items: PaymentWithNames[]; total: number }> {
      const conditions: SQL[] = [];
      if (query.status) conditions.push(eq(payments.status, query.status));
      if (query.provider) conditions.push(eq(payments.provider, query.provider));
      if (query.payment_method) conditions.push(eq(payments.paymentMethod, query.payment_method));
      if (query.gateway_id) conditions.push(eq(payments.gatewayId, query.gateway_id));
      if (query.user_id) conditions.push(eq(payments.userId, query.user_id));
      conditions.push(...createdBetween(query.from, query.to));
      if (query.search) {
        const p = likePattern(query.search);
        conditions.push(
          or(
            ilike(payments.reference, p),
            ilike(payments.transactionId, p),
            ilike(users.email, p),
            ilike(invoices.number, p),
          )!,
        );
      }
      const where = conditions.length ? and(...conditions) : undefined;
      const counted = db.select({ total: count() }).from(payments);
      const [items, [{ total }]] = await Promise.all([
        db
          .select({
            row: payments,
            userName: users.name,
            userEmail: users.email,
            invoiceNumber: invoices.number,
            gatewayName: paymentGateways.name,
          })
          .from(payments)
          .innerJoin(users, eq(users.id, payments.userId))
          .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
          .leftJoin(paymentGateways, eq(paymentGateways.id, payments.gatewayId))
          .where(where)
          .orderBy(newestFirst(payments.createdAt), newestFirst(payments.id))
          .limit(query.limit)
          .offset((query.page - 1) * query.limit),
        query.search
          ? counted
              .innerJoin(users, eq(users.id, payments.userId))
              .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
              .where(where)
          : counted.where(where),
      ]);
      return { items, total: Number(total) };
    },

    /** An invoice's payments, newest first (staff's view of what was paid, failed or refunded on it). */
    async listForInvoice(invoiceId: string): Promise<PaymentRow[]> {
      return db
        .select()
        .from(payments)
        .where(eq(payments.invoiceId, invoiceId))
        .orderBy(desc(payments.createdAt), desc(payments.id));
    },

    /**
     * Claims a payment for a refund by writing `marker` over its failure reason: a paid payment, or a failed one
     * whose money was taken but not counted (`refundNeeded` reasons). False when it is neither, or is already
     * claimed: one refund at a time, whoever asks (staff, or the automatic refund of an uncounted payment).
     */
    async claimForRefund(id: string, marker: string, refundNeeded: readonly string[]): Promise<boolean> {
      const rows = await db
        .update(payments)
        .set({ failureReason: marker })
        .where(
          and(
            eq(payments.id, id),
            or(
              and(eq(payments.status, 'paid'), or(isNull(payments.failureReason), ne(payments.failureReason, marker))),
              and(eq(payments.status, 'failed'), inArray(payments.failureReason, [...refundNeeded])),
            ),
          ),
        )
        .returning({ id: payments.id });
      return rows.length === 1;
    },

    /** Gives a claimed payment its reason back (the refund did not happen). */
    async releaseRefundClaim(id: string, marker: string, previousReason: string | null): Promise<void> {
      await db
        .update(payments)
        .set({ failureReason: previousReason })
        .where(and(eq(payments.id, id), eq(payments.failureReason, marker)));
    },

    /** By payment id or by transaction id (any provider). */
    async findByIdOrTransaction(idOrTransaction: string): Promise<PaymentRow | undefined> {
      const where = UUID.test(idOrTransaction)
        ? or(eq(payments.id, idOrTransaction), eq(payments.transactionId, idOrTransaction))
        : eq(payments.transactionId, idOrTransaction);
      const [row] = await db.select().from(payments).where(where).limit(1);
      return row;
    },

    async findByTransaction(
      provider: string,
      transactionId: string,
      tx: Db = db,
      lock = false,
    ): Promise<PaymentRow | undefined> {
      const q = tx
        .select()
        .from(payments)
        .where(and(eq(payments.provider, provider), eq(payments.transactionId, transactionId)))
        .limit(1);
      const [row] = lock ? await q.for('update') : await q;
      return row;
    },

    async findInvoice(id: string, tx: Db = db, lock = false): Promise<InvoiceRow | undefined> {
      if (!UUID.test(id)) return undefined;
      const q = tx.select().from(invoices).where(eq(invoices.id, id)).limit(1);
      const [row] = lock ? await q.for('update') : await q;
      return row;
    },

    /** A subscription's status inside the completion's transaction (before paying changes it). */
    async subscriptionStatus(tx: Db, id: string): Promise<string | undefined> {
      const [row] = await tx
        .select({ status: subscriptions.status })
        .from(subscriptions)
        .where(eq(subscriptions.id, id))
        .limit(1);
      return row?.status;
    },

    async updatePayment(tx: Db, id: string, values: Partial<NewPaymentRow>): Promise<PaymentRow> {
      const [row] = await tx.update(payments).set(values).where(eq(payments.id, id)).returning();
      return row;
    },

    async markInvoicePaid(tx: Db, id: string, now: Date): Promise<void> {
      await tx.update(invoices).set({ status: 'paid', paidDate: now, updatedAt: now }).where(eq(invoices.id, id));
    },

    async markInvoiceRefunded(tx: Db, id: string, now: Date): Promise<void> {
      await tx
        .update(invoices)
        .set({ status: 'refunded', updatedAt: now })
        .where(and(eq(invoices.id, id), eq(invoices.status, 'paid')));
    },

    /**
     * Records a processed webhook event; false when it was recorded before (a redelivery). A concurrent
     * insert of the same event waits on the unique index until the first transaction ends.
     */
    async recordEvent(
      tx: Db,
      event: { provider: string; eventId: string; type: string; transactionId: string; now: Date },
    ): Promise<boolean> {
      const rows = await tx
        .insert(webhookEvents)
        .values({
          provider: event.provider,
          eventId: event.eventId,
          type: event.type,
          transactionId: event.transactionId,
          receivedAt: event.now,
        })
        .onConflictDoNothing({ target: [webhookEvents.provider, webhookEvents.eventId] })
        .returning({ id: webhookEvents.id });
      return rows.length > 0;
    },

    /**
     * A provider's event about a payment, inside its transaction: the event id is recorded (when given) and the
     * payment row locked. A redelivery answers { duplicate: true } with the payment as it is, and changes nothing.
     */
    async paymentForEvent(
      tx: Db,
      input: { provider: string; transactionId: string; eventId?: string | null },
      type: string,
      now: Date,
    ): Promise<
      { duplicate: true; payment: PaymentRow | null } | { duplicate: false; payment: PaymentRow | undefined }
    > {
      if (
        input.eventId &&
        !(await this.recordEvent(tx, {
          provider: input.provider,
          eventId: input.eventId,
          type,
          transactionId: input.transactionId,
          now,
        }))
      ) {
        return {
          duplicate: true,
          payment: (await this.findByTransaction(input.provider, input.transactionId, tx)) ?? null,
        };
      }
      return { duplicate: false, payment: await this.findByTransaction(input.provider, input.transactionId, tx, true) };
    },
  };
}

export type PaymentRepository = ReturnType<typeof createPaymentRepository>;
