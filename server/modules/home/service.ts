/**
 * The customer's home (issue 34, GET /me/home): one read of everything the signed-in customer's first screen
 * shows, always for the caller alone (every query is filtered by their id). Read-only; figures come from where
 * the other screens read them: usage and the open session from the usage service (RADIUS accounting), the
 * balance from the credit ledger, what is due from amountDue.
 */
import type { InstallationStatus } from '../../../contract/schemas/installation';
import type { CustomerHome, HomeInvoice } from '../../../contract/schemas/home';
import type { TicketStatus } from '../../../contract/schemas/ticket';
import type { Db } from '../../db/client';
import type { InvoiceRow } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { amountDue } from '../credit/amount-due';
import { balancesOf } from '../credit/ledger';
import { UsageService } from '../usage/service';
import { createHomeRepository } from './repository';
import { fairUseSummary } from '../top-ups/summary';
import { customerIncidents } from '../outages/status';

const DAY = 86_400_000;

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
    const repository = createHomeRepository(db);
    const now = clock.now();
    const me = caller.id;

    const subs = await repository.currentSubscriptions(me);
    const line = subs.find((s) => s.sub.status !== 'pending');
    const pending = subs.find((s) => s.sub.status === 'pending');

    const unpaid = await repository.openInvoices(me);

    // The open order: the pending subscription (one at a time), else a line whose installation is not done yet.
    const visits = await repository.waitingInstallations(subs.map((s) => s.sub.id));
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
        installation: visit
          ? { status: visit.status as InstallationStatus, scheduled_start: visit.scheduledStart?.toISOString() ?? null }
          : null,
      };
    }

    let service: CustomerHome['service'] = null;
    let usage: CustomerHome['usage'] = null;
    let autopayCard: CustomerHome['bill']['autopay_card'] = null;
    if (line) {
      const { sub, plan } = line;
      const read = await this.usageService.usage({ id: me, role: 'user' }, { subscription_id: sub.id, period: 0 });
      const lastSeen = read.session ? null : ((await repository.lastSeen(sub.id))?.toISOString() ?? null);
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
        fair_use: allowance === null ? await fairUseSummary(db, sub, plan) : null,
      };
      if (sub.autopayMethodId) {
        autopayCard = await repository.card(sub.autopayMethodId, me);
      }
    }

    const billable = unpaid.filter((i) => i.id !== order?.invoice?.id);

    const credit = (await balancesOf(db, me)).filter((b) => b.amount !== 0);

    const { count, latest } = await repository.openTickets(me);
    const incidents = await customerIncidents(db, me, now);

    return {
      name: caller.name,
      order,
      service,
      usage,
      bill: {
        invoice: billable[0] ? toHomeInvoice(billable[0]) : null,
        more_unpaid: Math.max(0, billable.length - 1),
        autopay_card: autopayCard,
      },
      credit,
      incidents,
      tickets: {
        open: count,
        latest: latest.map((r) => ({
          id: r.id,
          number: r.number,
          subject: r.subject,
          status: r.status as TicketStatus,
          updated_at: r.updatedAt.toISOString(),
        })),
      },
    };
  }
}
