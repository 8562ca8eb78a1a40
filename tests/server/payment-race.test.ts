/**
 * Money counts once (issue 21): for one invoice, an autopay charge, its webhook, replays of that webhook (same
 * event id, and new event ids as a provider's redelivery may have) and staff recording a manual payment all race,
 * 20 at once. Whatever order the database lets them in, the invoice is paid once, exactly one payment counts (for
 * exactly the amount due), the subscription is activated once, and money taken twice is given back through the
 * provider. Runs on PGlite and, in CI's PostgreSQL run (npm run test:pg), on PostgreSQL, where the 20 requests
 * really run in parallel on separate connections.
 *
 * Stripe is the local fake speaking Stripe's wire format (tests/helpers/stripe-fake.ts); webhooks are signed with
 * the SDK's own test header generator.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/lib/clock';
import { stripeSetupFake, stripeWebhooks } from '../helpers/stripe-fake';
import { createTestApp, customersOf, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

const SECRET_KEY = 'sk_test_51FakeKeyForTheRaceTests00000000';
const WEBHOOK_SECRET = 'whsec_portal_race_test_secret_0123456';

describe('a charge, its webhook, replays and a manual payment racing for one invoice count once', () => {
  const fake = stripeSetupFake(SECRET_KEY);
  const clock = new ManualClock('2026-03-02T09:00:00.000Z');
  let t: TestApp;
  let call: CallAs;
  let planId: string;

  const rows = <T = Record<string, unknown>>(query: ReturnType<typeof sql>) => t.rows<T>(query);
  const customers = customersOf(() => t);
  const as = customers.as;
  /** Stripe's signed webhook (as Stripe sends it) posted to the portal. */
  const stripeWebhook = stripeWebhooks(() => t.app, WEBHOOK_SECRET, clock);
  const intentWebhook = (intent: Record<string, unknown>, eventId?: string) =>
    stripeWebhook('payment_intent.succeeded', intent, eventId);

  const manual = (invoiceId: string, amount: number, i: number) =>
    call('POST', `/payments/invoices/${invoiceId}/manual`, i % 2 ? 'billing' : 'admin', {
      amount,
      payment_method: 'cash',
      reference: `RACE-${i}`,
    });

  /**
   * A customer whose pending subscription has a saved Stripe card (autopay on) and whose first invoice is unpaid,
   * with attempt 1 of an autopay charge for it scheduled now (what the billing run writes for an autopay invoice).
   */
  async function customerWithScheduledCharge(email: string) {
    await customers.signIn(email);
    const created = await as(email, 'POST', '/subscriptions', { plan_id: planId });
    expect(created.statusCode, created.body).toBe(201);
    const { subscription, invoice } = created.json().data;
    const started = await as(email, 'POST', `/subscriptions/${subscription.id}/autopay/setup`);
    expect(started.statusCode, started.body).toBe(201);
    const session = [...fake.sessions.values()].find((s) => s.url === started.json().data.paymentUrl)!;
    const { session: done } = fake.completeSetup(session.id as string, { behaviour: 'succeeds' });
    const saved = await stripeWebhook('checkout.session.completed', done)();
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await as(email, 'GET', `/subscriptions/${subscription.id}`)).json().data.autopay).toMatchObject({
      enabled: true,
      card: { last4: '4242' },
    });
    await t.database.db.execute(
      sql`insert into autopay_charges (invoice_id, subscription_id, attempt, status, scheduled_at) values (${invoice.id}, ${subscription.id}, 1, 'scheduled', ${clock.now().toISOString()})`,
    );
    return {
      invoice: invoice as { id: string; total_amount: number; amount_due: number },
      subscriptionId: subscription.id as string,
    };
  }

  /** What a user would notice about the invoice afterwards: its status, what was counted, what was given back. */
  async function outcome(invoiceId: string, subscriptionId: string) {
    const [invoice] = await rows<{ status: string; paid_date: Date | string | null }>(
      sql`select status, paid_date from invoices where id = ${invoiceId}`,
    );
    const pays = await rows<{
      id: string;
      provider: string;
      status: string;
      amount: number;
      transaction_id: string;
      failure_reason: string | null;
    }>(
      sql`select id, provider, status, amount, transaction_id, failure_reason from payments where invoice_id = ${invoiceId} order by created_at`,
    );
    const [sub] = await rows<{
      status: string;
      current_period_start: Date | string | null;
      current_period_end: Date | string | null;
    }>(sql`select status, current_period_start, current_period_end from subscriptions where id = ${subscriptionId}`);
    return { invoice, pays, paid: pays.filter((p) => p.status === 'paid'), sub };
  }

  beforeAll(async () => {
    const base = await fake.listen();
    t = await createTestApp({ clock, config: { stripeApiBase: base, accessTokenTtlSeconds: 5 * 365 * 86_400 } });
    call = await signInEveryRole(t);
    const gateway = await call('POST', '/payments/gateways', 'admin', {
      name: 'Stripe',
      provider: 'stripe',
      mode: 'test',
      credentials: { secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET },
      is_active: true,
      is_default: true,
    });
    expect(gateway.statusCode, gateway.body).toBe(201);
    planId = (
      await call('POST', '/plans', 'admin', {
        name: 'Fiber race',
        download_mbps: 100,
        upload_mbps: 20,
        price: 4500,
        billing_cycle: 'monthly',
      })
    ).json().data.id;
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => fake.server.close(resolve));
  });

  it('the charge is made first; then 20 at once: its webhook, 11 replays of it (7 same event id, 4 new ids), 6 manual payments, 2 more charge runs', async () => {
    const { invoice, subscriptionId } = await customerWithScheduledCharge('rita@example.com');
    expect(invoice.amount_due).toBe(invoice.total_amount);
    expect(await t.app.autopay.processDue()).toEqual({ submitted: 1, failed: 0, skipped: 0 });
    const [pending] = (await outcome(invoice.id, subscriptionId)).pays;
    expect(pending).toMatchObject({ provider: 'stripe', status: 'pending', amount: invoice.amount_due });
    const intent = fake.intents.get(pending.transaction_id)!;
    expect(intent.status).toBe('succeeded');

    const first = intentWebhook(intent, 'evt_race_first');
    const attempts: Array<Promise<{ kind: string; status: number; outcome?: string }>> = [];
    const hook = (send: () => ReturnType<typeof first>, kind: string) =>
      attempts.push(
        send().then((r) => ({ kind, status: r.statusCode, outcome: r.json().data?.outcome as string | undefined })),
      );
    hook(first, 'webhook');
    for (let i = 0; i < 7; i++) hook(first, 'replay');
    for (let i = 0; i < 4; i++) hook(intentWebhook(intent), 'redelivery');
    for (let i = 0; i < 6; i++)
      attempts.push(manual(invoice.id, invoice.amount_due, i).then((r) => ({ kind: 'manual', status: r.statusCode })));
    for (let i = 0; i < 2; i++)
      attempts.push(t.app.autopay.processDue().then((c) => ({ kind: 'charge', status: c.submitted ? 201 : 200 })));
    expect(attempts).toHaveLength(20);
    const answers = await Promise.all(attempts);

    // No request failed: duplicates and losers get calm answers (200 duplicate/already counted, 409 for staff).
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(answers.filter((a) => a.kind === 'charge' && a.status === 201)).toEqual([]); // never charged again
    const after = await outcome(invoice.id, subscriptionId);
    expect(after.invoice.status).toBe('paid');
    expect(after.paid).toHaveLength(1);
    expect(after.paid[0].amount).toBe(invoice.amount_due);
    const wonByManual = after.paid[0].provider === 'manual';
    const manualOk = answers.filter((a) => a.kind === 'manual' && a.status === 201);
    expect(manualOk).toHaveLength(wonByManual ? 1 : 0);
    expect(answers.filter((a) => a.kind === 'manual' && a.status !== 201).every((a) => a.status === 409)).toBe(true);
    const webhookPaid = answers.filter((a) => a.outcome === 'paid');
    expect(webhookPaid).toHaveLength(wonByManual ? 0 : 1);
    // The event id is recorded once; every other delivery of it is a duplicate.
    const [{ n }] = await rows<{ n: number }>(
      sql`select count(*)::int as n from webhook_events where provider = 'stripe' and event_id = 'evt_race_first'`,
    );
    expect(n).toBe(1);
    // The card's money, if the manual payment beat its webhook, was given back through Stripe; never both kept.
    const card = after.pays.find((p) => p.id === pending.id)!;
    if (wonByManual) {
      expect(card.status).toBe('refunded');
      expect(fake.refunds.filter((r) => r.payment_intent === intent.id)).toHaveLength(1);
    } else {
      expect(card.status).toBe('paid');
      expect(fake.refunds.filter((r) => r.payment_intent === intent.id)).toHaveLength(0);
    }
    // Activated once: the first period starts when the invoice was paid and lasts one month.
    expect(after.sub.status).toBe('active');
    const start = new Date(after.sub.current_period_start!);
    const end = new Date(after.sub.current_period_end!);
    expect(start.toISOString()).toBe(new Date(after.invoice.paid_date!).toISOString());
    expect(end.getUTCMonth()).toBe((start.getUTCMonth() + 1) % 12);
    // Nothing left to charge: the autopay charge for this invoice ended, no attempt is scheduled.
    const charges = await rows<{ status: string }>(
      sql`select status from autopay_charges where invoice_id = ${invoice.id}`,
    );
    expect(charges.map((c) => c.status)).toEqual([wonByManual ? 'submitted' : 'succeeded']);
  });

  it('20 at once before the charge is made: 10 charge runs and 10 manual payments; then the webhook and its replays; counted once', async () => {
    const { invoice, subscriptionId } = await customerWithScheduledCharge('sami@example.com');
    const attempts: Array<Promise<{ kind: string; status: number }>> = [];
    for (let i = 0; i < 10; i++) {
      attempts.push(
        t.app.autopay.processDue().then((c) => ({ kind: 'charge', status: c.submitted ? 201 : c.skipped ? 204 : 200 })),
      );
      attempts.push(manual(invoice.id, invoice.amount_due, i).then((r) => ({ kind: 'manual', status: r.statusCode })));
    }
    const answers = await Promise.all(attempts);
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    // The charge is claimed by one run only: at most one PaymentIntent for this invoice at Stripe.
    const intents = [...fake.intents.values()].filter(
      (i) => (i.metadata as Record<string, string>).invoice_id === invoice.id,
    );
    expect(intents.length).toBeLessThanOrEqual(1);
    expect(answers.filter((a) => a.kind === 'charge' && a.status === 201).length).toBe(intents.length);
    // Stripe's webhook for the charge (if one was made) arrives now, twice at once, plus a late replay.
    if (intents.length) {
      const send = intentWebhook(intents[0]);
      const hooks = await Promise.all([send(), send(), intentWebhook(intents[0])()]);
      expect(hooks.map((h) => h.statusCode).every((s) => s === 200)).toBe(true);
    }
    const after = await outcome(invoice.id, subscriptionId);
    expect(after.invoice.status).toBe('paid');
    expect(after.paid).toHaveLength(1);
    expect(after.paid[0].amount).toBe(invoice.amount_due);
    const manualOk = answers.filter((a) => a.kind === 'manual' && a.status === 201);
    expect(manualOk).toHaveLength(after.paid[0].provider === 'manual' ? 1 : 0);
    expect(answers.filter((a) => a.kind === 'manual' && a.status !== 201).every((a) => a.status === 409)).toBe(true);
    // A card payment that lost to the manual one was refunded; none is left pending or counted.
    for (const p of after.pays.filter((x) => x.provider === 'stripe'))
      expect(['paid', 'refunded', 'failed']).toContain(p.status);
    const refundedAtStripe = fake.refunds.filter((r) => intents.some((i) => i.id === r.payment_intent)).length;
    expect(refundedAtStripe).toBe(after.pays.filter((x) => x.provider === 'stripe' && x.status === 'refunded').length);
    expect(after.sub.status).toBe('active');
  });

  it('the card charge loses to cash recorded first: its webhook is not counted and the money goes back through Stripe (refund on the PaymentIntent)', async () => {
    const { invoice, subscriptionId } = await customerWithScheduledCharge('tom@example.com');
    expect(await t.app.autopay.processDue()).toEqual({ submitted: 1, failed: 0, skipped: 0 });
    const [card] = (await outcome(invoice.id, subscriptionId)).pays;
    expect((await manual(invoice.id, invoice.amount_due, 0)).statusCode).toBe(201);
    const late = await intentWebhook(fake.intents.get(card.transaction_id)!)();
    expect(late.statusCode).toBe(200);
    expect(late.json().data.outcome).toBe('not_counted');
    const after = await outcome(invoice.id, subscriptionId);
    expect(after.paid.map((p) => p.provider)).toEqual(['manual']);
    expect(after.pays.find((p) => p.id === card.id)).toMatchObject({
      status: 'refunded',
      failure_reason: expect.stringMatching(/refunded automatically \(re_/),
    });
    expect(fake.refunds.filter((r) => r.payment_intent === card.transaction_id)).toEqual([
      expect.objectContaining({ amount: invoice.amount_due }),
    ]);
  });
});
