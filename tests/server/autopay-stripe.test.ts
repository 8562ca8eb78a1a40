/**
 * Autopay through the Stripe adapter, against a local fake speaking Stripe's wire format
 * (tests/helpers/stripe-fake.ts): the set-up creates a Customer and a Checkout Session in setup mode; the signed
 * checkout.session.completed webhook makes the portal read the SetupIntent's card; the billing run charges it with an
 * off-session PaymentIntent (idempotency key per invoice and attempt) and only the signed payment_intent.succeeded
 * webhook marks the invoice paid; declines and "authentication required" come back as Stripe's 402 card errors.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/lib/clock';
import { stripeSetupFake, stripeWebhooks, type FakeCardBehaviour } from '../helpers/stripe-fake';
import { createTestApp, customersOf, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

const SECRET_KEY = 'sk_test_51FakeKeyForTheAutopayTests000';
const WEBHOOK_SECRET = 'whsec_portal_autopay_test_secret_0123';

describe('autopay with Stripe (local fake)', () => {
  const fake = stripeSetupFake(SECRET_KEY);
  const clock = new ManualClock('2026-01-10T10:00:00.000Z');
  let t: TestApp;
  let call: CallAs;
  let planId: string;

  const rows = <T = Record<string, unknown>>(query: ReturnType<typeof sql>) => t.rows<T>(query);
  const customers = customersOf(() => t);
  const as = customers.as;
  const webhook = stripeWebhooks(() => t.app, WEBHOOK_SECRET, clock);

  const renewalOf = async (subscriptionId: string) =>
    (
      await rows<{ id: string; status: string; total_amount: number }>(
        sql`select id, status, total_amount from invoices where subscription_id = ${subscriptionId} order by number`,
      )
    )[1];

  /** A customer with an active subscription who saves a card (with the given behaviour) through Stripe. */
  async function customerWithCard(email: string, behaviour: FakeCardBehaviour) {
    await customers.signIn(email);
    const created = (await as(email, 'POST', '/subscriptions', { plan_id: planId })).json().data;
    expect(
      (
        await call('POST', `/payments/invoices/${created.invoice.id}/manual`, 'admin', {
          amount: created.invoice.total_amount,
          payment_method: 'cash',
          reference: `R-${email}`,
        })
      ).statusCode,
    ).toBe(201);
    const started = await as(email, 'POST', `/subscriptions/${created.subscription.id}/autopay/setup`);
    expect(started.statusCode, started.body).toBe(201);
    const session = [...fake.sessions.values()].find((s) => s.url === started.json().data.paymentUrl)!;
    const { session: done } = fake.completeSetup(session.id as string, {
      behaviour,
      last4: behaviour === 'succeeds' ? '4242' : '0341',
    });
    const saved = await webhook('checkout.session.completed', done)();
    expect(saved.statusCode, saved.body).toBe(200);
    return { subscriptionId: created.subscription.id as string, session: done };
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
        name: 'Fiber',
        download_mbps: 100,
        upload_mbps: 20,
        price: 4000,
        billing_cycle: 'monthly',
      })
    ).json().data.id;
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => fake.server.close(resolve));
  });

  let ok: Awaited<ReturnType<typeof customerWithCard>>;
  let declined: Awaited<ReturnType<typeof customerWithCard>>;
  let auth: Awaited<ReturnType<typeof customerWithCard>>;

  it('the set-up creates a Stripe Customer and a setup-mode Checkout Session; the webhook saves the SetupIntent’s card', async () => {
    fake.requests.length = 0;
    ok = await customerWithCard('ok@example.com', 'succeeds');
    const customer = fake.requests.find((r) => r.path === '/v1/customers')!;
    expect(customer.headers['idempotency-key']).toMatch(/^customer_[0-9a-f-]{36}$/);
    expect(customer.form.get('email')).toBe('ok@example.com');
    const session = fake.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(session.form.get('mode')).toBe('setup');
    expect(session.form.get('customer')).toMatch(/^cus_/);
    expect(session.form.get('success_url')).toBe(`http://portal.test/subscription/${ok.subscriptionId}?autopay=saved`);
    expect(session.form.get('cancel_url')).toBe(
      `http://portal.test/subscription/${ok.subscriptionId}?autopay=cancelled`,
    );
    const retrieve = fake.requests.find((r) => r.path.startsWith('/v1/setup_intents/'))!;
    expect(retrieve.method).toBe('GET');
    expect([...retrieve.form.values()]).toContain('payment_method');
    const state = (await as('ok@example.com', 'GET', `/subscriptions/${ok.subscriptionId}`)).json().data.autopay;
    expect(state).toMatchObject({
      enabled: true,
      card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
    });
    // A replayed completion changes nothing.
    expect((await webhook('checkout.session.completed', ok.session)()).statusCode).toBe(200);
    expect((await as('ok@example.com', 'GET', '/payments/methods')).json().data).toHaveLength(1);

    declined = await customerWithCard('declined@example.com', 'card_declined');
    auth = await customerWithCard('auth@example.com', 'authentication_required');
  });

  it('the billing run charges off-session with an idempotency key; the invoice is paid only by the payment_intent.succeeded webhook', async () => {
    fake.requests.length = 0;
    clock.set('2026-02-03T03:00:00.000Z');
    expect((await call('POST', '/billing/run', 'admin')).statusCode).toBe(200);
    const charges = fake.requests.filter((r) => r.path === '/v1/payment_intents');
    expect(charges).toHaveLength(3);
    const renewal = await renewalOf(ok.subscriptionId);
    const mine = charges.find((r) => r.form.get('metadata[invoice_id]') === renewal.id)!;
    expect(mine.headers['idempotency-key']).toBe(`autopay_${renewal.id}_1`);
    expect(Object.fromEntries([...mine.form.entries()].filter(([k]) => !k.startsWith('metadata')))).toMatchObject({
      amount: String(renewal.total_amount),
      currency: 'usd',
      off_session: 'true',
      confirm: 'true',
    });
    expect(mine.form.get('metadata[autopay]')).toBe('1');

    // Accepted by Stripe, but not paid until the webhook says so.
    expect(renewal.status).toBe('unpaid');
    const [payment] = await rows<{ status: string; transaction_id: string }>(
      sql`select status, transaction_id from payments where invoice_id = ${renewal.id}`,
    );
    expect(payment.status).toBe('pending');
    const intent = fake.intents.get(payment.transaction_id)!;
    expect(intent).toBeTruthy();

    const succeeded = webhook('payment_intent.succeeded', intent);
    expect((await succeeded()).json().data.outcome).toBe('paid');
    expect((await renewalOf(ok.subscriptionId)).status).toBe('paid');
    expect((await succeeded()).json().data.outcome).toBe('duplicate');
    const [charge] = await rows<{ status: string }>(
      sql`select status from autopay_charges where invoice_id = ${renewal.id}`,
    );
    expect(charge.status).toBe('succeeded');
  });

  it('a declined card and one that requires authentication come back as Stripe card errors: failed, e-mailed, retried', async () => {
    for (const [who, code] of [
      [declined, 'card_declined'],
      [auth, 'authentication_required'],
    ] as const) {
      const renewal = await renewalOf(who.subscriptionId);
      expect(renewal.status).toBe('unpaid');
      const charges = await rows<{
        attempt: number;
        status: string;
        failure_code: string | null;
        failure_message: string | null;
      }>(
        sql`select attempt, status, failure_code, failure_message from autopay_charges where invoice_id = ${renewal.id} order by attempt`,
      );
      expect(charges).toMatchObject([
        { attempt: 1, status: 'failed', failure_code: code },
        { attempt: 2, status: 'scheduled' },
      ]);
      const [payment] = await rows<{ status: string; transaction_id: string }>(
        sql`select status, transaction_id from payments where invoice_id = ${renewal.id}`,
      );
      expect(payment).toMatchObject({ status: 'failed' });
      expect(payment.transaction_id).toMatch(/^pi_/);
    }
    expect((await t.lastMailTo('declined@example.com')).text).toContain('Your card was declined.');
    // Stripe's own payment_failed webhook for it changes nothing more.
    const renewal = await renewalOf(declined.subscriptionId);
    const [payment] = await rows<{ transaction_id: string }>(
      sql`select transaction_id from payments where invoice_id = ${renewal.id}`,
    );
    expect(
      (await webhook('payment_intent.payment_failed', fake.intents.get(payment.transaction_id)!)()).statusCode,
    ).toBe(200);
  });

  it('a charge a crashed run left "processing" is made again with the same idempotency key: one PaymentIntent', async () => {
    const renewal = await renewalOf(declined.subscriptionId);
    clock.set('2026-02-04T03:00:00.000Z');
    // The run of the day charges attempt 2; pretend the process died right after Stripe answered.
    expect((await call('POST', '/billing/run', 'admin')).statusCode).toBe(200);
    await rows(
      sql`update autopay_charges set status = 'processing', updated_at = ${new Date('2026-02-04T02:00:00.000Z')} where invoice_id = ${renewal.id} and attempt = 2`,
    );
    await rows(
      sql`update payments set status = 'pending' where invoice_id = ${renewal.id} and reference = 'Autopay attempt 2'`,
    );
    const before = fake.intents.size;
    fake.requests.length = 0;
    await t.app.autopay.processDue();
    const again = fake.requests.filter((r) => r.path === '/v1/payment_intents');
    expect(again).toHaveLength(1);
    expect(again[0].headers['idempotency-key']).toBe(`autopay_${renewal.id}_2`);
    expect(fake.intents.size).toBe(before); // Stripe replayed its first answer
  });

  it('PaymentIntent events without the autopay metadata are ignored', async () => {
    const res = await webhook('payment_intent.succeeded', {
      id: 'pi_checkout_123',
      object: 'payment_intent',
      amount: 100,
      currency: 'usd',
      metadata: { invoice_id: 'x' },
    })();
    expect(res.json().data.outcome).toBe('ignored');
  });

  it('a card replaced or removed in the portal is detached from the Stripe Customer, so it can never be charged again', async () => {
    const email = 'swap@example.com';
    const first = await customerWithCard(email, 'succeeds');
    const firstCard = [...fake.methods.values()].at(-1)!;
    expect(firstCard.customer).toMatch(/^cus_/);
    // Replace card: a second set-up for the same subscription; the older card is removed and detached.
    const again = await as(email, 'POST', `/subscriptions/${first.subscriptionId}/autopay/setup`);
    const session = [...fake.sessions.values()].find((s) => s.url === again.json().data.paymentUrl)!;
    const { session: done, paymentMethodId } = fake.completeSetup(session.id as string, { last4: '1881' });
    expect((await webhook('checkout.session.completed', done)()).statusCode).toBe(200);
    expect(fake.methods.get(firstCard.id as string)!.customer).toBeNull();
    expect(fake.requests.some((r) => r.path === `/v1/payment_methods/${firstCard.id}/detach`)).toBe(true);
    const cards = (await as(email, 'GET', '/payments/methods')).json().data;
    expect(cards.map((c: { last4: string }) => c.last4)).toEqual(['1881']);
    // Remove card: autopay stops and Stripe no longer holds it for this customer.
    expect((await as(email, 'DELETE', `/payments/methods/${cards[0].id}`)).statusCode).toBe(200);
    expect(fake.methods.get(paymentMethodId)!.customer).toBeNull();
    expect((await as(email, 'GET', `/subscriptions/${first.subscriptionId}`)).json().data.autopay).toMatchObject({
      enabled: false,
      card: null,
    });
  });
});
