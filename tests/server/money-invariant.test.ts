/**
 * The books' invariant as a property (issue 31): random sequences of everything that moves money — orders,
 * plan changes (up and down), renewals, cancellations, manual payments (exact, under, over), checkouts with their
 * webhook replayed, refunds to the payer and to credit, staff credit adjustments, deleted invoices, prepaid
 * vouchers, autopay (a saved card that pays or is declined, charged by the billing run) and the billing run with a
 * moving clock — and after every step, for every customer:
 *
 *   received + granted = applied + credit + refunded + held     (server/modules/reconciliation/service.ts)
 *
 * with no credit below zero, no open invoice with nothing to pay, at most one pending order, and no 5xx. fast-check
 * shrinks a failing sequence to a few steps; each one found became a plain test in money-books.test.ts. Runs on
 * PGlite and, with `npm run test:pg`, on PostgreSQL.
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/server';
import { MoneyDriver, type PlanRef } from '../helpers/money';
import { unbalancedTransfers } from '../../server/modules/ledger/ledger';

type Who = 0 | 1;
type Cmd =
  | { k: 'subscribe'; who: Who; plan: number }
  | { k: 'payManual'; who: Who; pick: number; mode: 'exact' | 'under' | 'over'; delta: number }
  | { k: 'payCheckout'; who: Who; pick: number; replays: number }
  | { k: 'refund'; who: Who; pick: number; to: 'provider' | 'credit' }
  | { k: 'adjust'; who: Who; amount: number }
  | { k: 'upgrade'; who: Who; plan: number }
  | { k: 'renew'; who: Who }
  | { k: 'cancel'; who: Who; immediate: boolean }
  | { k: 'deleteInvoice'; who: Who; pick: number }
  | { k: 'redeem'; who: Who; terms: 'time' | 'data' | 'both' }
  | { k: 'autopay'; who: Who; card: 'ok' | 'declined' }
  | { k: 'advance'; days: number; run: boolean };

const who = fc.constantFrom<Who>(0, 1);
const pick = fc.nat({ max: 5 });
const command: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ k: fc.constant('subscribe' as const), who, plan: fc.nat({ max: 3 }) }) },
  {
    weight: 5,
    arbitrary: fc.record({
      k: fc.constant('payManual' as const),
      who,
      pick,
      mode: fc.constantFrom('exact' as const, 'under' as const, 'over' as const, 'over' as const),
      delta: fc.integer({ min: 1, max: 5000 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ k: fc.constant('payCheckout' as const), who, pick, replays: fc.nat({ max: 2 }) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('refund' as const),
      who,
      pick,
      to: fc.constantFrom('provider' as const, 'credit' as const),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('adjust' as const),
      who,
      amount: fc.integer({ min: -3000, max: 3000 }).filter((n) => n !== 0),
    }),
  },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('upgrade' as const), who, plan: fc.nat({ max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('renew' as const), who }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('cancel' as const), who, immediate: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('deleteInvoice' as const), who, pick }) },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('redeem' as const),
      who,
      terms: fc.constantFrom('time' as const, 'data' as const, 'both' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('autopay' as const),
      who,
      card: fc.constantFrom('ok' as const, 'declined' as const),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('advance' as const),
      days: fc.integer({ min: 0, max: 35 }),
      run: fc.boolean(),
    }),
  },
);

describe('money invariant over random sequences', () => {
  let t: TestApp;
  let m: MoneyDriver;
  let plans: PlanRef[];
  let voucherPlan: PlanRef;

  beforeAll(async () => {
    t = await createTestApp();
    m = new MoneyDriver(t);
    await m.setUp();
    plans = [
      await m.plan('Home 100', 3999),
      await m.plan('Business 1000', 19999),
      await m.plan('Basic 25', 1999),
      await m.plan('Free trial', 0),
    ];
    voucherPlan = plans[2];
  }, 60_000);
  afterAll(() => t.close());

  /** Every answer is a success or a refusal with a message; never a server error. */
  const outcomes: Record<string, number> = {};
  function answered(r: { statusCode: number; body: string }, step: Cmd) {
    const key = `${step.k}${'mode' in step ? `:${step.mode}` : ''}${'to' in step ? `:${step.to}` : ''} ${r.statusCode}${r.statusCode >= 400 ? ` ${JSON.parse(r.body).message}` : ''}`;
    outcomes[key] = (outcomes[key] ?? 0) + 1;
    expect(r.statusCode, `${JSON.stringify(step)} → ${r.body}`).toBeLessThan(500);
    if (r.statusCode >= 400) expect(JSON.parse(r.body).message, JSON.stringify(step)).toBeTruthy();
  }

  async function run(step: Cmd, customers: [string, string]) {
    if (step.k === 'advance') {
      t.clock.advanceDays(step.days);
      t.clock.advanceHours(1);
      if (step.run) {
        answered(await m.call('POST', '/billing/run', 'admin'), step);
        await t.app.autopay.settled(); // the sandbox's webhooks for the autopay charges the run made
      }
      return;
    }
    const c = customers[step.who];
    const openInvoices = async () =>
      (await m.invoicesOf(c)).filter((i) => i.status === 'unpaid' || i.status === 'overdue');
    const liveSub = async () =>
      (await m.subscriptionsOf(c)).find((s) => s.status === 'active' || s.status === 'suspended');
    switch (step.k) {
      case 'subscribe':
        return answered(await m.subscribe(c, plans[step.plan].id), step);
      case 'payManual': {
        const open = await openInvoices();
        if (!open.length) return;
        const inv = open[step.pick % open.length];
        const due = inv.total_amount - inv.credit_applied;
        const amount = step.mode === 'exact' ? due : step.mode === 'over' ? due + step.delta : due - step.delta;
        if (amount <= 0) return;
        return answered(await m.payManually(inv.id, amount), step);
      }
      case 'payCheckout': {
        const open = await openInvoices();
        if (!open.length) return;
        const { initiate, webhook } = await m.payByCheckout(c, open[step.pick % open.length].id, step.replays);
        answered(initiate, step);
        if (webhook) answered(webhook, step);
        return;
      }
      case 'refund': {
        const refundable = (await m.paymentsOf(c)).filter((p) => p.status === 'paid');
        if (!refundable.length) return;
        return answered(await m.refund(refundable[step.pick % refundable.length].id, step.to), step);
      }
      case 'adjust':
        return answered(await m.adjustCredit(c, step.amount), step);
      case 'upgrade': {
        const sub = await liveSub();
        if (!sub) return;
        return answered(
          await m.call('PATCH', `/subscriptions/${sub.id}/upgrade`, c, { plan_id: plans[step.plan].id }),
          step,
        );
      }
      case 'renew': {
        const sub = await liveSub();
        if (!sub) return;
        return answered(await m.call('PATCH', `/subscriptions/${sub.id}/renew`, c), step);
      }
      case 'cancel': {
        const [sub] = (await m.subscriptionsOf(c)).filter(
          (s) => s.status === 'active' || s.status === 'pending' || s.status === 'suspended',
        );
        if (!sub) return;
        return answered(
          await m.call('POST', `/subscriptions/${sub.id}/cancel`, c, { immediate: step.immediate }),
          step,
        );
      }
      case 'deleteInvoice': {
        const open = await openInvoices();
        if (!open.length) return;
        return answered(
          await m.call('DELETE', `/payments/invoices/${open[step.pick % open.length].id}`, 'admin'),
          step,
        );
      }
      case 'autopay': {
        // The customer saves the sandbox's test card (one that pays, or one the bank declines) for autopay: the
        // billing run then charges each new invoice off-session.
        const sub = await liveSub();
        if (!sub) return;
        const started = await m.call('POST', `/subscriptions/${sub.id}/autopay/setup`, c);
        answered(started, step);
        if (started.statusCode !== 201) return;
        const path = new URL(started.json().data.paymentUrl).pathname;
        const chosen = await t.app.inject({
          method: 'POST',
          url: `${path}/${step.card}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: '',
        });
        expect(chosen.statusCode, chosen.body).toBeLessThan(500);
        return;
      }
      case 'redeem': {
        // Time only, data only (a data line without a time limit) or both (issue 31: each keeps its terms).
        const terms = {
          time: { validity_minutes: 7 * 24 * 60 },
          data: { data_allowance_mb: 1_000 },
          both: { validity_minutes: 7 * 24 * 60, data_allowance_mb: 1_000 },
        }[step.terms];
        const batch = await m.call('POST', '/vouchers/batches', 'admin', {
          plan_id: voucherPlan.id,
          price: 500,
          count: 1,
          ...terms,
        });
        answered(batch, step);
        return answered(await m.call('POST', '/vouchers/redeem', c, { code: batch.json().data.codes[0] }), step);
      }
    }
  }

  async function invariants(customers: [string, string], history: Cmd[]) {
    const where = `after ${JSON.stringify(history)}`;
    for (const c of customers) {
      for (const b of await m.books(c)) {
        expect(b.difference, `books of ${c} ${JSON.stringify(b)} ${where}`).toBe(0);
        // The double-entry ledger and the modules' own rows (payments, invoices, credit history) agree, side by side.
        expect(b.mismatches, `ledger against records of ${c} ${where}`).toEqual([]);
        expect(b.credit, `credit of ${c} ${where}`).toBeGreaterThanOrEqual(0);
      }
      const zeroOpen = (await m.invoicesOf(c)).filter(
        (i) => (i.status === 'unpaid' || i.status === 'overdue') && i.total_amount - i.credit_applied <= 0,
      );
      expect(zeroOpen, `open invoices with nothing to pay ${where}`).toEqual([]);
      expect(
        (await m.subscriptionsOf(c)).filter((s) => s.status === 'pending').length,
        `pending orders ${where}`,
      ).toBeLessThanOrEqual(1);
    }
    const [pay] = await t.rows<{ n: number }>(
      sql`select count(*)::int as n from payments p join invoices i on i.id = p.invoice_id where p.status = 'paid' and i.status not in ('paid')`,
    );
    expect(pay.n, `paid payments of invoices that are not paid ${where}`).toBe(0);
  }

  it("after every step of a random sequence every customer's books balance", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 8, maxLength: 40, size: 'max' }), async (steps) => {
        const customers: [string, string] = [await m.customer(), await m.customer()];
        const history: Cmd[] = [];
        for (const step of steps) {
          history.push(step);
          await run(step, customers);
          await invariants(customers, history);
        }
      }),
      // 25 sequences of up to 40 steps per database in CI (about 2½ minutes on PGlite); MONEY_PROPERTY_RUNS=500 for a longer hunt.
      { numRuns: Number(process.env.MONEY_PROPERTY_RUNS ?? 25), endOnFailure: false },
    );
    if (process.env.MONEY_PROPERTY_DEBUG)
      console.log(outcomes, await t.rows(sql`select status, count(*)::int as n from autopay_charges group by status`));
    // The whole database as the reconciliation screen sees it: nobody out of balance.
    const report = await m.call('GET', '/billing/reconciliation', 'billing');
    expect(report.json().data.imbalances).toEqual([]);
    // Every transfer the movements wrote sums to zero.
    expect(await unbalancedTransfers(t.database.db)).toEqual([]);
  }, 900_000);
});
