/**
 * Issuing invoices. The number comes from the settings counter (billing.invoice_next_number), read and
 * advanced under a row lock (SELECT … FOR UPDATE) in the caller's transaction: two concurrent invoices wait
 * for each other, and a transaction that rolls back gives its number back, so numbers are unique and gap-free.
 */
import { pagePagination, type PagePagination } from '../../../contract/envelope';
import {
  INVOICE_DUE_DAYS,
  type Invoice,
  type InvoiceLineItem,
  type InvoiceListItem,
  type InvoiceListQueryParsed,
  type PublicInvoice,
  type UserInvoiceQueryParsed,
} from '../../../contract/schemas/invoice';
import type { Db } from '../../db/client';
import type { InvoiceRow } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { conflict, notFound } from '../../lib/errors';
import { changedFields, recordAudit, type AuditContext } from '../audit/trail';
import { amountDue } from '../credit/amount-due';
import { applyCreditToInvoice, releaseInvoiceCredit } from '../ledger/movements';
import { defaultSettings } from '../settings/defaults';
import { createInvoiceRepository, type InvoiceRepository, type InvoiceWithNames } from './repository';

type Billing = ReturnType<typeof defaultSettings>['billing'];

/** Digits of the zero-padded sequence (INV-000001). */
export const INVOICE_NUMBER_DIGITS = 6;

export function formatInvoiceNumber(prefix: string, sequence: number): string {
  return `${prefix}${String(sequence).padStart(INVOICE_NUMBER_DIGITS, '0')}`;
}

/** Tax on a subtotal at a rate in basis points, rounded half up to the minor unit. */
export function taxFor(subtotal: number, rateBp: number): number {
  return Math.round((subtotal * rateBp) / 10_000);
}

const isoDate = (d: Date) => d.toISOString().slice(0, 10);

export function toInvoice(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    number: row.number,
    user_id: row.userId,
    subscription_id: row.subscriptionId,
    status: row.status,
    currency: row.currency,
    line_items: row.lineItems,
    subtotal: row.subtotal,
    tax_rate_bp: row.taxRateBp,
    tax: row.tax,
    total_amount: row.totalAmount,
    credit_applied: row.creditApplied,
    amount_due: amountDue(row),
    issue_date: row.issueDate,
    due_date: row.dueDate,
    paid_date: row.paidDate ? row.paidDate.toISOString() : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Takes the next invoice number; must run inside a transaction (the lock is held until it ends). */
export async function takeInvoiceNumber(tx: Db, now: Date): Promise<string> {
  const repository = createInvoiceRepository(tx);
  // Make sure the counter row exists (a fresh install may have no stored billing settings yet).
  const stored = await repository.lockBillingSettings(defaultSettings().billing, now);
  const billing: Billing = { ...defaultSettings().billing, ...((stored as Partial<Billing> | undefined) ?? {}) };
  const sequence =
    Number.isInteger(billing.invoice_next_number) && billing.invoice_next_number >= 1 ? billing.invoice_next_number : 1;
  await repository.storeBillingSettings({ ...billing, invoice_next_number: sequence + 1 }, now);
  return formatInvoiceNumber(billing.invoice_prefix ?? '', sequence);
}

export interface IssueInvoiceInput {
  userId: string;
  subscriptionId: string | null;
  currency: string;
  lineItems: InvoiceLineItem[];
  taxRateBp: number;
  now: Date;
  /** A late fee (issue 38): the invoice it is for (unique: one late fee per invoice). */
  lateFeeForInvoiceId?: string;
}

/**
 * Writes an invoice with the next number; must run inside a transaction. The customer's credit in the
 * invoice's currency is used first (issue 21): min(balance, total) is applied (credit ledger entry and
 * credit_applied). When credit covers the whole invoice it is paid at once and its subscription is activated or
 * renewed exactly as by a payment (activateForPaidInvoice); otherwise it is unpaid for the amount due.
 */
export async function issueInvoice(tx: Db, input: IssueInvoiceInput): Promise<InvoiceRow> {
  const subtotal = input.lineItems.reduce((sum, item) => sum + item.amount, 0);
  const tax = taxFor(subtotal, input.taxRateBp);
  const number = await takeInvoiceNumber(tx, input.now);
  const due = new Date(input.now.getTime() + INVOICE_DUE_DAYS * 86_400_000);
  const repository = createInvoiceRepository(tx);
  const row = await repository.insert({
    number,
    userId: input.userId,
    subscriptionId: input.subscriptionId,
    status: 'unpaid',
    currency: input.currency,
    lineItems: input.lineItems,
    subtotal,
    taxRateBp: input.taxRateBp,
    tax,
    totalAmount: subtotal + tax,
    issueDate: isoDate(input.now),
    dueDate: isoDate(due),
    lateFeeForInvoiceId: input.lateFeeForInvoiceId ?? null,
    createdAt: input.now,
    updatedAt: input.now,
  });
  const credited = await applyCreditToInvoice(tx, row, input.now);
  // Nothing left to pay (credit covered it, or the total is zero: a free plan, a plan change whose credit equals
  // the new price) → paid at issue, never an "unpaid" invoice of 0 (issue 31).
  if (amountDue(credited) > 0) return credited;
  const paid = await repository.markPaid(credited.id, input.now);
  // Imported here: subscriptions/service imports this module (issueInvoice) at load time.
  const { activateForPaidInvoice } = await import('../subscriptions/service');
  if (paid.subscriptionId) await activateForPaidInvoice(tx, paid.id, input.now);
  return paid;
}

/**
 * Cancels open (unpaid or overdue) invoices among ids, in the caller's transaction: each gives back the credit it
 * had applied (issue 31: credit used by an invoice that will never be paid is not lost). Returns those cancelled.
 */
export async function cancelInvoices(tx: Db, ids: string[], now: Date): Promise<InvoiceRow[]> {
  if (ids.length === 0) return [];
  const cancelled = await createInvoiceRepository(tx).cancelOpen(ids, now);
  for (const invoice of cancelled) await releaseInvoiceCredit(tx, invoice, now);
  return cancelled;
}

// ---------------------------------------------------------------------------------------------------------
// Reading and deleting (GET /payments/invoices, /payments/user/invoices, /payments/invoices/{id}, DELETE).

export const INVOICE_MESSAGES = {
  list: 'Invoices retrieved successfully',
  userList: 'User invoices retrieved successfully',
  detail: 'Invoice retrieved successfully',
  deleted: 'Invoice deleted successfully',
  notFound: 'Invoice not found',
  paidNotDeletable: 'A paid invoice cannot be deleted',
  refundedNotDeletable: 'A refunded invoice cannot be deleted',
  moneyNotDeletable: 'Money was received for this invoice (a payment held or given back): it cannot be deleted',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export { pagePagination };

const toListItem = ({ row, userName, userEmail, planName }: InvoiceWithNames): InvoiceListItem => ({
  ...toInvoice(row),
  user_name: userName,
  user_email: userEmail,
  plan_name: planName,
});

export class InvoiceService {
  constructor(private readonly deps: { db: Db; repository: InvoiceRepository; clock: Clock }) {}

  async list(query: InvoiceListQueryParsed): Promise<{ items: InvoiceListItem[]; pagination: PagePagination }> {
    const { items, total } = await this.deps.repository.page(query);
    return { items: items.map(toListItem), pagination: pagePagination(query.page, query.limit, total) };
  }

  async listFor(
    userId: string,
    query: UserInvoiceQueryParsed,
  ): Promise<{ items: InvoiceListItem[]; pagination: PagePagination }> {
    const { items, total } = await this.deps.repository.page({ ...query, user_id: userId });
    return { items: items.map(toListItem), pagination: pagePagination(query.page, query.limit, total) };
  }

  /** Public through the unguessable id: the invoice, the customer's name and the plan name, nothing more. */
  async publicView(id: string): Promise<PublicInvoice> {
    const found = UUID.test(id) ? await this.deps.repository.findById(id) : undefined;
    if (!found) throw notFound(INVOICE_MESSAGES.notFound);
    const { user_id: _userId, ...invoice } = toInvoice(found.row);
    return { ...invoice, customer_name: found.userName, plan_name: found.planName };
  }

  /** Only an invoice nobody paid (unpaid, overdue or cancelled) may go; the row lock keeps a payment from racing it. */
  async remove(id: string, audit?: AuditContext): Promise<void> {
    if (!UUID.test(id)) throw notFound(INVOICE_MESSAGES.notFound);
    await this.deps.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const repository = createInvoiceRepository(tx);
      const row = await repository.lock(id);
      if (!row) throw notFound(INVOICE_MESSAGES.notFound);
      if (row.status === 'paid') throw conflict(INVOICE_MESSAGES.paidNotDeletable);
      if (row.status === 'refunded') throw conflict(INVOICE_MESSAGES.refundedNotDeletable);
      // Its payments would go with it (cascade), and with them the record of money a provider took for it (issue 31).
      if (await repository.hasPayerMovement(id)) throw conflict(INVOICE_MESSAGES.moneyNotDeletable);
      await releaseInvoiceCredit(tx, row, this.deps.clock.now());
      await repository.delete(id);
      if (audit) {
        await recordAudit(tx, this.deps.clock, audit, {
          action: 'invoice.deleted',
          targetType: 'invoice',
          targetId: id,
          changes: changedFields(
            {
              number: row.number,
              status: row.status,
              total_amount: row.totalAmount,
              currency: row.currency,
              user_id: row.userId,
              subscription_id: row.subscriptionId,
            },
            {},
          ),
        });
      }
    });
  }
}
