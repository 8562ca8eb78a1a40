/**
 * Dunning (issue 38), a step of the daily billing run, in its transaction and under its advisory lock (so once a
 * day across nodes); docs/dunning.md. With `settings.dunning.enabled`:
 *
 *   1. Late fee (type fixed or percent): every open invoice (unpaid/overdue, not itself a late fee) that is
 *      after_days or more past its due date and has no late fee yet gets one: its own invoice for the same customer
 *      and subscription (invoices.late_fee_for_invoice_id = the invoice; that column's unique index makes it once per
 *      invoice whatever node or re-run tries again), issued by issueInvoice (numbering, credit, ledger), untaxed.
 *   2. Steps: for every open invoice (again not a late fee) the steps whose day (due date + offset) has come and
 *      that are not in dunning_steps: all of them are recorded there, and only the latest is sent (a run that
 *      missed days does not send every missed step). A before-due step whose day is on or before the issue day is
 *      recorded without a message (the "invoice issued" e-mail just said it).
 *
 * Messages go through app.notifier with eventKey dunning:<invoice>:<offset> (late fee: late_fee:<invoice>), stored
 * in the run's transaction and sent after the commit. No two near-identical e-mails the same day: an invoice
 * whose overdue or suspension e-mail goes out in this run gets its reminder on the other channels only; a late
 * fee added the day a reminder goes out is named in that reminder instead of a notice of its own.
 */
import { and, eq, inArray, isNull, lte } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { MESSAGE_CHANNELS } from '../../../contract/schemas/messaging';
import type { DunningSettings } from '../../../contract/schemas/settings';
import type { Db } from '../../db/client';
import { dunningSteps, invoices, users, type InvoiceRow } from '../../db/schema';
import { languageOf, mt } from '../../i18n';
import { amountDue } from '../credit/amount-due';
import type { IssueInvoiceInput } from '../invoices/service';
import type { Notification, Notifier } from '../messaging/types';
import { lateFeeMessage, reminderMessage, stageOf, type DunningFee, type DunningInvoice } from './dunning-messages';

const DAY_MS = 86_400_000;
const OPEN = ['unpaid', 'overdue'] as const;
const shiftDay = (isoDay: string, days: number) =>
  new Date(new Date(`${isoDay}T00:00:00.000Z`).getTime() + days * DAY_MS).toISOString().slice(0, 10);

interface DunningContext {
  tx: Db;
  now: Date;
  /** Today (UTC, YYYY-MM-DD). */
  today: string;
  settings: DunningSettings;
  notifier: Notifier;
  issue: (tx: Db, input: IssueInvoiceInput) => Promise<InvoiceRow>;
  appUrl: string;
  company: string;
  /** The ISP's default language: the late fee's line item is written in it. */
  defaultLanguage: string;
  /** Invoices whose overdue or suspension e-mail this run sends: their reminder skips e-mail. */
  mailedToday: ReadonlySet<string>;
}

interface DunningOutcome {
  /** Stored messages to flush after the commit. */
  messageIds: string[];
  /** Reminders and late-fee notices notified (events, not channels). */
  notices: number;
  lateFees: number;
}

/** The fee for an invoice total under the settings (percent: rounded half up to the minor unit); 0: none. */
function lateFeeAmount(fee: DunningSettings['late_fee'], total: number): number {
  if (fee.type === 'fixed') return Math.max(0, fee.amount);
  if (fee.type === 'percent') return Math.max(0, Math.round((total * fee.percent_bp) / 10_000));
  return 0;
}

const feeInvoices = alias(invoices, 'fee_invoices');

/**
 * Open invoices (not late fees) due on or before `dueBy`, oldest first, with the customer and their late fee. With
 * `lock`, the invoices are locked FOR UPDATE: one being paid meanwhile is waited for and, paid, left out.
 */
function openInvoicesDueBy(tx: Db, dueBy: string, lock = false) {
  const query = tx
    .select({ invoice: invoices, name: users.name, fee: feeInvoices })
    .from(invoices)
    .innerJoin(users, eq(users.id, invoices.userId))
    .leftJoin(feeInvoices, eq(feeInvoices.lateFeeForInvoiceId, invoices.id))
    .where(and(inArray(invoices.status, [...OPEN]), isNull(invoices.lateFeeForInvoiceId), lte(invoices.dueDate, dueBy)))
    .orderBy(invoices.dueDate, invoices.number);
  return lock ? query.for('update', { of: invoices }) : query;
}

/** Whole days from one day (YYYY-MM-DD) to another. */
const daysFrom = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00.000Z`) - Date.parse(`${from}T00:00:00.000Z`)) / DAY_MS);

const toFee = (row: InvoiceRow): DunningFee => ({
  id: row.id,
  number: row.number,
  totalAmount: row.totalAmount,
  dueDate: row.dueDate,
});
const toDunningInvoice = (row: InvoiceRow): DunningInvoice => ({
  id: row.id,
  number: row.number,
  currency: row.currency,
  dueDate: row.dueDate,
  amountDue: amountDue(row),
});

export async function runDunning(c: DunningContext): Promise<DunningOutcome> {
  const out: DunningOutcome = { messageIds: [], notices: 0, lateFees: 0 };
  const { settings, tx } = c;
  if (!settings.enabled) return out;
  const notify = async (n: Notification) => {
    const outcomes = await c.notifier.notify(n, tx);
    out.notices++;
    for (const o of outcomes) if (o.messageId) out.messageIds.push(o.messageId);
  };

  // 1. Late fees added in this run, by the invoice they are for.
  const added = new Map<string, { fee: InvoiceRow; invoice: InvoiceRow; name: string }>();
  if (settings.late_fee.type !== 'none') {
    const rows = await openInvoicesDueBy(tx, shiftDay(c.today, -settings.late_fee.after_days), true);
    for (const { invoice, name, fee } of rows) {
      if (fee) continue;
      const amount = lateFeeAmount(settings.late_fee, invoice.totalAmount);
      if (amount <= 0) continue;
      const issued = await c.issue(tx, {
        userId: invoice.userId,
        subscriptionId: invoice.subscriptionId,
        currency: invoice.currency,
        // A late fee is a penalty for paying late, not a supply of service: no tax (docs/dunning.md).
        taxRateBp: 0,
        now: c.now,
        lateFeeForInvoiceId: invoice.id,
        lineItems: [
          {
            description: mt(languageOf(c.defaultLanguage), 'mail.dunning.lateFee.line', { number: invoice.number }),
            quantity: 1,
            unit_amount: amount,
            amount,
            kind: 'late_fee',
          },
        ],
      });
      out.lateFees++;
      added.set(invoice.id, { fee: issued, invoice, name });
    }
  }

  // 2. Steps.
  const offsets = settings.steps.map((s) => s.offset_days).sort((a, b) => a - b);
  const told = new Set<string>();
  if (offsets.length) {
    const rows = await openInvoicesDueBy(tx, shiftDay(c.today, -offsets[0]));
    const ids = rows.map((r) => r.invoice.id);
    const done = ids.length
      ? await tx
          .select({ invoiceId: dunningSteps.invoiceId, offset: dunningSteps.offsetDays })
          .from(dunningSteps)
          .where(inArray(dunningSteps.invoiceId, ids))
      : [];
    const doneOf = (id: string) => new Set(done.filter((d) => d.invoiceId === id).map((d) => d.offset));
    for (const { invoice, name, fee } of rows) {
      const came = offsets.filter((o) => shiftDay(invoice.dueDate, o) <= c.today);
      const already = doneOf(invoice.id);
      const pending = came.filter((o) => !already.has(o));
      if (!pending.length) continue;
      const latest = came[came.length - 1];
      const recorded = await tx
        .insert(dunningSteps)
        .values(pending.map((offsetDays) => ({ invoiceId: invoice.id, offsetDays, sentAt: c.now })))
        .onConflictDoNothing()
        .returning({ offset: dunningSteps.offsetDays });
      // The latest step already done (steps added to the schedule later), or recorded by someone else: no message.
      if (!recorded.some((r) => r.offset === latest)) continue;
      if (latest < 0 && shiftDay(invoice.dueDate, latest) <= invoice.issueDate) continue;
      const lateFee = added.get(invoice.id)?.fee ?? fee;
      const onlyOthers = c.mailedToday.has(invoice.id);
      // Said as it is today (after missed days the latest step may be older than today).
      const late = daysFrom(invoice.dueDate, c.today);
      await notify({
        userId: invoice.userId,
        category: 'billing',
        eventKey: `dunning:${invoice.id}:${latest}`,
        template: `dunning.${stageOf(late)}`,
        ...(onlyOthers ? { channels: MESSAGE_CHANNELS.filter((ch) => ch !== 'email') } : {}),
        compose: (language) =>
          reminderMessage(
            {
              name,
              company: c.company,
              appUrl: c.appUrl,
              invoice: toDunningInvoice(invoice),
              late,
              fee: lateFee && (lateFee.status === 'unpaid' || lateFee.status === 'overdue') ? toFee(lateFee) : null,
            },
            language,
          ),
      });
      if (!onlyOthers) told.add(invoice.id);
    }
  }

  // A late fee not named in a reminder today: its own notice.
  for (const [invoiceId, { fee, invoice, name }] of added) {
    if (told.has(invoiceId)) continue;
    await notify({
      userId: invoice.userId,
      category: 'billing',
      eventKey: `late_fee:${invoiceId}`,
      template: 'dunning.late_fee',
      compose: (language) =>
        lateFeeMessage(
          { name, company: c.company, appUrl: c.appUrl, invoice: toDunningInvoice(invoice), fee: toFee(fee) },
          language,
        ),
    });
  }
  return out;
}
