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
  type ManualPaymentInputParsed,
  type Payment,
  type PaymentInitiated,
  type PaymentInitiateInputParsed,
} from '../../../contract/schemas/payment';
import type { Db } from '../../db/client';
import type { InvoiceRow, PaymentGatewayRow, PaymentRow } from '../../db/schema';
import type { PaymentEvent } from '../../integrations/payments';
import { WebhookVerificationError } from '../../integrations/payments';
import { AppError, badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import { recordAudit, SYSTEM, type AuditContext } from '../audit/trail';
import { activateForPaidInvoice } from '../subscriptions/service';
import { amountDue } from '../credit/amount-due';
import { paymentHeld, paymentReceived } from '../ledger/movements';
import { PaymentRefunds, type PaymentDeps } from './refunds';

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
  return {
    pending: M.statusPending,
    paid: M.statusPaid,
    failed: M.statusFailed,
    refunded: M.statusRefunded,
    expired: M.statusExpired,
  }[status];
}

const PAYABLE: ReadonlyArray<InvoiceRow['status']> = ['unpaid', 'overdue'];

export class PaymentService {
  constructor(
    private readonly deps: PaymentDeps & {
      appUrl: string;
      /** The Sandbox gateway may take payments (config.sandboxPaymentsAllowed); false: it is treated as unavailable. Default true. */
      sandboxAllowed?: boolean;
      /**
       * Called after a payment was committed as paid (the "payment received" e-mail); must not throw. `reactivated`:
       * the invoice's subscription was suspended and this payment made it active again (its walled-garden sessions
       * must end, issue 38), else null.
       */
      onInvoicePaid?: (invoiceId: string, reactivated: string | null) => Promise<void>;
      /**
       * Autopay (issue 21, server/modules/autopay/service.ts): method.saved events save a card; an autopay charge's
       * webhook first gives its pending payment the provider's id (beforeSettle), then the charge follows the
       * outcome (afterSettle). The payment itself is settled here like every other.
       */
      autopay?: {
        methodSaved(
          provider: string,
          event: PaymentEvent,
          credentials: Record<string, string>,
          audit: AuditContext,
        ): Promise<'saved' | 'duplicate'>;
        beforeSettle(provider: string, event: PaymentEvent): Promise<void>;
        afterSettle(event: PaymentEvent, payment: PaymentRow | null): Promise<void>;
      };
    },
  ) {
    this.refunds = new PaymentRefunds(deps);
  }

  /** Refunds: automatic, by staff (to the card or to credit) and reported by a provider (refunds.ts). */
  private readonly refunds: PaymentRefunds;

  /** Staff refund a payment (POST /payments/{id}/refund), through its provider or to the customer's credit. */
  refundByStaff(paymentId: string, audit?: AuditContext, to: 'provider' | 'credit' = 'provider'): Promise<Payment> {
    return this.refunds.refundByStaff(paymentId, audit, to);
  }

  /** A provider reports a refund: a paid payment becomes refunded and so does its invoice. */
  refundPayment(
    input: { provider: string; transactionId: string; eventId?: string | null },
    audit?: AuditContext,
  ): Promise<CompletionResult> {
    return this.refunds.refundPayment(input, audit);
  }

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
    const active = (await this.deps.gatewayRepository.all({ activeOnly: true })).filter(
      (g) => g.provider !== 'sandbox' || this.deps.sandboxAllowed !== false,
    );
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
    return {
      paymentUrl: checkout.paymentUrl,
      redirectUrl: checkout.paymentUrl,
      transactionId: checkout.transactionId,
      payment: toPayment(row),
    };
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
    let reactivated: string | null = null;
    try {
      result = await db.transaction(async (txRaw): Promise<CompletionResult> => {
        const tx = txRaw as unknown as Db;
        const now = clock.now();
        const seen = await repository.paymentForEvent(tx, input, 'payment.succeeded', now);
        if (seen.duplicate) return { outcome: 'duplicate', payment: seen.payment };
        const payment = seen.payment;
        if (!payment) throw notFound(M.paymentNotFound);
        const invoice = await repository.findInvoice(payment.invoiceId, tx, true);
        if (!invoice) throw notFound(M.invoiceNotFound);
        if (payment.status === 'paid') return { outcome: 'already_paid', payment };
        // A checkout the expiry sweep closed (expiry.ts) whose money came after all counts like a pending one.
        if (payment.status !== 'pending' && payment.status !== 'expired') return { outcome: 'unchanged', payment };

        const amount = input.amount ?? payment.amount;
        const currency = (input.currency ?? payment.currency).toUpperCase();
        // The amount due (total less credit applied). A manual payment above it pays the invoice and the
        // excess becomes the customer's credit (an overpayment entry); less than it is a mismatch (no partial payments).
        const due = amountDue(invoice);
        const overpaid =
          input.provider === 'manual' && PAYABLE.includes(invoice.status) ? Math.max(0, amount - due) : 0;
        if ((amount !== due && overpaid === 0) || currency !== invoice.currency) {
          const failed = await repository.updatePayment(tx, payment.id, {
            status: 'failed',
            failureReason: PAYMENT_FAILURE_REASONS.amountMismatch,
            updatedAt: now,
          });
          // A provider took it (a manual recording of the wrong amount took nothing): held until given back.
          if (payment.provider !== 'manual') await paymentHeld(tx, failed, now);
          return { outcome: 'mismatch', payment: failed };
        }
        if (!PAYABLE.includes(invoice.status)) {
          const reason =
            invoice.status === 'paid' ? PAYMENT_FAILURE_REASONS.alreadyPaid : PAYMENT_FAILURE_REASONS.notPayable;
          const failed = await repository.updatePayment(tx, payment.id, {
            status: 'failed',
            failureReason: reason,
            paymentDate: now,
            updatedAt: now,
          });
          if (payment.provider !== 'manual') await paymentHeld(tx, failed, now);
          return { outcome: 'not_counted', payment: failed };
        }
        const paid = await repository.updatePayment(tx, payment.id, {
          status: 'paid',
          paymentDate: now,
          failureReason: null,
          updatedAt: now,
        });
        await repository.markInvoicePaid(tx, invoice.id, now);
        // The subscription lifecycle decides: pending → active (first period), suspended → active, renewal period moves on.
        if (invoice.subscriptionId) {
          const before = await repository.subscriptionStatus(tx, invoice.subscriptionId);
          const after = await activateForPaidInvoice(tx, invoice.id, now);
          if (before === 'suspended' && after?.status === 'active') reactivated = after.id;
        }
        // The payer's money: the amount due to the invoice, an overpayment to the customer's credit.
        await paymentReceived(tx, paid, invoice, overpaid, now, audit?.actor.id ?? null);
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
    if (result.outcome === 'paid' && result.payment)
      await this.deps.onInvoicePaid?.(result.payment.invoiceId, reactivated);
    // A second payment for an invoice already paid took the payer's money: give it back through the provider.
    if (result.outcome === 'not_counted' && result.payment)
      result = { ...result, payment: await this.refunds.refundNotCounted(result.payment, audit) };
    return result;
  }

  /** An invoice's payments for staff (GET /payments/invoices/{id}/payments), newest first; 404 for no invoice. */
  async listForInvoice(invoiceId: string): Promise<Payment[]> {
    const invoice = await this.deps.repository.findInvoice(invoiceId);
    if (!invoice) throw notFound(M.invoiceNotFound);
    return (await this.deps.repository.listForInvoice(invoice.id)).map(toPayment);
  }

  /**
   * A provider says the payment failed (declined) or its checkout expired unpaid: a pending payment becomes failed
   * or expired; nothing else changes (neither is money received).
   */
  async failPayment(
    input: { provider: string; transactionId: string; eventId?: string | null },
    type: 'payment.failed' | 'payment.expired' = 'payment.failed',
  ): Promise<CompletionResult> {
    const { db, repository, clock } = this.deps;
    return db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const now = clock.now();
      const seen = await repository.paymentForEvent(tx, input, type, now);
      if (seen.duplicate) return { outcome: 'duplicate', payment: seen.payment };
      const payment = seen.payment;
      if (!payment) throw notFound(M.paymentNotFound);
      if (payment.status !== 'pending') return { outcome: 'unchanged', payment };
      const closed = await repository.updatePayment(
        tx,
        payment.id,
        type === 'payment.expired'
          ? { status: 'expired', updatedAt: now }
          : { status: 'failed', failureReason: PAYMENT_FAILURE_REASONS.declined, updatedAt: now },
      );
      return { outcome: 'unchanged', payment: closed };
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
      return {
        result: { outcome: saved === 'saved' ? 'unchanged' : 'duplicate', payment: null },
        message: saved === 'saved' ? 'Card saved' : M.webhookDuplicate,
      };
    }
    if (event.paymentId) await autopay?.beforeSettle(provider, event);
    let result: CompletionResult;
    if (event.type === 'payment.succeeded')
      result = await this.completePayment({ ...ref, amount: event.amount, currency: event.currency }, audit);
    else if (event.type === 'payment.failed' || event.type === 'payment.expired')
      result = await this.failPayment(ref, event.type);
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
  async recordManual(
    caller: Caller,
    invoiceId: string,
    input: ManualPaymentInputParsed,
    audit?: AuditContext,
  ): Promise<Payment> {
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
    const result = await this.completePayment(
      { provider: 'manual', transactionId: pending.transactionId, amount: input.amount, currency: invoice.currency },
      audit,
    );
    if (result.outcome === 'mismatch') throw badRequest(M.amountMismatch);
    if (result.outcome !== 'paid') throw conflict(M.invoicePaid);
    return toPayment(result.payment!);
  }

  /** The sandbox checkout: the payment and its invoice, by transaction id. */
  async sandboxCheckout(
    transactionId: string,
  ): Promise<{ payment: PaymentRow; invoice: InvoiceRow; gateway: PaymentGatewayRow | undefined } | null> {
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
