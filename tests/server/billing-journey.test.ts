/**
 * The whole billing journey through the API only: a visitor registers, verifies the e-mail, subscribes, pays
 * on the sandbox checkout; the daily billing run issues the renewal, marks it overdue, suspends the service;
 * paying the overdue renewal on the sandbox checkout reactivates it with the period moved on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/lib/clock';
import { bearer, createTestApp, linkIn, type TestApp } from '../helpers/server';

const WEBHOOK_SECRET = 'whsec_billing_journey_secret_42';
const EMAIL = 'dana@example.com';

describe('billing journey: register → subscribe → pay → renewal → overdue → suspended → pay → active', () => {
  const clock = new ManualClock('2026-09-01T08:00:00.000Z');
  let t: TestApp;
  let admin: string;
  let dana: string;
  let planId: string;
  let subscriptionId: string;

  beforeAll(async () => {
    t = await createTestApp({ clock, config: { accessTokenTtlSeconds: 5 * 365 * 86_400 } });
    await t.createUser({ email: 'admin@example.com', role: 'admin' });
    admin = (await t.login('admin@example.com')).token;
    const gw = await api('POST', '/payments/gateways', admin, {
      name: 'Sandbox',
      provider: 'sandbox',
      credentials: { webhook_secret: WEBHOOK_SECRET },
      is_default: true,
    });
    expect(gw.statusCode, gw.body).toBe(201);
    const plan = await api('POST', '/plans', admin, {
      name: 'Fiber 100',
      download_mbps: 100,
      upload_mbps: 20,
      price: 4000,
      setup_fee: 1500,
      billing_cycle: 'monthly',
    });
    planId = plan.json().data.id;
  });
  afterAll(() => t.close());

  function api(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, token?: string, payload?: unknown) {
    return t.app.inject({ method, url: `/api${url}`, headers: token ? bearer(token) : {}, payload: payload as object });
  }
  const mailsTo = async (email: string) => (await t.sentMail()).filter((m) => m.to === email);
  const runBilling = async (at: string) => {
    clock.set(at);
    const res = await api('POST', '/billing/run', admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.alreadyRan).toBe(false);
    return res.json().data.run.counts;
  };
  const myInvoices = async () =>
    (await api('GET', '/payments/user/invoices', dana)).json().data.items as Array<{
      id: string;
      number: string;
      status: string;
      total_amount: number;
      due_date: string;
    }>;
  const mySubscription = async () => (await api('GET', `/subscriptions/${subscriptionId}`, dana)).json().data;
  /** Pays an invoice as the customer on the sandbox's hosted checkout (Approve posts the signed webhook). */
  async function payOnSandbox(invoiceId: string) {
    const initiated = await api('POST', '/payments/initiate', dana, { invoice_id: invoiceId });
    expect(initiated.statusCode, initiated.body).toBe(201);
    const { transactionId } = initiated.json().data;
    const approve = await t.app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/checkout/${transactionId}/approve`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(approve.statusCode).toBe(303);
    expect(approve.headers.location).toBe(`http://portal.test/invoice/${invoiceId}?payment=paid`);
  }

  it('registers, verifies the e-mail with the token from the outbox, signs in', async () => {
    const reg = await api('POST', '/auth/register', undefined, {
      name: 'Dana Doe',
      email: EMAIL,
      password: 'long-enough-1',
      phone: '+1 555 0123',
      address: '9 Elm Street',
      company: '',
    });
    expect(reg.statusCode, reg.body).toBe(201);
    await t.app.mail.idle();
    const outbox = await api('GET', '/mail/outbox', admin);
    const verification = outbox.json().data.items.find((m: { to: string }) => m.to === EMAIL);
    expect(verification).toBeTruthy();
    const { token } = linkIn(verification);
    const verified = await api('GET', `/auth/verify-email?token=${encodeURIComponent(token)}`);
    expect(verified.statusCode).toBeLessThan(400);
    dana = (await t.login(EMAIL, 'long-enough-1')).token;
  });

  it('subscribes (invoice issued e-mail) and pays on the sandbox checkout: invoice paid, subscription active, payment received e-mail', async () => {
    const sub = await api('POST', '/subscriptions', dana, { plan_id: planId, location: '9 Elm Street' });
    expect(sub.statusCode, sub.body).toBe(201);
    const { subscription, invoice } = sub.json().data;
    subscriptionId = subscription.id;
    expect(subscription.status).toBe('pending');
    expect(invoice.total_amount).toBe(5500);
    const issued = (await mailsTo(EMAIL)).find((m) => m.subject.startsWith(`Invoice ${invoice.number} issued`));
    expect(issued?.text).toContain('$55.00');
    expect(issued?.text).toContain(`http://portal.test/invoice/${invoice.id}`);

    clock.set('2026-09-01T09:00:00.000Z');
    await payOnSandbox(invoice.id);
    expect((await myInvoices()).find((i) => i.id === invoice.id)?.status).toBe('paid');
    expect(await mySubscription()).toMatchObject({
      status: 'active',
      current_period_start: '2026-09-01T09:00:00.000Z',
      current_period_end: '2026-10-01T09:00:00.000Z',
    });
    const receipt = (await mailsTo(EMAIL)).at(-1)!;
    expect(receipt.subject).toBe(`Payment received for invoice ${invoice.number}`);
    expect(receipt.text).toContain('$55.00');
    expect(receipt.text).toContain('on 2026-09-01');
  });

  let renewal: { id: string; number: string };

  it('a week before the period ends the billing run issues the renewal invoice and e-mails it', async () => {
    expect((await runBilling('2026-09-23T03:00:00.000Z')).renewal_invoices).toBe(0);
    expect((await runBilling('2026-09-24T03:00:00.000Z')).renewal_invoices).toBe(1);
    const open = (await myInvoices()).filter((i) => i.status === 'unpaid');
    expect(open).toHaveLength(1);
    renewal = open[0];
    expect(open[0]).toMatchObject({ total_amount: 4000, due_date: '2026-10-01' });
    const mail = (await mailsTo(EMAIL)).at(-1)!;
    expect(mail.subject).toBe(`Invoice ${renewal.number} issued ($40.00, due 2026-10-01)`);
    expect(mail.text).toContain(`http://portal.test/invoice/${renewal.id}`);
  });

  it('unpaid after the due date: overdue, with a reminder; still active during the grace days', async () => {
    expect((await runBilling('2026-10-01T03:00:00.000Z')).overdue_invoices).toBe(0);
    expect((await runBilling('2026-10-02T03:00:00.000Z')).overdue_invoices).toBe(1);
    expect((await myInvoices()).find((i) => i.id === renewal.id)?.status).toBe('overdue');
    expect((await mailsTo(EMAIL)).at(-1)!.subject).toBe(`Invoice ${renewal.number} is overdue`);
    expect((await mySubscription()).status).toBe('active');
  });

  it('past the grace days (7): suspended, with an e-mail', async () => {
    expect((await runBilling('2026-10-08T03:00:00.000Z')).suspended).toBe(0);
    expect((await runBilling('2026-10-09T03:00:00.000Z')).suspended).toBe(1);
    expect(await mySubscription()).toMatchObject({
      status: 'suspended',
      suspension_reason: `Overdue invoice ${renewal.number}`,
    });
    expect((await mailsTo(EMAIL)).at(-1)!.subject).toBe(
      `Your Fiber 100 service is suspended: invoice ${renewal.number} is unpaid`,
    );
    expect((await api('GET', '/subscriptions/active-plan', dana)).statusCode).toBe(404);
  });

  it('paying the overdue renewal on the sandbox reactivates the service with the period moved on; the next renewal bills the period after', async () => {
    clock.set('2026-10-09T15:00:00.000Z');
    await payOnSandbox(renewal.id);
    expect((await myInvoices()).find((i) => i.id === renewal.id)?.status).toBe('paid');
    expect(await mySubscription()).toMatchObject({
      status: 'active',
      suspension_reason: null,
      current_period_start: '2026-10-01T09:00:00.000Z',
      current_period_end: '2026-11-01T09:00:00.000Z',
    });
    expect((await mailsTo(EMAIL)).at(-1)!.subject).toBe(`Payment received for invoice ${renewal.number}`);
    expect((await api('GET', '/subscriptions/active-plan', dana)).statusCode).toBe(200);

    expect((await runBilling('2026-10-25T03:00:00.000Z')).renewal_invoices).toBe(1);
    const next = (await myInvoices()).filter((i) => i.status === 'unpaid');
    expect(next).toHaveLength(1);
    expect(next[0].due_date).toBe('2026-11-01');
    expect((await mailsTo(EMAIL)).at(-1)!.text).toContain('Fiber 100 (monthly) 2026-11-01 – 2026-12-01');
  });
});
