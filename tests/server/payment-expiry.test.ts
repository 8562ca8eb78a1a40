/**
 * Pending payments end (issue 31), on the real database with the injected clock: an abandoned checkout becomes
 * expired after PAYMENT_CHECKOUT_HOURS (24) and not before; a manual payment left pending by a request that died
 * becomes failed after MANUAL_RECORDING_TIMEOUT_MINUTES; neither is money received (the invoice stays unpaid and
 * can still be paid); a provider's success that arrives after the expiry still pays the invoice (or, when the
 * invoice was paid meanwhile, is not counted and is refunded); a second sweep, or two at once, change nothing more;
 * autopay's pending charges are left alone; and the sweep is a job on the shared queue.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_LIFETIME_HOURS, MANUAL_RECORDING_TIMEOUT_MINUTES } from '../../contract/schemas/payment';
import { buildSandboxWebhook } from '../../server/integrations/payments/sandbox';
import { HOUR_MS, MINUTE_MS } from '../../server/lib/clock';
import { expirePendingPayments, PAYMENT_EXPIRY_JOB } from '../../server/modules/payments/expiry';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const WEBHOOK_SECRET = 'whsec_payment_expiry_secret_1234';

let t: TestApp;
const tokens: Record<string, string> = {};
let planId: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ['admin', 'billing', 'user'] as const) await t.createUser({ email: `${role}@example.com`, role });
  expect(
    (
      await call('POST', '/payments/gateways', 'admin', {
        name: 'Sandbox',
        provider: 'sandbox',
        credentials: { webhook_secret: WEBHOOK_SECRET },
        is_default: true,
      })
    ).statusCode,
  ).toBe(201);
  planId = (
    await call('POST', '/plans', 'admin', {
      name: 'Fiber 100',
      download_mbps: 100,
      upload_mbps: 20,
      price: 3999,
      billing_cycle: 'monthly',
    })
  ).json().data.id;
});
afterAll(() => t?.close());

/** Access tokens last 15 minutes of the test clock, which the tests move by hours: sign in again when needed. */
const signedInAt: Record<string, number> = {};
async function tokenOf(who: string) {
  if (!tokens[who] || t.clock.now().getTime() - (signedInAt[who] ?? 0) > 10 * MINUTE_MS) {
    tokens[who] = (await t.login(who.includes('@') ? who : `${who}@example.com`)).token;
    signedInAt[who] = t.clock.now().getTime();
  }
  return tokens[who];
}

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, who?: string, payload?: unknown) {
  return t.app.inject({
    method,
    url: `/api${url}`,
    headers: who ? bearer(await tokenOf(who)) : {},
    payload: payload as object,
  });
}

/** A new customer with a pending subscription and its unpaid invoice (one open order per customer). */
let customers = 0;
async function newInvoice() {
  const email = `expiry-${++customers}@example.com`;
  const user = await t.createUser({ email });
  const r = await call('POST', '/subscriptions', email, { plan_id: planId });
  expect(r.statusCode, r.body).toBe(201);
  const { invoice, subscription } = r.json().data as {
    invoice: { id: string; total_amount: number; currency: string };
    subscription: { id: string };
  };
  return { email, userId: user.id, invoice, subscriptionId: subscription.id };
}

async function checkout(invoiceId: string, who: string) {
  const r = await call('POST', '/payments/initiate', who, { invoice_id: invoiceId });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data as { transactionId: string; payment: { id: string } };
}

function webhook(transactionId: string, amount: number) {
  const w = buildSandboxWebhook(
    { type: 'payment.succeeded', transactionId, amount, currency: 'USD' },
    WEBHOOK_SECRET,
    Math.floor(t.clock.now().getTime() / 1000),
  );
  return t.app.inject({ method: 'POST', url: '/api/payments/webhooks/sandbox', headers: w.headers, payload: w.body });
}

async function payment(id: string) {
  const [row] = await t.rows<{
    status: string;
    failure_reason: string | null;
    updated_at: Date | string;
    payment_date: unknown;
  }>(sql`select status, failure_reason, updated_at, payment_date from payments where id = ${id}`);
  return row;
}

async function invoiceStatus(id: string) {
  const [row] = await t.rows<{ status: string }>(sql`select status from invoices where id = ${id}`);
  return row.status;
}

/** A manual payment row as recordManual writes it before completing it: what a kill -9 in between leaves. */
async function strandedManualPayment(invoice: { id: string; total_amount: number }, userId: string) {
  const now = t.clock.now().toISOString();
  const [row] = await t.rows<{ id: string }>(sql`
    insert into payments (invoice_id, user_id, provider, transaction_id, status, amount, currency, payment_method, reference, created_at, updated_at)
    values (${invoice.id}, ${userId}, 'manual', ${`manual_stranded_${customers}`}, 'pending', ${invoice.total_amount}, 'USD', 'cash', 'Receipt 77', ${now}::timestamptz, ${now}::timestamptz)
    returning id`);
  return row.id;
}

const sweep = () => t.app.paymentExpiry.run();

describe('pending payments end', () => {
  it('an abandoned checkout stays pending until its lifetime has passed, then shows as expired; no money was received', async () => {
    expect(CHECKOUT_LIFETIME_HOURS).toBe(24);
    expect(t.config.paymentCheckoutHours).toBe(24);
    const { email, invoice } = await newInvoice();
    const { transactionId, payment: p } = await checkout(invoice.id, email);

    t.clock.advance(24 * HOUR_MS - MINUTE_MS);
    expect(await sweep()).toEqual({ expired: 0, failed: 0 });
    expect((await payment(p.id)).status).toBe('pending');

    t.clock.advance(2 * MINUTE_MS);
    expect(await sweep()).toEqual({ expired: 1, failed: 0 });
    expect(await payment(p.id)).toMatchObject({ status: 'expired', payment_date: null });
    expect(await invoiceStatus(invoice.id)).toBe('unpaid');

    // The customer and staff read it as expired; the order history carries it so.
    const status = await call('GET', `/payments/status/${p.id}`, email);
    expect(status.json()).toMatchObject({
      message: 'Payment expired',
      data: { payment: { id: p.id, status: 'expired' } },
    });
    const orders = (await call('GET', '/subscriptions/orders', email)).json().data as Array<{
      payments: Array<{ id: string; status: string }>;
    }>;
    expect(orders[0].payments).toEqual([expect.objectContaining({ id: p.id, status: 'expired' })]);
    // The sandbox's checkout page no longer offers to pay it.
    const page = await t.app.inject({ method: 'GET', url: `/api/payments/sandbox/checkout/${transactionId}` });
    expect(page.body).toContain('This payment is expired.');
    expect(page.body).not.toContain('/approve"');

    // The invoice is still payable: a new checkout is offered and paid.
    const again = await checkout(invoice.id, email);
    expect((await webhook(again.transactionId, invoice.total_amount)).statusCode).toBe(200);
    expect(await invoiceStatus(invoice.id)).toBe('paid');
    expect((await payment(p.id)).status).toBe('expired');
  });

  it('a manual payment left pending by a request that died becomes failed after the timeout, and the invoice can still be paid', async () => {
    const { userId, invoice } = await newInvoice();
    const stranded = await strandedManualPayment(invoice, userId);

    t.clock.advance((MANUAL_RECORDING_TIMEOUT_MINUTES - 1) * MINUTE_MS);
    expect(await sweep()).toEqual({ expired: 0, failed: 0 });
    expect((await payment(stranded)).status).toBe('pending');

    t.clock.advance(2 * MINUTE_MS);
    expect(await sweep()).toEqual({ expired: 0, failed: 1 });
    expect(await payment(stranded)).toMatchObject({
      status: 'failed',
      failure_reason: 'Recording did not finish; no money was counted',
    });
    expect(await invoiceStatus(invoice.id)).toBe('unpaid');
    // Not refundable: no money was taken.
    expect((await call('POST', `/payments/${stranded}/refund`, 'billing', {})).statusCode).toBe(409);

    const recorded = await call('POST', `/payments/invoices/${invoice.id}/manual`, 'billing', {
      amount: invoice.total_amount,
      payment_method: 'cash',
      reference: 'Receipt 77',
    });
    expect(recorded.statusCode, recorded.body).toBe(201);
    expect(await invoiceStatus(invoice.id)).toBe('paid');
  });

  it("a provider's success after the expiry still pays the invoice and activates the subscription", async () => {
    const { email, invoice, subscriptionId } = await newInvoice();
    const { transactionId, payment: p } = await checkout(invoice.id, email);
    t.clock.advance(25 * HOUR_MS);
    expect(await sweep()).toMatchObject({ expired: 1 });
    expect((await payment(p.id)).status).toBe('expired');

    const late = await webhook(transactionId, invoice.total_amount);
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json().data).toMatchObject({
      outcome: 'paid',
      payment: { id: p.id, status: 'paid', failure_reason: null },
    });
    expect(await invoiceStatus(invoice.id)).toBe('paid');
    const [sub] = await t.rows<{ status: string }>(sql`select status from subscriptions where id = ${subscriptionId}`);
    expect(sub.status).toBe('active');
    // A redelivery of a success for it, or the sweep, change nothing.
    expect((await sweep()).expired).toBe(0);
    expect((await payment(p.id)).status).toBe('paid');
  });

  it('a late success for an invoice paid meanwhile is not counted and goes back through the provider', async () => {
    const { email, invoice } = await newInvoice();
    const first = await checkout(invoice.id, email);
    t.clock.advance(25 * HOUR_MS);
    await sweep();
    const second = await checkout(invoice.id, email);
    expect((await webhook(second.transactionId, invoice.total_amount)).statusCode).toBe(200);
    expect(await invoiceStatus(invoice.id)).toBe('paid');

    const late = await webhook(first.transactionId, invoice.total_amount);
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json().data.outcome).toBe('not_counted');
    expect((await payment(first.payment.id)).status).toBe('refunded');
    const [{ n }] = await t.rows<{ n: number }>(
      sql`select count(*)::int as n from payments where invoice_id = ${invoice.id} and status = 'paid'`,
    );
    expect(Number(n)).toBe(1);
  });

  it('a second sweep, and two sweeps at once (two nodes), change nothing more', async () => {
    const a = await newInvoice();
    const b = await newInvoice();
    const pa = await checkout(a.invoice.id, a.email);
    const stranded = await strandedManualPayment(b.invoice, b.userId);
    t.clock.advance(25 * HOUR_MS);
    const [one, two] = await Promise.all([
      expirePendingPayments(t.database.db, t.clock.now(), 24),
      expirePendingPayments(t.database.db, t.clock.now(), 24),
    ]);
    expect({ expired: one.expired + two.expired, failed: one.failed + two.failed }).toEqual({ expired: 1, failed: 1 });
    const before = [await payment(pa.payment.id), await payment(stranded)];

    t.clock.advance(HOUR_MS);
    expect(await sweep()).toEqual({ expired: 0, failed: 0 });
    expect([await payment(pa.payment.id), await payment(stranded)]).toEqual(before);
  });

  it("an autopay charge's pending payment is not a checkout: the sweep leaves it to the autopay module", async () => {
    const { userId, invoice, subscriptionId } = await newInvoice();
    const now = t.clock.now().toISOString();
    const [p] = await t.rows<{ id: string }>(sql`
      insert into payments (invoice_id, user_id, provider, transaction_id, status, amount, currency, payment_method, reference, created_at, updated_at)
      values (${invoice.id}, ${userId}, 'sandbox', ${`autopay_${invoice.id}`}, 'pending', ${invoice.total_amount}, 'USD', 'sandbox', 'Autopay attempt 1', ${now}::timestamptz, ${now}::timestamptz)
      returning id`);
    await t.rows(sql`
      insert into autopay_charges (invoice_id, subscription_id, attempt, status, scheduled_at, payment_id, amount, created_at, updated_at)
      values (${invoice.id}, ${subscriptionId}, 1, 'submitted', ${now}::timestamptz, ${p.id}, ${invoice.total_amount}, ${now}::timestamptz, ${now}::timestamptz)`);
    t.clock.advance(3 * 24 * HOUR_MS);
    expect(await sweep()).toEqual({ expired: 0, failed: 0 });
    expect((await payment(p.id)).status).toBe('pending');
  });

  it('the checkout lifetime is a setting (PAYMENT_CHECKOUT_HOURS): a shorter one expires sooner', async () => {
    const { email, invoice } = await newInvoice();
    const { payment: p } = await checkout(invoice.id, email);
    t.clock.advance(2 * HOUR_MS + MINUTE_MS);
    expect(await expirePendingPayments(t.database.db, t.clock.now(), 2)).toEqual({ expired: 1, failed: 0 });
    expect((await payment(p.id)).status).toBe('expired');
  });

  it('runs as a job on the shared queue', async () => {
    const { email, invoice } = await newInvoice();
    const { payment: p } = await checkout(invoice.id, email);
    t.clock.advance(25 * HOUR_MS);
    await t.app.jobs.send(PAYMENT_EXPIRY_JOB, {});
    await t.app.jobs.idle([PAYMENT_EXPIRY_JOB]);
    expect((await t.app.jobs.latest(PAYMENT_EXPIRY_JOB))?.status).toBe('done');
    expect((await payment(p.id)).status).toBe('expired');
  });
});
