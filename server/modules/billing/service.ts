/**
 * The recurring billing job (issue 4). Once a day (scheduler) or on demand (admin), in ONE transaction:
 *
 *   1. Overdue: every unpaid invoice whose due date has passed (due date < today) becomes overdue, and its
 *      customer gets a reminder. An overdue invoice can still be paid; paying it reactivates (payments).
 *   2. Suspension: an active subscription with an unpaid/overdue invoice more than grace_days past its due date
 *      (due date + grace_days < today) is suspended, reason "Overdue invoice <number>" (the oldest such invoice),
 *      and its customer is told. Paying the invoice reactivates it (activateForPaidInvoice).
 *   3. Expiry (the lifecycle table's 'job' transitions):
 *      - cancelled → expired once its period has ended (current_period_end <= now, or no period at all);
 *      - active/suspended → expired when the period ended more than grace_days + EXPIRE_AFTER_DAYS days ago
 *        and was never renewed (paying a renewal moves the period on, so "period ended" means "not paid"):
 *        with the defaults, suspended a week after the period end and terminated 30 days after that.
 *      Open renewal invoices for a period starting at or after the end of an expired subscription are cancelled:
 *      that period is never served. Other open invoices stay (service that was delivered).
 *   4. Renewal: an active subscription whose period ends within renewal_days_before days (UTC calendar days:
 *      period end day <= today + N) gets the invoice for the following period (plan price + tax), exactly
 *      once: an invoice of any status that already bills that period (a renewal line item starting at the
 *      current period end, e.g. from PATCH /renew) means nothing is issued. Due date: the usual 7 days after
 *      issue (with the default N = 7, the first day of the new period). The customer gets "invoice issued".
 *
 *   5. Autopay (issue 21): each renewal invoice of a subscription with a saved card (amount due > 0) gets its
 *      first charge attempt scheduled in this transaction; cards that expire before their subscription's next
 *      invoice get one reminder each. After the commit, afterRun makes the due charges (server/modules/autopay).
 *
 * Exactly once per day, also across processes: a PostgreSQL advisory transaction lock serialises runs and the
 * billing_runs row (run_date unique) is written in the same transaction, so a second run waits, then finds the
 * day's row and does nothing. Anything that fails rolls everything back, run row included; the next trigger
 * redoes the day. E-mails are collected during the run and handed to the mailer only after the commit, so no
 * e-mail is ever sent for work that was rolled back. All days are UTC.
 */
import type { PagePagination } from '../../../contract/envelope';
import type {
  BillingRun,
  BillingRunCounts,
  BillingRunListQueryParsed,
  BillingRunResult,
} from '../../../contract/schemas/billing';
import type { SubscriptionStatus } from '../../../contract/schemas/subscription';
import type { Db } from '../../db/client';
import type { BillingRunRow, BillingRunTrigger, InvoiceRow, SubscriptionRow } from '../../db/schema';
import type { MailMessage } from '../../integrations/mail/mailer';
import type { Clock } from '../../lib/clock';
import { cancelInvoices, issueInvoice, pagePagination, type IssueInvoiceInput } from '../invoices/service';
import { defaultSettings, type StoredSettings } from '../settings/defaults';
import { addBillingCycle, assertTransition, renewalLineItem } from '../subscriptions/lifecycle';
import { overdueMail, suspendedMail, invoiceIssuedMail } from './emails';
import { cardExpiryReminders, scheduleFirstCharge } from '../autopay/in-run';
import { invoiceContext } from './notices';
import { createBillingRepository } from './repository';
import type { DunningSettings } from '../../../contract/schemas/settings';
import type { Notifier } from '../messaging/types';
import { storedDunning } from '../settings/dunning';
import { runDunning } from './dunning';

const DAY_MS = 86_400_000;
/** Days after the grace period (counted from the period end) before an unpaid subscription expires. */
export const EXPIRE_AFTER_DAYS = 30;
/** Key of the PostgreSQL advisory lock that serialises billing runs (any process, same database). */
export const BILLING_LOCK_KEY = 4_829_113_017;

const day = (d: Date) => d.toISOString().slice(0, 10);
const startOfDay = (d: Date) => new Date(`${day(d)}T00:00:00.000Z`);
const addDays = (d: Date, days: number) => new Date(d.getTime() + days * DAY_MS);
const clampInt = (v: unknown, min: number, max: number, fallback: number) =>
  typeof v === 'number' && Number.isInteger(v) ? Math.min(max, Math.max(min, v)) : fallback;

export const emptyCounts = (): BillingRunCounts => ({
  renewal_invoices: 0,
  overdue_invoices: 0,
  suspended: 0,
  expired: 0,
  cancelled_invoices: 0,
  emails: 0,
  dunning_messages: 0,
  late_fees: 0,
});

export function toBillingRun(row: BillingRunRow): BillingRun {
  return {
    id: row.id,
    run_date: row.runDate,
    triggered_by: row.triggeredBy,
    triggered_by_user_id: row.triggeredByUserId,
    started_at: row.startedAt.toISOString(),
    finished_at: row.finishedAt ? row.finishedAt.toISOString() : null,
    counts: { ...emptyCounts(), ...row.counts },
  };
}

export interface BillingJobDeps {
  db: Db;
  clock: Clock;
  appUrl: string;
  /** Hands a message to the mailer; called only after the run committed. */
  send: (message: MailMessage) => void;
  /** Called after a run that issued invoices committed (the settings cache holds the invoice counter). */
  onInvoicesIssued?: () => void;
  /** Issues an invoice inside the run's transaction; replaceable in tests to simulate a failure half-way. */
  issueInvoice?: (tx: Db, input: IssueInvoiceInput) => Promise<InvoiceRow>;
  /** Called after the run committed, once per subscription it suspended or expired (RADIUS cut-off). */
  onAccessChanged?: (subscriptionId: string, change: 'status') => void;
  /**
   * Autopay (issue 21): called after every run (also one that already ran today) to make the due automatic
   * charges — the first attempts the run scheduled, retries that came due, charges a crashed run left behind.
   */
  afterRun?: () => Promise<unknown>;
  /** Dunning (issue 38): reminders and late-fee notices, stored in the run's transaction, flushed after it. */
  notifier?: Notifier;
}

interface Notice {
  kind: 'issued' | 'overdue' | 'suspended';
  invoice: InvoiceRow;
  planName?: string;
}

/** Subscriptions whose status the run changed (their live sessions are cut off after the commit). */
type Changed = Set<string>;

interface RunSettings {
  graceDays: number;
  renewalDaysBefore: number;
  taxRateBp: number;
  company: string;
  /** The ISP's default language, for the e-mails of customers who chose none. */
  defaultLanguage: string;
  dunning: DunningSettings;
}

export class BillingJob {
  constructor(private readonly deps: BillingJobDeps) {}

  /** Runs today's billing (UTC day of the clock) unless it already ran; see the file comment for the rules. */
  async run(trigger: { by: BillingRunTrigger; userId?: string | null }): Promise<BillingRunResult> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const runDate = day(now);
    const outcome = await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const repo = createBillingRepository(tx);
      await repo.advisoryLock(BILLING_LOCK_KEY);
      const existing = await repo.runOn(runDate);
      if (existing)
        return {
          alreadyRan: true,
          row: existing,
          mails: [] as MailMessage[],
          changed: new Set<string>() as Changed,
          messageIds: [] as string[],
        };
      const started = await repo.insertRun({
        runDate,
        triggeredBy: trigger.by,
        triggeredByUserId: trigger.userId ?? null,
        startedAt: now,
        counts: emptyCounts(),
      });
      const counts = emptyCounts();
      const s = await this.readSettings(tx);
      const notices: Notice[] = [];
      const changed: Changed = new Set();
      await this.markOverdue(tx, now, counts, notices);
      await this.suspend(tx, now, s, counts, notices, changed);
      await this.expire(tx, now, s, counts, changed);
      await this.renew(tx, now, s, counts, notices);
      // 6. Dunning (issue 38): late fees and reminders; an invoice e-mailed above gets no second e-mail today.
      const dunning = this.deps.notifier
        ? await runDunning({
            tx,
            now,
            today: runDate,
            settings: s.dunning,
            notifier: this.deps.notifier,
            issue: this.deps.issueInvoice ?? issueInvoice,
            appUrl: this.deps.appUrl,
            company: s.company,
            defaultLanguage: s.defaultLanguage,
            mailedToday: new Set(notices.filter((n) => n.kind !== 'issued').map((n) => n.invoice.id)),
          })
        : { messageIds: [], notices: 0, lateFees: 0 };
      counts.dunning_messages = dunning.notices;
      counts.late_fees = dunning.lateFees;
      const mails = [
        ...(await this.compose(tx, notices, s)),
        ...(await cardExpiryReminders(tx, now, s.company, this.deps.appUrl, s.defaultLanguage)),
      ];
      counts.emails = mails.length;
      const row = await repo.finishRun(started.id, clock.now(), counts);
      return { alreadyRan: false, row, mails, changed, messageIds: dunning.messageIds };
    });
    if (!outcome.alreadyRan) {
      // Committed: only now do the e-mails go out.
      for (const mail of outcome.mails) this.deps.send(mail);
      if (outcome.messageIds.length) await this.deps.notifier?.flush(outcome.messageIds);
      for (const id of outcome.changed) this.deps.onAccessChanged?.(id, 'status');
      if (outcome.row.counts.renewal_invoices || outcome.row.counts.late_fees) this.deps.onInvoicesIssued?.();
    }
    // Committed: the automatic charges (each claimed once, whoever runs; the webhook marks the invoice paid).
    await this.deps.afterRun?.();
    return { alreadyRan: outcome.alreadyRan, run: toBillingRun(outcome.row) };
  }

  /** Has today's run (UTC) happened? */
  async ranToday(): Promise<boolean> {
    return createBillingRepository(this.deps.db).ranOn(day(this.deps.clock.now()));
  }

  async listRuns(query: BillingRunListQueryParsed): Promise<{ items: BillingRun[]; pagination: PagePagination }> {
    const { db } = this.deps;
    const [rows, [{ total }]] = await createBillingRepository(db).runsPage(query.limit, (query.page - 1) * query.limit);
    return { items: rows.map(toBillingRun), pagination: pagePagination(query.page, query.limit, Number(total)) };
  }

  /** The settings the run needs, read from the table (not a process's cache: another process may have changed them). */
  private async readSettings(tx: Db): Promise<RunSettings> {
    const d = defaultSettings();
    const rows = await createBillingRepository(tx).settings([
      'billing',
      'tax_rate_bp',
      'company',
      'languages',
      'dunning',
    ]);
    const value = (key: string) => rows.find((r) => r.key === key)?.value;
    const billing = { ...d.billing, ...((value('billing') as Partial<StoredSettings['billing']> | undefined) ?? {}) };
    const company = { ...d.company, ...((value('company') as Partial<StoredSettings['company']> | undefined) ?? {}) };
    const languages = {
      ...d.languages,
      ...((value('languages') as Partial<StoredSettings['languages']> | undefined) ?? {}),
    };
    return {
      graceDays: clampInt(billing.grace_days, 0, 90, d.billing.grace_days),
      renewalDaysBefore: clampInt(billing.renewal_days_before, 0, 60, d.billing.renewal_days_before),
      taxRateBp: clampInt(value('tax_rate_bp'), 0, 10_000, d.tax_rate_bp),
      company: company.name || d.company.name,
      defaultLanguage: languages.default || d.languages.default,
      dunning: storedDunning(value('dunning')),
    };
  }

  /** 1. Unpaid invoices past their due date → overdue (each reminded once: only on this change). */
  private async markOverdue(tx: Db, now: Date, counts: BillingRunCounts, notices: Notice[]): Promise<void> {
    const rows = await createBillingRepository(tx).markOverdue(day(now), now);
    rows.sort((a, b) => a.number.localeCompare(b.number));
    counts.overdue_invoices = rows.length;
    for (const invoice of rows) notices.push({ kind: 'overdue', invoice });
  }

  /** 2. Active subscriptions with an open invoice more than grace_days past due → suspended. */
  private async suspend(
    tx: Db,
    now: Date,
    s: RunSettings,
    counts: BillingRunCounts,
    notices: Notice[],
    changed: Changed,
  ): Promise<void> {
    const cutoff = day(addDays(startOfDay(now), -s.graceDays)); // due date + grace < today ⇔ due date < today − grace
    const repo = createBillingRepository(tx);
    const rows = await repo.lockActiveWithOpenInvoiceDueBefore(cutoff);
    const done = new Set<string>();
    for (const { sub, invoice, planName } of rows) {
      if (done.has(sub.id)) continue;
      done.add(sub.id);
      assertTransition(sub.status as SubscriptionStatus, 'suspended', 'job');
      await repo.suspend(sub.id, `Overdue invoice ${invoice.number}`, now);
      counts.suspended++;
      changed.add(sub.id);
      notices.push({ kind: 'suspended', invoice, planName });
    }
  }

  /** 3. Cancelled at period end, or never paid long after the period end → expired. */
  private async expire(tx: Db, now: Date, s: RunSettings, counts: BillingRunCounts, changed: Changed): Promise<void> {
    const unpaidBefore = addDays(now, -(s.graceDays + EXPIRE_AFTER_DAYS));
    const repo = createBillingRepository(tx);
    const rows: SubscriptionRow[] = await repo.lockToExpire(now, unpaidBefore);
    for (const sub of rows) {
      assertTransition(sub.status as SubscriptionStatus, 'expired', 'job');
      await repo.expire(sub.id, now);
      counts.expired++;
      changed.add(sub.id);
      const end = sub.currentPeriodEnd?.getTime() ?? -Infinity;
      const open = await repo.openInvoicesOf(sub.id);
      const unserved = open
        .filter((i) =>
          i.lineItems.some((l) => l.kind === 'renewal' && l.period_start && new Date(l.period_start).getTime() >= end),
        )
        .map((i) => i.id);
      if (unserved.length) {
        await cancelInvoices(tx, unserved, now);
        counts.cancelled_invoices += unserved.length;
      }
    }
  }

  /** 4. The next period's invoice for active subscriptions whose period ends within renewal_days_before days. */
  private async renew(tx: Db, now: Date, s: RunSettings, counts: BillingRunCounts, notices: Notice[]): Promise<void> {
    const endsBefore = addDays(startOfDay(now), s.renewalDaysBefore + 1); // period end day <= today + N
    const repo = createBillingRepository(tx);
    const rows = await repo.lockToRenew(endsBefore);
    const issue = this.deps.issueInvoice ?? issueInvoice;
    for (const { sub, plan } of rows) {
      const start = sub.currentPeriodEnd!;
      const billed = await repo.invoiceLinesOf(sub.id);
      if (billed.some((i) => i.lineItems.some((l) => l.kind === 'renewal' && l.period_start === start.toISOString())))
        continue;
      const end = addBillingCycle(start, plan.billingCycle);
      const invoice = await issue(tx, {
        userId: sub.userId,
        subscriptionId: sub.id,
        currency: plan.currency,
        taxRateBp: s.taxRateBp,
        now,
        lineItems: [renewalLineItem(plan, start, end)],
      });
      counts.renewal_invoices++;
      notices.push({ kind: 'issued', invoice, planName: plan.name });
      // Autopay: attempt 1 of the charge, made after the commit.
      await scheduleFirstCharge(tx, invoice, sub, now);
    }
  }

  /** The e-mails of the run, composed inside the transaction (addresses as they are now), sent after commit. */
  private async compose(tx: Db, notices: Notice[], s: RunSettings): Promise<MailMessage[]> {
    if (!notices.length) return [];
    const ids = [...new Set(notices.map((n) => n.invoice.userId))];
    const repo = createBillingRepository(tx);
    const people = await repo.people(ids);
    const byId = new Map(people.map((p) => [p.id, p]));
    const subIds = [...new Set(notices.map((n) => n.invoice.subscriptionId).filter((id): id is string => Boolean(id)))];
    const active = new Set(subIds.length ? (await repo.activeAmong(subIds)).map((r) => r.id) : []);
    const mails: MailMessage[] = [];
    for (const n of notices) {
      const user = byId.get(n.invoice.userId);
      if (!user) continue;
      const context = invoiceContext(n.invoice, user, s.company, this.deps.appUrl, s.defaultLanguage);
      if (n.kind === 'issued') mails.push(invoiceIssuedMail(context));
      else if (n.kind === 'overdue') {
        // Only an active service can still be suspended (a pending one never started).
        const suspendAfter =
          n.invoice.subscriptionId && active.has(n.invoice.subscriptionId)
            ? day(addDays(new Date(`${n.invoice.dueDate}T00:00:00.000Z`), s.graceDays))
            : null;
        mails.push(overdueMail({ ...context, suspendAfter }));
      } else mails.push(suspendedMail({ ...context, planName: n.planName ?? null }));
    }
    return mails;
  }
}
