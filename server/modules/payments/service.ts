/**
 * Payments: initiate a checkout with a provider, read a payment's status, and complete a payment. Completion
 * (provider webhook or staff's manual payment) is one transaction: the event id is recorded (a redelivery
 * changes nothing), the payment row and then the invoice row are locked (SELECT … FOR UPDATE), the amount and
 * currency are checked against the invoice, and the payment, the invoice and its subscription change together.
 * A payment for an invoice already paid is never counted: it is marked failed with "refund needed".
 */
import { randomUUID } from 'node:crypto';
import { allows, type Role } from '../../../contract/roles';
import {
  PAYMENT_FAILURE_REASONS,
  PAYMENT_MESSAGES as M,
  REFUND_IN_PROGRESS,
  REFUND_NEEDED_REASONS,
  isRefundable,
  type ManualPaymentInputParsed,
  type Payment,
  type PaymentInitiated,
  type PaymentInitiateInputParsed,
} from '../../../contract/schemas/payment';
import type { Db } from '../../db/client';
import type { InvoiceRow, PaymentGatewayRow, PaymentRow } from '../../db/schema';
import type { PaymentEvent, PaymentProviderRegistry } from '../../integrations/payments';
import { WebhookVerificationError } from '../../integrations/payments';
import type { Clock } from '../../lib/clock';
import { AppError, badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import { recordAudit, SYSTEM, type AuditContext } from '../audit/trail';
import type { GatewayRepository } from '../gateways/repository';
import type { GatewayService } from '../gateways/service';
import { activateForPaidInvoice } from '../subscriptions/service';
import { amountDue } from '../credit/amount-due';
import { addCredit } from '../credit/ledger';
import type { PaymentRepository } from './repository';

/** Staff who may pay, record and read any customer's payments. */
export const PAYMENT_STAFF = ['admin', 'billing'] as const;
export const isPaymentStaff = (role: Role) => allows(PAYMENT_STAFF, role);

export interface Caller {
  id: string;
  role: Role;
}

export type CompletionOutcome = 'paid' | 'duplicate' | 'already_paid' | 'unchanged' | 'mismatch' | 'not_counted';

export interface CompletionResult {
  outcome: CompletionOutcome;
  payment: PaymentRow | null;
}

export function toPayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    invoice_id: row.invoiceId,
    user_id: row.userId,
    gateway_id: row.gatewayId,
    provider: row.provider,
    transaction_id: row.transactionId,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    payment_method: row.paymentMethod,
    payment_date: row.paymentDate ? row.paymentDate.toISOString() : null,
    reference: row.reference,
    failure_reason: row.failureReason,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function statusMessage(status: Payment['status']): string {
  return { pending: M.statusPending, paid: M.statusPaid, failed: M.statusFailed, refunded: M.statusRefunded }[status];
}

const PAYABLE: ReadonlyArray<InvoiceRow['status']> = ['unpaid', 'overdue'];

/** What a refund changed: the status, the amount given back, the provider's refund id and who started it. */
function refundChanges(payment: PaymentRow, refundId: string | null, by: 'staff' | 'automatic' | 'provider'): Record<string, unknown> {
  return {
    status: { from: payment.status, to: 'refunded' },
    amount: { from: null, to: payment.amount },
    currency: { from: null, to: payment.currency },
    provider: { from: null, to: payment.provider },
    refunded_by: { from: null, to: by },
    ...(refundId ? { refund_id: { from: null, to: refundId } } : {}),
  };
}

export class PaymentService {
  constructor(
    private readonly deps: {
      db: Db;
      repository: PaymentRepository;
      gateways: GatewayService;
      gatewayRepository: GatewayRepository;
      providers: PaymentProviderRegistry;
      clock: Clock;
      appUrl: string;
      /** The Sandbox gateway may take payments (config.sandboxPaymentsAllowed); false: it is treated as unavailable. Default true. */
      sandboxAllowed?: boolean;
      /** Called after a payment was committed as paid (the "payment received" e-mail); must not throw. */
      onInvoicePaid?: (invoiceId: string) => Promise<void>;
      /** Where a failed automatic refund is reported (the payment stays "failed: refund needed"). */
      log?: { warn: (obj: object, msg: string) => void };
      /**
       * Autopay (issue 21, server/modules/autopay/service.ts): method.saved events save a card; an autopay charge's
       * webhook first gives its pending payment the provider's id (beforeSettle), then the charge follows the
       * outcome (afterSettle). The payment itself is settled here like every other.
       */
      autopay?: {
        methodSaved(provider: string, event: PaymentEvent, credentials: Record<string, string>, audit: AuditContext): Promise<'saved' | 'duplicate'>;
        beforeSettle(provider: string, event: PaymentEvent): Promise<void>;
        afterSettle(event: PaymentEvent, payment: PaymentRow | null): Promise<void>;
      };
    },
  ) {}

  private async payableInvoice(caller: Caller, invoiceId: string): Promise<InvoiceRow> {
    const invoice = await this.deps.repository.findInvoice(invoiceId);
    if (!invoice) throw notFound(M.invoiceNotFound);
    if (invoice.userId !== caller.id && !isPaymentStaff(caller.role)) throw forbidden(M.notYourInvoice);
    if (invoice.status === 'paid') throw conflict(M.invoicePaid);
    if (!PAYABLE.includes(invoice.status)) throw conflict(M.invoiceNotPayable);
    return invoice;
  }

  /** The active gateway for a provider id (the default first), or the default active gateway. */
  private async chooseGateway(method: string | undefined): Promise<PaymentGatewayRow> {
    // In production the sandbox takes no money unless ALLOW_SANDBOX_PAYMENTS says so: as if it were switched off.
    const active = (await this.deps.gatewayRepository.all({ activeOnly: true })).filter((g) => g.provider !== 'sandbox' || this.deps.sandboxAllowed !== false);
    const candidates = method ? active.filter((g) => g.provider === method) : active;
    const gateway = candidates.find((g) => g.isDefault) ?? (method ? candidates[0] : undefined);
    if (!gateway) throw badRequest(method ? M.providerUnavailable : M.noGateway);
    return gateway;
  }

  /**
   * Creates a pending payment with the provider; the caller is sent to paymentUrl to pay. `origin` is where the
   * customer returns afterwards (server/lib/return-origin.ts: the origin they paid from when allowed); default APP_URL.
   */
  async initiate(caller: Caller, input: PaymentInitiateInputParsed, origin?: string): Promise<PaymentInitiated> {
    const { repository, providers, clock, appUrl } = this.deps;
    const base = (origin ?? appUrl).replace(/\/+$/, '');
    const invoice = await this.payableInvoice(caller, input.invoice_id);
    // What is left after the customer's credit (issue 21); an invoice credit covered in full is not charged.
    const due = amountDue(invoice);
    if (due <= 0) throw conflict(M.invoicePaid);
    const gateway = await this.chooseGateway(input.payment_method);
    const adapter = providers.get(gateway.provider);
    if (!adapter) throw badRequest(M.providerUnavailable);
    const paymentId = randomUUID();
    const checkout = await adapter.createCheckout({
      invoice: { id: invoice.id, number: invoice.number, total_amount: due, currency: invoice.currency },
      payment: { id: paymentId, amount: due },
      returnUrl: `${base}/invoice/${invoice.id}`,
      origin: base,
      credentials: this.deps.gateways.openCredentials(gateway),
      mode: gateway.mode,
    });
    const now = clock.now();
    const row = await repository.insert({
      id: paymentId,
      invoiceId: invoice.id,
      userId: invoice.userId,
      gatewayId: gateway.id,
      provider: gateway.provider,
      transactionId: checkout.transactionId,
      status: 'pending',
      amount: due,
      currency: invoice.currency,
      paymentMethod: gateway.provider,
      createdAt: now,
      updatedAt: now,
    });
    return { paymentUrl: checkout.paymentUrl, redirectUrl: checkout.paymentUrl, transactionId: checkout.transactionId, payment: toPayment(row) };
  }

  /** A payment by id or transaction id, for its owner or payment staff (others: 404). */
  async status(caller: Caller, idOrTransaction: string): Promise<Payment> {
    const row = await this.deps.repository.findByIdOrTransaction(idOrTransaction);
    if (!row || (row.userId !== caller.id && !isPaymentStaff(caller.role))) throw notFound(M.paymentNotFound);
    return toPayment(row);
  }

  /**
   * Completes a payment (all or nothing). amount/currency default to the payment's own when the provider
   * does not state them. eventId (webhooks) makes a redelivery a no-op.
   */
  async completePayment(
    input: { provider: string; transactionId: string; amount?: number; currency?: string; eventId?: string | null },
    audit?: AuditContext,
  ): Promise<CompletionResult> {
    const { db, repository, clock } = this.deps;
    let result: CompletionResult;
    try {
      result = await db.transaction(async (txRaw): Promise<CompletionResult> => {
        const tx = txRaw as unknown as Db;
        const now = clock.now();
        if (input.eventId) {
          const fresh = await repository.recordEvent(tx, {
            provider: input.provider,
            eventId: input.eventId,
            type: 'payment.succeeded',
            transactionId: input.transactionId,
            now,
          });
          if (!fresh) return { outcome: 'duplicate', payment: (await repository.findByTransaction(input.provider, input.transactionId, tx)) ?? null };
        }
        const payment = await repository.findByTransaction(input.provider, input.transactionId, tx, true);
        if (!payment) throw notFound(M.paymentNotFound);
        const invoice = await repository.findInvoice(payment.invoiceId, tx, true);
        if (!invoice) throw notFound(M.invoiceNotFound);
        if (payment.status === 'paid') return { outcome: 'already_paid', payment };
        if (payment.status !== 'pending') return { outcome: 'unchanged', payment };

        const amount = input.amount ?? payment.amount;
        const currency = (input.currency ?? payment.currency).toUpperCase();
        // The amount due (total less credit applied). A manual payment above it pays the invoice and the
        // excess becomes the customer's credit (an overpayment entry); less than it is a mismatch (no partial payments).
        const due = amountDue(invoice);
        const overpaid = input.provider === 'manual' && PAYABLE.includes(invoice.status) ? Math.max(0, amount - due) : 0;
        if ((amount !== due && overpaid === 0) || currency !== invoice.currency) {
          const failed = await repository.updatePayment(tx, payment.id, { status: 'failed', failureReason: PAYMENT_FAILURE_REASONS.amountMismatch, updatedAt: now });
          return { outcome: 'mismatch', payment: failed };
        }
        if (!PAYABLE.includes(invoice.status)) {
          const reason = invoice.status === 'paid' ? PAYMENT_FAILURE_REASONS.alreadyPaid : PAYMENT_FAILURE_REASONS.notPayable;
          const failed = await repository.updatePayment(tx, payment.id, { status: 'failed', failureReason: reason, paymentDate: now, updatedAt: now });
          return { outcome: 'not_counted', payment: failed };
        }
        const paid = await repository.updatePayment(tx, payment.id, { status: 'paid', paymentDate: now, failureReason: null, updatedAt: now });
        await repository.markInvoicePaid(tx, invoice.id, now);
        // The subscription lifecycle decides: pending → active (first period), suspended → active, renewal period moves on.
        if (invoice.subscriptionId) await activateForPaidInvoice(tx, invoice.id, now);
        if (overpaid > 0) {
          await addCredit(tx, {
            userId: invoice.userId,
            kind: 'overpayment',
            amount: overpaid,
            currency: invoice.currency,
            reason: `Overpayment of invoice ${invoice.number}`,
            invoiceId: invoice.id,
            paymentId: paid.id,
            createdBy: audit?.actor.id ?? null,
            now,
          });
        }
        if (audit) {
          await recordAudit(tx, clock, audit, {
            action: input.provider === 'manual' ? 'payment.recorded_manually' : 'payment.completed',
            targetType: 'payment',
            targetId: paid.id,
            changes: {
              status: { from: payment.status, to: 'paid' },
              amount: { from: null, to: paid.amount },
              currency: { from: null, to: paid.currency },
              invoice: { from: null, to: invoice.number },
              provider: { from: null, to: paid.provider },
              ...(paid.paymentMethod ? { payment_method: { from: null, to: paid.paymentMethod } } : {}),
              ...(paid.reference ? { reference: { from: null, to: paid.reference } } : {}),
              ...(input.eventId ? { event_id: { from: null, to: input.eventId } } : {}),
              ...(overpaid > 0 ? { overpayment_credit: { from: null, to: overpaid } } : {}),
            },
          });
        }
        return { outcome: 'paid', payment: paid };
      });
    } catch (error) {
      // The partial unique index (one paid payment per invoice) is the last guard; the row locks above
      // should make it unreachable. Nothing of this transaction was written.
      if (isUniqueViolation(error)) throw conflict(M.invoicePaid);
      throw error;
    }
    // Committed: only now is the customer told.
    if (result.outcome === 'paid' && result.payment) await this.deps.onInvoicePaid?.(result.payment.invoiceId);
    // A second payment for an invoice already paid took the payer's money: give it back through the provider.
    if (result.outcome === 'not_counted' && result.payment) result = { ...result, payment: await this.refundNotCounted(result.payment, audit) };
    return result;
  }

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
    if (!(await this.deps.repository.claimForRefund(payment.id, REFUND_IN_PROGRESS, REFUND_NEEDED_REASONS))) return null;
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
  private async refundNotCounted(payment: PaymentRow, audit?: AuditContext): Promise<PaymentRow> {
    if (payment.provider === 'manual') return payment; // staff record manual refunds themselves
    const { repository } = this.deps;
    let refundId: string | null;
    try {
      refundId = await this.claimAndRefund(payment);
    } catch (error) {
      this.deps.log?.warn({ err: error, paymentId: payment.id, transactionId: payment.transactionId }, 'automatic refund of a payment that was not counted failed');
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
      // The portal itself gave the money back: the system is the actor, whatever request brought the payment in.
      await recordAudit(tx, this.deps.clock, { ...SYSTEM, ip: audit?.ip ?? null, requestId: audit?.requestId ?? null }, {
        action: 'payment.refunded',
        targetType: 'payment',
        targetId: payment.id,
        changes: refundChanges(payment, refundId, 'automatic'),
      });
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
  async refundByStaff(paymentId: string, audit?: AuditContext, to: 'provider' | 'credit' = 'provider'): Promise<Payment> {
    const { db, repository, clock } = this.deps;
    if (to === 'credit') return this.refundToCredit(paymentId, audit);
    const payment = await repository.findById(paymentId);
    if (!payment) throw notFound(M.paymentNotFound);
    if (payment.failureReason === REFUND_IN_PROGRESS) throw conflict(M.refundInProgress);
    if (!isRefundable(payment.status, payment.failureReason)) throw conflict(M.refundNotPaid);
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
      if (audit) await recordAudit(tx, clock, audit, { action: 'payment.refunded', targetType: 'payment', targetId: payment.id, changes: refundChanges(payment, refundId, 'staff') });
      if (payment.status !== 'paid') {
        // Taken but never counted: the money goes back, the invoice stays as it is.
        return repository.updatePayment(tx, payment.id, { status: 'refunded', failureReason: `${payment.failureReason}; refunded by staff (${refundId})`, updatedAt: now });
      }
      const row = await repository.updatePayment(tx, payment.id, { status: 'refunded', failureReason: `Refunded by staff (${refundId})`, updatedAt: now });
      await repository.markInvoiceRefunded(tx, payment.invoiceId, now);
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
        const refunded = await repository.updatePayment(tx, payment.id, { status: 'refunded', failureReason: 'Refunded to credit by staff', updatedAt: now });
        await repository.markInvoiceRefunded(tx, payment.invoiceId, now);
        const entry = await addCredit(tx, {
          userId: payment.userId,
          kind: 'refund_to_credit',
          amount: payment.amount,
          currency: payment.currency,
          reason: `Refund of invoice ${invoice?.number ?? ''} to credit`.replace('  ', ' '),
          invoiceId: payment.invoiceId,
          paymentId: payment.id,
          createdBy: audit?.actor.id ?? null,
          now,
        });
        if (audit) {
          await recordAudit(tx, clock, audit, {
            action: 'payment.refunded',
            targetType: 'payment',
            targetId: payment.id,
            changes: { ...refundChanges(payment, null, 'staff'), refunded_to: { from: null, to: 'credit' }, credit_entry: { from: null, to: entry.id } },
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

  /** An invoice's payments for staff (GET /payments/invoices/{id}/payments), newest first; 404 for no invoice. */
  async listForInvoice(invoiceId: string): Promise<Payment[]> {
    const invoice = await this.deps.repository.findInvoice(invoiceId);
    if (!invoice) throw notFound(M.invoiceNotFound);
    return (await this.deps.repository.listForInvoice(invoice.id)).map(toPayment);
  }

  /** A provider says the payment failed (declined): a pending payment becomes failed; nothing else changes. */
  async failPayment(input: { provider: string; transactionId: string; eventId?: string | null }): Promise<CompletionResult> {
    const { db, repository, clock } = this.deps;
    return db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const now = clock.now();
      if (input.eventId) {
        const fresh = await repository.recordEvent(tx, { provider: input.provider, eventId: input.eventId, type: 'payment.failed', transactionId: input.transactionId, now });
        if (!fresh) return { outcome: 'duplicate', payment: (await repository.findByTransaction(input.provider, input.transactionId, tx)) ?? null };
      }
      const payment = await repository.findByTransaction(input.provider, input.transactionId, tx, true);
      if (!payment) throw notFound(M.paymentNotFound);
      if (payment.status !== 'pending') return { outcome: 'unchanged', payment };
      const failed = await repository.updatePayment(tx, payment.id, { status: 'failed', failureReason: PAYMENT_FAILURE_REASONS.declined, updatedAt: now });
      return { outcome: 'unchanged', payment: failed };
    });
  }

  /** A provider reports a refund: a paid payment becomes refunded and so does its invoice. */
  async refundPayment(input: { provider: string; transactionId: string; eventId?: string | null }, audit?: AuditContext): Promise<CompletionResult> {
    const { db, repository, clock } = this.deps;
    return db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const now = clock.now();
      if (input.eventId) {
        const fresh = await repository.recordEvent(tx, { provider: input.provider, eventId: input.eventId, type: 'payment.refunded', transactionId: input.transactionId, now });
        if (!fresh) return { outcome: 'duplicate', payment: (await repository.findByTransaction(input.provider, input.transactionId, tx)) ?? null };
      }
      const payment = await repository.findByTransaction(input.provider, input.transactionId, tx, true);
      if (!payment) throw notFound(M.paymentNotFound);
      await repository.findInvoice(payment.invoiceId, tx, true);
      if (payment.status === 'refunded') return { outcome: 'unchanged', payment };
      const wasPaid = payment.status === 'paid';
      const refunded = await repository.updatePayment(tx, payment.id, { status: 'refunded', updatedAt: now });
      if (wasPaid) await repository.markInvoiceRefunded(tx, payment.invoiceId, now);
      if (audit) {
        await recordAudit(tx, clock, audit, {
          action: 'payment.refunded',
          targetType: 'payment',
          targetId: payment.id,
          changes: { ...refundChanges(payment, null, 'provider'), ...(input.eventId ? { event_id: { from: null, to: input.eventId } } : {}) },
        });
      }
      return { outcome: 'unchanged', payment: refunded };
    });
  }

  /**
   * A verified webhook: tries the credentials of every gateway of that provider (a payment started before a
   * gateway was switched off still completes). Bad signature → 400 and nothing is written.
   */
  async handleWebhook(
    provider: string,
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
    audit: AuditContext = SYSTEM,
  ): Promise<{ result: CompletionResult; message: string }> {
    const adapter = this.deps.providers.get(provider);
    if (!adapter || provider === 'manual') throw notFound(M.unknownProvider);
    const gateways = (await this.deps.gatewayRepository.all()).filter((g) => g.provider === provider);
    let event: PaymentEvent | null = null;
    let credentials: Record<string, string> = {};
    for (const gateway of gateways) {
      try {
        credentials = this.deps.gateways.openCredentials(gateway);
        event = adapter.verifyWebhook(rawBody, headers, credentials);
        break;
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
      }
    }
    if (!event) throw badRequest(M.badSignature);
    const ref = { provider, transactionId: event.transactionId, eventId: event.eventId };
    const autopay = this.deps.autopay;
    if (event.type === 'method.saved') {
      if (!autopay) throw notFound(M.unknownProvider);
      const saved = await autopay.methodSaved(provider, event, credentials, audit);
      return { result: { outcome: saved === 'saved' ? 'unchanged' : 'duplicate', payment: null }, message: saved === 'saved' ? 'Card saved' : M.webhookDuplicate };
    }
    if (event.paymentId) await autopay?.beforeSettle(provider, event);
    let result: CompletionResult;
    if (event.type === 'payment.succeeded') result = await this.completePayment({ ...ref, amount: event.amount, currency: event.currency }, audit);
    else if (event.type === 'payment.failed') result = await this.failPayment(ref);
    else result = await this.refundPayment(ref, audit);
    if (event.paymentId) await autopay?.afterSettle(event, result.payment);
    return { result, message: this.answer(result) };
  }

  /** The message for a completion; a mismatch is an error (400) after its failed payment was stored. */
  answer(result: CompletionResult): string {
    switch (result.outcome) {
      case 'mismatch':
        throw new AppError(400, M.amountMismatch);
      case 'duplicate':
        return M.webhookDuplicate;
      case 'already_paid':
        return M.alreadyCounted;
      case 'not_counted':
        return result.payment?.status === 'refunded' ? M.notCountedRefunded : M.notCounted;
      default:
        return M.webhookProcessed;
    }
  }

  /** Staff record a cash or bank transfer payment; it goes through completePayment like a provider's. */
  async recordManual(caller: Caller, invoiceId: string, input: ManualPaymentInputParsed, audit?: AuditContext): Promise<Payment> {
    const { repository, clock } = this.deps;
    const invoice = await this.payableInvoice(caller, invoiceId);
    const gateway = (await this.deps.gatewayRepository.all()).find((g) => g.provider === 'manual');
    const now = clock.now();
    const pending = await repository.insert({
      invoiceId: invoice.id,
      userId: invoice.userId,
      gatewayId: gateway?.id ?? null,
      provider: 'manual',
      transactionId: `manual_${randomUUID()}`,
      status: 'pending',
      amount: input.amount,
      currency: invoice.currency,
      paymentMethod: input.payment_method,
      reference: input.reference,
      createdAt: now,
      updatedAt: now,
    });
    const result = await this.completePayment({ provider: 'manual', transactionId: pending.transactionId, amount: input.amount, currency: invoice.currency }, audit);
    if (result.outcome === 'mismatch') throw badRequest(M.amountMismatch);
    if (result.outcome !== 'paid') throw conflict(M.invoicePaid);
    return toPayment(result.payment!);
  }

  /** The sandbox checkout: the payment and its invoice, by transaction id. */
  async sandboxCheckout(transactionId: string): Promise<{ payment: PaymentRow; invoice: InvoiceRow; gateway: PaymentGatewayRow | undefined } | null> {
    const payment = await this.deps.repository.findByTransaction('sandbox', transactionId);
    if (!payment) return null;
    const invoice = await this.deps.repository.findInvoice(payment.invoiceId);
    if (!invoice) return null;
    const gateway = payment.gatewayId ? await this.deps.gatewayRepository.findById(payment.gatewayId) : undefined;
    return { payment, invoice, gateway };
  }

  async paymentByTransaction(provider: string, transactionId: string): Promise<PaymentRow | undefined> {
    return this.deps.repository.findByTransaction(provider, transactionId);
  }
}
