import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { ManualClock } from '../../server/lib/clock';
import { createBillingJob } from '../../server/modules/billing/plugin';
import { BillingScheduler } from '../../server/modules/billing/scheduler';
import { issueInvoice } from '../../server/modules/invoices/service';
import { createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

const LONG_TOKENS = { accessTokenTtlSeconds: 5 * 365 * 86_400 };

async function rows<T = Record<string, unknown>>(t: TestApp, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await t.database.db.execute(query);
  return ((result as unknown as { rows?: T[] }).rows ?? (result as unknown as T[])) as T[];
}

/** A customer, a subscription for them (created by admin) and, unless told otherwise, its first invoice paid in cash now. */
async function customerWith(t: TestApp, call: CallAs, planId: string, email: string, opts: { pay?: boolean } = {}) {
  const user = await t.createUser({ email, name: email.split('@')[0] });
  const created = await call('POST', '/subscriptions', 'admin', { plan_id: planId, user_id: user.id });
  expect(created.statusCode, created.body).toBe(201);
  const { subscription, invoice } = created.json().data as {
    subscription: { id: string };
    invoice: { id: string; total_amount: number; number: string };
  };
  if (opts.pay ?? true) {
    const paid = await call('POST', `/payments/invoices/${invoice.id}/manual`, 'admin', {
      amount: invoice.total_amount,
      payment_method: 'cash',
      reference: `R-${email}`,
    });
    expect(paid.statusCode, paid.body).toBe(201);
  }
  return { user, subscriptionId: subscription.id, firstInvoice: invoice };
}

async function newPlan(call: CallAs, name = 'Basic', price = 3000) {
  const res = await call('POST', '/plans', 'admin', {
    name,
    download_mbps: 50,
    upload_mbps: 10,
    price,
    billing_cycle: 'monthly',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as string;
}

const subscription = async (t: TestApp, id: string) =>
  (
    await rows<{ status: string; suspension_reason: string | null; current_period_end: unknown }>(
      t,
      sql`select status, suspension_reason, current_period_end from subscriptions where id = ${id}`,
    )
  )[0];
const invoicesOf = (t: TestApp, subscriptionId: string) =>
  rows<{
    id: string;
    number: string;
    status: string;
    total_amount: number;
    due_date: unknown;
    line_items: Array<{ kind: string; period_start?: string }>;
  }>(
    t,
    sql`select id, number, status, total_amount, due_date::text as due_date, line_items from invoices where subscription_id = ${subscriptionId} order by number`,
  );
const runCount = async (t: TestApp) =>
  Number((await rows<{ n: number }>(t, sql`select count(*)::int as n from billing_runs`))[0].n);

describe('billing job: renewal, overdue, suspension, expiry and their e-mails', () => {
  const clock = new ManualClock('2026-01-10T10:00:00.000Z');
  let t: TestApp;
  let call: CallAs;
  let alice: Awaited<ReturnType<typeof customerWith>>;
  let bob: Awaited<ReturnType<typeof customerWith>>;
  let carol: Awaited<ReturnType<typeof customerWith>>;
  let renewal: { id: string; number: string };
  const run = async (at: string, who: 'admin' | 'super_admin' = 'admin') => {
    clock.set(at);
    const res = await call('POST', '/billing/run', who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    t = await createTestApp({ clock, config: LONG_TOKENS });
    call = await signInEveryRole(t);
    await call('PUT', '/settings', 'admin', { tax_rate_bp: 1000 });
    const plan = await newPlan(call);
    alice = await customerWith(t, call, plan, 'alice@example.com');
    bob = await customerWith(t, call, plan, 'bob@example.com', { pay: false });
    carol = await customerWith(t, call, plan, 'carol@example.com');
    expect(
      (await call('POST', `/subscriptions/${carol.subscriptionId}/cancel`, 'admin', { immediate: false })).statusCode,
    ).toBe(200);
  });
  afterAll(() => t.close());

  it('renewal_days_before is a billing setting: default 7, 0..60, edited through PUT /settings', async () => {
    expect((await call('GET', '/settings', 'admin')).json().data.billing).toMatchObject({
      renewal_days_before: 7,
      grace_days: 7,
    });
    const bad = await call('PUT', '/settings', 'admin', { billing: { renewal_days_before: 61 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { field: string }) => e.field)).toContain('billing.renewal_days_before');
    expect((await call('PUT', '/settings', 'admin', { billing: { renewal_days_before: -1 } })).statusCode).toBe(400);
    const ok = await call('PUT', '/settings', 'admin', { billing: { renewal_days_before: 0 } });
    expect(ok.json().data.billing.renewal_days_before).toBe(0);
    const back = await call('PUT', '/settings', 'admin', { billing: { renewal_days_before: 7 } });
    expect(back.json().data.billing).toMatchObject({ renewal_days_before: 7, grace_days: 7 });
  });

  it('day 10: a first invoice past its due date becomes overdue (reminder sent once); a second run the same day does nothing and answers the first counts', async () => {
    const first = await run('2026-01-20T03:00:00.000Z');
    expect(first).toMatchObject({ success: true, message: 'Billing run completed', data: { alreadyRan: false } });
    expect(first.data.run).toMatchObject({
      run_date: '2026-01-20',
      triggered_by: 'api',
      counts: { overdue_invoices: 1, renewal_invoices: 0, suspended: 0, expired: 0, emails: 1 },
    });
    expect(first.data.run.finished_at).toBeTruthy();
    expect((await invoicesOf(t, bob.subscriptionId))[0].status).toBe('overdue');
    // A pending subscription is not suspended (it never started) and its reminder does not threaten suspension.
    expect((await subscription(t, bob.subscriptionId)).status).toBe('pending');
    const reminder = await t.lastMailTo('bob@example.com');
    expect(reminder.subject).toBe(`Invoice ${bob.firstInvoice.number} is overdue`);
    expect(reminder.text).toContain('$33.00');
    expect(reminder.text).toContain('Due date: 2026-01-17');
    expect(reminder.text).toContain(`http://portal.test/invoice/${bob.firstInvoice.id}`);
    expect(reminder.text).not.toContain('suspended');

    const mails = (await t.sentMail()).length;
    clock.set('2026-01-20T18:00:00.000Z');
    const second = await call('POST', '/billing/run', 'super_admin');
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({
      message: 'Billing already ran today; nothing was done again',
      data: { alreadyRan: true, run: { id: first.data.run.id, counts: first.data.run.counts } },
    });
    expect((await t.sentMail()).length).toBe(mails);
    expect(await runCount(t)).toBe(1);
  });

  it('the renewal invoice is issued 7 days before the period ends, exactly once, with an "invoice issued" e-mail; not for a cancelled subscription', async () => {
    expect((await run('2026-02-02T03:00:00.000Z')).data.run.counts.renewal_invoices).toBe(0);
    const issued = await run('2026-02-03T03:00:00.000Z');
    expect(issued.data.run.counts).toMatchObject({ renewal_invoices: 1, emails: 1 });
    const list = await invoicesOf(t, alice.subscriptionId);
    expect(list).toHaveLength(2);
    const r = list[1];
    renewal = r;
    expect(r).toMatchObject({ status: 'unpaid', total_amount: 3300, due_date: '2026-02-10' });
    expect(r.line_items[0]).toMatchObject({
      kind: 'renewal',
      period_start: '2026-02-10T10:00:00.000Z',
      period_end: '2026-03-10T10:00:00.000Z',
    });
    expect(await invoicesOf(t, carol.subscriptionId)).toHaveLength(1);
    const mail = await t.lastMailTo('alice@example.com');
    expect(mail.subject).toBe(`Invoice ${r.number} issued ($33.00, due 2026-02-10)`);
    expect(mail.text).toContain(`http://portal.test/invoice/${r.id}`);
    expect(mail.text).toContain('Basic (monthly) 2026-02-10 – 2026-03-10');

    // Later days: nothing new for that period.
    for (const at of ['2026-02-04T03:00:00.000Z', '2026-02-05T03:00:00.000Z'])
      expect((await run(at)).data.run.counts.renewal_invoices).toBe(0);
    expect(await invoicesOf(t, alice.subscriptionId)).toHaveLength(2);
  });

  it('a cancelled subscription expires at the end of its period', async () => {
    const before = await run('2026-02-10T09:00:00.000Z');
    expect(before.data.run.counts.expired).toBe(0);
    expect((await subscription(t, carol.subscriptionId)).status).toBe('cancelled');
    // The next day (the period ended at 10:00 on the 10th).
    const after = await run('2026-02-11T03:00:00.000Z');
    expect(after.data.run.counts).toMatchObject({ expired: 1 });
    expect((await subscription(t, carol.subscriptionId)).status).toBe('expired');
  });

  it('the renewal becomes overdue the day after its due date; the reminder names the day after which the service is suspended', async () => {
    // The run of the 11th (previous test) already made it overdue: due the 10th.
    expect((await invoicesOf(t, alice.subscriptionId))[1].status).toBe('overdue');
    const reminder = await t.lastMailTo('alice@example.com');
    expect(reminder.subject).toBe(`Invoice ${renewal.number} is overdue`);
    expect(reminder.text).toContain('If it is still unpaid after 2026-02-17, your service will be suspended.');
    expect(reminder.text).toContain(`http://portal.test/invoice/${renewal.id}`);
    // Reminded once: the next run sends nothing to alice.
    const count = (await t.sentMail()).filter((m) => m.to === 'alice@example.com').length;
    await run('2026-02-12T03:00:00.000Z');
    expect((await t.sentMail()).filter((m) => m.to === 'alice@example.com').length).toBe(count);
  });

  it('the subscription is suspended once the invoice is overdue past the grace days (7), with an e-mail', async () => {
    expect((await run('2026-02-17T03:00:00.000Z')).data.run.counts.suspended).toBe(0);
    expect((await subscription(t, alice.subscriptionId)).status).toBe('active');
    const res = await run('2026-02-18T03:00:00.000Z');
    expect(res.data.run.counts).toMatchObject({ suspended: 1, emails: 1 });
    expect(await subscription(t, alice.subscriptionId)).toMatchObject({
      status: 'suspended',
      suspension_reason: `Overdue invoice ${renewal.number}`,
    });
    const mail = await t.lastMailTo('alice@example.com');
    expect(mail.subject).toBe(`Your Basic service is suspended: invoice ${renewal.number} is unpaid`);
    expect(mail.text).toContain('$33.00');
    expect(mail.text).toContain('due on 2026-02-10');
    expect(mail.text).toContain(`http://portal.test/invoice/${renewal.id}`);
  });

  it('a subscription never paid expires 30 days after the grace period; its unserved renewal invoice is cancelled', async () => {
    expect((await run('2026-03-18T12:00:00.000Z')).data.run.counts.expired).toBe(0);
    expect((await subscription(t, alice.subscriptionId)).status).toBe('suspended');
    const res = await run('2026-03-19T12:00:00.000Z');
    expect(res.data.run.counts).toMatchObject({ expired: 1, cancelled_invoices: 1 });
    expect((await subscription(t, alice.subscriptionId)).status).toBe('expired');
    expect((await invoicesOf(t, alice.subscriptionId)).map((i) => i.status)).toEqual(['paid', 'cancelled']);
    // Bob's pending subscription is untouched: there is no period to end.
    expect((await subscription(t, bob.subscriptionId)).status).toBe('pending');
  });

  it('GET /billing/runs lists the runs newest first, paginated, for admin and billing', async () => {
    const res = await call('GET', '/billing/runs?page=1&limit=3', 'billing');
    expect(res.statusCode).toBe(200);
    const { items, pagination } = res.json().data;
    expect(items.map((r: { run_date: string }) => r.run_date)).toEqual(['2026-03-19', '2026-03-18', '2026-02-18']);
    expect(pagination).toMatchObject({ page: 1, total: await runCount(t), hasNext: true, hasPrev: false });
    expect(items[0].counts).toMatchObject({ expired: 1 });
  });
});

describe('billing job: concurrent runs', () => {
  const clock = new ManualClock('2026-05-01T10:00:00.000Z');
  let t: TestApp;
  let call: CallAs;
  let planId: string;

  beforeAll(async () => {
    t = await createTestApp({ clock, config: LONG_TOKENS });
    call = await signInEveryRole(t, ['admin', 'super_admin']);
    planId = await newPlan(call);
  });
  afterAll(() => t.close());

  const renewalCount = async () =>
    Number(
      (
        await rows<{ n: number }>(
          t,
          sql`select count(*)::int as n from invoices where line_items @> '[{"kind":"renewal"}]'::jsonb`,
        )
      )[0].n,
    );

  it('two POST /billing/run at the same moment: one does the work, the other answers alreadyRan; one set of invoices, one run row', async () => {
    for (const name of ['c1', 'c2', 'c3']) await customerWith(t, call, planId, `${name}@example.com`);
    clock.set('2026-05-26T02:30:00.000Z'); // periods end 2026-06-01: within 7 days
    const [a, b] = await Promise.all([
      call('POST', '/billing/run', 'admin'),
      call('POST', '/billing/run', 'super_admin'),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const flags = [a.json().data.alreadyRan, b.json().data.alreadyRan].sort();
    expect(flags).toEqual([false, true]);
    expect(a.json().data.run.id).toBe(b.json().data.run.id);
    expect(a.json().data.run.counts.renewal_invoices).toBe(3);
    expect(await renewalCount()).toBe(3);
    expect(await runCount(t)).toBe(1);
    const issued = (await t.sentMail()).filter(
      (m) => m.subject.includes('issued') && m.text.includes('2026-06-01 – 2026-07-01'),
    );
    expect(issued).toHaveLength(3);
  });

  it('two app instances on the same database, three runs at once: the work is done once', async () => {
    const second = await buildApp({ config: t.config, database: t.database, clock, mailer: t.mailer, logger: false });
    try {
      for (const name of ['d1', 'd2']) await customerWith(t, call, planId, `${name}@example.com`);
      // Their periods end a month after the 26th; move them to end within the window of the next day.
      await t.database.db.execute(
        sql`update subscriptions set current_period_end = '2026-06-02T10:00:00Z' where user_id in (select id from users where email in ('d1@example.com', 'd2@example.com'))`,
      );
      clock.set('2026-05-27T02:30:00.000Z');
      const results = await Promise.all([
        t.app.billing.job.run({ by: 'scheduler' }),
        second.billing.job.run({ by: 'scheduler' }),
        call('POST', '/billing/run', 'admin').then((r) => r.json().data),
      ]);
      expect(results.filter((r) => !r.alreadyRan)).toHaveLength(1);
      expect(new Set(results.map((r) => r.run.id)).size).toBe(1);
      expect(results[0].run.counts.renewal_invoices).toBe(2);
      expect(await renewalCount()).toBe(5);
      expect(await runCount(t)).toBe(2);
      await second.mail.idle();
      const issued = (await t.sentMail()).filter((m) => m.text.includes('2026-06-02 – 2026-07-02'));
      expect(issued.map((m) => m.to).sort()).toEqual(['d1@example.com', 'd2@example.com']);
    } finally {
      await second.close();
    }
  });
});

describe('billing job: a run that fails half-way', () => {
  const clock = new ManualClock('2026-03-01T10:00:00.000Z');
  let t: TestApp;
  let call: CallAs;

  beforeAll(async () => {
    t = await createTestApp({ clock, config: LONG_TOKENS });
    call = await signInEveryRole(t);
  });
  afterAll(() => t.close());

  it('rolls back everything (invoices, statuses, invoice counter, run row) and sends no e-mail; the next run does it all', async () => {
    const planId = await newPlan(call);
    await call('PUT', '/settings', 'admin', { billing: { renewal_days_before: 30 } });
    // X: active, its renewal (issued by hand) due 2026-03-08 and never paid.
    const x = await customerWith(t, call, planId, 'x@example.com');
    const renewed = await call('PATCH', `/subscriptions/${x.subscriptionId}/renew`, 'admin');
    expect(renewed.statusCode).toBe(200);
    // An invoice made by hand is e-mailed too (after its transaction committed).
    expect((await t.lastMailTo('x@example.com')).subject).toBe('Invoice INV-000002 issued ($30.00, due 2026-03-08)');
    // Y and Z: active from the 11th, periods end 2026-04-11.
    clock.set('2026-03-11T10:00:00.000Z');
    const y = await customerWith(t, call, planId, 'y@example.com');
    const z = await customerWith(t, call, planId, 'z@example.com');

    clock.set('2026-03-21T03:00:00.000Z');
    const snapshot = async () => ({
      invoices: await rows(t, sql`select id, number, status from invoices order by number`),
      subscriptions: await rows(t, sql`select id, status, suspension_reason from subscriptions order by id`),
      counter: (await call('GET', '/settings', 'admin')).json().data.billing.invoice_next_number,
      outbox: Number((await rows<{ n: number }>(t, sql`select count(*)::int as n from mail_outbox`))[0].n),
    });
    await t.sentMail();
    const before = await snapshot();
    const mailsBefore = t.mailer.messages.length;

    let calls = 0;
    const failing = createBillingJob(t.app, {
      issueInvoice: async (tx, input) => {
        calls++;
        if (calls === 2) throw new Error('disk full');
        return issueInvoice(tx, input);
      },
    });
    await expect(failing.run({ by: 'scheduler' })).rejects.toThrow('disk full');
    expect(calls).toBe(2); // it got as far as the second renewal: overdue, suspension and one invoice were written
    await t.sentMail();
    expect(await runCount(t)).toBe(0);
    t.app.settings.invalidate();
    expect(await snapshot()).toEqual(before);
    expect(t.mailer.messages.length).toBe(mailsBefore);

    const res = await call('POST', '/billing/run', 'admin');
    expect(res.json().data).toMatchObject({
      alreadyRan: false,
      run: { run_date: '2026-03-21', counts: { overdue_invoices: 1, suspended: 1, renewal_invoices: 2, emails: 4 } },
    });
    expect((await subscription(t, x.subscriptionId)).status).toBe('suspended');
    // X is suspended now: no renewal is issued for it (its next period was billed by hand anyway).
    expect(await invoicesOf(t, x.subscriptionId)).toHaveLength(2);
    for (const s of [y, z])
      expect((await invoicesOf(t, s.subscriptionId)).map((i) => i.status)).toEqual(['paid', 'unpaid']);
    expect((await call('GET', '/settings', 'admin')).json().data.billing.invoice_next_number).toBe(before.counter + 2);
    const sent = (await t.sentMail()).slice(mailsBefore);
    // Mails leave after commit, each on its own SMTP connection: their arrival order is not fixed.
    expect(
      sent
        .filter((m) => m.to === 'x@example.com')
        .map((m) => m.subject)
        .sort(),
    ).toEqual(['Invoice INV-000002 is overdue', 'Your Basic service is suspended: invoice INV-000002 is unpaid']);
    // Y and Z end their periods at the same moment: which gets INV-000005 and which INV-000006 is not fixed.
    const issued = sent.filter((m) => m.to !== 'x@example.com');
    expect(issued.map((m) => m.to).sort()).toEqual(['y@example.com', 'z@example.com']);
    for (const m of issued) expect(m.subject).toMatch(/^Invoice INV-00000[56] issued \(\$30\.00, due 2026-03-28\)$/);
    expect(new Set(issued.map((m) => m.subject)).size).toBe(2);
  });
});

describe('billing job: who may run it, and the scheduler', () => {
  const clock = new ManualClock('2026-07-01T01:30:00.000Z');
  let t: TestApp;
  let call: CallAs;

  beforeAll(async () => {
    t = await createTestApp({ clock, config: LONG_TOKENS });
    call = await signInEveryRole(t);
  });
  afterAll(() => t.close());

  it('POST /billing/run: admin and super_admin; billing, support, technician, user 403; visitor 401. GET /billing/runs: admin, super_admin, billing', async () => {
    for (const role of ['billing', 'support', 'technician', 'user'] as const)
      expect((await call('POST', '/billing/run', role)).statusCode, role).toBe(403);
    expect((await call('POST', '/billing/run')).statusCode).toBe(401);
    expect(await runCount(t)).toBe(0);
    expect((await call('POST', '/billing/run', 'admin')).json().data.alreadyRan).toBe(false);
    expect((await call('POST', '/billing/run', 'super_admin')).json().data.alreadyRan).toBe(true);
    for (const role of ['admin', 'super_admin', 'billing'] as const) {
      const res = await call('GET', '/billing/runs', role);
      expect(res.statusCode, role).toBe(200);
      expect(res.json().data.items).toHaveLength(1);
      expect(res.json().data.items[0]).toMatchObject({ run_date: '2026-07-01', triggered_by: 'api' });
    }
    for (const role of ['support', 'technician', 'user'] as const)
      expect((await call('GET', '/billing/runs', role)).statusCode, role).toBe(403);
    expect((await call('GET', '/billing/runs')).statusCode).toBe(401);
  });

  it('the scheduler runs once a day, from BILLING_RUN_HOUR (UTC) on; it is off under NODE_ENV=test', async () => {
    expect(t.config.billingScheduler).toBe(false);
    expect(t.app.billing.scheduler).toBeNull();
    const scheduler = new BillingScheduler({ job: t.app.billing.job, clock, hour: 2, log: t.app.log });
    clock.set('2026-07-02T01:59:00.000Z');
    await scheduler.tick();
    expect(await runCount(t)).toBe(1);
    clock.set('2026-07-02T02:00:00.000Z');
    await scheduler.tick();
    expect(await runCount(t)).toBe(2);
    const runs = (await call('GET', '/billing/runs', 'admin')).json().data.items;
    expect(runs[0]).toMatchObject({ run_date: '2026-07-02', triggered_by: 'scheduler', triggered_by_user_id: null });
    clock.set('2026-07-02T23:00:00.000Z');
    await scheduler.tick();
    clock.set('2026-07-03T02:05:00.000Z');
    await scheduler.tick();
    expect(await runCount(t)).toBe(3);
    await scheduler.stop();
  });
});
