/**
 * Autopay charges (issue 21): the due autopay_charges rows are claimed one at a time (FOR UPDATE SKIP LOCKED),
 * checked again under the invoice's lock (still open, an amount due, the card still set — else skipped), given a
 * pending payment and charged off-session through the provider. A refused charge fails with its code, the next
 * attempt is scheduled on billing.autopay_retry_days and the customer is e-mailed. The provider's webhook, not
 * the charge, marks the invoice paid (PaymentService.completePayment).
 */
import type { Db } from '../../db/client';
import type { AutopayChargeRow } from '../../db/schema/money';
import { invoiceContext } from '../billing/notices';
import { amountDue } from '../credit/amount-due';
import { defaultSettings } from '../settings/defaults';
import { autopayFailedMail, cardLabel } from './emails';
import { createAutopayRepository, OPEN } from './repository';
import type { AutopayDeps } from './service';

const DAY_MS = 86_400_000;
/** A charge still "processing" this long after it was claimed is taken to be from a crashed run and retried. */
export const STALE_PROCESSING_MS = 15 * 60_000;
export const DEFAULT_RETRY_DAYS = [1, 3, 5];
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
    const row = await createAutopayRepository(db).setting('billing');
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
      const repo = createAutopayRepository(tx);
      const due = await repo.lockDueCharge(now, new Date(now.getTime() - STALE_PROCESSING_MS));
      if (!due) return null;
      return repo.startCharge(due.id, now);
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
      const repo = createAutopayRepository(tx);
      const invoice = await repo.lockInvoice(claimed.invoiceId);
      const sub = claimed.subscriptionId ? await repo.subscription(claimed.subscriptionId) : undefined;
      const method = sub?.autopayMethodId ? await repo.card(sub.autopayMethodId) : undefined;
      const skip = async (reason: string) => {
        await repo.skipCharge(claimed.id, reason, now);
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
      const earlier = claimed.paymentId ? await repo.lockPayment(claimed.paymentId) : undefined;
      if (earlier && earlier.status !== 'pending') return skip(`Payment already ${earlier.status}`);
      const payment =
        earlier ??
        (await repo.insertPayment({
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
        }));
      await repo.attachPayment(claimed.id, payment.id, method.id, payment.amount, now);
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
        const repo = createAutopayRepository(txRaw as unknown as Db);
        const now = clock.now();
        await repo.namePayment(payment.id, placeholder(claimed.id), result.transactionId, now);
        // The webhook may already have settled it (succeeded): only a charge still processing becomes submitted.
        await repo.chargeSubmitted(claimed.id, now);
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
      const repo = createAutopayRepository(tx);
      const now = clock.now();
      const row = await repo.lockCharge(charge.id);
      if (!row || !['processing', 'submitted'].includes(row.status)) return null;
      if (charge.paymentId) {
        const p = await repo.lockPayment(charge.paymentId);
        if (p && p.status === 'pending') {
          const useTx = transactionId && p.transactionId === placeholder(charge.id) ? { transactionId } : {};
          await repo.updatePayment(p.id, {
            status: 'failed',
            failureReason: `Automatic payment refused (${failure.code}): ${failure.message}`.slice(0, 500),
            updatedAt: now,
            ...useTx,
          });
        }
      }
      await repo.chargeFailed(charge.id, failure.code.slice(0, 64), failure.message, now);
      // The schedule counts from the day of the first attempt.
      const first = await repo.firstAttempt(charge.invoiceId);
      const days = await this.retryDays(tx);
      let nextRetry: Date | null = null;
      if (row.attempt <= days.length) {
        nextRetry = new Date(
          startOfDay(first?.attemptedAt ?? first?.scheduledAt ?? now).getTime() + days[row.attempt - 1] * DAY_MS,
        );
        await repo.scheduleRetry({
          invoiceId: row.invoiceId,
          subscriptionId: row.subscriptionId,
          attempt: row.attempt + 1,
          status: 'scheduled',
          scheduledAt: nextRetry,
          paymentMethodId: row.paymentMethodId,
          createdAt: now,
          updatedAt: now,
        });
      }
      const invoice = await repo.invoice(row.invoiceId);
      const user = invoice ? await repo.contact(invoice.userId) : undefined;
      const method = row.paymentMethodId ? await repo.card(row.paymentMethodId) : undefined;
      if (!invoice || !user) return null;
      const companyRow = await repo.setting('company');
      const company = (companyRow?.value as { name?: string } | undefined)?.name || defaultSettings().company.name;
      const languagesRow = await repo.setting('languages');
      const defaultLanguage =
        (languagesRow?.value as { default?: string } | undefined)?.default || defaultSettings().languages.default;
      const context = invoiceContext(invoice, user, company, appUrl, defaultLanguage);
      return autopayFailedMail({
        ...context,
        amount: row.amount ?? amountDue(invoice),
        card: cardLabel(method, context.language),
        reason: failure.message,
        nextRetry: nextRetry ? nextRetry.toISOString().slice(0, 10) : null,
      });
    });
    if (mail) this.deps.send(mail);
  }
}
