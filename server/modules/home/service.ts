/**
 * The customer's home (issue 34, GET /me/home): one read of everything the signed-in customer's first screen
 * shows, always for the caller alone (every query is filtered by their id). Read-only; figures come from where
 * the other screens read them: usage and the open session from the usage service (RADIUS accounting), the
 * balance from the credit ledger, what is due from amountDue.
 */
import { and, asc, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { OPEN_INSTALLATION_STATUSES, type InstallationStatus } from '../../../contract/schemas/installation';
import type { CustomerHome, HomeInvoice } from '../../../contract/schemas/home';
import type { TicketStatus } from '../../../contract/schemas/ticket';
import type { Db } from '../../db/client';
import { installations, invoices, paymentMethods, plans, subscriptions, tickets, type InvoiceRow } from '../../db/schema';
import { radiusSessions } from '../../db/schema/radius';
import type { Clock } from '../../lib/clock';
import { amountDue } from '../credit/amount-due';
import { balancesOf } from '../credit/ledger';
import { UsageService } from '../usage/service';

const DAY = 86_400_000;
const OPEN_INVOICE = ['unpaid', 'overdue'] as const;
const CLOSED_TICKET: TicketStatus[] = ['resolved', 'closed'];
/** The installation statuses that still stand between an order and a working line ('failed' is re-planned). */
const WAITING_INSTALLATION = OPEN_INSTALLATION_STATUSES;

function toHomeInvoice(row: InvoiceRow): HomeInvoice {
  return {
    id: row.id,
    number: row.number,
    status: row.status as HomeInvoice['status'],
    amount_due: amountDue(row),
    currency: row.currency,
    due_date: row.dueDate,
    subscription_id: row.subscriptionId,
  };
}

export class HomeService {
  private readonly usageService: UsageService;

  constructor(private readonly deps: { db: Db; clock: Clock }) {
    this.usageService = new UsageService(deps);
  }

  async home(caller: { id: string; name: string }): Promise<CustomerHome> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const me = caller.id;

    const subs = await db
      .select({ sub: subscriptions, plan: plans })
      .from(subscriptions)
      .innerJoin(plans, eq(plans.id, subscriptions.planId))
      .where(and(eq(subscriptions.userId, me), inArray(subscriptions.status, ['pending', 'active', 'suspended'])))
      .orderBy(sql`case ${subscriptions.status} when 'active' then 0 when 'suspended' then 1 else 2 end`, desc(subscriptions.createdAt));
    const line = subs.find((s) => s.sub.status !== 'pending');
    const pending = subs.find((s) => s.sub.status === 'pending');

    const unpaid = await db
      .select()
      .from(invoices)
      .where(and(eq(invoices.userId, me), inArray(invoices.status, [...OPEN_INVOICE])))
      .orderBy(asc(invoices.dueDate), asc(invoices.number));

    // The open order: the pending subscription (one at a time), else a line whose installation is not done yet.
    const visits = subs.length
      ? await db
          .select()
          .from(installations)
          .where(and(inArray(installations.subscriptionId, subs.map((s) => s.sub.id)), inArray(installations.status, [...WAITING_INSTALLATION])))
          .orderBy(desc(installations.createdAt))
      : [];
    const orderSub = pending ?? subs.find((s) => visits.some((v) => v.subscriptionId === s.sub.id));
    let order: CustomerHome['order'] = null;
    if (orderSub) {
      const invoice = unpaid.find((i) => i.subscriptionId === orderSub.sub.id);
      const visit = visits.find((v) => v.subscriptionId === orderSub.sub.id);
      order = {
        subscription_id: orderSub.sub.id,
        plan_name: orderSub.plan.name,
        next_step: pending === orderSub && invoice ? 'payment' : 'installation',
        invoice: pending === orderSub && invoice ? toHomeInvoice(invoice) : null,
        installation: visit ? { status: visit.status as InstallationStatus, scheduled_start: visit.scheduledStart?.toISOString() ?? null } : null,
      };
    }

    let service: CustomerHome['service'] = null;
    let usage: CustomerHome['usage'] = null;
    let autopayCard: CustomerHome['bill']['autopay_card'] = null;
    if (line) {
      const { sub, plan } = line;
      const read = await this.usageService.usage({ id: me, role: 'user' }, { subscription_id: sub.id, period: 0 });
      let lastSeen: string | null = null;
      if (!read.session) {
        const [last] = await db
          .select({ stoppedAt: radiusSessions.stoppedAt, updatedAt: radiusSessions.updatedAt })
          .from(radiusSessions)
          .where(eq(radiusSessions.subscriptionId, sub.id))
          .orderBy(desc(radiusSessions.updatedAt))
          .limit(1);
        lastSeen = last ? (last.stoppedAt ?? last.updatedAt).toISOString() : null;
      }
      service = {
        subscription_id: sub.id,
        plan_name: plan.name,
        status: sub.status as 'active' | 'suspended',
        suspension_reason: sub.suspensionReason,
        download_mbps: plan.downloadMbps,
        upload_mbps: plan.uploadMbps,
        online: read.session ? { since: read.session.online_since, ip: read.session.framed_ip } : null,
        last_seen: lastSeen,
      };
      // A line bought with data vouchers counts against its allowance; a plan's cap against the period's use.
      const allowance = sub.dataAllowanceBytes;
      const used = allowance !== null ? sub.dataUsedBytes : read.cap.used;
      const cap = allowance !== null ? allowance : read.cap.limit;
      const end = sub.currentPeriodEnd ?? new Date(`${read.period.end}T00:00:00Z`);
      usage = {
        period_start: read.period.start,
        period_end: read.period.end,
        days_left: Math.max(0, Math.floor((end.getTime() - now.getTime()) / DAY)),
        used_bytes: used,
        cap_bytes: cap,
        percent: cap === null ? null : cap === 0 ? 100 : Math.min(100, Math.round((used / cap) * 1000) / 10),
      };
      if (sub.autopayMethodId) {
        const [card] = await db
          .select({ brand: paymentMethods.brand, last4: paymentMethods.last4 })
          .from(paymentMethods)
          .where(and(eq(paymentMethods.id, sub.autopayMethodId), eq(paymentMethods.userId, me)))
          .limit(1);
        autopayCard = card ?? null;
      }
    }

    const billable = unpaid.filter((i) => i.id !== order?.invoice?.id);

    const credit = (await balancesOf(db, me)).filter((b) => b.amount !== 0);

    const openTickets = and(eq(tickets.createdBy, me), notInArray(tickets.status, CLOSED_TICKET));
    const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(tickets).where(openTickets);
    const latest = await db
      .select({ id: tickets.id, number: tickets.number, subject: tickets.subject, status: tickets.status, updatedAt: tickets.updatedAt })
      .from(tickets)
      .where(openTickets)
      .orderBy(desc(tickets.updatedAt), desc(tickets.id))
      .limit(2);

    return {
      name: caller.name,
      order,
      service,
      usage,
      bill: { invoice: billable[0] ? toHomeInvoice(billable[0]) : null, more_unpaid: Math.max(0, billable.length - 1), autopay_card: autopayCard },
      credit,
      tickets: {
        open: Number(count),
        latest: latest.map((r) => ({ id: r.id, number: r.number, subject: r.subject, status: r.status as TicketStatus, updated_at: r.updatedAt.toISOString() })),
      },
    };
  }
}
