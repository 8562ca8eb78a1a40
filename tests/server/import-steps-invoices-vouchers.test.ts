/**
 * The import's invoices and vouchers steps (issue 39) on a real portal database: an imported payment is a paid
 * invoice the customer sees and the books balance; an imported card is redeemable as typed, cards of the same terms
 * share one batch, another system's plain codes come in as they are, and codes the portal could never take are
 * refused with a reason.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voucherCheckCharacter } from '../../contract/schemas/vouchers';
import type { Db } from '../../server/db/client';
import { importRuns } from '../../server/db/schema';
import type { RecordKind, SourcePaidInvoice, SourceSnapshot, SourceVoucher } from '../../server/import/model';
import { invoicesStep } from '../../server/import/steps/invoices';
import type { ImportContext, Step } from '../../server/import/steps/types';
import { vouchersStep } from '../../server/import/steps/vouchers';
import { createSecretBox } from '../../server/lib/secret-box';
import { MoneyDriver, type PlanRef } from '../helpers/money';
import { createTestApp, type TestApp } from '../helpers/server';

const withCheck = (payload: string) => payload + voucherCheckCharacter(payload);

describe('import steps: invoices and vouchers', () => {
  let t: TestApp;
  let m: MoneyDriver;
  let plan: PlanRef;
  let ctx: ImportContext;

  /** What the runner does for one record: decide, and create in a transaction when told to. */
  async function run<T extends { key: string }>(step: Step<T>, item: T) {
    const decision = await step.decide(t.database.db, ctx, item);
    if (decision.action !== 'create') return { decision, id: null };
    const id = await t.database.db.transaction((tx) => step.create(tx as unknown as Db, ctx, item));
    ctx.targets.get(step.kind)?.set(item.key, id);
    return { decision, id };
  }

  beforeAll(async () => {
    t = await createTestApp();
    m = new MoneyDriver(t);
    await m.setUp();
    await m.person('budi');
    plan = await m.plan('Hotspot 1 Hari', 500);
    const [runRow] = await t.database.db
      .insert(importRuns)
      .values({ source: 'phpnuxbill', sourceLabel: 'mysql://root@127.0.0.1/nux', startedAt: t.clock.now() })
      .returning();
    const targets = new Map<RecordKind, Map<string, string>>(
      (['customer', 'plan', 'subscription', 'invoice', 'voucher'] as RecordKind[]).map((k) => [k, new Map()]),
    );
    targets.get('customer')!.set('1', m.id('budi'));
    targets.get('plan')!.set('2', plan.id);
    ctx = {
      box: createSecretBox(t.config.secretsKey),
      clock: t.clock,
      source: 'phpnuxbill',
      runId: runRow!.id,
      dryRun: false,
      currency: 'USD',
      now: t.clock.now(),
      snapshot: {} as SourceSnapshot,
      targets,
      findings: [],
    };
  });
  afterAll(() => t.close());

  const payment = (over: Partial<SourcePaidInvoice>): SourcePaidInvoice => ({
    key: '1',
    customerKey: '1',
    subscriptionKey: null,
    description: 'Home 20M (2026-10-01 – 2026-11-01)',
    amount: 2500,
    paidAt: new Date('2026-10-01T10:00:00Z'),
    method: 'Cash - Administrator',
    reference: 'INV-0001',
    ...over,
  });

  it('a payment becomes a paid invoice of one line, with its payment, and the books balance', async () => {
    const { decision, id } = await run(invoicesStep, payment({}));
    expect(decision).toEqual({ action: 'create' });
    const [invoice] = await m.invoicesOf('budi');
    expect(invoice).toMatchObject({ id, status: 'paid', total_amount: 2500, credit_applied: 0 });
    expect(invoice.line_items).toEqual([
      { description: 'Home 20M (2026-10-01 – 2026-11-01)', quantity: 1, unit_amount: 2500, amount: 2500 },
    ]);
    const [paid] = await t.rows<Record<string, unknown>>(
      sql`select provider, transaction_id, status, amount, payment_method, reference from payments where invoice_id = ${id}`,
    );
    expect(paid).toEqual({
      provider: 'import',
      transaction_id: 'phpnuxbill:1',
      status: 'paid',
      amount: 2500,
      payment_method: 'Cash - Administrator',
      reference: 'INV-0001',
    });
    // Both the ledger and the payment/invoice rows say so (a payment without its ledger movement is a mismatch).
    expect(await m.books('budi')).toEqual([
      expect.objectContaining({ currency: 'USD', difference: 0, mismatches: [] }),
    ]);
    const [books] = await m.books('budi');
    expect(books).toMatchObject({ received: 2500, applied: 2500 });
    // The customer sees it among their invoices, paid.
    const mine = await m.call('GET', '/payments/user/invoices', 'budi');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(JSON.stringify(mine.json().data)).toContain(String(id));
  });

  it('the same payment again is linked, not counted twice; a customer not imported is skipped', async () => {
    const again = await invoicesStep.decide(t.database.db, ctx, payment({}));
    expect(again).toMatchObject({ action: 'link' });
    expect(await invoicesStep.decide(t.database.db, ctx, payment({ key: '4', customerKey: '99' }))).toMatchObject({
      action: 'skip',
      reason: expect.stringContaining('not imported'),
    });
  });

  const card = (over: Partial<SourceVoucher>): SourceVoucher => ({
    key: '1',
    planKey: '2',
    code: withCheck('NUX7K2PQ'),
    validityMinutes: 1440,
    dataAllowanceMb: 1074,
    price: 500,
    ...over,
  });

  it('cards with the same terms share one complete batch, and a card is redeemable as it was typed', async () => {
    // Before any card is imported, a code without the portal's check character is refused as mistyped, unlooked-up.
    expect((await m.call('POST', '/vouchers/redeem', 'budi', { code: 'zzzz9999' })).statusCode).toBe(400);
    const first = await run(vouchersStep, card({}));
    const second = await run(vouchersStep, card({ key: '5', code: withCheck('BATCH22X') }));
    expect([first.decision, second.decision]).toEqual([{ action: 'create' }, { action: 'create' }]);
    const batches = await t.rows<Record<string, unknown>>(
      sql`select b.count, b.generated, b.validity_minutes, b.data_allowance_mb, b.price, b.plan_id
          from voucher_batches b join vouchers v on v.batch_id = b.id group by b.id`,
    );
    expect(batches).toEqual([
      { count: 2, generated: 2, validity_minutes: 1440, data_allowance_mb: 1074, price: 500, plan_id: plan.id },
    ]);
    const redeemed = await m.call('POST', '/vouchers/redeem', 'budi', { code: withCheck('NUX7K2PQ').toLowerCase() });
    expect(redeemed.statusCode, redeemed.body).toBe(201);
  });

  it('other terms make another batch; an existing code and a code the portal cannot read are skipped', async () => {
    await run(vouchersStep, card({ key: '6', code: withCheck('PRCE99ZW'), price: 700 }));
    const [{ n }] = await t.rows<{ n: number }>(sql`select count(*)::int as n from voucher_batches`);
    expect(n).toBe(2);
    expect((await run(vouchersStep, card({ key: '7' }))).decision).toMatchObject({
      action: 'skip',
      reason: expect.stringContaining('already exists'),
    });
    expect((await run(vouchersStep, card({ key: '2', code: 'HEMAT#10' }))).decision).toMatchObject({
      action: 'skip',
      reason: expect.stringContaining('could not be redeemed here'),
    });
    // Another system's plain code (no check character) is taken; differing only in case, it is the same card here.
    expect((await run(vouchersStep, card({ key: '9', code: 'abc123xyz' }))).decision).toEqual({ action: 'create' });
    expect((await run(vouchersStep, card({ key: '10', code: 'ABC-123-XYZ' }))).decision).toMatchObject({
      action: 'skip',
      reason: expect.stringContaining('already exists'),
    });
    // While imported cards are in use, such a code is looked up (a miss: 404); once their batches are revoked, the
    // portal refuses it unlooked-up again.
    expect((await m.call('POST', '/vouchers/redeem', 'budi', { code: 'zzzz9999' })).statusCode).toBe(404);
    await t.rows(sql`update voucher_batches set revoked_at = now() where imported_from is not null`);
    expect((await m.call('POST', '/vouchers/redeem', 'budi', { code: 'zzzz9999' })).statusCode).toBe(400);
    expect((await run(vouchersStep, card({ key: '8', planKey: '3' }))).decision).toMatchObject({ action: 'skip' });
  });
});
