/**
 * The billing team's payments screen (issue 31): GET /api/payments lists every payment with its customer, invoice
 * and gateway, newest first, in the portal's list envelope ({items, pagination}); paged on the server; filtered by
 * status, provider, method, gateway, customer, a created date range (days or instants, inclusive) and a search on
 * the reference, the provider's transaction id, the customer's e-mail and the invoice number. Admin, billing and
 * support (read-only) read it; customers and technicians get 403, visitors 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentListItem } from '../../contract/schemas/payment';
import { buildSandboxWebhook } from '../../server/integrations/payments/sandbox';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../server/lib/clock';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const WEBHOOK_SECRET = 'whsec_payments_list_secret_12345';

let t: TestApp;
const ids: Record<string, string> = {};
let planId: string;
let sandboxGateway: string;
let manualGateway: string;
/** The payments made below, oldest first. */
const made: Record<string, { id: string; transactionId: string; invoiceId: string; invoiceNumber: string }> = {};

const signedInAt: Record<string, number> = {};
const tokens: Record<string, string> = {};
async function tokenOf(email: string) {
  if (!tokens[email] || t.clock.now().getTime() - (signedInAt[email] ?? 0) > 10 * MINUTE_MS) {
    tokens[email] = (await t.login(email)).token;
    signedInAt[email] = t.clock.now().getTime();
  }
  return tokens[email];
}
async function call(method: 'GET' | 'POST', url: string, email?: string, payload?: unknown) {
  return t.app.inject({
    method,
    url: `/api${url}`,
    headers: email ? bearer(await tokenOf(email)) : {},
    payload: payload as object,
  });
}
const staff = (role: string) => `${role}@example.com`;

async function subscribe(email: string) {
  const r = await call('POST', '/subscriptions', email, { plan_id: planId });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data.invoice as { id: string; number: string; total_amount: number };
}
async function checkout(invoiceId: string, email: string) {
  const r = await call('POST', '/payments/initiate', email, { invoice_id: invoiceId });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data as { transactionId: string; payment: { id: string } };
}
async function webhook(type: 'payment.succeeded' | 'payment.failed', transactionId: string, amount: number) {
  const w = buildSandboxWebhook(
    { type, transactionId, amount, currency: 'USD' },
    WEBHOOK_SECRET,
    Math.floor(t.clock.now().getTime() / 1000),
  );
  const r = await t.app.inject({
    method: 'POST',
    url: '/api/payments/webhooks/sandbox',
    headers: w.headers,
    payload: w.body,
  });
  expect(r.statusCode, r.body).toBe(200);
}
async function manual(
  invoice: { id: string; total_amount: number },
  method: 'cash' | 'bank_transfer',
  reference: string,
) {
  const r = await call('POST', `/payments/invoices/${invoice.id}/manual`, staff('billing'), {
    amount: invoice.total_amount,
    payment_method: method,
    reference,
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data as { id: string; transaction_id: string };
}

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set('2026-04-01T09:00:00Z');
  for (const role of ['admin', 'billing', 'support', 'technician'] as const)
    await t.createUser({ email: staff(role), role });
  for (const [key, name] of [
    ['alice', 'Alice Ames'],
    ['bob', 'Bob Brandt'],
    ['carol', 'Carol Cruz'],
  ]) {
    ids[key] = (await t.createUser({ email: `${key}@example.com`, name })).id;
  }
  const gw = await call('POST', '/payments/gateways', staff('admin'), {
    name: 'Sandbox',
    provider: 'sandbox',
    credentials: { webhook_secret: WEBHOOK_SECRET },
    is_default: true,
  });
  expect(gw.statusCode, gw.body).toBe(201);
  sandboxGateway = gw.json().data.id;
  const desk = await call('POST', '/payments/gateways', staff('admin'), {
    name: 'Cash desk',
    provider: 'manual',
    credentials: {},
  });
  expect(desk.statusCode, desk.body).toBe(201);
  manualGateway = desk.json().data.id;
  planId = (
    await call('POST', '/plans', staff('admin'), {
      name: 'Fiber 300',
      download_mbps: 300,
      upload_mbps: 60,
      price: 5000,
      billing_cycle: 'monthly',
    })
  ).json().data.id;

  // Day 1: Alice starts a checkout and leaves it.
  const a = await subscribe('alice@example.com');
  const abandoned = await checkout(a.id, 'alice@example.com');
  made.abandoned = {
    id: abandoned.payment.id,
    transactionId: abandoned.transactionId,
    invoiceId: a.id,
    invoiceNumber: a.number,
  };
  // Day 2: billing records her cash.
  t.clock.advance(DAY_MS);
  const cash = await manual(a, 'cash', 'Receipt-100');
  made.cash = { id: cash.id, transactionId: cash.transaction_id, invoiceId: a.id, invoiceNumber: a.number };
  // Day 3: Bob pays online.
  t.clock.advance(DAY_MS);
  const b = await subscribe('bob@example.com');
  const online = await checkout(b.id, 'bob@example.com');
  await webhook('payment.succeeded', online.transactionId, b.total_amount);
  made.online = {
    id: online.payment.id,
    transactionId: online.transactionId,
    invoiceId: b.id,
    invoiceNumber: b.number,
  };
  // Day 4: Carol's card is declined; day 5 she pays by bank transfer.
  t.clock.advance(DAY_MS);
  const c = await subscribe('carol@example.com');
  const declined = await checkout(c.id, 'carol@example.com');
  await webhook('payment.failed', declined.transactionId, c.total_amount);
  made.declined = {
    id: declined.payment.id,
    transactionId: declined.transactionId,
    invoiceId: c.id,
    invoiceNumber: c.number,
  };
  t.clock.advance(DAY_MS);
  const transfer = await manual(c, 'bank_transfer', 'IBAN-REF-77');
  made.transfer = { id: transfer.id, transactionId: transfer.transaction_id, invoiceId: c.id, invoiceNumber: c.number };
  // Alice's abandoned checkout has expired by now.
  expect(await t.app.paymentExpiry.run()).toMatchObject({ expired: 1 });
});
afterAll(() => t?.close());

type Page = {
  items: PaymentListItem[];
  pagination: { page: number; totalPages: number; total: number; hasNext: boolean; hasPrev: boolean };
};
async function list(query = '', who = staff('billing')): Promise<Page> {
  const r = await call('GET', `/payments${query ? `?${query}` : ''}`, who);
  expect(r.statusCode, r.body).toBe(200);
  expect(r.json()).toMatchObject({ success: true, message: 'Payments retrieved successfully' });
  return r.json().data as Page;
}
const names = (page: Page) => page.items.map((p) => Object.entries(made).find(([, m]) => m.id === p.id)?.[0] ?? p.id);

describe('GET /api/payments', () => {
  it('lists every payment newest first with its customer, invoice and gateway, in the list envelope', async () => {
    const page = await list();
    expect(names(page)).toEqual(['transfer', 'declined', 'online', 'cash', 'abandoned']);
    expect(page.pagination).toEqual({ page: 1, totalPages: 1, total: 5, hasNext: false, hasPrev: false });
    const cash = page.items.find((p) => p.id === made.cash.id)!;
    expect(cash).toMatchObject({
      user_id: ids.alice,
      user_name: 'Alice Ames',
      user_email: 'alice@example.com',
      invoice_id: made.cash.invoiceId,
      invoice_number: made.cash.invoiceNumber,
      provider: 'manual',
      payment_method: 'cash',
      gateway_id: manualGateway,
      gateway_name: 'Cash desk',
      reference: 'Receipt-100',
      status: 'paid',
      amount: 5000,
      currency: 'USD',
    });
    expect(page.items.find((p) => p.id === made.abandoned.id)).toMatchObject({
      status: 'expired',
      gateway_name: 'Sandbox',
      provider: 'sandbox',
    });
    expect(page.items.find((p) => p.id === made.declined.id)).toMatchObject({
      status: 'failed',
      failure_reason: 'Declined by the payer or the provider',
    });
  });

  it('pages on the server', async () => {
    const first = await list('page=1&limit=2');
    expect(names(first)).toEqual(['transfer', 'declined']);
    expect(first.pagination).toEqual({ page: 1, totalPages: 3, total: 5, hasNext: true, hasPrev: false });
    expect(names(await list('page=2&limit=2'))).toEqual(['online', 'cash']);
    const last = await list('page=3&limit=2');
    expect(names(last)).toEqual(['abandoned']);
    expect(last.pagination).toMatchObject({ page: 3, hasNext: false, hasPrev: true });
    const past = await list('page=9&limit=2');
    expect(past.items).toEqual([]);
    expect(past.pagination.total).toBe(5);
    expect((await call('GET', '/payments?limit=101', staff('billing'))).statusCode).toBe(400);
  });

  it('filters by status, provider, method, gateway and customer', async () => {
    expect(names(await list('status=paid'))).toEqual(['transfer', 'online', 'cash']);
    expect(names(await list('status=failed'))).toEqual(['declined']);
    expect(names(await list('status=expired'))).toEqual(['abandoned']);
    expect(names(await list('status=pending'))).toEqual([]);
    expect(names(await list('provider=manual'))).toEqual(['transfer', 'cash']);
    expect(names(await list('provider=sandbox'))).toEqual(['declined', 'online', 'abandoned']);
    expect(names(await list('payment_method=cash'))).toEqual(['cash']);
    expect(names(await list('payment_method=bank_transfer'))).toEqual(['transfer']);
    expect(names(await list(`gateway_id=${sandboxGateway}`))).toEqual(['declined', 'online', 'abandoned']);
    expect(names(await list(`gateway_id=${manualGateway}`))).toEqual(['transfer', 'cash']);
    expect(names(await list(`user_id=${ids.alice}`))).toEqual(['cash', 'abandoned']);
    expect(names(await list(`user_id=${ids.carol}&status=paid`))).toEqual(['transfer']);
    // Empty values are no filter (a cleared select sends status=).
    expect((await list('status=&user_id=&gateway_id=&search=')).pagination.total).toBe(5);
    for (const bad of ['status=bogus', 'user_id=nope', 'gateway_id=12', 'from=yesterday']) {
      const r = await call('GET', `/payments?${bad}`, staff('billing'));
      expect(r.statusCode, bad).toBe(400);
    }
  });

  it('filters by a created date range: days count whole (UTC), instants as given, both ends inclusive', async () => {
    expect(names(await list('from=2026-04-02&to=2026-04-03'))).toEqual(['online', 'cash']);
    expect(names(await list('from=2026-04-04'))).toEqual(['transfer', 'declined']);
    expect(names(await list('to=2026-04-01'))).toEqual(['abandoned']);
    expect(
      names(
        await list(
          `from=${encodeURIComponent('2026-04-03T09:00:00Z')}&to=${encodeURIComponent('2026-04-04T09:00:00.000Z')}`,
        ),
      ),
    ).toEqual(['declined', 'online']);
    expect(names(await list(`to=${encodeURIComponent('2026-04-03T08:59:59+00:00')}`))).toEqual(['cash', 'abandoned']);
    expect((await list('from=2026-05-01')).pagination.total).toBe(0);
  });

  it('searches the reference, the transaction id, the customer e-mail and the invoice number', async () => {
    expect(names(await list('search=receipt-100'))).toEqual(['cash']);
    expect(names(await list(`search=${made.online.transactionId}`))).toEqual(['online']);
    expect(names(await list('search=bob@example'))).toEqual(['online']);
    expect(names(await list(`search=${encodeURIComponent(made.transfer.invoiceNumber)}`))).toEqual([
      'transfer',
      'declined',
    ]);
    expect(names(await list('search=carol&status=failed'))).toEqual(['declined']);
    // LIKE's wildcards are plain characters.
    expect((await list('search=%25')).pagination.total).toBe(0);
    expect((await list('search=nobody-matches')).items).toEqual([]);
  });

  it('admin, billing and support read it; customers and technicians get 403; visitors 401', async () => {
    for (const role of ['admin', 'billing', 'support'])
      expect((await list('limit=1', staff(role))).pagination.total).toBe(5);
    for (const who of ['alice@example.com', staff('technician')]) {
      const r = await call('GET', '/payments', who);
      expect(r.statusCode, who).toBe(403);
      expect(r.json()).toEqual({ success: false, message: 'You do not have permission to perform this action' });
    }
    expect((await call('GET', '/payments')).statusCode).toBe(401);
    // Support reads only: recording and refunding stay with admin and billing.
    expect((await call('POST', `/payments/${made.cash.id}/refund`, staff('support'), {})).statusCode).toBe(403);
  });

  it('keeps its order for payments made in the same instant (id breaks the tie)', async () => {
    t.clock.advance(HOUR_MS);
    // Alice's first order is paid and active: a second one is a new order.
    const d = await subscribe('alice@example.com');
    const one = await checkout(d.id, 'alice@example.com');
    const two = await checkout(d.id, 'alice@example.com');
    const page = await list(`user_id=${ids.alice}&limit=2`);
    expect(page.items.map((p) => p.id)).toEqual([one.payment.id, two.payment.id].sort().reverse());
  });
});
