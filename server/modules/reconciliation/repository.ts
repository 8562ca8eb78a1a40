/**
 * The reconciliation's report SQL (issue 31): the sides of the books per customer and currency as the modules' own
 * rows hold them (payments, invoices, the credit history), and the period's money figures. Rows come back as the
 * database gives them; the service turns them into numbers and compares them with the ledger.
 */
import { sql } from 'drizzle-orm';
import { REFUND_IN_PROGRESS, REFUND_NEEDED_REASONS } from '../../../contract/schemas/payment';
import { rowsOf, type Db } from '../../db/client';

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

export function createReconciliationRepository(db: Db) {
  return {
    /** Per customer and currency (one customer's when userId is given): the sides read from the records. */
    async sides(userId?: string): Promise<Record<string, unknown>[]> {
      return rowsOf<Record<string, unknown>>(await db.execute(sidesQuery(userId)));
    },

    /** The names and e-mails of these users. */
    async namesOf(ids: string[]): Promise<{ id: string; name: string | null; email: string | null }[]> {
      return rowsOf<{ id: string; name: string | null; email: string | null }>(
        await db.execute(
          sql`select id, name, email from users where id in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`,
        ),
      );
    },

    /** The money received in [start, end), per currency, provider, method and gateway, largest first. */
    async receivedIn(start: Date, end: Date): Promise<Record<string, unknown>[]> {
      return rowsOf<Record<string, unknown>>(
        await db.execute(sql`
        select p.currency, p.provider, p.payment_method, p.gateway_id, g.name as gateway_name, sum(p.amount) as amount, count(*) as count
        from payments p left join payment_gateways g on g.id = p.gateway_id
        where ${RECEIVED} and coalesce(p.payment_date, p.created_at) >= ${start} and coalesce(p.payment_date, p.created_at) < ${end}
        group by p.currency, p.provider, p.payment_method, p.gateway_id, g.name
        order by p.currency, sum(p.amount) desc`),
      );
    },

    /** The invoices paid in [start, end), per currency. */
    async invoicesPaidIn(start: Date, end: Date): Promise<Record<string, unknown>[]> {
      return rowsOf<Record<string, unknown>>(
        await db.execute(sql`
        select currency, sum(total_amount) as amount, count(*) as count from invoices
        where status in ('paid', 'refunded') and paid_date >= ${start} and paid_date < ${end} group by currency`),
      );
    },

    /** The credit entries written in [start, end), per currency and kind. */
    async creditIn(start: Date, end: Date): Promise<Record<string, unknown>[]> {
      return rowsOf<Record<string, unknown>>(
        await db.execute(sql`
        select currency, kind, sum(amount) as amount from credit_entries
        where created_at >= ${start} and created_at < ${end} group by currency, kind`),
      );
    },

    /** Refunded through the provider in [start, end), per currency. */
    async refundedOutIn(start: Date, end: Date): Promise<Record<string, unknown>[]> {
      // A refund's time is the payment's last change (nothing changes a refunded payment afterwards).
      return rowsOf<Record<string, unknown>>(
        await db.execute(sql`
        select p.currency, sum(p.amount) as amount from payments p
        where ${REFUNDED_OUT} and p.updated_at >= ${start} and p.updated_at < ${end} group by p.currency`),
      );
    },
  };
}
