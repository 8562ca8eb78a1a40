/**
 * Autopay's queries (issue 21): saved cards and their set-ups, the subscriptions that use them, the charge
 * attempts (claimed FOR UPDATE SKIP LOCKED), the payments they write, and what the e-mails and the state read.
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  invoices,
  payments,
  settings,
  subscriptions,
  users,
  webhookEvents,
  type InvoiceRow,
  type PaymentRow,
  type SubscriptionRow,
} from '../../db/schema';
import {
  autopayCharges,
  paymentMethodSetups,
  paymentMethods,
  type AutopayChargeRow,
  type PaymentMethodRow,
} from '../../db/schema/money';

export const OPEN = ['unpaid', 'overdue'] as const;

export function createAutopayRepository(db: Db) {
  return {
    // ---- settings, customers, subscriptions, invoices -----------------------------------------------------

    /** The settings row with this key (LIMIT 1). */
    async setting(key: string) {
      const [row] = await db.select().from(settings).where(eq(settings.key, key)).limit(1);
      return row;
    },

    async subscription(id: string): Promise<SubscriptionRow | undefined> {
      const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
      return sub;
    },

    async lockSubscription(id: string): Promise<SubscriptionRow> {
      const [locked] = await db.select().from(subscriptions).where(eq(subscriptions.id, id)).for('update');
      return locked;
    },

    async setAutopayMethod(subscriptionId: string, methodId: string | null, now: Date): Promise<void> {
      await db
        .update(subscriptions)
        .set({ autopayMethodId: methodId, updatedAt: now })
        .where(eq(subscriptions.id, subscriptionId));
    },

    /** The subscriptions whose autopay uses one of these cards move to another. */
    async moveAutopayMethod(fromIds: string[], toId: string, now: Date): Promise<void> {
      await db
        .update(subscriptions)
        .set({ autopayMethodId: toId, updatedAt: now })
        .where(inArray(subscriptions.autopayMethodId, fromIds));
    },

    async subscriptionsUsing(methodId: string): Promise<{ id: string }[]> {
      return db.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.autopayMethodId, methodId));
    },

    async subscriptionsUsingAny(methodIds: string[]) {
      return db
        .select({ id: subscriptions.id, methodId: subscriptions.autopayMethodId })
        .from(subscriptions)
        .where(inArray(subscriptions.autopayMethodId, methodIds));
    },

    async customer(userId: string) {
      const [user] = await db
        .select({ id: users.id, email: users.email, name: users.name })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return user;
    },

    async contact(userId: string) {
      const [user] = await db
        .select({ email: users.email, name: users.name, language: users.language })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return user;
    },

    /** Locks the customer's users row FOR UPDATE (it serialises their card changes). */
    async lockUser(userId: string): Promise<void> {
      await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    },

    async invoice(id: string): Promise<InvoiceRow | undefined> {
      const [invoice] = await db.select().from(invoices).where(eq(invoices.id, id)).limit(1);
      return invoice;
    },

    async lockInvoice(id: string): Promise<InvoiceRow | undefined> {
      const [invoice] = await db.select().from(invoices).where(eq(invoices.id, id)).for('update');
      return invoice;
    },

    // ---- cards and their set-ups ----------------------------------------------------------------------------

    /** The customer's saved cards, newest first. */
    async cardsOf(userId: string): Promise<PaymentMethodRow[]> {
      return db
        .select()
        .from(paymentMethods)
        .where(eq(paymentMethods.userId, userId))
        .orderBy(desc(paymentMethods.createdAt), desc(paymentMethods.id));
    },

    async cardsWithProvider(userId: string, provider: string): Promise<PaymentMethodRow[]> {
      return db
        .select()
        .from(paymentMethods)
        .where(and(eq(paymentMethods.userId, userId), eq(paymentMethods.provider, provider)));
    },

    async card(id: string): Promise<PaymentMethodRow | undefined> {
      const [method] = await db.select().from(paymentMethods).where(eq(paymentMethods.id, id)).limit(1);
      return method;
    },

    async lockCard(id: string): Promise<PaymentMethodRow | undefined> {
      const [row] = await db.select().from(paymentMethods).where(eq(paymentMethods.id, id)).for('update');
      return row;
    },

    async deleteCard(id: string): Promise<void> {
      await db.delete(paymentMethods).where(eq(paymentMethods.id, id));
    },

    async deleteCards(ids: string[]): Promise<void> {
      await db.delete(paymentMethods).where(inArray(paymentMethods.id, ids));
    },

    /** The provider's customer id of the customer's newest card with that provider, if any. */
    async knownProviderCustomer(userId: string, provider: string) {
      const [known] = await db
        .select({ customer: paymentMethods.providerCustomerId })
        .from(paymentMethods)
        .where(
          and(
            eq(paymentMethods.userId, userId),
            eq(paymentMethods.provider, provider),
            isNotNull(paymentMethods.providerCustomerId),
          ),
        )
        .orderBy(desc(paymentMethods.createdAt))
        .limit(1);
      return known;
    },

    /** Inserts the card, or updates the one the provider already knows by its method id. */
    async saveCard(
      values: typeof paymentMethods.$inferInsert,
      onConflict: Partial<typeof paymentMethods.$inferInsert>,
    ): Promise<PaymentMethodRow> {
      const [saved] = await db
        .insert(paymentMethods)
        .values(values)
        .onConflictDoUpdate({
          target: [paymentMethods.provider, paymentMethods.providerMethodId],
          set: onConflict,
        })
        .returning();
      return saved;
    },

    /**
     * Cards used by autopay subscriptions (active, suspended, pending, with a period end) and not reminded yet,
     * with the subscription and the customer; the cards locked FOR UPDATE.
     */
    async lockCardsToRemind() {
      return db
        .select({
          card: paymentMethods,
          sub: subscriptions,
          email: users.email,
          name: users.name,
          language: users.language,
        })
        .from(paymentMethods)
        .innerJoin(subscriptions, eq(subscriptions.autopayMethodId, paymentMethods.id))
        .innerJoin(users, eq(users.id, paymentMethods.userId))
        .where(
          and(
            isNull(paymentMethods.expiryRemindedAt),
            isNotNull(subscriptions.currentPeriodEnd),
            inArray(subscriptions.status, ['active', 'suspended', 'pending']),
          ),
        )
        .for('update', { of: paymentMethods });
    },

    async markReminded(cardId: string, now: Date): Promise<void> {
      await db.update(paymentMethods).set({ expiryRemindedAt: now }).where(eq(paymentMethods.id, cardId));
    },

    async insertSetup(values: typeof paymentMethodSetups.$inferInsert): Promise<void> {
      await db.insert(paymentMethodSetups).values(values);
    },

    async setupByTransaction(provider: string, transactionId: string) {
      const [row] = await db
        .select()
        .from(paymentMethodSetups)
        .where(and(eq(paymentMethodSetups.provider, provider), eq(paymentMethodSetups.transactionId, transactionId)))
        .limit(1);
      return row;
    },

    async lockSetup(id: string) {
      const [locked] = await db.select().from(paymentMethodSetups).where(eq(paymentMethodSetups.id, id)).for('update');
      return locked;
    },

    /** A set-up still pending fails. */
    async failPendingSetup(id: string, now: Date): Promise<void> {
      await db
        .update(paymentMethodSetups)
        .set({ status: 'failed', updatedAt: now })
        .where(and(eq(paymentMethodSetups.id, id), eq(paymentMethodSetups.status, 'pending')));
    },

    async completeSetup(id: string, paymentMethodId: string, now: Date): Promise<void> {
      await db
        .update(paymentMethodSetups)
        .set({ status: 'completed', paymentMethodId, updatedAt: now })
        .where(eq(paymentMethodSetups.id, id));
    },

    /** Records a webhook event once; undefined when it was recorded before. */
    async recordWebhookEvent(values: typeof webhookEvents.$inferInsert): Promise<{ id: string } | undefined> {
      const [fresh] = await db
        .insert(webhookEvents)
        .values(values)
        .onConflictDoNothing({ target: [webhookEvents.provider, webhookEvents.eventId] })
        .returning({ id: webhookEvents.id });
      return fresh;
    },

    // ---- payments -------------------------------------------------------------------------------------------

    async lockPayment(id: string): Promise<PaymentRow | undefined> {
      const [p] = await db.select().from(payments).where(eq(payments.id, id)).for('update');
      return p;
    },

    async insertPayment(values: typeof payments.$inferInsert): Promise<PaymentRow> {
      return (await db.insert(payments).values(values).returning())[0];
    },

    async updatePayment(id: string, values: Partial<typeof payments.$inferInsert>): Promise<void> {
      await db.update(payments).set(values).where(eq(payments.id, id));
    },

    /** The payment's provider transaction id, while it still has its placeholder. */
    async namePayment(id: string, placeholder: string, transactionId: string, now: Date): Promise<void> {
      await db
        .update(payments)
        .set({ transactionId, updatedAt: now })
        .where(and(eq(payments.id, id), eq(payments.transactionId, placeholder)));
    },

    /** A pending payment of this provider still carrying an autopay placeholder gets the provider's id. */
    async namePendingAutopayPayment(id: string, provider: string, transactionId: string): Promise<void> {
      await db
        .update(payments)
        .set({ transactionId })
        .where(
          and(
            eq(payments.id, id),
            eq(payments.provider, provider),
            eq(payments.status, 'pending'),
            sql`${payments.transactionId} like 'autopay\\_%'`,
          ),
        );
    },

    // ---- charge attempts ------------------------------------------------------------------------------------

    /** Attempt rows that are new for their invoice and attempt number; the ids inserted. */
    async scheduleCharge(values: typeof autopayCharges.$inferInsert): Promise<{ id: string }[]> {
      return db.insert(autopayCharges).values(values).onConflictDoNothing().returning({ id: autopayCharges.id });
    },

    async scheduleRetry(values: typeof autopayCharges.$inferInsert): Promise<void> {
      await db.insert(autopayCharges).values(values).onConflictDoNothing();
    },

    /**
     * The first due charge (scheduled and due, or processing since before staleBefore), oldest first, locked
     * FOR UPDATE SKIP LOCKED.
     */
    async lockDueCharge(now: Date, staleBefore: Date): Promise<{ id: string } | undefined> {
      const [due] = await db
        .select({ id: autopayCharges.id })
        .from(autopayCharges)
        .where(
          or(
            and(eq(autopayCharges.status, 'scheduled'), lte(autopayCharges.scheduledAt, now)),
            and(eq(autopayCharges.status, 'processing'), lt(autopayCharges.updatedAt, staleBefore)),
          ),
        )
        .orderBy(asc(autopayCharges.scheduledAt), asc(autopayCharges.id))
        .limit(1)
        .for('update', { skipLocked: true });
      return due;
    },

    /** The charge becomes processing, attempted now. */
    async startCharge(id: string, now: Date): Promise<AutopayChargeRow> {
      const [row] = await db
        .update(autopayCharges)
        .set({ status: 'processing', attemptedAt: now, updatedAt: now })
        .where(eq(autopayCharges.id, id))
        .returning();
      return row;
    },

    async lockCharge(id: string): Promise<AutopayChargeRow | undefined> {
      const [row] = await db.select().from(autopayCharges).where(eq(autopayCharges.id, id)).for('update');
      return row;
    },

    async chargeOfPayment(paymentId: string): Promise<AutopayChargeRow | undefined> {
      const [charge] = await db.select().from(autopayCharges).where(eq(autopayCharges.paymentId, paymentId)).limit(1);
      return charge;
    },

    /** Attempt 1 of the invoice's charges. */
    async firstAttempt(invoiceId: string): Promise<AutopayChargeRow | undefined> {
      const [first] = await db
        .select()
        .from(autopayCharges)
        .where(and(eq(autopayCharges.invoiceId, invoiceId), eq(autopayCharges.attempt, 1)))
        .limit(1);
      return first;
    },

    async skipCharge(id: string, reason: string, now: Date): Promise<void> {
      await db
        .update(autopayCharges)
        .set({ status: 'skipped', failureMessage: reason, updatedAt: now })
        .where(eq(autopayCharges.id, id));
    },

    async attachPayment(id: string, paymentId: string, paymentMethodId: string, amount: number, now: Date) {
      await db
        .update(autopayCharges)
        .set({ paymentId, paymentMethodId, amount, updatedAt: now })
        .where(eq(autopayCharges.id, id));
    },

    /** A charge still processing becomes submitted. */
    async chargeSubmitted(id: string, now: Date): Promise<void> {
      await db
        .update(autopayCharges)
        .set({ status: 'submitted', updatedAt: now })
        .where(and(eq(autopayCharges.id, id), eq(autopayCharges.status, 'processing')));
    },

    /** A charge processing or submitted becomes succeeded. */
    async chargeSucceeded(id: string, now: Date): Promise<void> {
      await db
        .update(autopayCharges)
        .set({ status: 'succeeded', updatedAt: now })
        .where(and(eq(autopayCharges.id, id), inArray(autopayCharges.status, ['processing', 'submitted'])));
    },

    async chargeFailed(id: string, failureCode: string, failureMessage: string, now: Date): Promise<void> {
      await db
        .update(autopayCharges)
        .set({
          status: 'failed',
          failureCode,
          failureMessage,
          updatedAt: now,
        })
        .where(eq(autopayCharges.id, id));
    },

    /** The subscription's newest charge that was submitted, succeeded or failed. */
    async lastCharge(subscriptionId: string): Promise<AutopayChargeRow | undefined> {
      const [last] = await db
        .select()
        .from(autopayCharges)
        .where(
          and(
            eq(autopayCharges.subscriptionId, subscriptionId),
            inArray(autopayCharges.status, ['submitted', 'succeeded', 'failed']),
          ),
        )
        .orderBy(desc(autopayCharges.attemptedAt), desc(autopayCharges.attempt))
        .limit(1);
      return last;
    },

    /** When the subscription's next scheduled charge of an open invoice is due. */
    async nextScheduledCharge(subscriptionId: string): Promise<{ at: Date } | undefined> {
      const [next] = await db
        .select({ at: autopayCharges.scheduledAt })
        .from(autopayCharges)
        .innerJoin(invoices, eq(invoices.id, autopayCharges.invoiceId))
        .where(
          and(
            eq(autopayCharges.subscriptionId, subscriptionId),
            eq(autopayCharges.status, 'scheduled'),
            inArray(invoices.status, [...OPEN]),
          ),
        )
        .orderBy(asc(autopayCharges.scheduledAt))
        .limit(1);
      return next;
    },
  };
}
