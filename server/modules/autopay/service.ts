/**
 * Autopay (issue 21): a customer saves a card with the provider (a hosted set-up page; the provider's webhook says
 * "method saved"), a subscription is charged off-session for every invoice the billing run issues, and failures are
 * retried on a schedule (settings billing.autopay_retry_days, days after the first attempt) with an e-mail each
 * time carrying the link to pay by hand. The normal overdue/suspension rules of the billing run apply unchanged.
 *
 * Money path: a charge attempt (autopay_charges, unique per invoice and attempt) is claimed (scheduled →
 * processing, FOR UPDATE SKIP LOCKED), re-checked under the invoice's row lock (still open, amount due > 0, the
 * subscription still has its card — else "skipped"), a pending payment row is written (transaction id
 * `autopay_<charge id>` until the provider names its own), then the provider is asked to charge with the
 * idempotency key autopay_<invoice id>_<attempt> (a crashed attempt picked up again never charges twice).
 * THE WEBHOOK, NOT THE CHARGE CALL, MARKS THE INVOICE PAID: the provider's payment.succeeded goes through
 * PaymentService.completePayment like every payment (beforeSettle first gives the pending row the provider's id
 * from the event's metadata.payment_id, so the webhook may arrive before the charge call returned).
 */
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNotNull, lt, lte, or, sql } from 'drizzle-orm';
import { allows, type Role } from '../../../contract/roles';
import { AUTOPAY_MESSAGES as M, type AutopayState, type PaymentMethod } from '../../../contract/schemas/autopay';
import type { Db } from '../../db/client';
import { invoices, payments, settings, subscriptions, users, webhookEvents } from '../../db/schema';
import { autopayCharges, paymentMethodSetups, paymentMethods, type AutopayChargeRow, type PaymentMethodRow } from '../../db/schema/money';
import type { PaymentEvent, PaymentProviderRegistry } from '../../integrations/payments';
import type { MailMessage } from '../../integrations/mail/mailer';
import type { Clock } from '../../lib/clock';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { recordAudit, type AuditContext } from '../audit/trail';
import { invoiceContext } from '../billing/notices';
import { amountDue } from '../credit/amount-due';
import type { GatewayRepository } from '../gateways/repository';
import type { GatewayService } from '../gateways/service';
import { defaultSettings } from '../settings/defaults';
import { autopayFailedMail, cardLabel } from './emails';

const DAY_MS = 86_400_000;
/** A charge still "processing" this long after it was claimed is taken to be from a crashed run and retried. */
export const STALE_PROCESSING_MS = 15 * 60_000;
export const DEFAULT_RETRY_DAYS = [1, 3, 5];
/** Staff who may see and change any customer's autopay (as for payments). */
const AUTOPAY_STAFF = ['admin', 'billing'] as const;
const SUBSCRIPTION_STAFF = ['admin', 'billing', 'support'] as const;
const OPEN = ['unpaid', 'overdue'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const startOfDay = (d: Date) => new Date(`${d.toISOString().slice(0, 10)}T00:00:00.000Z`);

export interface Caller {
  id: string;
  role: Role;
}

export interface AutopayDeps {
  db: Db;
  clock: Clock;
  providers: PaymentProviderRegistry;
  gateways: GatewayService;
  gatewayRepository: GatewayRepository;
  appUrl: string;
  /** config.sandboxPaymentsAllowed: false → the sandbox neither saves cards nor charges them. */
  sandboxAllowed: boolean;
  send: (message: MailMessage) => void;
  log?: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
}

const placeholder = (chargeId: string) => `autopay_${chargeId}`;

function toMethod(row: PaymentMethodRow, subscriptionIds: string[]): PaymentMethod {
  return {
    id: row.id,
    user_id: row.userId,
    provider: row.provider,
    brand: row.brand,
    last4: row.last4,
    exp_month: row.expMonth,
    exp_year: row.expYear,
    created_at: row.createdAt.toISOString(),
    subscription_ids: subscriptionIds,
  };
}

const cardView = (row: PaymentMethodRow) => ({ id: row.id, brand: row.brand, last4: row.last4, exp_month: row.expMonth, exp_year: row.expYear });

export class AutopayService {
  constructor(private readonly deps: AutopayDeps) {}

  private usable(provider: string): boolean {
    const adapter = this.deps.providers.get(provider);
    return Boolean(adapter?.createSetup && adapter.chargeSaved) && (provider !== 'sandbox' || this.deps.sandboxAllowed);
  }

  private async subscriptionFor(caller: Caller, id: string, staff: readonly Role[]) {
    if (!UUID.test(id)) throw notFound(M.notFound);
    const [sub] = await this.deps.db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
    if (!sub || (sub.userId !== caller.id && !allows(staff, caller.role))) throw notFound(M.notFound);
    return sub;
  }

  /** The customer's newest saved card with a provider that can still charge it. */
  private async currentCard(userId: string, db: Db = this.deps.db): Promise<PaymentMethodRow | undefined> {
    const rows = await db.select().from(paymentMethods).where(eq(paymentMethods.userId, userId)).orderBy(desc(paymentMethods.createdAt), desc(paymentMethods.id));
    return rows.find((r) => this.usable(r.provider));
  }

  // ---- the customer's cards ------------------------------------------------------------------------------

  async listMethods(caller: Caller, userId?: string): Promise<PaymentMethod[]> {
    const owner = userId && allows(AUTOPAY_STAFF, caller.role) ? userId : caller.id;
    const rows = await this.deps.db.select().from(paymentMethods).where(eq(paymentMethods.userId, owner)).orderBy(desc(paymentMethods.createdAt), desc(paymentMethods.id));
    if (!rows.length) return [];
    const subs = await this.deps.db
      .select({ id: subscriptions.id, methodId: subscriptions.autopayMethodId })
      .from(subscriptions)
      .where(inArray(subscriptions.autopayMethodId, rows.map((r) => r.id)));
    return rows.map((r) => toMethod(r, subs.filter((s) => s.methodId === r.id).map((s) => s.id)));
  }

  /** Owner or payment staff delete a card: autopay stops on every subscription that used it (FK set null). */
  /**
   * After a card was removed or replaced here: the provider detaches it too (Stripe: paymentMethods.detach), so it
   * can never be charged again. The card is already gone from the portal; a provider that cannot be reached is
   * logged, not retried (the card stays attached at the provider, unused).
   */
  private async forget(cards: PaymentMethodRow[]): Promise<void> {
    for (const card of cards) {
      const adapter = this.deps.providers.get(card.provider);
      if (!adapter?.forgetSaved) continue;
      try {
        const gateway =
          (card.gatewayId ? await this.deps.gatewayRepository.findById(card.gatewayId) : undefined) ??
          (await this.deps.gatewayRepository.all()).find((g) => g.provider === card.provider);
        if (gateway) await adapter.forgetSaved({ providerMethodId: card.providerMethodId }, this.deps.gateways.openCredentials(gateway));
      } catch (error) {
        this.deps.log?.warn({ err: error, paymentMethodId: card.id }, 'autopay: the provider could not detach a removed card');
      }
    }
  }

  async removeMethod(caller: Caller, id: string, audit: AuditContext): Promise<void> {
    if (!UUID.test(id)) throw notFound(M.methodNotFound);
    const removed = await this.deps.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const [row] = await tx.select().from(paymentMethods).where(eq(paymentMethods.id, id)).for('update');
      if (!row || (row.userId !== caller.id && !allows(AUTOPAY_STAFF, caller.role))) throw notFound(M.methodNotFound);
      const using = await tx.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.autopayMethodId, id));
      await tx.delete(paymentMethods).where(eq(paymentMethods.id, id));
      await recordAudit(tx, this.deps.clock, audit, {
        action: 'autopay.card_removed',
        targetType: 'user',
        targetId: row.userId,
        changes: {
          card: { from: `${row.brand} •••• ${row.last4}`, to: null },
          ...(using.length ? { autopay_stopped_for: { from: null, to: using.map((s) => s.id).join(', ') } } : {}),
        },
      });
      return row;
    });
    await this.forget([removed]);
  }

  /** Turns autopay on (with the customer's saved card) or off for a subscription: owner or payment staff. */
  async setEnabled(caller: Caller, subscriptionId: string, enabled: boolean, audit: AuditContext): Promise<AutopayState> {
    const sub = await this.subscriptionFor(caller, subscriptionId, SUBSCRIPTION_STAFF);
    if (sub.userId !== caller.id && !allows(AUTOPAY_STAFF, caller.role)) throw forbidden();
    await this.deps.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const [locked] = await tx.select().from(subscriptions).where(eq(subscriptions.id, sub.id)).for('update');
      const card = enabled ? await this.currentCard(locked.userId, tx) : undefined;
      if (enabled && !card) throw conflict(M.noCard);
      const to = card?.id ?? null;
      if (locked.autopayMethodId === to) return;
      await tx.update(subscriptions).set({ autopayMethodId: to, updatedAt: this.deps.clock.now() }).where(eq(subscriptions.id, sub.id));
      await recordAudit(tx, this.deps.clock, audit, {
        action: enabled ? 'autopay.enabled' : 'autopay.disabled',
        targetType: 'subscription',
        targetId: sub.id,
        changes: { autopay: { from: locked.autopayMethodId ? 'on' : 'off', to: enabled ? 'on' : 'off' }, ...(card ? { card: { from: null, to: `${card.brand} •••• ${card.last4}` } } : {}) },
      });
    });
    return this.state(sub.id);
  }

  /** Starts saving a card for a subscription (the customer only): the hosted set-up page to send them to. */
  async startSetup(caller: Caller, subscriptionId: string, origin: string, audit: AuditContext): Promise<{ paymentUrl: string }> {
    const { db, clock } = this.deps;
    const sub = await this.subscriptionFor(caller, subscriptionId, SUBSCRIPTION_STAFF);
    if (sub.userId !== caller.id) throw forbidden(M.notOwner);
    if (!['pending', 'active', 'suspended'].includes(sub.status)) throw conflict(M.notActive);
    const active = (await this.deps.gatewayRepository.all({ activeOnly: true })).filter((g) => this.usable(g.provider));
    const gateway = active.find((g) => g.isDefault) ?? active[0];
    if (!gateway) throw conflict(M.noProvider);
    const adapter = this.deps.providers.get(gateway.provider)!;
    const [user] = await db.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.id, sub.userId)).limit(1);
    const [known] = await db
      .select({ customer: paymentMethods.providerCustomerId })
      .from(paymentMethods)
      .where(and(eq(paymentMethods.userId, sub.userId), eq(paymentMethods.provider, gateway.provider), isNotNull(paymentMethods.providerCustomerId)))
      .orderBy(desc(paymentMethods.createdAt))
      .limit(1);
    const setupId = randomUUID();
    const base = origin.replace(/\/+$/, '');
    const result = await adapter.createSetup!({
      setupId,
      customer: { id: user.id, email: user.email, name: user.name, providerCustomerId: known?.customer ?? null },
      subscriptionId: sub.id,
      returnUrl: `${base}/subscription/${sub.id}`,
      origin: base,
      credentials: this.deps.gateways.openCredentials(gateway),
    });
    const now = clock.now();
    await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      await tx.insert(paymentMethodSetups).values({ id: setupId, userId: sub.userId, subscriptionId: sub.id, gatewayId: gateway.id, provider: gateway.provider, transactionId: result.transactionId, status: 'pending', createdAt: now, updatedAt: now });
      await recordAudit(tx, clock, audit, { action: 'autopay.setup_started', targetType: 'subscription', targetId: sub.id, changes: { provider: { from: null, to: gateway.provider } } });
    });
    return { paymentUrl: result.paymentUrl };
  }

  /** A sandbox set-up by its transaction id (the hosted page), or null. */
  async sandboxSetup(transactionId: string) {
    const [row] = await this.deps.db
      .select()
      .from(paymentMethodSetups)
      .where(and(eq(paymentMethodSetups.provider, 'sandbox'), eq(paymentMethodSetups.transactionId, transactionId)))
      .limit(1);
    if (!row) return null;
    const gateway = row.gatewayId ? await this.deps.gatewayRepository.findById(row.gatewayId) : undefined;
    return { setup: row, gateway, credentials: gateway ? this.deps.gateways.openCredentials(gateway) : {} };
  }

  // ---- provider webhooks (called by PaymentService.handleWebhook) ----------------------------------------

  /**
   * method.saved: the card is stored (once per event; a replay changes nothing), the subscription's autopay uses
   * it, and an older card of the customer with the same provider is replaced (its subscriptions move over).
   */
  async methodSaved(provider: string, event: PaymentEvent, credentials: Record<string, string>, audit: AuditContext): Promise<'saved' | 'duplicate'> {
    const { db, clock } = this.deps;
    const [setup] = await db
      .select()
      .from(paymentMethodSetups)
      .where(and(eq(paymentMethodSetups.provider, provider), eq(paymentMethodSetups.transactionId, event.transactionId)))
      .limit(1);
    if (!setup) throw notFound('Card set-up not found');
    const card = event.setup?.card ?? (await this.deps.providers.get(provider)!.readSetup!({ setupIntentId: event.setup?.setupIntentId ?? '' }, credentials));
    const replaced: PaymentMethodRow[] = [];
    const outcome = await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const now = clock.now();
      const [fresh] = await tx
        .insert(webhookEvents)
        .values({ provider, eventId: event.eventId, type: 'method.saved', transactionId: event.transactionId, receivedAt: now })
        .onConflictDoNothing({ target: [webhookEvents.provider, webhookEvents.eventId] })
        .returning({ id: webhookEvents.id });
      if (!fresh) return 'duplicate';
      const [locked] = await tx.select().from(paymentMethodSetups).where(eq(paymentMethodSetups.id, setup.id)).for('update');
      if (locked.status === 'completed') return 'duplicate';
      // The customer's row serialises their card changes.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, setup.userId)).for('update');
      const [saved] = await tx
        .insert(paymentMethods)
        .values({ userId: setup.userId, gatewayId: setup.gatewayId, provider, providerCustomerId: card.providerCustomerId, providerMethodId: card.providerMethodId, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear, createdAt: now })
        .onConflictDoUpdate({ target: [paymentMethods.provider, paymentMethods.providerMethodId], set: { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear, expiryRemindedAt: null } })
        .returning();
      const older = (await tx.select().from(paymentMethods).where(and(eq(paymentMethods.userId, setup.userId), eq(paymentMethods.provider, provider)))).filter((m) => m.id !== saved.id);
      if (older.length) {
        const ids = older.map((m) => m.id);
        await tx.update(subscriptions).set({ autopayMethodId: saved.id, updatedAt: now }).where(inArray(subscriptions.autopayMethodId, ids));
        await tx.delete(paymentMethods).where(inArray(paymentMethods.id, ids));
        replaced.push(...older);
      }
      if (setup.subscriptionId) await tx.update(subscriptions).set({ autopayMethodId: saved.id, updatedAt: now }).where(eq(subscriptions.id, setup.subscriptionId));
      await tx.update(paymentMethodSetups).set({ status: 'completed', paymentMethodId: saved.id, updatedAt: now }).where(eq(paymentMethodSetups.id, setup.id));
      await recordAudit(tx, clock, audit, {
        action: 'autopay.card_saved',
        targetType: 'subscription',
        targetId: setup.subscriptionId ?? setup.userId,
        changes: {
          card: { from: older[0] ? `${older[0].brand} •••• ${older[0].last4}` : null, to: `${saved.brand} •••• ${saved.last4}` },
          autopay: { from: null, to: 'on' },
          event_id: { from: null, to: event.eventId },
        },
      });
      return 'saved' as const;
    });
    if (outcome === 'saved') await this.forget(replaced);
    return outcome;
  }

  /**
   * Before a payment webhook is settled: an autopay charge's pending payment still carries its placeholder
   * transaction id when the provider's webhook beats the charge call's answer; the event's payment id names it.
   */
  async beforeSettle(provider: string, event: PaymentEvent): Promise<void> {
    if (!event.paymentId || !UUID.test(event.paymentId) || !event.transactionId) return;
    await this.deps.db
      .update(payments)
      .set({ transactionId: event.transactionId })
      .where(and(eq(payments.id, event.paymentId), eq(payments.provider, provider), eq(payments.status, 'pending'), sql`${payments.transactionId} like 'autopay\\_%'`));
  }

  /** After a payment webhook was settled: the autopay charge of that payment follows (succeeded / failed → retry). */
  async afterSettle(event: PaymentEvent, payment: { id: string; status: string } | null): Promise<void> {
    if (!payment) return;
    const [charge] = await this.deps.db.select().from(autopayCharges).where(eq(autopayCharges.paymentId, payment.id)).limit(1);
    if (!charge) return;
    const now = this.deps.clock.now();
    if (event.type === 'payment.succeeded' && payment.status === 'paid') {
      await this.deps.db.update(autopayCharges).set({ status: 'succeeded', updatedAt: now }).where(and(eq(autopayCharges.id, charge.id), inArray(autopayCharges.status, ['processing', 'submitted'])));
    } else if (event.type === 'payment.failed' && charge.status === 'submitted') {
      // Accepted at first, refused later (an asynchronous failure): treated like a decline.
      await this.fail(charge, { code: 'payment_failed', message: 'The payment failed after it was submitted.' });
    }
  }

  // ---- charging ------------------------------------------------------------------------------------------

  private async retryDays(db: Db = this.deps.db): Promise<number[]> {
    const [row] = await db.select().from(settings).where(eq(settings.key, 'billing')).limit(1);
    const days = (row?.value as { autopay_retry_days?: unknown } | undefined)?.autopay_retry_days;
    return Array.isArray(days) && days.every((d) => Number.isInteger(d) && d >= 1) ? (days as number[]) : (defaultSettings().billing.autopay_retry_days ?? DEFAULT_RETRY_DAYS);
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
            and(eq(autopayCharges.status, 'processing'), lt(autopayCharges.updatedAt, new Date(now.getTime() - STALE_PROCESSING_MS))),
          ),
        )
        .orderBy(asc(autopayCharges.scheduledAt), asc(autopayCharges.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!due) return null;
      const [row] = await tx.update(autopayCharges).set({ status: 'processing', attemptedAt: now, updatedAt: now }).where(eq(autopayCharges.id, due.id)).returning();
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
        this.deps.log?.error({ err: error, chargeId: charge.id }, 'autopay: charge failed unexpectedly; it is retried later');
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
      const [sub] = claimed.subscriptionId ? await tx.select().from(subscriptions).where(eq(subscriptions.id, claimed.subscriptionId)).limit(1) : [];
      const [method] = sub?.autopayMethodId ? await tx.select().from(paymentMethods).where(eq(paymentMethods.id, sub.autopayMethodId)).limit(1) : [];
      const skip = async (reason: string) => {
        await tx.update(autopayCharges).set({ status: 'skipped', failureMessage: reason, updatedAt: now }).where(eq(autopayCharges.id, claimed.id));
        return null;
      };
      if (!invoice || !(OPEN as readonly string[]).includes(invoice.status)) return skip(`Invoice ${invoice?.status ?? 'deleted'}`);
      const due = amountDue(invoice);
      if (due <= 0) return skip('Nothing to pay');
      if (!sub || !method || ['cancelled', 'expired'].includes(sub.status)) return skip('Autopay is off');
      if (!this.usable(method.provider)) return skip('The card provider is not available');
      const gateway = gateways.find((g) => g.id === method.gatewayId) ?? gateways.find((g) => g.provider === method.provider && g.isActive);
      if (!gateway) return skip('The card provider is not available');
      // A charge picked up again after a crash keeps its payment (and so its idempotency key's parameters).
      const [earlier] = claimed.paymentId ? await tx.select().from(payments).where(eq(payments.id, claimed.paymentId)).for('update') : [];
      if (earlier && earlier.status !== 'pending') return skip(`Payment already ${earlier.status}`);
      const payment =
        earlier ??
        (
          await tx
            .insert(payments)
            .values({ invoiceId: invoice.id, userId: invoice.userId, gatewayId: gateway.id, provider: method.provider, transactionId: placeholder(claimed.id), status: 'pending', amount: due, currency: invoice.currency, paymentMethod: method.provider, reference: `Autopay attempt ${claimed.attempt}`, createdAt: now, updatedAt: now })
            .returning()
        )[0];
      await tx.update(autopayCharges).set({ paymentId: payment.id, paymentMethodId: method.id, amount: payment.amount, updatedAt: now }).where(eq(autopayCharges.id, claimed.id));
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
        await tx.update(payments).set({ transactionId: result.transactionId, updatedAt: now }).where(and(eq(payments.id, payment.id), eq(payments.transactionId, placeholder(claimed.id))));
        // The webhook may already have settled it (succeeded): only a charge still processing becomes submitted.
        await tx.update(autopayCharges).set({ status: 'submitted', updatedAt: now }).where(and(eq(autopayCharges.id, claimed.id), eq(autopayCharges.status, 'processing')));
      });
      return 'submitted';
    }
    await this.fail(charge, result, result.transactionId);
    return 'failed';
  }

  /** A refused charge: payment and charge failed, the next attempt scheduled, the customer e-mailed. */
  private async fail(charge: AutopayChargeRow, failure: { code: string; message: string }, transactionId: string | null = null): Promise<void> {
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
          await tx.update(payments).set({ status: 'failed', failureReason: `Automatic payment refused (${failure.code}): ${failure.message}`.slice(0, 500), updatedAt: now, ...useTx }).where(eq(payments.id, p.id));
        }
      }
      await tx.update(autopayCharges).set({ status: 'failed', failureCode: failure.code.slice(0, 64), failureMessage: failure.message, updatedAt: now }).where(eq(autopayCharges.id, charge.id));
      // The schedule counts from the day of the first attempt.
      const [first] = await tx.select().from(autopayCharges).where(and(eq(autopayCharges.invoiceId, charge.invoiceId), eq(autopayCharges.attempt, 1))).limit(1);
      const days = await this.retryDays(tx);
      let nextRetry: Date | null = null;
      if (row.attempt <= days.length) {
        nextRetry = new Date(startOfDay(first?.attemptedAt ?? first?.scheduledAt ?? now).getTime() + days[row.attempt - 1] * DAY_MS);
        await tx
          .insert(autopayCharges)
          .values({ invoiceId: row.invoiceId, subscriptionId: row.subscriptionId, attempt: row.attempt + 1, status: 'scheduled', scheduledAt: nextRetry, paymentMethodId: row.paymentMethodId, createdAt: now, updatedAt: now })
          .onConflictDoNothing();
      }
      const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, row.invoiceId)).limit(1);
      const [user] = invoice ? await tx.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, invoice.userId)).limit(1) : [];
      const [method] = row.paymentMethodId ? await tx.select().from(paymentMethods).where(eq(paymentMethods.id, row.paymentMethodId)).limit(1) : [];
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

  // ---- what the customer and staff see -------------------------------------------------------------------

  async state(subscriptionId: string): Promise<AutopayState> {
    const { db } = this.deps;
    const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).limit(1);
    if (!sub) throw notFound(M.notFound);
    const [card] = sub.autopayMethodId ? await db.select().from(paymentMethods).where(eq(paymentMethods.id, sub.autopayMethodId)).limit(1) : [];
    const available = card ?? (await this.currentCard(sub.userId));
    const [last] = await db
      .select()
      .from(autopayCharges)
      .where(and(eq(autopayCharges.subscriptionId, sub.id), inArray(autopayCharges.status, ['submitted', 'succeeded', 'failed'])))
      .orderBy(desc(autopayCharges.attemptedAt), desc(autopayCharges.attempt))
      .limit(1);
    const [next] = await db
      .select({ at: autopayCharges.scheduledAt })
      .from(autopayCharges)
      .innerJoin(invoices, eq(invoices.id, autopayCharges.invoiceId))
      .where(and(eq(autopayCharges.subscriptionId, sub.id), eq(autopayCharges.status, 'scheduled'), inArray(invoices.status, [...OPEN])))
      .orderBy(asc(autopayCharges.scheduledAt))
      .limit(1);
    return {
      enabled: Boolean(card),
      card: card ? cardView(card) : null,
      last_failure:
        last?.status === 'failed' ? { at: (last.attemptedAt ?? last.updatedAt).toISOString(), code: last.failureCode ?? 'failed', message: last.failureMessage ?? '' } : null,
      next_retry: card && next ? next.at.toISOString() : null,
      available_card: available ? cardView(available) : null,
    };
  }

  /** GET /subscriptions/:id/autopay: the owner or subscription staff. */
  async stateFor(caller: Caller, subscriptionId: string): Promise<AutopayState> {
    const sub = await this.subscriptionFor(caller, subscriptionId, SUBSCRIPTION_STAFF);
    return this.state(sub.id);
  }
}

