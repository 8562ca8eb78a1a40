/**
 * Books that balance (issue 31), the examples staff and customers found, each as a plain test: a refund to credit
 * that created money, a refund to the card that left the overpayment's credit behind, an unpaid plan change that
 * earned credit, a zero invoice left "unpaid", credit lost with a cancelled or deleted invoice, a data voucher that
 * gave a whole period, orders piling up, and the reconciliation report with its alarm. After each example the
 * customer's books balance: received + granted = applied + credit + refunded + held.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/server';
import { MoneyDriver, type PlanRef } from '../helpers/money';
import { transfer } from '../../server/modules/ledger/ledger';

describe('books that balance', () => {
  let t: TestApp;
  let m: MoneyDriver;
  let home: PlanRef;
  let business: PlanRef;
  let basic: PlanRef;

  beforeAll(async () => {
    t = await createTestApp();
    m = new MoneyDriver(t);
    await m.setUp();
    await m.person('support', 'support');
    home = await m.plan('Home 100', 3999);
    business = await m.plan('Business 1000', 19999);
    basic = await m.plan('Basic 25', 1999);
  });
  afterAll(() => t.close());

  async function balanced(who: string) {
    for (const b of await m.books(who))
      expect(b, `books of ${who} in ${b.currency}`).toMatchObject({ difference: 0, mismatches: [] });
  }
  /** Orders a plan and pays its first invoice in cash with amount (default: exactly); the subscription is active. */
  async function activeOn(who: string, plan: PlanRef, amount?: number) {
    const r = await m.subscribe(who, plan.id);
    expect(r.statusCode, r.body).toBe(201);
    const { subscription, invoice } = r.json().data;
    const paid = await m.payManually(invoice.id, amount ?? invoice.amount_due);
    expect(paid.statusCode, paid.body).toBe(201);
    return {
      subscriptionId: subscription.id as string,
      invoiceId: invoice.id as string,
      paymentId: paid.json().data.id as string,
    };
  }

  it('an overpaid invoice refunded to credit: the credit is what was received (5,000), not 6,001', async () => {
    const who = await m.customer();
    const { paymentId } = await activeOn(who, home, 5000);
    expect(await m.creditBalance(who)).toBe(1001);
    const r = await m.refund(paymentId, 'credit');
    expect(r.statusCode, r.body).toBe(200);
    expect(await m.creditBalance(who)).toBe(5000);
    const [entry] = await t.rows<{ amount: number }>(
      sql`select amount from credit_entries where payment_id = ${paymentId} and kind = 'refund_to_credit'`,
    );
    expect(entry.amount).toBe(3999);
    await balanced(who);
  });

  it('the ledger underneath: each movement is one transfer that sums to zero; an unbalanced transfer is refused', async () => {
    const who = await m.customer();
    const { paymentId } = await activeOn(who, home, 5000);
    expect((await m.refund(paymentId, 'credit')).statusCode).toBe(200);
    const postings = await t.rows<{ kind: string; account: string; amount: number; transfer_id: string }>(
      sql`select kind, account, amount, transfer_id from ledger_postings where user_id = ${m.id(who)}`,
    );
    const legs = (kind: string) =>
      Object.fromEntries(postings.filter((p) => p.kind === kind).map((p) => [p.account, Number(p.amount)]));
    // 5,000 in cash: 3,999 to the invoice, 1,001 to credit; the refund to credit moves the invoice's 3,999 to credit.
    expect(legs('payment_received')).toEqual({ payer: -5000, revenue: 3999, credit: 1001 });
    expect(legs('refund_to_credit')).toEqual({ revenue: -3999, credit: 3999 });
    expect(new Set(postings.filter((p) => p.kind === 'payment_received').map((p) => p.transfer_id)).size).toBe(1);
    await expect(
      transfer(
        t.database.db,
        { userId: m.id(who), currency: 'USD', kind: 'credit_adjustment', now: new Date() },
        { grants: -100, credit: 99 },
      ),
    ).rejects.toThrow(/Unbalanced/);
    expect(
      await t.rows(sql`select id from ledger_postings where user_id = ${m.id(who)} and kind = 'credit_adjustment'`),
    ).toEqual([]);
    await balanced(who);
  });

  it('an overpaid invoice refunded to the payer takes its overpayment credit back with it', async () => {
    const who = await m.customer();
    const { paymentId, invoiceId } = await activeOn(who, home, 5000);
    const r = await m.refund(paymentId, 'provider');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data.status).toBe('refunded');
    expect(await m.creditBalance(who)).toBe(0);
    const [invoice] = await t.rows<{ status: string }>(sql`select status from invoices where id = ${invoiceId}`);
    expect(invoice.status).toBe('refunded');
    await balanced(who);
    expect(await m.books(who)).toEqual([
      expect.objectContaining({ received: 5000, refunded: 5000, credit: 0, applied: 0 }),
    ]);
  });

  it('once the overpayment credit is spent, a refund to the payer is refused (409) and a refund to credit still works', async () => {
    const who = await m.customer();
    const { paymentId, subscriptionId } = await activeOn(who, home, 5000);
    // The 1,001 of credit pays part of a renewal.
    const renewal = await m.call('PATCH', `/subscriptions/${subscriptionId}/renew`, who);
    expect(renewal.statusCode, renewal.body).toBe(200);
    expect(renewal.json().data.invoice).toMatchObject({ credit_applied: 1001, amount_due: 2998 });
    const refused = await m.refund(paymentId, 'provider');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'This payment left $10.01 of credit, and only $0.00 of credit is left: refund it to credit instead, or add the spent credit back first',
    );
    expect((await m.paymentsOf(who)).find((p) => p.id === paymentId)?.status).toBe('paid');
    const toCredit = await m.refund(paymentId, 'credit');
    expect(toCredit.statusCode, toCredit.body).toBe(200);
    expect(await m.creditBalance(who)).toBe(3999);
    await balanced(who);
  });

  it('an unpaid plan change earns no credit: the next change cancels it, charges the days used and credits nothing of it', async () => {
    const who = await m.customer();
    const { subscriptionId } = await activeOn(who, home);
    const [sub] = await m.subscriptionsOf(who);
    expect(sub.period_paid_amount).toBe(3999);
    // Three days left on Home 100.
    const end = new Date(sub.current_period_end!).getTime();
    t.clock.set(new Date(end - 3 * 86_400_000 - 3_600_000));
    const up = await m.call('PATCH', `/subscriptions/${subscriptionId}/upgrade`, who, { plan_id: business.id });
    expect(up.statusCode, up.body).toBe(200);
    const upgradeInvoice = up.json().data.invoice;
    // The paid Home 100 days are credited (3 of 30 days of 3,999 = 400).
    expect(upgradeInvoice).toMatchObject({ status: 'unpaid', total_amount: 19999 - 400 });
    expect((await m.subscriptionsOf(who))[0]).toMatchObject({ plan_id: business.id, period_paid_amount: 0 });
    // Two days later, before paying, the customer moves to Basic 25.
    t.clock.advanceDays(2);
    const down = await m.call('PATCH', `/subscriptions/${subscriptionId}/upgrade`, who, { plan_id: basic.id });
    expect(down.statusCode, down.body).toBe(200);
    const invoice = down.json().data.invoice;
    const lines = invoice.line_items as Array<{ kind?: string; amount: number; description: string }>;
    expect(lines.some((l) => l.kind === 'credit')).toBe(false);
    // 2 days of Business 1000's period at 19,999, charged on the new invoice with the cancelled one named.
    const days = Math.round(
      (new Date(upgradeInvoice.line_items[0].period_end).getTime() -
        new Date(upgradeInvoice.line_items[0].period_start).getTime()) /
        86_400_000,
    );
    const usedAmount = 19999 - Math.round((19999 * (days - 2)) / days);
    expect(usedAmount).toBeGreaterThan(1200);
    const used = lines.find((l) => l.description.includes(upgradeInvoice.number));
    expect(used).toMatchObject({ amount: usedAmount, description: expect.stringContaining('Business 1000') });
    expect(invoice.total_amount).toBe(1999 + usedAmount);
    expect(invoice.status).toBe('unpaid');
    const [old] = await t.rows<{ status: string }>(sql`select status from invoices where id = ${upgradeInvoice.id}`);
    expect(old.status).toBe('cancelled');
    // Paying it makes the Basic 25 period paid for: a later change credits its unused days.
    expect((await m.payManually(invoice.id, invoice.amount_due)).statusCode).toBe(201);
    expect((await m.subscriptionsOf(who))[0]).toMatchObject({ plan_id: basic.id, period_paid_amount: 1999 });
    await balanced(who);
  });

  it('a plan change whose credit covers the new price is a zero invoice, paid at issue', async () => {
    const who = await m.customer();
    const { subscriptionId } = await activeOn(who, business);
    t.clock.advanceDays(1);
    const down = await m.call('PATCH', `/subscriptions/${subscriptionId}/upgrade`, who, { plan_id: basic.id });
    expect(down.statusCode, down.body).toBe(200);
    expect(down.json().data.invoice).toMatchObject({ total_amount: 0, status: 'paid' });
    expect(down.json().data.invoice.paid_date).toBeTruthy();
    expect((await m.subscriptionsOf(who))[0]).toMatchObject({
      status: 'active',
      plan_id: basic.id,
      period_paid_amount: 1999,
    });
    expect((await m.invoicesOf(who)).filter((i) => i.status === 'unpaid')).toHaveLength(0);
    await balanced(who);
  });

  it('credit used by an order that is cancelled, or by an invoice that is deleted, comes back', async () => {
    const who = await m.customer();
    expect((await m.adjustCredit(who, 2000)).statusCode).toBe(201);
    const order = await m.subscribe(who, home.id);
    expect(order.json().data.invoice).toMatchObject({ credit_applied: 2000, amount_due: 1999 });
    expect(await m.creditBalance(who)).toBe(0);
    const cancel = await m.call('POST', `/subscriptions/${order.json().data.subscription.id}/cancel`, who, {
      immediate: true,
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await m.creditBalance(who)).toBe(2000);
    const [inv] = await m.invoicesOf(who);
    expect(inv.status).toBe('cancelled');
    await balanced(who);

    const again = await m.subscribe(who, home.id);
    expect(again.statusCode, again.body).toBe(201);
    expect(await m.creditBalance(who)).toBe(0);
    const del = await m.call('DELETE', `/payments/invoices/${again.json().data.invoice.id}`, 'admin');
    expect(del.statusCode, del.body).toBe(200);
    expect(await m.creditBalance(who)).toBe(2000);
    await balanced(who);
  });

  it('one open order per customer: 20 orders at once leave one pending order and one invoice; the others name it (409)', async () => {
    const who = await m.customer();
    const answers = await Promise.all(Array.from({ length: 20 }, () => m.subscribe(who, home.id)));
    const created = answers.filter((a) => a.statusCode === 201);
    expect(created).toHaveLength(1);
    const refused = answers.filter((a) => a.statusCode === 409);
    expect(refused).toHaveLength(19);
    const number = created[0].json().data.invoice.number;
    for (const r of refused) {
      expect(r.json()).toMatchObject({
        success: false,
        message: `You already have an order waiting: Home 100 (invoice ${number}). Pay or cancel it before ordering again`,
      });
    }
    expect(refused[0].json().errors).toContainEqual({
      field: 'pending_subscription_id',
      message: created[0].json().data.subscription.id,
    });
    expect(await m.subscriptionsOf(who)).toHaveLength(1);
    expect(await m.invoicesOf(who)).toHaveLength(1);
    // Staff ordering for the customer are refused the same way; once the order is paid a second line can be ordered.
    const staff = await m.call('POST', '/subscriptions', 'billing', { plan_id: basic.id, user_id: m.id(who) });
    expect(staff.statusCode).toBe(409);
    expect((await m.payManually(created[0].json().data.invoice.id, 3999)).statusCode).toBe(201);
    expect((await m.subscribe(who, basic.id)).statusCode).toBe(201);
    await balanced(who);
  });

  it('a plan installed at the address is ordered with the service address (400 without it); the installation and the staff list show it', async () => {
    const fiber = await m.plan('Fiber 500', 5999, { requires_installation: true });
    expect((await m.call('GET', `/plans/${fiber.id}`)).json().data.requires_installation).toBe(true);
    const who = await m.customer();
    for (const location of [undefined, null, '   ']) {
      const r = await m.subscribe(who, fiber.id, location === undefined ? {} : { location });
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json()).toMatchObject({
        success: false,
        message: 'This plan is installed at your address: enter the service address',
      });
      expect(r.json().errors).toContainEqual({
        field: 'location',
        message: 'This plan is installed at your address: enter the service address',
      });
    }
    expect(await m.subscriptionsOf(who)).toHaveLength(0);
    expect(await m.invoicesOf(who)).toHaveLength(0);
    const ok = await m.subscribe(who, fiber.id, { location: '12 Harbour Road, Flat 3' });
    expect(ok.statusCode, ok.body).toBe(201);
    const [job] = await t.rows<{ address: string; status: string }>(
      sql`select address, status from installations where subscription_id = ${ok.json().data.subscription.id}`,
    );
    expect(job).toMatchObject({ address: '12 Harbour Road, Flat 3', status: 'requested' });
    const list = await m.call('GET', `/subscriptions?user_id=${m.id(who)}`, 'billing');
    expect(list.json().data.items.find((x: { id: string }) => x.id === ok.json().data.subscription.id)).toMatchObject({
      location: '12 Harbour Road, Flat 3',
    });
    // A plan without installation (a hotspot or a wireless plan the customer sets up) still needs no address.
    expect((await m.subscribe(await m.customer(), basic.id)).statusCode).toBe(201);
  });

  it('a data-only voucher gives its data, not a period: a data line without a time limit that the billing run never renews; vouchers top it up, a time voucher leaves it alone', async () => {
    const who = await m.customer();
    const batch = async (terms: Record<string, unknown>) => {
      const r = await m.call('POST', '/vouchers/batches', 'admin', {
        plan_id: basic.id,
        price: 500,
        count: 1,
        ...terms,
      });
      expect(r.statusCode, r.body).toBe(201);
      return r.json().data.codes[0] as string;
    };
    const redeem = async (code: string) => {
      const r = await m.call('POST', '/vouchers/redeem', who, { code });
      expect(r.statusCode, r.body).toBe(201);
      return r.json().data;
    };
    const first = await redeem(await batch({ data_allowance_mb: 1 }));
    expect(first).toMatchObject({
      extended: false,
      period_end: null,
      data_allowance_bytes: 1_000_000,
      data_used_bytes: 0,
    });
    const topped = await redeem(await batch({ data_allowance_mb: 500, validity_minutes: 120 }));
    // Same line, more data; no time limit before, none after (the later end wins, and none is later than any).
    expect(topped).toMatchObject({
      subscription_id: first.subscription_id,
      extended: true,
      period_end: null,
      data_allowance_bytes: 501_000_000,
    });
    // A time-only voucher is no data: it starts a line of its own for its validity and leaves the data line as it is.
    const timed = await redeem(await batch({ validity_minutes: 120 }));
    expect(timed.subscription_id).not.toBe(first.subscription_id);
    expect(timed).toMatchObject({ extended: false, data_allowance_bytes: null });
    expect(new Date(timed.period_end).getTime() - t.clock.now().getTime()).toBe(120 * 60_000);
    // The billing run a month and more later: the time line has ended, the data line still runs and is not billed.
    t.clock.advanceDays(40);
    expect((await m.call('POST', '/billing/run', 'admin')).statusCode).toBe(200);
    const lines = await m.subscriptionsOf(who);
    expect(lines.find((l) => l.id === first.subscription_id)).toMatchObject({
      status: 'active',
      current_period_end: null,
      period_paid_amount: 0,
    });
    expect(await m.invoicesOf(who)).toHaveLength(0);
    // A data line is topped up with vouchers, not renewed or moved to another plan (that would bill a period).
    for (const [method, path, body] of [
      ['PATCH', 'renew', undefined],
      ['PATCH', 'upgrade', { plan_id: home.id }],
    ] as const) {
      const r = await m.call(method, `/subscriptions/${first.subscription_id}/${path}`, who, body);
      expect(r.statusCode).toBe(409);
      expect(r.json().message).toBe('This line was bought with data vouchers: top it up with another voucher');
    }
    // Data and time: the line ends at its time if the data lasts longer, and is not billed to go on.
    const other = await m.customer();
    const both = await m.call('POST', '/vouchers/redeem', other, {
      code: await batch({ data_allowance_mb: 100, validity_minutes: 60 }),
    });
    expect(both.json().data).toMatchObject({
      data_allowance_bytes: 100_000_000,
      period_end: new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
    });
    t.clock.advanceDays(1); // the next day's run (one a day)
    expect((await m.call('POST', '/billing/run', 'admin')).statusCode).toBe(200);
    expect((await m.subscriptionsOf(other))[0].status).toBe('expired');
    expect(await m.invoicesOf(other)).toHaveLength(0);
    await balanced(who);
  });

  it('reconciliation: money by method and gateway, invoices paid, credit and refunds of the period; the alarm lists a customer whose books do not balance', async () => {
    const from = t.clock.now().toISOString().slice(0, 10);
    const who = await m.customer();
    const { paymentId } = await activeOn(who, home, 5000);
    await m.refund(paymentId, 'credit');
    const payer = await m.customer();
    const order = await m.subscribe(payer, basic.id);
    const checkout = await m.payByCheckout(payer, order.json().data.invoice.id, 2);
    expect(checkout.webhook?.statusCode).toBe(200);
    const to = t.clock.now().toISOString().slice(0, 10);

    for (const role of ['support', who])
      expect((await m.call('GET', `/billing/reconciliation?from=${from}&to=${to}`, role)).statusCode).toBe(403);
    expect((await m.call('GET', `/billing/reconciliation?from=${to}&to=${from}`, 'billing')).statusCode).toBe(
      from === to ? 200 : 400,
    );
    expect((await m.call('GET', '/billing/reconciliation?from=2026-13-01', 'billing')).statusCode).toBe(400);
    const r = await m.call('GET', `/billing/reconciliation?from=${from}&to=${to}`, 'billing');
    expect(r.statusCode, r.body).toBe(200);
    const report = r.json().data;
    expect(report.imbalances).toEqual([]);
    const usd = report.currencies.find((c: { currency: string }) => c.currency === 'USD');
    const line = (provider: string) =>
      usd.received_by
        .filter((l: { provider: string }) => l.provider === provider)
        .reduce((s: number, l: { amount: number }) => s + l.amount, 0);
    expect(line('manual')).toBeGreaterThanOrEqual(5000);
    expect(line('sandbox')).toBeGreaterThanOrEqual(1999);
    expect(usd.received_by.find((l: { provider: string }) => l.provider === 'sandbox').gateway_name).toBe('Sandbox');
    expect(usd.refunded_to_credit).toBeGreaterThanOrEqual(3999);
    expect(usd.credit_movements.overpayment).toBeGreaterThanOrEqual(1001);

    const csv = await m.call('GET', `/billing/reconciliation/export.csv?from=${from}&to=${to}`, 'admin');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="reconciliation-${from}-to-${to}.csv"`);
    const rows = csv.body.trim().split('\r\n');
    expect(rows[0]).toBe('section,currency,item,amount,count');
    expect(rows).toContain(`refunds,USD,to_credit,${usd.refunded_to_credit},`);
    expect(rows.filter((l) => l.startsWith('imbalance,'))).toEqual([]);

    // Credit written behind the API's back (no payment, no adjustment, no ledger transfer): the ledger still balances,
    // and the alarm names the customer and the side where the ledger and the credit history disagree.
    const before = (await m.books(payer)).find((b) => b.currency === 'USD')!;
    await t.rows(
      sql`insert into credit_entries (user_id, kind, amount, currency, reason) values (${m.id(payer)}, 'overpayment', 700, 'USD', 'written by hand')`,
    );
    const alarm = (await m.call('GET', `/billing/reconciliation?from=${from}&to=${to}`, 'admin')).json().data
      .imbalances;
    expect(alarm).toEqual([
      expect.objectContaining({
        user_id: m.id(payer),
        user_email: `${payer}@books.test`,
        currency: 'USD',
        difference: 0,
        mismatches: [{ side: 'credit', ledger: before.credit, records: before.credit + 700 }],
      }),
    ]);
    const csvAlarm = (await m.call('GET', `/billing/reconciliation/export.csv?from=${from}&to=${to}`, 'admin')).body;
    expect(csvAlarm).toContain(`mismatch,USD,${payer}@books.test credit,700,`);
    await t.rows(sql`delete from credit_entries where user_id = ${m.id(payer)} and reason = 'written by hand'`);
    expect(
      (await m.call('GET', `/billing/reconciliation?from=${from}&to=${to}`, 'admin')).json().data.imbalances,
    ).toEqual([]);
  });
});
