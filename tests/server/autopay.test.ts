/**
 * Autopay with the Sandbox gateway and a billing run on a controllable clock: a customer saves a test card in the
 * sandbox's hosted set-up flow; the billing run charges it for every invoice it issues (the sandbox's signed
 * webhook, not the charge, marks the invoice paid); refused cards are retried 1, 3 and 5 days after the first
 * attempt with an e-mail each time, then the normal overdue/suspension rules apply; paying by hand reactivates;
 * paid, cancelled or fully-credited invoices are never charged; a replayed run charges nothing twice.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/lib/clock';
import { createTestApp, customersOf, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

const WEBHOOK_SECRET = 'sandbox-autopay-test-secret-0123456789';
const LONG_TOKENS = { accessTokenTtlSeconds: 5 * 365 * 86_400 };

describe('autopay (sandbox) through the billing run', () => {
  const clock = new ManualClock('2026-01-10T10:00:00.000Z');
  let t: TestApp;
  let call: CallAs;
  let planId: string;

  const rows = <T = Record<string, unknown>>(query: ReturnType<typeof sql>) => t.rows<T>(query);
  const customers = customersOf(() => t);
  const as = customers.as;

  /** A customer with an active subscription (first invoice paid in cash) and, when given, a saved sandbox test card. */
  async function customer(email: string, card?: 'ok' | 'declined' | 'auth' | 'expiring') {
    const user = await customers.signIn(email);
    const created = await as(email, 'POST', '/subscriptions', { plan_id: planId });
    expect(created.statusCode, created.body).toBe(201);
    const { subscription, invoice } = created.json().data;
    const paid = await call('POST', `/payments/invoices/${invoice.id}/manual`, 'admin', {
      amount: invoice.total_amount,
      payment_method: 'cash',
      reference: `R-${email}`,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    if (card) await saveCard(email, subscription.id, card);
    return { user, subscriptionId: subscription.id as string };
  }

  async function saveCard(email: string, subscriptionId: string, card: string) {
    const started = await as(email, 'POST', `/subscriptions/${subscriptionId}/autopay/setup`);
    expect(started.statusCode, started.body).toBe(201);
    const url = new URL(started.json().data.paymentUrl);
    expect(url.pathname).toMatch(/^\/api\/payments\/sandbox\/setup\/sbxset_/);
    const page = await t.app.inject({ method: 'GET', url: url.pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Visa •••• 4242');
    const chosen = await t.app.inject({
      method: 'POST',
      url: `${url.pathname}/${card}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(chosen.statusCode, chosen.body).toBe(303);
    expect(chosen.headers.location).toContain(`/subscription/${subscriptionId}?autopay=saved`);
  }

  const detail = async (email: string, subscriptionId: string) =>
    (await as(email, 'GET', `/subscriptions/${subscriptionId}`)).json().data;
  const invoicesOf = (subscriptionId: string) =>
    rows<{ id: string; number: string; status: string; total_amount: number }>(
      sql`select id, number, status, total_amount from invoices where subscription_id = ${subscriptionId} order by number`,
    );
  const paymentsOf = (invoiceId: string) =>
    rows<{ status: string; provider: string; transaction_id: string }>(
      sql`select status, provider, transaction_id from payments where invoice_id = ${invoiceId} order by created_at`,
    );
  const chargesOf = (invoiceId: string) =>
    rows<{ attempt: number; status: string; failure_code: string | null; scheduled_at: Date }>(
      sql`select attempt, status, failure_code, scheduled_at from autopay_charges where invoice_id = ${invoiceId} order by attempt`,
    );
  const mailsTo = async (email: string) => (await t.sentMail()).filter((m) => m.to === email);
  const run = async (at: string) => {
    clock.set(at);
    const res = await call('POST', '/billing/run', 'admin');
    expect(res.statusCode, res.body).toBe(200);
    await t.app.autopay.settled(); // the sandbox's webhooks for accepted charges
    return res.json().data;
  };

  let ann: Awaited<ReturnType<typeof customer>>;
  let bea: Awaited<ReturnType<typeof customer>>;
  let cal: Awaited<ReturnType<typeof customer>>;
  let dan: Awaited<ReturnType<typeof customer>>;
  let eve: Awaited<ReturnType<typeof customer>>;
  let fay: Awaited<ReturnType<typeof customer>>;

  beforeAll(async () => {
    t = await createTestApp({ clock, config: LONG_TOKENS });
    call = await signInEveryRole(t);
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
    const plan = await call('POST', '/plans', 'admin', {
      name: 'Fiber',
      download_mbps: 100,
      upload_mbps: 20,
      price: 3000,
      billing_cycle: 'monthly',
    });
    planId = plan.json().data.id;
    ann = await customer('ann@example.com', 'ok');
    bea = await customer('bea@example.com', 'declined');
    cal = await customer('cal@example.com', 'auth');
    dan = await customer('dan@example.com', 'declined');
    eve = await customer('eve@example.com', 'declined');
    fay = await customer('fay@example.com', 'expiring');
  });
  afterAll(() => t?.close());

  it('a saved card shows on the subscription (brand, last four, expiry) for the customer and staff; other customers see nothing', async () => {
    const mine = await detail('ann@example.com', ann.subscriptionId);
    expect(mine.autopay).toMatchObject({
      enabled: true,
      card: { brand: 'visa', last4: '4242', exp_month: 1, exp_year: 2029 },
      last_failure: null,
      next_retry: null,
    });
    const staff = (await call('GET', `/subscriptions/${ann.subscriptionId}/autopay`, 'billing')).json().data;
    expect(staff.card.last4).toBe('4242');
    expect((await as('bea@example.com', 'GET', `/subscriptions/${ann.subscriptionId}/autopay`)).statusCode).toBe(404);
    const cards = (await as('ann@example.com', 'GET', '/payments/methods')).json().data;
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ brand: 'visa', last4: '4242', subscription_ids: [ann.subscriptionId] });
    expect(JSON.stringify(cards)).not.toContain('sbxpm_');
  });

  it('retry days are a validated billing setting (default 1, 3, 5)', async () => {
    expect((await call('GET', '/settings', 'admin')).json().data.billing.autopay_retry_days).toEqual([1, 3, 5]);
    const bad = await call('PUT', '/settings', 'admin', { billing: { autopay_retry_days: [3, 1] } });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .join(),
    ).toContain('billing.autopay_retry_days');
    expect((await call('PUT', '/settings', 'admin', { billing: { autopay_retry_days: [0] } })).statusCode).toBe(400);
  });

  it('the billing run charges the saved card on issue; the webhook marks the invoice paid; a replayed run charges nothing again', async () => {
    const data = await run('2026-02-03T03:00:00.000Z');
    expect(data.run.counts.renewal_invoices).toBe(6);
    const [, renewal] = await invoicesOf(ann.subscriptionId);
    expect(renewal.status).toBe('paid');
    const payments = await paymentsOf(renewal.id);
    expect(payments).toEqual([expect.objectContaining({ status: 'paid', provider: 'sandbox' })]);
    expect(payments[0].transaction_id).toMatch(/^sbx_pi_/);
    expect(await chargesOf(renewal.id)).toEqual([expect.objectContaining({ attempt: 1, status: 'succeeded' })]);
    expect((await t.lastMailTo('ann@example.com')).subject).toMatch(/payment|received/i);

    const before = (await rows(sql`select id from payments`)).length;
    const again = await run('2026-02-03T20:00:00.000Z');
    expect(again.alreadyRan).toBe(true);
    expect(await t.app.autopay.processDue()).toEqual({ submitted: 0, failed: 0, skipped: 0 });
    expect((await rows(sql`select id from payments`)).length).toBe(before);
  });

  it('a declined card: the customer is e-mailed with the link to pay by hand, staff see the failure and the next retry', async () => {
    const [, renewal] = await invoicesOf(bea.subscriptionId);
    expect(renewal.status).toBe('unpaid');
    expect(await chargesOf(renewal.id)).toMatchObject([
      { attempt: 1, status: 'failed', failure_code: 'card_declined' },
      { attempt: 2, status: 'scheduled' },
    ]);
    // The invoice-issued mail and the failure mail leave together; the SMTP server may take them in either order.
    const mail = (await t.sentMail()).find(
      (m) => m.to === 'bea@example.com' && m.subject === `Automatic payment of invoice ${renewal.number} failed`,
    );
    if (!mail)
      throw new Error(
        `no failure mail to bea: ${(await t.sentMail())
          .filter((m) => m.to === 'bea@example.com')
          .map((m) => m.subject)
          .join(' | ')}`,
      );
    expect(mail.text).toContain(`http://portal.test/invoice/${renewal.id}`);
    expect(mail.text).toContain('We will try again on 2026-02-04');
    const state = (await call('GET', `/subscriptions/${bea.subscriptionId}`, 'admin')).json().data.autopay;
    expect(state).toMatchObject({
      enabled: true,
      last_failure: { code: 'card_declined', message: 'Your card was declined.' },
      next_retry: '2026-02-04T00:00:00.000Z',
    });
    // Authentication required is a failure too.
    const [, calRenewal] = await invoicesOf(cal.subscriptionId);
    expect((await chargesOf(calRenewal.id))[0]).toMatchObject({
      status: 'failed',
      failure_code: 'authentication_required',
    });
  });

  it('no charge for an invoice paid by hand, cancelled, or fully covered by credit before its retry', async () => {
    const [, calRenewal] = await invoicesOf(cal.subscriptionId);
    const manual = await call('POST', `/payments/invoices/${calRenewal.id}/manual`, 'admin', {
      amount: calRenewal.total_amount,
      payment_method: 'cash',
      reference: 'cash-cal',
    });
    expect(manual.statusCode, manual.body).toBe(201);
    const [, danRenewal] = await invoicesOf(dan.subscriptionId);
    await rows(sql`update invoices set status = 'cancelled' where id = ${danRenewal.id}`);
    const [, eveRenewal] = await invoicesOf(eve.subscriptionId);
    await rows(sql`update invoices set credit_applied = total_amount where id = ${eveRenewal.id}`);
    const mails = {
      cal: (await mailsTo('cal@example.com')).length,
      dan: (await mailsTo('dan@example.com')).length,
      eve: (await mailsTo('eve@example.com')).length,
    };

    await run('2026-02-04T03:00:00.000Z');
    for (const invoice of [calRenewal, danRenewal, eveRenewal]) {
      expect((await chargesOf(invoice.id))[1]).toMatchObject({ attempt: 2, status: 'skipped' });
      expect((await paymentsOf(invoice.id)).filter((p) => p.status === 'pending')).toHaveLength(0);
    }
    expect((await paymentsOf(danRenewal.id)).length).toBe(1); // only attempt 1's failed payment
    expect((await mailsTo('dan@example.com')).length).toBe(mails.dan);
    expect((await mailsTo('eve@example.com')).length).toBe(mails.eve);
  });

  it('retries 1, 3 and 5 days after the first attempt, an e-mail each time; then suspension after the grace period; paying by hand reactivates', async () => {
    const [, renewal] = await invoicesOf(bea.subscriptionId);
    expect((await chargesOf(renewal.id))[1]).toMatchObject({ attempt: 2, status: 'failed' }); // the run of 02-04 above
    await run('2026-02-05T03:00:00.000Z'); // nothing due
    expect((await chargesOf(renewal.id))[2]).toMatchObject({ attempt: 3, status: 'scheduled' });
    await run('2026-02-06T03:00:00.000Z');
    await run('2026-02-08T03:00:00.000Z');
    const charges = await chargesOf(renewal.id);
    expect(charges.map((c) => [c.attempt, c.status, new Date(c.scheduled_at).toISOString().slice(0, 10)])).toEqual([
      [1, 'failed', '2026-02-03'],
      [2, 'failed', '2026-02-04'],
      [3, 'failed', '2026-02-06'],
      [4, 'failed', '2026-02-08'],
    ]);
    const failures = (await mailsTo('bea@example.com')).filter(
      (m) => m.subject === `Automatic payment of invoice ${renewal.number} failed`,
    );
    expect(failures).toHaveLength(4);
    expect(failures[3].text).toContain('We will not try again automatically');
    expect((await detail('bea@example.com', bea.subscriptionId)).autopay.next_retry).toBeNull();

    // The normal rules: overdue after the due date (02-10), suspended once due date + 7 days of grace have passed.
    await run('2026-02-11T03:00:00.000Z');
    expect((await invoicesOf(bea.subscriptionId))[1].status).toBe('overdue');
    await run('2026-02-17T03:00:00.000Z');
    expect((await detail('bea@example.com', bea.subscriptionId)).status).toBe('active');
    await run('2026-02-18T03:00:00.000Z');
    expect((await detail('bea@example.com', bea.subscriptionId)).status).toBe('suspended');

    const paid = await call('POST', `/payments/invoices/${renewal.id}/manual`, 'admin', {
      amount: renewal.total_amount,
      payment_method: 'cash',
      reference: 'cash-bea',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    expect((await detail('bea@example.com', bea.subscriptionId)).status).toBe('active');
  });

  it('a card expiring before the next invoice gets one reminder', async () => {
    const reminders = (await mailsTo('fay@example.com')).filter((m) =>
      m.subject.includes('expires before your next invoice'),
    );
    expect(reminders).toHaveLength(1);
    expect(reminders[0].subject).toBe('Your Mastercard card ending in 4444 expires before your next invoice');
    expect(reminders[0].text).toContain(`http://portal.test/subscription/${fay.subscriptionId}`);
  });

  it('removing the card stops autopay (owner or staff; nobody else); turning it on needs a saved card', async () => {
    const [card] = (await as('ann@example.com', 'GET', '/payments/methods')).json().data;
    expect((await as('bea@example.com', 'DELETE', `/payments/methods/${card.id}`)).statusCode).toBe(404);
    const removed = await as('ann@example.com', 'DELETE', `/payments/methods/${card.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await detail('ann@example.com', ann.subscriptionId)).autopay).toMatchObject({ enabled: false, card: null });
    const on = await as('ann@example.com', 'PATCH', `/subscriptions/${ann.subscriptionId}/autopay`, { enabled: true });
    expect(on.statusCode).toBe(409);
    expect(
      (await as('ann@example.com', 'PATCH', `/subscriptions/${ann.subscriptionId}/autopay`, { enabled: 'yes' }))
        .statusCode,
    ).toBe(400);
    const audit = await rows<{ action: string }>(sql`select action from audit_events where action like 'autopay.%'`);
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['autopay.setup_started', 'autopay.card_saved', 'autopay.card_removed']),
    );
    // Turning off and on again with a saved card.
    expect(
      (await as('fay@example.com', 'PATCH', `/subscriptions/${fay.subscriptionId}/autopay`, { enabled: false })).json()
        .data.enabled,
    ).toBe(false);
    expect(
      (await as('fay@example.com', 'PATCH', `/subscriptions/${fay.subscriptionId}/autopay`, { enabled: true })).json()
        .data,
    ).toMatchObject({ enabled: true, card: { last4: '4444' } });
  });
});
