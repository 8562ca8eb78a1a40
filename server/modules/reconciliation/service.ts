/**
 * Reconciliation (issue 31): the money report billing staff read per period, and the alarm — every customer and
 * currency where the books do not balance. The invariant (contract/schemas/reconciliation.ts):
 *
 *   received + granted = applied + credit + refunded + held
 *
 * Each side is a balance of the double-entry ledger (server/modules/ledger), where every transfer sums to zero, so
 * the invariant holds there unless money was given back that was no longer there (the shortfall account). Each side
 * is also read again from the modules' own rows — payments, invoices, the credit history — so a feature that moves
 * money without its ledger movement (or the other way round) shows up as a mismatch. The property tests
 * (tests/server/money-invariant.test.ts) run random sequences of everything that moves money and assert that the
 * alarm stays empty after every step.
 */
import type {
  CurrencyReport,
  Imbalance,
  Reconciliation,
  ReconciliationQuery,
} from '../../../contract/schemas/reconciliation';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { ledgerBalances, type LedgerBalances } from '../ledger/ledger';
import { createReconciliationRepository } from './repository';

const n = (v: unknown) => Number(v ?? 0);
const SIDES = ['received', 'granted', 'applied', 'credit', 'refunded', 'held'] as const;
type Side = (typeof SIDES)[number];
type Sides = Record<Side, number>;

function recordSides(row: Record<string, unknown>): Sides {
  return {
    received: n(row.received),
    granted: n(row.granted),
    applied: n(row.applied),
    credit: n(row.credit),
    refunded: n(row.refunded),
    held: n(row.held),
  };
}

function ledgerSides(b: LedgerBalances | undefined): Sides {
  if (!b) return { received: 0, granted: 0, applied: 0, credit: 0, refunded: 0, held: 0 };
  return {
    received: b.received,
    granted: -b.grants,
    applied: b.revenue,
    credit: b.credit,
    refunded: b.refunded,
    held: b.held,
  };
}

/**
 * Every customer's books (or one customer's), balanced or not: the ledger's sides, the difference, and where the
 * ledger and the modules' own rows disagree. What the property tests check after each step.
 */
export async function booksOf(db: Db, userId?: string): Promise<Imbalance[]> {
  const records = await createReconciliationRepository(db).sides(userId);
  const ledger = new Map((await ledgerBalances(db, userId)).map((b) => [`${b.user_id}|${b.currency}`, b]));
  const out: Imbalance[] = [];
  const seen = new Set<string>();
  for (const row of records) {
    const key = `${String(row.user_id)}|${String(row.currency)}`;
    seen.add(key);
    out.push(compare(String(row.user_id), String(row.currency), row, recordSides(row), ledger.get(key)));
  }
  // Ledger postings with nothing in the records (rows deleted under the ledger) are an imbalance too.
  for (const [key, b] of ledger) if (!seen.has(key)) out.push(compare(b.user_id, b.currency, {}, recordSides({}), b));
  return out;
}

function compare(
  userId: string,
  currency: string,
  row: Record<string, unknown>,
  records: Sides,
  balances: LedgerBalances | undefined,
): Imbalance {
  const ledger = ledgerSides(balances);
  return {
    user_id: userId,
    user_name: (row.user_name as string | null) ?? null,
    user_email: (row.user_email as string | null) ?? null,
    currency,
    ...ledger,
    difference: ledger.received + ledger.granted - (ledger.applied + ledger.credit + ledger.refunded + ledger.held),
    mismatches: SIDES.filter((side) => ledger[side] !== records[side]).map((side) => ({
      side,
      ledger: ledger[side],
      records: records[side],
    })),
  };
}

/** The customers whose books do not balance, whose ledger and records disagree, or whose credit went below zero. */
export async function imbalances(db: Db): Promise<Imbalance[]> {
  const all = (await booksOf(db)).filter((s) => s.difference !== 0 || s.credit < 0 || s.mismatches.length > 0);
  const missing = all.filter((s) => s.user_name === null && s.user_email === null).map((s) => s.user_id);
  if (missing.length === 0) return all;
  const names = new Map((await createReconciliationRepository(db).namesOf(missing)).map((u) => [String(u.id), u]));
  return all.map((s) =>
    names.has(s.user_id) ? { ...s, user_name: names.get(s.user_id)!.name, user_email: names.get(s.user_id)!.email } : s,
  );
}

const DAY = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

export class ReconciliationService {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  /** The period [from 00:00, to 24:00) UTC; by default the current month to today. */
  period(query: ReconciliationQuery): { from: string; to: string; start: Date; end: Date } {
    const now = this.deps.clock.now();
    const from = query.from ?? `${isoDay(now).slice(0, 7)}-01`;
    const to = query.to ?? isoDay(now);
    return {
      from,
      to,
      start: new Date(`${from}T00:00:00Z`),
      end: new Date(new Date(`${to}T00:00:00Z`).getTime() + DAY),
    };
  }

  async report(query: ReconciliationQuery): Promise<Reconciliation> {
    const { db } = this.deps;
    const { from, to, start, end } = this.period(query);
    const repo = createReconciliationRepository(db);
    const received = await repo.receivedIn(start, end);
    const paid = await repo.invoicesPaidIn(start, end);
    const credit = await repo.creditIn(start, end);
    const refunded = await repo.refundedOutIn(start, end);
    const byCurrency = new Map<string, CurrencyReport>();
    const of = (currency: string) => {
      let r = byCurrency.get(currency);
      if (!r) {
        r = {
          currency,
          received: 0,
          received_by: [],
          invoices_paid: 0,
          invoices_paid_count: 0,
          credit_movements: {},
          refunded_to_provider: 0,
          refunded_to_credit: 0,
        };
        byCurrency.set(currency, r);
      }
      return r;
    };
    for (const row of received) {
      const r = of(String(row.currency));
      r.received += n(row.amount);
      r.received_by.push({
        provider: String(row.provider),
        payment_method: (row.payment_method as string | null) ?? null,
        gateway_id: (row.gateway_id as string | null) ?? null,
        gateway_name: (row.gateway_name as string | null) ?? null,
        amount: n(row.amount),
        count: n(row.count),
      });
    }
    for (const row of paid)
      Object.assign(of(String(row.currency)), { invoices_paid: n(row.amount), invoices_paid_count: n(row.count) });
    for (const row of credit) {
      const r = of(String(row.currency));
      r.credit_movements[String(row.kind)] = n(row.amount);
      if (row.kind === 'refund_to_credit') r.refunded_to_credit = n(row.amount);
    }
    for (const row of refunded) of(String(row.currency)).refunded_to_provider = n(row.amount);
    return {
      from,
      to,
      currencies: [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
      imbalances: await imbalances(db),
    };
  }

  /** The report as CSV: one row per figure (section, currency, item, amount, count), then the imbalances. */
  async csv(query: ReconciliationQuery): Promise<{ filename: string; csv: string }> {
    const report = await this.report(query);
    const cell = (v: unknown) => {
      const s = v === null || v === undefined ? '' : String(v);
      // Quoted when needed, and a leading =, +, - or @ defused (a spreadsheet would run it as a formula).
      const safe = /^[=+\-@]/.test(s) && !/^-?\d+$/.test(s) ? `'${s}` : s;
      return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
    };
    const lines = [['section', 'currency', 'item', 'amount', 'count'].join(',')];
    const add = (...cells: unknown[]) => lines.push(cells.map(cell).join(','));
    for (const c of report.currencies) {
      add(
        'received',
        c.currency,
        'total',
        c.received,
        c.received_by.reduce((s, l) => s + l.count, 0),
      );
      for (const l of c.received_by)
        add(
          'received',
          c.currency,
          [l.provider, l.payment_method, l.gateway_name].filter(Boolean).join(' / '),
          l.amount,
          l.count,
        );
      add('invoices_paid', c.currency, 'total', c.invoices_paid, c.invoices_paid_count);
      for (const [kind, amount] of Object.entries(c.credit_movements)) add('credit', c.currency, kind, amount, '');
      add('refunds', c.currency, 'to_provider', c.refunded_to_provider, '');
      add('refunds', c.currency, 'to_credit', c.refunded_to_credit, '');
    }
    for (const i of report.imbalances) {
      const who = i.user_email ?? i.user_id;
      if (i.difference !== 0) add('imbalance', i.currency, who, i.difference, '');
      // records − ledger: what the modules' rows hold that the ledger does not (negative: the other way round).
      for (const m of i.mismatches) add('mismatch', i.currency, `${who} ${m.side}`, m.records - m.ledger, '');
    }
    return { filename: `reconciliation-${report.from}-to-${report.to}.csv`, csv: `${lines.join('\r\n')}\r\n` };
  }
}
