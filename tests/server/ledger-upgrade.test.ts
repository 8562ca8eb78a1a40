/**
 * An installation upgraded to the double-entry ledger (issue 31, migration 0029_ledger): the money already on its
 * books — payments, overpayments, refunds to the payer and to credit, staff credit, credit used by invoices and
 * given back by cancelled ones — becomes one opening transfer per customer and currency, and the reconciliation
 * alarm stays empty: the ledger agrees with the payments, invoices and credit history side by side.
 *
 * The money is made through the API (so the ledger is written as it is today), then the ledger is emptied as it is
 * on a database from before 0029, and the migration's opening-balance statement is run on it.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/server';
import { MoneyDriver } from '../helpers/money';
import { imbalances } from '../../server/modules/reconciliation/service';

const MIGRATION = readFileSync(new URL('../../server/db/migrations/0029_ledger.sql', import.meta.url), 'utf8');
const OPENING = MIGRATION.slice(MIGRATION.indexOf('-- Opening balances'));

describe('the ledger migration books the money already there', () => {
  let t: TestApp;
  let m: MoneyDriver;

  beforeAll(async () => {
    t = await createTestApp();
    m = new MoneyDriver(t);
    await m.setUp();
  });
  afterAll(() => t.close());

  it('opening balances per customer and currency agree with payments, invoices and credit history', async () => {
    const home = await m.plan('Home 100', 3999);
    const basic = await m.plan('Basic 25', 1999);
    const a = await m.customer();
    const b = await m.customer();
    // a: 5,000 in cash for 3,999 (1,001 of credit), refunded to credit; then an order that uses credit, cancelled.
    const first = (await m.subscribe(a, home.id)).json().data;
    const paid = await m.payManually(first.invoice.id, 5000);
    expect(paid.statusCode, paid.body).toBe(201);
    expect((await m.refund(paid.json().data.id, 'credit')).statusCode).toBe(200);
    const second = (await m.subscribe(a, basic.id)).json().data;
    expect(second.invoice.credit_applied).toBe(1999);
    // b: paid by checkout, refunded to the payer; staff give 250 of credit.
    const order = (await m.subscribe(b, basic.id)).json().data;
    await m.payByCheckout(b, order.invoice.id, 2);
    const [payment] = (await m.paymentsOf(b)).filter((p) => p.status === 'paid');
    expect((await m.refund(payment.id, 'provider')).statusCode).toBe(200);
    expect((await m.adjustCredit(b, 250)).statusCode).toBe(201);
    const before = [...(await m.books(a)), ...(await m.books(b))];
    expect(before.map((x) => x.mismatches)).toEqual([[], []]);

    // The database as it was before the ledger, then the migration's statement.
    await t.rows(sql`delete from ledger_postings`);
    expect((await imbalances(t.database.db)).length).toBeGreaterThan(0);
    await t.rows(sql.raw(OPENING));

    expect(await imbalances(t.database.db)).toEqual([]);
    expect([...(await m.books(a)), ...(await m.books(b))]).toEqual(before);
    const kinds = await t.rows<{ kind: string; n: number; sum: number }>(
      sql`select kind, count(distinct transfer_id)::int as n, sum(amount)::int as sum from ledger_postings group by kind`,
    );
    expect(kinds).toEqual([{ kind: 'opening_balance', n: 2, sum: 0 }]);
  });
});
