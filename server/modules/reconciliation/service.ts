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
import { sql } from 'drizzle-orm';
import { REFUND_IN_PROGRESS, REFUND_NEEDED_REASONS } from '../../../contract/schemas/payment';
import type {
  CurrencyReport,
  Imbalance,
  Reconciliation,
  ReconciliationQuery,
} from '../../../contract/schemas/reconciliation';
import { rowsOf, type Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { ledgerBalances, type LedgerBalances } from '../ledger/ledger';

const n = (v: unknown) => Number(v ?? 0);
const HELD_REASONS = [...REFUND_NEEDED_REASONS, REFUND_IN_PROGRESS];
const heldReasons = sql.join(
  HELD_REASONS.map((r) => sql`${r}`),
  sql`, `,
);

/**
 * A payment whose money reached us: paid, refunded (counted or not), or taken by a provider but not counted (the
 * invoice was already paid, the amount was wrong) and not yet given back. A manual payment refused for its amount
 * was never taken: staff were told and kept nothing.
 */
const RECEIVED = sql`(p.status in ('paid', 'refunded') or (p.status = 'failed' and p.provider <> 'manual' and p.failure_reason in (${heldReasons})))`;
const HELD = sql`(p.status = 'failed' and p.provider <> 'manual' and p.failure_reason in (${heldReasons}))`;
/** Refunded through the provider: refunded, and not to credit (that is a refund_to_credit entry of the ledger). */
const REFUNDED_OUT = sql`(p.status = 'refunded' and not exists (select 1 from credit_entries c where c.payment_id = p.id and c.kind = 'refund_to_credit'))`;

/** The four sides per customer and currency, for one customer (userId) or all. */
function sidesQuery(userId?: string) {
  const forUser = (col: string) => (userId ? sql`where ${sql.raw(col)} = ${userId}` : sql``);
  return sql`
    with r as (
      select p.user_id, p.currency,
        coalesce(sum(p.amount) filter (where ${RECEIVED}), 0) as received,
        coalesce(sum(p.amount) filter (where ${REFUNDED_OUT}), 0) as refunded,
        coalesce(sum(p.amount) filter (where ${HELD}), 0) as held
      from payments p ${forUser('p.user_id')} group by p.user_id, p.currency
    ), c as (
      select e.user_id, e.currency, sum(e.amount) as credit, coalesce(sum(e.amount) filter (where e.kind = 'adjustment'), 0) as granted
      from credit_entries e ${forUser('e.user_id')} group by e.user_id, e.currency
    ), a as (
      select i.user_id, i.currency,
        sum(case
          when i.status = 'paid' then i.total_amount
          when i.status = 'cancelled' then i.credit_applied - coalesce((select sum(x.amount) from credit_entries x where x.invoice_id = i.id and x.kind = 'released_from_invoice'), 0)
          else i.credit_applied end) as applied
      from invoices i ${forUser('i.user_id')} group by i.user_id, i.currency
    ), k as (
      select user_id, currency from r union select user_id, currency from c union select user_id, currency from a
    )
    select k.user_id, k.currency, u.name as user_name, u.email as user_email,
      coalesce(r.received, 0) as received, coalesce(c.granted, 0) as granted, coalesce(a.applied, 0) as applied,
      coalesce(c.credit, 0) as credit, coalesce(r.refunded, 0) as refunded, coalesce(r.held, 0) as held
    from k
      left join r on r.user_id = k.user_id and r.currency = k.currency
      left join c on c.user_id = k.user_id and c.currency = k.currency
      left join a on a.user_id = k.user_id and a.currency = k.currency
      left join users u on u.id = k.user_id`;
}

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
  const records = rowsOf<Record<string, unknown>>(await db.execute(sidesQuery(userId)));
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
  const names = new Map(
    rowsOf<{ id: string; name: string | null; email: string | null }>(
      await db.execute(
        sql`select id, name, email from users where id in (${sql.join(
          missing.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      ),
    ).map((u) => [String(u.id), u]),
  );
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
    const received = rowsOf<Record<string, unknown>>(
      await db.execute(sql`
        select p.currency, p.provider, p.payment_method, p.gateway_id, g.name as gateway_name, sum(p.amount) as amount, count(*) as count
        from payments p left join payment_gateways g on g.id = p.gateway_id
        where ${RECEIVED} and coalesce(p.payment_date, p.created_at) >= ${start} and coalesce(p.payment_date, p.created_at) < ${end}
        group by p.currency, p.provider, p.payment_method, p.gateway_id, g.name
        order by p.currency, sum(p.amount) desc`),
    );
    const paid = rowsOf<Record<string, unknown>>(
      await db.execute(sql`
        select currency, sum(total_amount) as amount, count(*) as count from invoices
        where status in ('paid', 'refunded') and paid_date >= ${start} and paid_date < ${end} group by currency`),
    );
    const credit = rowsOf<Record<string, unknown>>(
      await db.execute(sql`
        select currency, kind, sum(amount) as amount from credit_entries
        where created_at >= ${start} and created_at < ${end} group by currency, kind`),
    );
    // A refund's time is the payment's last change (nothing changes a refunded payment afterwards).
    const refunded = rowsOf<Record<string, unknown>>(
      await db.execute(sql`
        select p.currency, sum(p.amount) as amount from payments p
        where ${REFUNDED_OUT} and p.updated_at >= ${start} and p.updated_at < ${end} group by p.currency`),
    );
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
