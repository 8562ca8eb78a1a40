/**
 * Autopay charges (issue 21): the due autopay_charges rows are claimed one at a time (FOR UPDATE SKIP LOCKED),
 * checked again under the invoice's lock (still open, an amount due, the card still set — else skipped), given a
 * pending payment and charged off-session through the provider. A refused charge fails with its code, the next
 * attempt is scheduled on billing.autopay_retry_days and the customer is e-mailed. The provider's webhook, not
 * the charge, marks the invoice paid (PaymentService.completePayment).
 */
import { and, asc, eq, lt, lte, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invoices, payments, settings, subscriptions, users } from '../../db/schema';
import { autopayCharges, paymentMethods, type AutopayChargeRow } from '../../db/schema/money';
import { invoiceContext } from '../billing/notices';
import { amountDue } from '../credit/amount-due';
import { defaultSettings } from '../settings/defaults';
import { autopayFailedMail, cardLabel } from './emails';
import type { AutopayDeps } from './service';

const DAY_MS = 86_400_000;
/** A charge still "processing" this long after it was claimed is taken to be from a crashed run and retried. */
export const STALE_PROCESSING_MS = 15 * 60_000;
export const DEFAULT_RETRY_DAYS = [1, 3, 5];
export const OPEN = ['unpaid', 'overdue'] as const;
const startOfDay = (d: Date) => new Date(`${d.toISOString().slice(0, 10)}T00:00:00.000Z`);
/** The transaction id of an autopay payment until the provider names its own. */
const placeholder = (chargeId: string) => `autopay_${chargeId}`;

export class AutopayCharges {
  constructor(
    private readonly deps: AutopayDeps,
    /** Whether a provider can still charge saved cards (the sandbox not in production). */
    private readonly usable: (provider: string) => boolean,
  ) {}

  private async retryDays(db: Db = this.deps.db): Promise<number[]> {
    const [row] = await db.select().from(settings).where(eq(settings.key, 'billing')).limit(1);
    const days = (row?.value as { autopay_retry_days?: unknown } | undefined)?.autopay_retry_days;
    return Array.isArray(days) && days.every((d) => Number.isInteger(d) && d >= 1)
      ? (days as number[])
      : (defaultSettings().billing.autopay_retry_days ?? DEFAULT_RETRY_DAYS);
  }

  /** Claims one due charge (scheduled and due, or processing and stale): scheduled → processing. */
  private async claim(): Promise<AutopayChargeRow | null> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const [due] = await tx
        .select({ id: autopayCharges.id })
        .from(autopayCharges)
        .where(
          or(
            and(eq(autopayCharges.status, 'scheduled'), lte(autopayCharges.scheduledAt, now)),
            and(
              eq(autopayCharges.status, 'processing'),
              lt(autopayCharges.updatedAt, new Date(now.getTime() - STALE_PROCESSING_MS)),
            ),
          ),
        )
        .orderBy(asc(autopayCharges.scheduledAt), asc(autopayCharges.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!due) return null;
      const [row] = await tx
        .update(autopayCharges)
        .set({ status: 'processing', attemptedAt: now, updatedAt: now })
        .where(eq(autopayCharges.id, due.id))
        .returning();
      return row;
    });
  }

  /**
   * Makes every due charge (after a billing run committed; also picks up charges a crashed run left
   * "processing"). Never throws: a charge that fails unexpectedly is logged and stays processing, retried later.
   */
  async processDue(): Promise<{ submitted: number; failed: number; skipped: number }> {
    const counts = { submitted: 0, failed: 0, skipped: 0 };
    const seen = new Set<string>();
    for (;;) {
      let charge: AutopayChargeRow | null;
      try {
        charge = await this.claim();
      } catch (error) {
        this.deps.log?.error({ err: error }, 'autopay: claiming a charge failed');
        break;
      }
      if (!charge || seen.has(charge.id)) break;
      seen.add(charge.id);
      try {
        counts[await this.charge(charge)]++;
      } catch (error) {
        this.deps.log?.error(
          { err: error, chargeId: charge.id },
          'autopay: charge failed unexpectedly; it is retried later',
        );
      }
    }
    return counts;
  }

  /** One claimed charge: re-checked under lock, the pending payment, the provider's charge. */
  private async charge(claimed: AutopayChargeRow): Promise<'submitted' | 'failed' | 'skipped'> {
    const { db, clock } = this.deps;
    // Read before the transaction (the gateway repository uses its own connection).
    const gateways = await this.deps.gatewayRepository.all();
    const prepared = await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const now = clock.now();
      const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, claimed.invoiceId)).for('update');
      const [sub] = claimed.subscriptionId
        ? await tx.select().from(subscriptions).where(eq(subscriptions.id, claimed.subscriptionId)).limit(1)
        : [];
      const [method] = sub?.autopayMethodId
        ? await tx.select().from(paymentMethods).where(eq(paymentMethods.id, sub.autopayMethodId)).limit(1)
        : [];
      const skip = async (reason: string) => {
        await tx
          .update(autopayCharges)
          .set({ status: 'skipped', failureMessage: reason, updatedAt: now })
          .where(eq(autopayCharges.id, claimed.id));
        return null;
      };
      if (!invoice || !(OPEN as readonly string[]).includes(invoice.status))
        return skip(`Invoice ${invoice?.status ?? 'deleted'}`);
      const due = amountDue(invoice);
      if (due <= 0) return skip('Nothing to pay');
      if (!sub || !method || ['cancelled', 'expired'].includes(sub.status)) return skip('Autopay is off');
      if (!this.usable(method.provider)) return skip('The card provider is not available');
      const gateway =
        gateways.find((g) => g.id === method.gatewayId) ??
        gateways.find((g) => g.provider === method.provider && g.isActive);
      if (!gateway) return skip('The card provider is not available');
      // A charge picked up again after a crash keeps its payment (and so its idempotency key's parameters).
      const [earlier] = claimed.paymentId
        ? await tx.select().from(payments).where(eq(payments.id, claimed.paymentId)).for('update')
        : [];
      if (earlier && earlier.status !== 'pending') return skip(`Payment already ${earlier.status}`);
      const payment =
        earlier ??
        (
          await tx
            .insert(payments)
            .values({
              invoiceId: invoice.id,
              userId: invoice.userId,
              gatewayId: gateway.id,
              provider: method.provider,
              transactionId: placeholder(claimed.id),
              status: 'pending',
              amount: due,
              currency: invoice.currency,
              paymentMethod: method.provider,
              reference: `Autopay attempt ${claimed.attempt}`,
              createdAt: now,
              updatedAt: now,
            })
            .returning()
        )[0];
      await tx
        .update(autopayCharges)
        .set({ paymentId: payment.id, paymentMethodId: method.id, amount: payment.amount, updatedAt: now })
        .where(eq(autopayCharges.id, claimed.id));
      return { invoice, payment, method, gateway };
    });
    if (!prepared) return 'skipped';
    const { invoice, payment, method, gateway } = prepared;
    const adapter = this.deps.providers.get(method.provider)!;
    const result = await adapter.chargeSaved!({
      invoiceId: invoice.id,
      paymentId: payment.id,
      amount: payment.amount,
      currency: payment.currency,
      method: { providerMethodId: method.providerMethodId, providerCustomerId: method.providerCustomerId },
      idempotencyKey: `autopay_${invoice.id}_${claimed.attempt}`,
      credentials: this.deps.gateways.openCredentials(gateway),
    });
    const charge = { ...claimed, paymentId: payment.id, paymentMethodId: method.id, amount: payment.amount };
    if (result.ok) {
      await db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const now = clock.now();
        await tx
          .update(payments)
          .set({ transactionId: result.transactionId, updatedAt: now })
          .where(and(eq(payments.id, payment.id), eq(payments.transactionId, placeholder(claimed.id))));
        // The webhook may already have settled it (succeeded): only a charge still processing becomes submitted.
        await tx
          .update(autopayCharges)
          .set({ status: 'submitted', updatedAt: now })
          .where(and(eq(autopayCharges.id, claimed.id), eq(autopayCharges.status, 'processing')));
      });
      return 'submitted';
    }
    await this.fail(charge, result, result.transactionId);
    return 'failed';
  }

  /** A refused charge: payment and charge failed, the next attempt scheduled, the customer e-mailed. */
  async fail(
    charge: AutopayChargeRow,
    failure: { code: string; message: string },
    transactionId: string | null = null,
  ): Promise<void> {
    const { db, clock, appUrl } = this.deps;
    const mail = await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const now = clock.now();
      const [row] = await tx.select().from(autopayCharges).where(eq(autopayCharges.id, charge.id)).for('update');
      if (!row || !['processing', 'submitted'].includes(row.status)) return null;
      if (charge.paymentId) {
        const [p] = await tx.select().from(payments).where(eq(payments.id, charge.paymentId)).for('update');
        if (p && p.status === 'pending') {
          const useTx = transactionId && p.transactionId === placeholder(charge.id) ? { transactionId } : {};
          await tx
            .update(payments)
            .set({
              status: 'failed',
              failureReason: `Automatic payment refused (${failure.code}): ${failure.message}`.slice(0, 500),
              updatedAt: now,
              ...useTx,
            })
            .where(eq(payments.id, p.id));
        }
      }
      await tx
        .update(autopayCharges)
        .set({
          status: 'failed',
          failureCode: failure.code.slice(0, 64),
          failureMessage: failure.message,
          updatedAt: now,
        })
        .where(eq(autopayCharges.id, charge.id));
      // The schedule counts from the day of the first attempt.
      const [first] = await tx
        .select()
        .from(autopayCharges)
        .where(and(eq(autopayCharges.invoiceId, charge.invoiceId), eq(autopayCharges.attempt, 1)))
        .limit(1);
      const days = await this.retryDays(tx);
      let nextRetry: Date | null = null;
      if (row.attempt <= days.length) {
        nextRetry = new Date(
          startOfDay(first?.attemptedAt ?? first?.scheduledAt ?? now).getTime() + days[row.attempt - 1] * DAY_MS,
        );
        await tx
          .insert(autopayCharges)
          .values({
            invoiceId: row.invoiceId,
            subscriptionId: row.subscriptionId,
            attempt: row.attempt + 1,
            status: 'scheduled',
            scheduledAt: nextRetry,
            paymentMethodId: row.paymentMethodId,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing();
      }
      const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, row.invoiceId)).limit(1);
      const [user] = invoice
        ? await tx
            .select({ email: users.email, name: users.name })
            .from(users)
            .where(eq(users.id, invoice.userId))
            .limit(1)
        : [];
      const [method] = row.paymentMethodId
        ? await tx.select().from(paymentMethods).where(eq(paymentMethods.id, row.paymentMethodId)).limit(1)
        : [];
      if (!invoice || !user) return null;
      const [companyRow] = await tx.select().from(settings).where(eq(settings.key, 'company')).limit(1);
      const company = (companyRow?.value as { name?: string } | undefined)?.name || defaultSettings().company.name;
      return autopayFailedMail({
        ...invoiceContext(invoice, user, company, appUrl),
        amount: row.amount ?? amountDue(invoice),
        card: method ? cardLabel(method) : 'saved card',
        reason: failure.message,
        nextRetry: nextRetry ? nextRetry.toISOString().slice(0, 10) : null,
      });
    });
    if (mail) this.deps.send(mail);
  }
}
