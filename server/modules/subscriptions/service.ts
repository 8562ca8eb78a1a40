/**
 * Subscriptions (core): creating one creates its first invoice in the same transaction; reading is limited
 * to the owner and the staff who handle subscriptions (admin, billing, support).
 */
import { eq } from 'drizzle-orm';
import { allows, type Role } from '../../../contract/roles';
import type { Invoice, InvoiceLineItem } from '../../../contract/schemas/invoice';
import type {
  ActivePlan,
  Subscription,
  SubscriptionCreated,
  SubscriptionInputParsed,
  SubscriptionListQueryParsed,
  SubscriptionStatus,
} from '../../../contract/schemas/subscription';
import type { OffsetMeta } from '../../../contract/envelope';
import type { Db } from '../../db/client';
import { plans, subscriptions, users, type InvoiceRow, type SubscriptionRow } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import { issueInvoice, toInvoice, type IssueInvoiceInput } from '../invoices/service';
import type { SubscriptionRepository, SubscriptionWithNames } from './repository';

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
} as const;

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
    plan_name: planName,
    user_name: userName,
    user_email: userEmail,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export interface Caller {
  id: string;
  role: Role;
}

export class SubscriptionService {
  constructor(
    private readonly deps: {
      db: Db;
      repository: SubscriptionRepository;
      clock: Clock;
      taxRateBp: () => Promise<number>;
      /** Called after an invoice number was taken (the settings cache holds the counter). */
      onInvoiceIssued?: () => void;
      /** Issues the invoice inside the transaction; replaceable in tests to simulate a failure. */
      issueInvoice?: (tx: Db, input: IssueInvoiceInput) => Promise<InvoiceRow>;
    },
  ) {}

  /** Creates a pending subscription and its first invoice (price + setup fee + tax) in one transaction. */
  async create(caller: Caller, input: SubscriptionInputParsed): Promise<SubscriptionCreated> {
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
      const [user] = await tx.select({ id: users.id, name: users.name, email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
      if (!user) throw notFound(SUBSCRIPTION_MESSAGES.userNotFound);
      const [plan] = await tx.select().from(plans).where(eq(plans.id, input.plan_id)).limit(1);
      if (!plan) throw notFound(SUBSCRIPTION_MESSAGES.planNotFound);
      if (plan.status !== 'active') throw conflict(SUBSCRIPTION_MESSAGES.planInactive);

      const [row]: SubscriptionRow[] = await tx
        .insert(subscriptions)
        .values({ userId, planId: plan.id, status: 'pending', location: input.location, note: input.note, createdAt: now, updatedAt: now })
        .returning();
      const lineItems: InvoiceLineItem[] = [
        { description: `${plan.name} (${plan.billingCycle.replace('_', '-')})`, quantity: 1, unit_amount: plan.price, amount: plan.price },
      ];
      if (plan.setupFee > 0) lineItems.push({ description: 'Setup fee', quantity: 1, unit_amount: plan.setupFee, amount: plan.setupFee });
      const invoice = await issue(tx, { userId, subscriptionId: row.id, currency: plan.currency, lineItems, taxRateBp, now });
      return {
        subscription: toSubscription({ row, planName: plan.name, userName: user.name, userEmail: user.email }),
        invoice: toInvoice(invoice) as Invoice,
      };
    })
      .catch((error: unknown) => {
        // The counter was set back (settings) below a number already issued: nothing is written.
        if (isUniqueViolation(error)) throw conflict(SUBSCRIPTION_MESSAGES.numberTaken);
        throw error;
      });
    this.deps.onInvoiceIssued?.();
    return result;
  }

  async list(query: SubscriptionListQueryParsed): Promise<{ items: Subscription[]; meta: OffsetMeta }> {
    const { items, total } = await this.deps.repository.page(query);
    return { items: items.map(toSubscription), meta: { total, limit: query.limit, offset: query.offset } };
  }

  /** The owner and subscription staff see it; everybody else gets 404 (not 403: no hint that it exists). */
  async get(caller: Caller, id: string): Promise<Subscription> {
    const found = UUID.test(id) ? await this.deps.repository.findById(id) : undefined;
    if (!found || (found.row.userId !== caller.id && !isSubscriptionStaff(caller.role))) throw notFound(SUBSCRIPTION_MESSAGES.notFound);
    return toSubscription(found);
  }

  async activePlan(caller: Caller): Promise<ActivePlan> {
    const found = await this.deps.repository.activeFor(caller.id);
    if (!found) throw notFound(SUBSCRIPTION_MESSAGES.noActivePlan);
    const { plan } = found;
    return {
      subscription: toSubscription(found.subscription),
      plan: {
        id: plan.id,
        name: plan.name,
        download_mbps: plan.downloadMbps,
        upload_mbps: plan.uploadMbps,
        data_cap_gb: plan.dataCapGb,
        price: plan.price,
        currency: plan.currency,
        billing_cycle: plan.billingCycle,
      },
    };
  }
}
