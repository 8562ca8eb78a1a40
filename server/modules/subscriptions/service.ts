/**
 * Subscriptions (core): creating one creates its first invoice in the same transaction; reading is limited
 * to the owner and the staff who handle subscriptions (admin, billing, support).
 */
import { allows, type Role } from '../../../contract/roles';
import type { Invoice, InvoiceLineItem } from '../../../contract/schemas/invoice';
import type {
  Subscription,
  SubscriptionCancelInputParsed,
  SubscriptionStatusInputParsed,
  SubscriptionWithInvoice,
  SubscriptionCreated,
  SubscriptionInputParsed,
  SubscriptionListQueryParsed,
  SubscriptionStatus,
} from '../../../contract/schemas/subscription';
import { pagePagination, type PagePagination } from '../../../contract/envelope';
import type { Db } from '../../db/client';
import type { InvoiceRow, PlanRow, SubscriptionRow } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound, violatedConstraint } from '../../lib/errors';
import { changedFields, recordAudit, type AuditContext, type AuditEntry } from '../audit/trail';
import { cancelInvoices, issueInvoice, toInvoice, type IssueInvoiceInput } from '../invoices/service';
import { requestInstallation } from '../installations/request';
import { addBillingCycle, assertTransition, proRataCredit, renewalLineItem, transitionMessage } from './lifecycle';
import { createSubscriptionRepository, type SubscriptionRepository, type SubscriptionWithNames } from './repository';

export { addBillingCycle, canTransition, proRataCredit } from './lifecycle';
export { activateForPaidInvoice } from './activation';

export const SUBSCRIPTION_MESSAGES = {
  created: 'Subscription created successfully!',
  list: 'Subscriptions retrieved successfully',
  detail: 'Subscription retrieved successfully',
  activePlan: 'Active plan retrieved successfully',
  noActivePlan: 'No active plan',
  notFound: 'Subscription not found',
  userNotFound: 'User not found',
  planNotFound: 'Plan not found',
  planInactive: 'This plan is not available for new subscriptions',
  forOthers: 'You can only subscribe for yourself',
  numberTaken: 'The next invoice number is already used; check the invoice numbering in the billing settings',
  orders: 'Order history retrieved successfully',
  cancelled: 'Subscription cancelled successfully!',
  renewed: 'Subscription renewed successfully!',
  upgraded: 'Subscription upgraded successfully!',
  deleted: 'Subscription deleted successfully!',
  statusChanged: (status: SubscriptionStatus) => `Subscription ${status} successfully!`,
  transition: transitionMessage,
  reasonRequired: 'A suspension reason is required',
  renewOnlyActive: 'Only an active or suspended subscription can be renewed',
  renewalExists: 'An unpaid renewal invoice for the next period already exists',
  upgradeOnlyActive: 'Only an active subscription can be upgraded',
  samePlan: 'The subscription is already on this plan',
  unpaidInvoices: 'This subscription has unpaid invoices and cannot be deleted',
  invoiceNotFound: 'Invoice not found',
  invoiceNotPaid: 'The invoice is not paid',
  addressRequired: 'This plan is installed at your address: enter the service address',
  dataLine: 'This line was bought with data vouchers: top it up with another voucher',
  orderPending: (plan: string, invoice: string | null) =>
    `You already have an order waiting: ${plan}${invoice ? ` (invoice ${invoice})` : ''}. Pay or cancel it before ordering again`,
} as const;

const cycleLabel = (cycle: string) => cycle.replace('_', '-');
const day = (d: Date) => d.toISOString().slice(0, 10);

/** Staff who see and create every customer's subscriptions. */
export const SUBSCRIPTION_STAFF = ['admin', 'billing', 'support'] as const;
export const isSubscriptionStaff = (role: Role) => allows(SUBSCRIPTION_STAFF, role);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function toSubscription({ row, planName, userName, userEmail }: SubscriptionWithNames): Subscription {
  return {
    id: row.id,
    user_id: row.userId,
    plan_id: row.planId,
    status: row.status as SubscriptionStatus,
    location: row.location,
    note: row.note,
    suspension_reason: row.suspensionReason,
    current_period_start: row.currentPeriodStart ? row.currentPeriodStart.toISOString() : null,
    current_period_end: row.currentPeriodEnd ? row.currentPeriodEnd.toISOString() : null,
    data_allowance_bytes: row.dataAllowanceBytes,
    data_used_bytes: row.dataUsedBytes,
    plan_name: planName,
    user_name: userName,
    user_email: userEmail,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The fields a status change or cancellation changed, as {field: {from, to}}. */
function subscriptionDiff(row: SubscriptionRow, patch: Partial<SubscriptionRow>): Record<string, unknown> {
  const view = (r: Partial<SubscriptionRow>) => ({
    status: r.status,
    suspension_reason: r.suspensionReason,
    current_period_end: r.currentPeriodEnd?.toISOString(),
  });
  const before = view(row);
  const after = { ...before, ...Object.fromEntries(Object.entries(view(patch)).filter(([, v]) => v !== undefined)) };
  if ('suspensionReason' in patch && patch.suspensionReason === null) after.suspension_reason = null;
  return changedFields(before, after);
}

export interface Caller {
  id: string;
  role: Role;
}

export class SubscriptionService {
  /** One audit event in the change's transaction (none when no audit context is given: internal callers). */
  private async record(tx: Db, audit: AuditContext | undefined, entry: AuditEntry): Promise<void> {
    if (audit) await recordAudit(tx, this.deps.clock, audit, { targetType: 'subscription', ...entry });
  }

  constructor(
    private readonly deps: {
      db: Db;
      repository: SubscriptionRepository;
      clock: Clock;
      taxRateBp: () => Promise<number>;
      /** Called after an invoice number was taken (the settings cache holds the counter). */
      onInvoiceIssued?: () => void;
      /** Called after an invoice was committed (the "invoice issued" e-mail); must not throw. */
      onInvoiceCommitted?: (invoiceId: string) => Promise<void>;
      /** Issues the invoice inside the transaction; replaceable in tests to simulate a failure. */
      issueInvoice?: (tx: Db, input: IssueInvoiceInput) => Promise<InvoiceRow>;
      /** Called after a status or plan change committed (RADIUS cuts off or re-rates live sessions); must not throw. */
      onAccessChanged?: (subscriptionId: string, change: 'status' | 'plan') => void;
      /** Called after a deletion committed with the installations deleted with it (their photos are removed). */
      onInstallationsDeleted?: (installationIds: string[]) => Promise<void>;
    },
  ) {}

  /** Creates a pending subscription and its first invoice (price + setup fee + tax) in one transaction. */
  async create(caller: Caller, input: SubscriptionInputParsed, audit?: AuditContext): Promise<SubscriptionCreated> {
    const { db, clock } = this.deps;
    const staff = isSubscriptionStaff(caller.role);
    const userId = input.user_id ?? caller.id;
    if (!staff && userId !== caller.id) throw forbidden(SUBSCRIPTION_MESSAGES.forOthers);
    const taxRateBp = await this.deps.taxRateBp();
    const issue = this.deps.issueInvoice ?? issueInvoice;
    const now = clock.now();

    const result = await db
      .transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const repo = createSubscriptionRepository(tx);
        const user = await repo.customer(userId);
        if (!user) throw notFound(SUBSCRIPTION_MESSAGES.userNotFound);
        const plan = await repo.plan(input.plan_id);
        if (!plan) throw notFound(SUBSCRIPTION_MESSAGES.planNotFound);
        if (plan.status !== 'active') throw conflict(SUBSCRIPTION_MESSAGES.planInactive);
        // A plan installed at the customer's address is ordered with that address: the technician's job needs it.
        if (plan.requiresInstallation && !input.location) {
          throw badRequest(SUBSCRIPTION_MESSAGES.addressRequired, [
            { field: 'location', message: SUBSCRIPTION_MESSAGES.addressRequired },
          ]);
        }
        await this.refuseSecondOrder(tx, userId);

        const row: SubscriptionRow = await repo.insert({
          userId,
          planId: plan.id,
          status: 'pending',
          location: input.location,
          note: input.note,
          createdAt: now,
          updatedAt: now,
        });
        // A subscription with a location needs a technician's visit: its installation job, in this transaction.
        if (row.location) await requestInstallation(tx, { subscriptionId: row.id, userId, address: row.location, now });
        const lineItems: InvoiceLineItem[] = [
          {
            description: `${plan.name} (${plan.billingCycle.replace('_', '-')})`,
            quantity: 1,
            unit_amount: plan.price,
            amount: plan.price,
            kind: 'plan',
          },
        ];
        if (plan.setupFee > 0)
          lineItems.push({
            description: 'Setup fee',
            quantity: 1,
            unit_amount: plan.setupFee,
            amount: plan.setupFee,
            kind: 'setup_fee',
          });
        const invoice = await issue(tx, {
          userId,
          subscriptionId: row.id,
          currency: plan.currency,
          lineItems,
          taxRateBp,
          now,
        });
        // Credit that covered the whole first invoice paid it at once, and paying activated the subscription.
        const current = invoice.status === 'paid' ? await repo.row(row.id) : row;
        await this.record(tx, audit, {
          action: 'subscription.created',
          targetId: row.id,
          changes: {
            user: { from: null, to: user.email },
            plan: { from: null, to: plan.name },
            status: { from: null, to: row.status },
            ...(row.location ? { location: { from: null, to: row.location } } : {}),
            invoice: { from: null, to: invoice.number },
          },
        });
        return {
          subscription: toSubscription({
            row: current ?? row,
            planName: plan.name,
            userName: user.name,
            userEmail: user.email,
          }),
          invoice: toInvoice(invoice) as Invoice,
        };
      })
      .catch(async (error: unknown) => {
        // Two orders at once: the database let one in (subscriptions_one_pending_per_user); the other is told which.
        if (violatedConstraint(error) === 'subscriptions_one_pending_per_user')
          await this.refuseSecondOrder(db, userId);
        // The counter was set back (settings) below a number already issued: nothing is written.
        if (isUniqueViolation(error)) throw conflict(SUBSCRIPTION_MESSAGES.numberTaken);
        throw error;
      });
    this.deps.onInvoiceIssued?.();
    await this.deps.onInvoiceCommitted?.(result.invoice.id);
    return result;
  }

  /**
   * One open order per customer (issue 31): while a subscription is pending (ordered, not yet paid or cancelled) a
   * second order is refused with 409 naming it; the customer pays or cancels it. The partial unique index
   * subscriptions_one_pending_per_user enforces it under concurrency; this read only finds the words.
   */
  private async refuseSecondOrder(db: Db, userId: string): Promise<void> {
    const pending = await createSubscriptionRepository(db).pendingOrderOf(userId);
    if (!pending) return;
    const message = SUBSCRIPTION_MESSAGES.orderPending(pending.planName, pending.number);
    throw conflict(message, [
      { field: 'plan_id', message },
      { field: 'pending_subscription_id', message: pending.id },
    ]);
  }

  /** A page of the list: `offset` when sent (the page it falls in is reported), else page `page` (default 1). */
  async list(query: SubscriptionListQueryParsed): Promise<{ items: Subscription[]; pagination: PagePagination }> {
    const offset = query.offset ?? ((query.page ?? 1) - 1) * query.limit;
    const { items, total } = await this.deps.repository.page({ ...query, offset });
    return {
      items: items.map(toSubscription),
      pagination: pagePagination(Math.floor(offset / query.limit) + 1, query.limit, total),
    };
  }

  /** The owner and subscription staff see it; everybody else gets 404 (not 403: no hint that it exists). */
  async get(caller: Caller, id: string): Promise<Subscription> {
    const found = UUID.test(id) ? await this.deps.repository.findById(id) : undefined;
    if (!found || (found.row.userId !== caller.id && !isSubscriptionStaff(caller.role)))
      throw notFound(SUBSCRIPTION_MESSAGES.notFound);
    return toSubscription(found);
  }

  /** Locks the subscription row for the rest of the transaction; 404 unless the caller owns it or is staff. */
  private async lockFor(tx: Db, caller: Caller | null, id: string): Promise<SubscriptionRow> {
    if (!UUID.test(id)) throw notFound(SUBSCRIPTION_MESSAGES.notFound);
    const row = await createSubscriptionRepository(tx).lock(id);
    if (!row || (caller && row.userId !== caller.id && !isSubscriptionStaff(caller.role)))
      throw notFound(SUBSCRIPTION_MESSAGES.notFound);
    return row;
  }

  private async reload(id: string): Promise<Subscription> {
    const found = await this.deps.repository.findById(id);
    if (!found) throw notFound(SUBSCRIPTION_MESSAGES.notFound);
    return toSubscription(found);
  }

  private transaction<T>(work: (tx: Db) => Promise<T>, issuesInvoice = false): Promise<T> {
    return this.deps.db
      .transaction(async (tx) => work(tx as unknown as Db))
      .catch((error: unknown) => {
        if (issuesInvoice && isUniqueViolation(error)) throw conflict(SUBSCRIPTION_MESSAGES.numberTaken);
        throw error;
      })
      .then((result) => {
        if (issuesInvoice) this.deps.onInvoiceIssued?.();
        return result;
      });
  }

  /** PATCH /subscriptions/{id}/status (staff): only the transitions the table allows via 'staff'. */
  async changeStatus(
    caller: Caller,
    id: string,
    input: SubscriptionStatusInputParsed,
    audit?: AuditContext,
  ): Promise<Subscription> {
    const now = this.deps.clock.now();
    await this.transaction(async (tx) => {
      const row = await this.lockFor(tx, caller, id);
      assertTransition(row.status as SubscriptionStatus, input.status, 'staff');
      if (input.status === 'suspended' && !input.suspension_reason)
        throw badRequest(SUBSCRIPTION_MESSAGES.reasonRequired, [
          { field: 'suspension_reason', message: SUBSCRIPTION_MESSAGES.reasonRequired },
        ]);
      const patch: Partial<SubscriptionRow> = { status: input.status, updatedAt: now };
      if (input.status === 'suspended') patch.suspensionReason = input.suspension_reason;
      else if (input.status === 'active') patch.suspensionReason = null;
      else if (input.suspension_reason) patch.suspensionReason = input.suspension_reason;
      if (input.status === 'cancelled') Object.assign(patch, await this.cancelPatch(tx, row, true, now));
      await createSubscriptionRepository(tx).update(row.id, patch);
      await this.record(tx, audit, {
        action: 'subscription.status_changed',
        targetId: row.id,
        changes: subscriptionDiff(row, patch),
      });
    });
    this.deps.onAccessChanged?.(id, 'status');
    return this.reload(id);
  }

  /**
   * What cancelling writes. There is no cancel_at_period_end column: a cancellation at period end is stored as
   * status cancelled with current_period_end kept (service continues until then; the billing job expires it);
   * an immediate one also ends the period now. A pending subscription never started: its open invoices are
   * cancelled too.
   */
  private async cancelPatch(
    tx: Db,
    row: SubscriptionRow,
    immediate: boolean,
    now: Date,
  ): Promise<Partial<SubscriptionRow>> {
    const patch: Partial<SubscriptionRow> = {};
    if (immediate && row.currentPeriodEnd && row.currentPeriodEnd.getTime() > now.getTime())
      patch.currentPeriodEnd = now;
    if (row.status === 'pending') {
      const open = await createSubscriptionRepository(tx).openInvoiceIds(row.id);
      await cancelInvoices(
        tx,
        open.map((i) => i.id),
        now,
      );
    }
    return patch;
  }

  /** POST /subscriptions/{id}/cancel (owner or staff). */
  async cancel(
    caller: Caller,
    id: string,
    input: SubscriptionCancelInputParsed,
    audit?: AuditContext,
  ): Promise<Subscription> {
    const now = this.deps.clock.now();
    await this.transaction(async (tx) => {
      const row = await this.lockFor(tx, caller, id);
      assertTransition(row.status as SubscriptionStatus, 'cancelled', 'cancel');
      const patch: Partial<SubscriptionRow> = {
        status: 'cancelled',
        updatedAt: now,
        ...(await this.cancelPatch(tx, row, input.immediate, now)),
      };
      if (input.suspension_reason) patch.suspensionReason = input.suspension_reason;
      await createSubscriptionRepository(tx).update(row.id, patch);
      await this.record(tx, audit, {
        action: 'subscription.cancelled',
        targetId: row.id,
        changes: { ...subscriptionDiff(row, patch), immediate: { from: null, to: input.immediate } },
      });
    });
    this.deps.onAccessChanged?.(id, 'status');
    return this.reload(id);
  }

  /**
   * PATCH /subscriptions/{id}/renew (owner or staff): issues the invoice for the period that follows the
   * current one (plan price + tax). The row lock makes concurrent renewals wait; a second renewal while that
   * period's invoice is still open → 409. The period moves on when the invoice is paid (activateForPaidInvoice).
   */
  async renew(caller: Caller, id: string, audit?: AuditContext): Promise<SubscriptionWithInvoice> {
    const now = this.deps.clock.now();
    const taxRateBp = await this.deps.taxRateBp();
    const issue = this.deps.issueInvoice ?? issueInvoice;
    const invoice = await this.transaction(async (tx) => {
      const row = await this.lockFor(tx, caller, id);
      if (row.dataAllowanceBytes !== null) throw conflict(SUBSCRIPTION_MESSAGES.dataLine);
      if ((row.status !== 'active' && row.status !== 'suspended') || !row.currentPeriodEnd)
        throw conflict(SUBSCRIPTION_MESSAGES.renewOnlyActive);
      const repo = createSubscriptionRepository(tx);
      const plan = await repo.plan(row.planId);
      const start = row.currentPeriodEnd;
      const end = addBillingCycle(start, plan.billingCycle);
      const open = await repo.openInvoiceLines(row.id);
      if (open.some((i) => i.lineItems.some((l) => l.kind === 'renewal' && l.period_start === start.toISOString()))) {
        throw conflict(SUBSCRIPTION_MESSAGES.renewalExists);
      }
      const issued = await issue(tx, {
        userId: row.userId,
        subscriptionId: row.id,
        currency: plan.currency,
        taxRateBp,
        now,
        lineItems: [renewalLineItem(plan, start, end)],
      });
      await this.record(tx, audit, {
        action: 'subscription.renewed',
        targetId: row.id,
        changes: {
          invoice: { from: null, to: issued.number },
          period: { from: null, to: `${start.toISOString()} – ${end.toISOString()}` },
        },
      });
      return issued;
    }, true);
    await this.deps.onInvoiceCommitted?.(invoice.id);
    return { subscription: await this.reload(id), invoice: toInvoice(invoice) as Invoice };
  }

  /**
   * PATCH /subscriptions/{id}/upgrade (owner or staff): the plan changes now and a new period starts now. The
   * invoice charges the new plan's price for that period and credits the unused days of the old plan pro rata
   * (proRataCredit), the credit never exceeding the new price (the invoice never goes below zero). Open
   * renewal invoices of the old period are cancelled: that period no longer exists.
   */
  async upgrade(caller: Caller, id: string, planId: string, audit?: AuditContext): Promise<SubscriptionWithInvoice> {
    const now = this.deps.clock.now();
    const taxRateBp = await this.deps.taxRateBp();
    const issue = this.deps.issueInvoice ?? issueInvoice;
    const invoice = await this.transaction(async (tx) => {
      const row = await this.lockFor(tx, caller, id);
      if (row.dataAllowanceBytes !== null) throw conflict(SUBSCRIPTION_MESSAGES.dataLine);
      if (row.status !== 'active') throw conflict(SUBSCRIPTION_MESSAGES.upgradeOnlyActive);
      if (row.planId === planId) throw conflict(SUBSCRIPTION_MESSAGES.samePlan);
      const repo = createSubscriptionRepository(tx);
      const oldPlan = await repo.plan(row.planId);
      const plan: PlanRow | undefined = await repo.plan(planId);
      if (!plan) throw notFound(SUBSCRIPTION_MESSAGES.planNotFound);
      if (plan.status !== 'active') throw conflict(SUBSCRIPTION_MESSAGES.planInactive);
      const end = addBillingCycle(now, plan.billingCycle);
      const lineItems: InvoiceLineItem[] = [
        {
          description: `Upgrade to ${plan.name} (${cycleLabel(plan.billingCycle)}) ${day(now)} – ${day(end)}`,
          quantity: 1,
          unit_amount: plan.price,
          amount: plan.price,
          kind: 'upgrade',
          period_start: now.toISOString(),
          period_end: end.toISOString(),
        },
      ];
      const open = await repo.openInvoicesNumbered(row.id);
      // The period that runs now started with a plan change whose invoice is still open: that change is cancelled
      // with its invoice (issue 31), the days used on it are charged, and it earns no credit (nothing was paid).
      const unpaidChange = row.currentPeriodStart
        ? open.find((i) =>
            i.lineItems.some((l) => l.kind === 'upgrade' && l.period_start === row.currentPeriodStart!.toISOString()),
          )
        : undefined;
      const unpaidLine = unpaidChange?.lineItems.find((l) => l.kind === 'upgrade');
      if (unpaidChange && unpaidLine && row.currentPeriodStart && row.currentPeriodEnd) {
        const used =
          unpaidLine.amount - proRataCredit(unpaidLine.amount, row.currentPeriodStart, row.currentPeriodEnd, now);
        if (used > 0) {
          lineItems.push({
            description: `${oldPlan.name} ${day(row.currentPeriodStart)} – ${day(now)} (invoice ${unpaidChange.number}, cancelled)`,
            quantity: 1,
            unit_amount: used,
            amount: used,
          });
        }
      }
      if (row.currentPeriodStart && row.currentPeriodEnd && row.periodPaidAmount > 0) {
        // Unused days are credited on what was paid for this period, never on a price that was not paid.
        const credit = Math.min(
          plan.price,
          proRataCredit(row.periodPaidAmount, row.currentPeriodStart, row.currentPeriodEnd, now),
        );
        if (credit > 0) {
          lineItems.push({
            description: `Credit for unused days of ${oldPlan.name} until ${day(row.currentPeriodEnd)}`,
            quantity: 1,
            unit_amount: -credit,
            amount: -credit,
            kind: 'credit',
          });
        }
      }
      const stale = open
        .filter((i) => i.lineItems.some((l) => l.kind === 'renewal' || l.kind === 'upgrade'))
        .map((i) => i.id);
      await cancelInvoices(tx, stale, now);
      // The new period is unpaid until its invoice is (activateForPaidInvoice; at once when credit covers it).
      await repo.update(row.id, {
        planId: plan.id,
        currentPeriodStart: now,
        currentPeriodEnd: end,
        periodPaidAmount: 0,
        updatedAt: now,
      });
      const issued = await issue(tx, {
        userId: row.userId,
        subscriptionId: row.id,
        currency: plan.currency,
        lineItems,
        taxRateBp,
        now,
      });
      await this.record(tx, audit, {
        action: 'subscription.upgraded',
        targetId: row.id,
        changes: {
          plan: { from: oldPlan.name, to: plan.name },
          plan_id: { from: oldPlan.id, to: plan.id },
          invoice: { from: null, to: issued.number },
        },
      });
      return issued;
    }, true);
    this.deps.onAccessChanged?.(id, 'plan');
    await this.deps.onInvoiceCommitted?.(invoice.id);
    return { subscription: await this.reload(id), invoice: toInvoice(invoice) as Invoice };
  }

  /** DELETE /subscriptions/{id} (admin): refused while an invoice is unpaid or overdue; invoices keep existing. */
  async remove(id: string, audit?: AuditContext): Promise<void> {
    const jobs = await this.transaction(async (tx) => {
      const row = await this.lockFor(tx, null, id);
      const repo = createSubscriptionRepository(tx);
      const n = await repo.countOpenInvoices(row.id);
      if (Number(n) > 0) throw conflict(SUBSCRIPTION_MESSAGES.unpaidInvoices);
      // Its installation jobs go with it (cascade); their photos are removed once that is committed.
      const deletedJobs = await repo.installationIdsOf(row.id);
      await repo.delete(row.id);
      await this.record(tx, audit, {
        action: 'subscription.deleted',
        targetId: row.id,
        changes: {
          status: { from: row.status, to: null },
          user_id: { from: row.userId, to: null },
          plan_id: { from: row.planId, to: null },
        },
      });
      return deletedJobs.map((j) => j.id);
    });
    this.deps.onAccessChanged?.(id, 'status');
    if (jobs.length) await this.deps.onInstallationsDeleted?.(jobs);
  }
}
