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
import { allows, type Role } from '../../../contract/roles';
import { AUTOPAY_MESSAGES as M, type AutopayState, type PaymentMethod } from '../../../contract/schemas/autopay';
import type { Db } from '../../db/client';
import type { PaymentMethodRow } from '../../db/schema/money';
import type { PaymentEvent, PaymentProviderRegistry } from '../../integrations/payments';
import type { MailMessage } from '../../integrations/mail/mailer';
import type { Clock } from '../../lib/clock';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { recordAudit, type AuditContext } from '../audit/trail';
import type { GatewayRepository } from '../gateways/repository';
import type { GatewayService } from '../gateways/service';
import { AutopayCharges } from './charges';
import { createAutopayRepository } from './repository';

/** Staff who may see and change any customer's autopay (as for payments). */
const AUTOPAY_STAFF = ['admin', 'billing'] as const;
const SUBSCRIPTION_STAFF = ['admin', 'billing', 'support'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

const cardView = (row: PaymentMethodRow) => ({
  id: row.id,
  brand: row.brand,
  last4: row.last4,
  exp_month: row.expMonth,
  exp_year: row.expYear,
});

export class AutopayService {
  /** Making the charges (claim, charge, fail and reschedule): charges.ts. */
  private readonly charges: AutopayCharges;

  constructor(private readonly deps: AutopayDeps) {
    this.charges = new AutopayCharges(deps, (provider) => this.usable(provider));
  }

  /** Makes every due charge (after a billing run committed); see AutopayCharges.processDue. */
  processDue(): Promise<{ submitted: number; failed: number; skipped: number }> {
    return this.charges.processDue();
  }

  private usable(provider: string): boolean {
    const adapter = this.deps.providers.get(provider);
    return Boolean(adapter?.createSetup && adapter.chargeSaved) && (provider !== 'sandbox' || this.deps.sandboxAllowed);
  }

  private async subscriptionFor(caller: Caller, id: string, staff: readonly Role[]) {
    if (!UUID.test(id)) throw notFound(M.notFound);
    const sub = await createAutopayRepository(this.deps.db).subscription(id);
    if (!sub || (sub.userId !== caller.id && !allows(staff, caller.role))) throw notFound(M.notFound);
    return sub;
  }

  /** The customer's newest saved card with a provider that can still charge it. */
  private async currentCard(userId: string, db: Db = this.deps.db): Promise<PaymentMethodRow | undefined> {
    const rows = await createAutopayRepository(db).cardsOf(userId);
    return rows.find((r) => this.usable(r.provider));
  }

  // ---- the customer's cards ------------------------------------------------------------------------------

  async listMethods(caller: Caller, userId?: string): Promise<PaymentMethod[]> {
    const owner = userId && allows(AUTOPAY_STAFF, caller.role) ? userId : caller.id;
    const repo = createAutopayRepository(this.deps.db);
    const rows = await repo.cardsOf(owner);
    if (!rows.length) return [];
    const subs = await repo.subscriptionsUsingAny(rows.map((r) => r.id));
    return rows.map((r) =>
      toMethod(
        r,
        subs.filter((s) => s.methodId === r.id).map((s) => s.id),
      ),
    );
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
        if (gateway)
          await adapter.forgetSaved(
            { providerMethodId: card.providerMethodId },
            this.deps.gateways.openCredentials(gateway),
          );
      } catch (error) {
        this.deps.log?.warn(
          { err: error, paymentMethodId: card.id },
          'autopay: the provider could not detach a removed card',
        );
      }
    }
  }

  async removeMethod(caller: Caller, id: string, audit: AuditContext): Promise<void> {
    if (!UUID.test(id)) throw notFound(M.methodNotFound);
    const removed = await this.deps.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const repo = createAutopayRepository(tx);
      const row = await repo.lockCard(id);
      if (!row || (row.userId !== caller.id && !allows(AUTOPAY_STAFF, caller.role))) throw notFound(M.methodNotFound);
      const using = await repo.subscriptionsUsing(id);
      await repo.deleteCard(id);
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
  async setEnabled(
    caller: Caller,
    subscriptionId: string,
    enabled: boolean,
    audit: AuditContext,
  ): Promise<AutopayState> {
    const sub = await this.subscriptionFor(caller, subscriptionId, SUBSCRIPTION_STAFF);
    if (sub.userId !== caller.id && !allows(AUTOPAY_STAFF, caller.role)) throw forbidden();
    await this.deps.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const repo = createAutopayRepository(tx);
      const locked = await repo.lockSubscription(sub.id);
      const card = enabled ? await this.currentCard(locked.userId, tx) : undefined;
      if (enabled && !card) throw conflict(M.noCard);
      const to = card?.id ?? null;
      if (locked.autopayMethodId === to) return;
      await repo.setAutopayMethod(sub.id, to, this.deps.clock.now());
      await recordAudit(tx, this.deps.clock, audit, {
        action: enabled ? 'autopay.enabled' : 'autopay.disabled',
        targetType: 'subscription',
        targetId: sub.id,
        changes: {
          autopay: { from: locked.autopayMethodId ? 'on' : 'off', to: enabled ? 'on' : 'off' },
          ...(card ? { card: { from: null, to: `${card.brand} •••• ${card.last4}` } } : {}),
        },
      });
    });
    return this.state(sub.id);
  }

  /** Starts saving a card for a subscription (the customer only): the hosted set-up page to send them to. */
  async startSetup(
    caller: Caller,
    subscriptionId: string,
    origin: string,
    audit: AuditContext,
  ): Promise<{ paymentUrl: string }> {
    const { db, clock } = this.deps;
    const sub = await this.subscriptionFor(caller, subscriptionId, SUBSCRIPTION_STAFF);
    if (sub.userId !== caller.id) throw forbidden(M.notOwner);
    if (!['pending', 'active', 'suspended'].includes(sub.status)) throw conflict(M.notActive);
    const active = (await this.deps.gatewayRepository.all({ activeOnly: true })).filter((g) => this.usable(g.provider));
    const gateway = active.find((g) => g.isDefault) ?? active[0];
    if (!gateway) throw conflict(M.noProvider);
    const adapter = this.deps.providers.get(gateway.provider)!;
    const repo = createAutopayRepository(db);
    const user = await repo.customer(sub.userId);
    const known = await repo.knownProviderCustomer(sub.userId, gateway.provider);
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
      await createAutopayRepository(tx).insertSetup({
        id: setupId,
        userId: sub.userId,
        subscriptionId: sub.id,
        gatewayId: gateway.id,
        provider: gateway.provider,
        transactionId: result.transactionId,
        status: 'pending',
        createdAt: now,
        updatedAt: now,
      });
      await recordAudit(tx, clock, audit, {
        action: 'autopay.setup_started',
        targetType: 'subscription',
        targetId: sub.id,
        changes: { provider: { from: null, to: gateway.provider } },
      });
    });
    return { paymentUrl: result.paymentUrl };
  }

  /** A sandbox set-up by its transaction id (the hosted page), or null. */
  /** The sandbox page's "cancel": a setup still pending fails. */
  async cancelSandboxSetup(setupId: string): Promise<void> {
    await createAutopayRepository(this.deps.db).failPendingSetup(setupId, this.deps.clock.now());
  }

  async sandboxSetup(transactionId: string) {
    const row = await createAutopayRepository(this.deps.db).setupByTransaction('sandbox', transactionId);
    if (!row) return null;
    const gateway = row.gatewayId ? await this.deps.gatewayRepository.findById(row.gatewayId) : undefined;
    return { setup: row, gateway, credentials: gateway ? this.deps.gateways.openCredentials(gateway) : {} };
  }

  // ---- provider webhooks (called by PaymentService.handleWebhook) ----------------------------------------

  /**
   * method.saved: the card is stored (once per event; a replay changes nothing), the subscription's autopay uses
   * it, and an older card of the customer with the same provider is replaced (its subscriptions move over).
   */
  async methodSaved(
    provider: string,
    event: PaymentEvent,
    credentials: Record<string, string>,
    audit: AuditContext,
  ): Promise<'saved' | 'duplicate'> {
    const { db, clock } = this.deps;
    const setup = await createAutopayRepository(db).setupByTransaction(provider, event.transactionId);
    if (!setup) throw notFound('Card set-up not found');
    const card =
      event.setup?.card ??
      (await this.deps.providers.get(provider)!.readSetup!(
        { setupIntentId: event.setup?.setupIntentId ?? '' },
        credentials,
      ));
    const replaced: PaymentMethodRow[] = [];
    const outcome = await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const repo = createAutopayRepository(tx);
      const now = clock.now();
      const fresh = await repo.recordWebhookEvent({
        provider,
        eventId: event.eventId,
        type: 'method.saved',
        transactionId: event.transactionId,
        receivedAt: now,
      });
      if (!fresh) return 'duplicate';
      const locked = await repo.lockSetup(setup.id);
      if (locked.status === 'completed') return 'duplicate';
      // The customer's row serialises their card changes.
      await repo.lockUser(setup.userId);
      const saved = await repo.saveCard(
        {
          userId: setup.userId,
          gatewayId: setup.gatewayId,
          provider,
          providerCustomerId: card.providerCustomerId,
          providerMethodId: card.providerMethodId,
          brand: card.brand,
          last4: card.last4,
          expMonth: card.expMonth,
          expYear: card.expYear,
          createdAt: now,
        },
        {
          brand: card.brand,
          last4: card.last4,
          expMonth: card.expMonth,
          expYear: card.expYear,
          expiryRemindedAt: null,
        },
      );
      const older = (await repo.cardsWithProvider(setup.userId, provider)).filter((m) => m.id !== saved.id);
      if (older.length) {
        const ids = older.map((m) => m.id);
        await repo.moveAutopayMethod(ids, saved.id, now);
        await repo.deleteCards(ids);
        replaced.push(...older);
      }
      if (setup.subscriptionId) await repo.setAutopayMethod(setup.subscriptionId, saved.id, now);
      await repo.completeSetup(setup.id, saved.id, now);
      await recordAudit(tx, clock, audit, {
        action: 'autopay.card_saved',
        targetType: 'subscription',
        targetId: setup.subscriptionId ?? setup.userId,
        changes: {
          card: {
            from: older[0] ? `${older[0].brand} •••• ${older[0].last4}` : null,
            to: `${saved.brand} •••• ${saved.last4}`,
          },
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
    await createAutopayRepository(this.deps.db).namePendingAutopayPayment(
      event.paymentId,
      provider,
      event.transactionId,
    );
  }

  /** After a payment webhook was settled: the autopay charge of that payment follows (succeeded / failed → retry). */
  async afterSettle(event: PaymentEvent, payment: { id: string; status: string } | null): Promise<void> {
    if (!payment) return;
    const repo = createAutopayRepository(this.deps.db);
    const charge = await repo.chargeOfPayment(payment.id);
    if (!charge) return;
    const now = this.deps.clock.now();
    if (event.type === 'payment.succeeded' && payment.status === 'paid') {
      await repo.chargeSucceeded(charge.id, now);
    } else if (event.type === 'payment.failed' && charge.status === 'submitted') {
      // Accepted at first, refused later (an asynchronous failure): treated like a decline.
      await this.charges.fail(charge, {
        code: 'payment_failed',
        message: 'The payment failed after it was submitted.',
      });
    }
  }

  // ---- what the customer and staff see -------------------------------------------------------------------

  async state(subscriptionId: string): Promise<AutopayState> {
    const { db } = this.deps;
    const repo = createAutopayRepository(db);
    const sub = await repo.subscription(subscriptionId);
    if (!sub) throw notFound(M.notFound);
    const card = sub.autopayMethodId ? await repo.card(sub.autopayMethodId) : undefined;
    const available = card ?? (await this.currentCard(sub.userId));
    const last = await repo.lastCharge(sub.id);
    const next = await repo.nextScheduledCharge(sub.id);
    return {
      enabled: Boolean(card),
      card: card ? cardView(card) : null,
      last_failure:
        last?.status === 'failed'
          ? {
              at: (last.attemptedAt ?? last.updatedAt).toISOString(),
              code: last.failureCode ?? 'failed',
              message: last.failureMessage ?? '',
            }
          : null,
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
