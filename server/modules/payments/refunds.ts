/**
 * Refunds (split from the payment service): a payment that was not counted (the invoice was already paid) given
 * back automatically, staff refunds through the provider or to the customer's credit, and a refund the provider
 * reports. Every refund first claims the payment ("refund in progress"), so two clicks, two staff or staff and
 * the automatic refund never refund twice at the provider.
 */
import {
  PAYMENT_FAILURE_REASONS,
  PAYMENT_MESSAGES as M,
  REFUND_IN_PROGRESS,
  REFUND_NEEDED_REASONS,
  isRefundable,
  type Payment,
} from '../../../contract/schemas/payment';
import type { Db } from '../../db/client';
import type { PaymentRow } from '../../db/schema';
import type { PaymentProviderRegistry } from '../../integrations/payments';
import type { Clock } from '../../lib/clock';
import { AppError, conflict, isUniqueViolation, notFound } from '../../lib/errors';
import { recordAudit, SYSTEM, type AuditContext } from '../audit/trail';
import type { GatewayRepository } from '../gateways/repository';
import type { GatewayService } from '../gateways/service';
import { balanceOf, overpaidBy } from '../credit/ledger';
import { heldRefunded, paymentHeld, refundedToCredit, refundedToPayer } from '../ledger/movements';
import { formatMoney } from '../../../contract/money';
import type { PaymentRepository } from './repository';
import { toPayment, type CompletionResult } from './service';

/** What a refund changed: the status, the amount given back, the provider's refund id and who started it. */
function refundChanges(
  payment: PaymentRow,
  refundId: string | null,
  by: 'staff' | 'automatic' | 'provider',
): Record<string, unknown> {
  return {
    status: { from: payment.status, to: 'refunded' },
    amount: { from: null, to: payment.amount },
    currency: { from: null, to: payment.currency },
    provider: { from: null, to: payment.provider },
    refunded_by: { from: null, to: by },
    ...(refundId ? { refund_id: { from: null, to: refundId } } : {}),
  };
}

/** Money a provider took that no invoice counted, not yet given back (the ledger's held account). */
function isHeld(payment: PaymentRow): boolean {
  return (
    payment.status === 'failed' &&
    payment.provider !== 'manual' &&
    [...REFUND_NEEDED_REASONS, REFUND_IN_PROGRESS].includes(
      (payment.failureReason ?? '') as (typeof REFUND_NEEDED_REASONS)[number],
    )
  );
}

/**
 * An uncounted payment given back: held money leaves for the payer. A payment never counted as taken (a manual
 * recording refused for its amount, a checkout still pending or declined that the provider refunds) was taken
 * after all: it is held and given back in the same transaction.
 */
async function giveBackUncounted(tx: Db, payment: PaymentRow, now: Date): Promise<void> {
  if (!isHeld(payment)) await paymentHeld(tx, payment, now);
  await heldRefunded(tx, payment, now);
}

/** What both payment services are built on. */
export interface PaymentDeps {
  db: Db;
  repository: PaymentRepository;
  gateways: GatewayService;
  gatewayRepository: GatewayRepository;
  providers: PaymentProviderRegistry;
  clock: Clock;
  /** Where a failed automatic refund is reported (the payment stays "failed: refund needed"). */
  log?: { warn: (obj: object, msg: string) => void };
}

export class PaymentRefunds {
  constructor(private readonly deps: PaymentDeps) {}

  /** The provider adapter and the opened credentials of the gateway a payment went through. */
  private async providerFor(payment: PaymentRow) {
    const adapter = this.deps.providers.get(payment.provider);
    if (!adapter) throw new AppError(502, M.refundUnavailable);
    const gateway =
      (payment.gatewayId ? await this.deps.gatewayRepository.findById(payment.gatewayId) : undefined) ??
      (await this.deps.gatewayRepository.all()).find((g) => g.provider === payment.provider);
    return { adapter, credentials: gateway ? this.deps.gateways.openCredentials(gateway) : {} };
  }

  /**
   * Claims a payment for a refund and asks its provider to give the money back; returns the provider's refund
   * id, or null when the payment could not be claimed (not refundable, or a refund already under way). If the
   * provider refuses or cannot be reached, the claim is released and the error thrown on.
   */
  private async claimAndRefund(payment: PaymentRow): Promise<string | null> {
    if (!(await this.deps.repository.claimForRefund(payment.id, REFUND_IN_PROGRESS, REFUND_NEEDED_REASONS)))
      return null;
    try {
      const { adapter, credentials } = await this.providerFor(payment);
      return (await adapter.refund(payment.transactionId, payment.amount, credentials)).refundId;
    } catch (error) {
      await this.deps.repository.releaseRefundClaim(payment.id, REFUND_IN_PROGRESS, payment.failureReason);
      throw error;
    }
  }

  /**
   * Refunds a payment that was not counted (the invoice was already paid) after its transaction committed.
   * On success it becomes "refunded" with the provider's refund id; if the provider refuses or cannot be
   * reached it stays "failed: refund needed" for staff to handle, and the failure is logged.
   */
  async refundNotCounted(payment: PaymentRow, audit?: AuditContext): Promise<PaymentRow> {
    if (payment.provider === 'manual') return payment; // staff record manual refunds themselves
    const { repository } = this.deps;
    let refundId: string | null;
    try {
      refundId = await this.claimAndRefund(payment);
    } catch (error) {
      this.deps.log?.warn(
        { err: error, paymentId: payment.id, transactionId: payment.transactionId },
        'automatic refund of a payment that was not counted failed',
      );
      return payment;
    }
    if (!refundId) return payment;
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const row = await repository.updatePayment(tx, payment.id, {
        status: 'refunded',
        failureReason: `${payment.failureReason ?? PAYMENT_FAILURE_REASONS.alreadyPaid}; refunded automatically (${refundId})`,
        updatedAt: now,
      });
      await giveBackUncounted(tx, payment, now);
      // The portal itself gave the money back: the system is the actor, whatever request brought the payment in.
      await recordAudit(
        tx,
        this.deps.clock,
        { ...SYSTEM, ip: audit?.ip ?? null, requestId: audit?.requestId ?? null },
        {
          action: 'payment.refunded',
          targetType: 'payment',
          targetId: payment.id,
          changes: refundChanges(payment, refundId, 'automatic'),
        },
      );
      return row;
    });
  }

  /**
   * Staff refund a paid payment, or one the provider took but that was not counted (invoice already paid,
   * wrong amount) whose automatic refund failed (POST /payments/{id}/refund). The payment is first claimed
   * (marked "refund in progress" only if it is refundable and not already claimed), so two clicks, two staff or
   * staff and the automatic refund never refund twice at the provider; then the provider gives the money back;
   * then the payment (and, for a counted payment, its invoice) become refunded in one transaction. The
   * subscription is left as it is (staff suspend or cancel it separately).
   * Not refundable → 409; already being refunded → 409; provider failure → 502 and the claim is released.
   */
  async refundByStaff(
    paymentId: string,
    audit?: AuditContext,
    to: 'provider' | 'credit' = 'provider',
  ): Promise<Payment> {
    const { db, repository, clock } = this.deps;
    if (to === 'credit') return this.refundToCredit(paymentId, audit);
    const payment = await repository.findById(paymentId);
    if (!payment) throw notFound(M.paymentNotFound);
    if (payment.failureReason === REFUND_IN_PROGRESS) throw conflict(M.refundInProgress);
    if (!isRefundable(payment.status, payment.failureReason)) throw conflict(M.refundNotPaid);
    // The credit this payment left must go back with it (issue 31); once it was spent on another invoice the
    // payer would get it twice: refused before the provider is asked (a refund to credit is still possible).
    const overpaid = payment.status === 'paid' ? await overpaidBy(db, payment.id) : 0;
    if (overpaid > 0) {
      const balance = await balanceOf(db, payment.userId, payment.currency);
      if (balance < overpaid)
        throw conflict(
          M.overpaymentSpent(
            formatMoney(overpaid, payment.currency, 'en-US'),
            formatMoney(balance, payment.currency, 'en-US'),
          ),
        );
    }
    let refundId: string | null;
    try {
      refundId = await this.claimAndRefund(payment);
    } catch (error) {
      if (error instanceof AppError) throw error;
      this.deps.log?.warn({ err: error, paymentId }, 'provider refused or could not be reached for a refund');
      throw new AppError(502, M.refundUnavailable);
    }
    if (!refundId) throw conflict(M.refundInProgress);
    const refunded = await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const now = clock.now();
      await repository.findInvoice(payment.invoiceId, tx, true);
      if (audit)
        await recordAudit(tx, clock, audit, {
          action: 'payment.refunded',
          targetType: 'payment',
          targetId: payment.id,
          changes: refundChanges(payment, refundId, 'staff'),
        });
      if (payment.status !== 'paid') {
        // Taken but never counted: the money goes back, the invoice stays as it is.
        await giveBackUncounted(tx, payment, now);
        return repository.updatePayment(tx, payment.id, {
          status: 'refunded',
          failureReason: `${payment.failureReason}; refunded by staff (${refundId})`,
          updatedAt: now,
        });
      }
      const row = await repository.updatePayment(tx, payment.id, {
        status: 'refunded',
        failureReason: `Refunded by staff (${refundId})`,
        updatedAt: now,
      });
      await repository.markInvoiceRefunded(tx, payment.invoiceId, now);
      const reversed = await refundedToPayer(
        tx,
        payment,
        now,
        audit?.actor.id ?? null,
        'Overpayment refunded with its payment',
      );
      if (reversed < overpaid)
        this.deps.log?.warn(
          { paymentId, overpaid, reversed },
          'the overpayment credit was spent while its payment was being refunded',
        );
      return row;
    });
    return toPayment(refunded);
  }

  /**
   * Staff refund a paid payment to the customer's credit instead of to the card (POST /payments/{id}/refund
   * {"to": "credit"}): no money moves at the provider; the payment and its invoice become refunded and the
   * amount becomes a refund_to_credit entry, in one transaction under the payment's row lock. A second click
   * finds it refunded → 409 (and one entry per payment and kind is a unique index besides).
   */
  private async refundToCredit(paymentId: string, audit?: AuditContext): Promise<Payment> {
    const { db, repository, clock } = this.deps;
    const found = await repository.findById(paymentId);
    if (!found) throw notFound(M.paymentNotFound);
    try {
      const row = await db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const now = clock.now();
        const payment = await repository.findByTransaction(found.provider, found.transactionId, tx, true);
        if (!payment) throw notFound(M.paymentNotFound);
        if (payment.failureReason === REFUND_IN_PROGRESS) throw conflict(M.refundInProgress);
        if (payment.status !== 'paid') throw conflict(M.refundNotPaid);
        const invoice = await repository.findInvoice(payment.invoiceId, tx, true);
        const refunded = await repository.updatePayment(tx, payment.id, {
          status: 'refunded',
          failureReason: 'Refunded to credit by staff',
          updatedAt: now,
        });
        await repository.markInvoiceRefunded(tx, payment.invoiceId, now);
        // Only what the invoice kept becomes credit: an overpayment is credit already (issue 31).
        const entry = await refundedToCredit(tx, payment, invoice?.number ?? null, now, audit?.actor.id ?? null);
        if (!entry) throw conflict(M.refundNotPaid);
        if (audit) {
          await recordAudit(tx, clock, audit, {
            action: 'payment.refunded',
            targetType: 'payment',
            targetId: payment.id,
            changes: {
              ...refundChanges(payment, null, 'staff'),
              refunded_to: { from: null, to: 'credit' },
              credit_entry: { from: null, to: entry.id },
            },
          });
        }
        return refunded;
      });
      return toPayment(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(M.refundNotPaid);
      throw error;
    }
  }

  /** A provider reports a refund: a paid payment becomes refunded and so does its invoice. */
  async refundPayment(
    input: { provider: string; transactionId: string; eventId?: string | null },
    audit?: AuditContext,
  ): Promise<CompletionResult> {
    const { db, repository, clock } = this.deps;
    return db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const now = clock.now();
      const seen = await repository.paymentForEvent(tx, input, 'payment.refunded', now);
      if (seen.duplicate) return { outcome: 'duplicate', payment: seen.payment };
      const payment = seen.payment;
      if (!payment) throw notFound(M.paymentNotFound);
      await repository.findInvoice(payment.invoiceId, tx, true);
      if (payment.status === 'refunded') return { outcome: 'unchanged', payment };
      const wasPaid = payment.status === 'paid';
      const refunded = await repository.updatePayment(tx, payment.id, { status: 'refunded', updatedAt: now });
      if (wasPaid) {
        await repository.markInvoiceRefunded(tx, payment.invoiceId, now);
        await refundedToPayer(tx, payment, now, null, 'Overpayment refunded with its payment');
      } else {
        // Money the provider gave back that no invoice counted.
        await giveBackUncounted(tx, payment, now);
      }
      if (audit) {
        await recordAudit(tx, clock, audit, {
          action: 'payment.refunded',
          targetType: 'payment',
          targetId: payment.id,
          changes: {
            ...refundChanges(payment, null, 'provider'),
            ...(input.eventId ? { event_id: { from: null, to: input.eventId } } : {}),
          },
        });
      }
      return { outcome: 'unchanged', payment: refunded };
    });
  }
}
