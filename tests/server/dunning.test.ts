/**
 * Issue 38, dunning: the schedule (3 days before the due date, on it, 3 and 7 days after) and the late fee, on a
 * moving manual clock with TWO app instances on one database, both running the daily billing job every day:
 * exactly one message per step and channel, in the customer's language, exactly one late-fee invoice (untaxed, in
 * the books like any invoice); a paid invoice gets no further step; a run after missed days sends only the latest
 * step; a run that rolls back sends nothing; the settings are checked (400 with the field).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { ManualClock } from '../../server/lib/clock';
import { createBillingJob } from '../../server/modules/billing/plugin';
import { booksOf } from '../../server/modules/reconciliation/service';
import { createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

type App = Awaited<ReturnType<typeof buildApp>>;
const DAY_MS = 86_400_000;

describe('dunning on two nodes', () => {
  const clock = new ManualClock('2026-01-10T10:00:00.000Z');
  let t: TestApp;
  let b: App;
  let call: CallAs;
  let planId: string;

  /** A customer in this language with a subscription whose first invoice (issued now, due in 7 days) is unpaid. */
  async function customer(email: string, language: string) {
    const user = await t.createUser({ email, name: email.split('@')[0] });
    await t.rows(sql`update users set language = ${language} where id = ${user.id}`);
    const created = await call('POST', '/subscriptions', 'admin', { plan_id: planId, user_id: user.id });
    expect(created.statusCode, created.body).toBe(201);
    const invoice = created.json().data.invoice as {
      id: string;
      number: string;
      total_amount: number;
      due_date: string;
    };
    return { user, invoice };
  }
  /** Both nodes run the day's billing at once (as their schedulers would); one of them does the work. */
  async function runDay(at: string) {
    clock.set(`${at}T06:00:00.000Z`);
    const results = await Promise.all([
      t.app.billing.job.run({ by: 'scheduler' }),
      b.billing.job.run({ by: 'scheduler' }),
    ]);
    expect(results.filter((r) => !r.alreadyRan)).toHaveLength(1);
    await Promise.all([t.app.notifier.idle(), b.notifier.idle(), b.mail.idle()]);
  }
  async function runDays(from: string, to: string) {
    for (let d = Date.parse(`${from}T00:00:00Z`); d <= Date.parse(`${to}T00:00:00Z`); d += DAY_MS)
      await runDay(new Date(d).toISOString().slice(0, 10));
  }
  const messagesOf = (userId: string) =>
    t.rows<{ event_key: string; channel: string; language: string; subject: string }>(
      sql`select event_key, channel, language, subject from messages where user_id = ${userId} order by created_at, event_key`,
    );
  const mailTo = async (email: string) => (await t.sentMail()).filter((m) => m.to === email);
  const steps = async (invoiceId: string) =>
    (
      await t.rows<{ offset_days: number }>(
        sql`select offset_days from dunning_steps where invoice_id = ${invoiceId} order by offset_days`,
      )
    ).map((r) => r.offset_days);

  beforeAll(async () => {
    t = await createTestApp({ clock, config: { accessTokenTtlSeconds: 5 * 365 * 86_400 } });
    b = await buildApp({ config: t.config, database: t.database, clock, mailer: t.mailer, logger: false });
    call = await signInEveryRole(t);
    expect((await call('PUT', '/settings', 'admin', { tax_rate_bp: 1000 })).statusCode).toBe(200);
    const plan = await call('POST', '/plans', 'admin', {
      name: 'Fibra',
      download_mbps: 50,
      upload_mbps: 10,
      price: 3000,
      billing_cycle: 'monthly',
    });
    planId = plan.json().data.id;
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  it('settings: off by default with the −3/0/3/7 schedule; checked with the field named; admin only', async () => {
    const initial = (await call('GET', '/settings', 'admin')).json().data.dunning;
    expect(initial).toEqual({
      enabled: false,
      steps: [{ offset_days: -3 }, { offset_days: 0 }, { offset_days: 3 }, { offset_days: 7 }],
      late_fee: { type: 'none', amount: 0, percent_bp: 0, after_days: 7 },
    });
    const refused = async (dunning: unknown, field: string) => {
      const res = await call('PUT', '/settings', 'admin', { dunning });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    };
    await refused({ steps: [{ offset_days: 3 }, { offset_days: 3 }] }, 'dunning.steps');
    await refused({ steps: [{ offset_days: 91 }] }, 'dunning.steps.0.offset_days');
    await refused({ steps: [{ offset_days: -31 }] }, 'dunning.steps.0.offset_days');
    await refused({ steps: [{ offset_days: 1.5 }] }, 'dunning.steps.0.offset_days');
    await refused({ late_fee: { type: 'fixed' } }, 'dunning.late_fee.amount');
    await refused({ late_fee: { type: 'percent', percent_bp: 10_001 } }, 'dunning.late_fee.percent_bp');
    await refused({ late_fee: { type: 'percent' } }, 'dunning.late_fee.percent_bp');
    await refused({ late_fee: { type: 'fixed', amount: 500, after_days: 0 } }, 'dunning.late_fee.after_days');
    await refused({ late_fee: { type: 'interest' } }, 'dunning.late_fee.type');
    expect((await call('PUT', '/settings', 'support', { dunning: { enabled: true } })).statusCode).toBe(403);
    // Steps in any order are kept sorted; a late fee's fields not sent are kept.
    const saved = await call('PUT', '/settings', 'admin', {
      dunning: {
        enabled: true,
        steps: [{ offset_days: 7 }, { offset_days: -3 }, { offset_days: 3 }, { offset_days: 0 }],
        late_fee: { type: 'fixed', amount: 500, after_days: 5 },
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.dunning).toEqual({
      enabled: true,
      steps: [{ offset_days: -3 }, { offset_days: 0 }, { offset_days: 3 }, { offset_days: 7 }],
      late_fee: { type: 'fixed', amount: 500, percent_bp: 0, after_days: 5 },
    });
    const audit = await t.rows<{ changes: Record<string, unknown> }>(
      sql`select changes from audit_events where action = 'settings.updated' and target_id = 'dunning'`,
    );
    expect(audit.at(-1)?.changes).toMatchObject({
      enabled: { from: false, to: true },
      type: { from: 'none', to: 'fixed' },
    });
  });

  it('each step once per channel in the customer language, one late fee, nothing after payment', async () => {
    const ana = await customer('ana@example.com', 'es');
    const ben = await customer('ben@example.com', 'en');
    expect(ana.invoice.due_date).toBe('2026-01-17');
    await runDays('2026-01-11', '2026-01-14'); // −3 on the 14th
    const paid = await call('POST', `/payments/invoices/${ben.invoice.id}/manual`, 'admin', {
      amount: ben.invoice.total_amount,
      payment_method: 'cash',
      reference: 'R-ben',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    await runDays('2026-01-15', '2026-01-27');

    const id = ana.invoice.id;
    const anaMessages = await messagesOf(ana.user.id);
    expect(anaMessages.map((m) => `${m.event_key}/${m.channel}/${m.language}`)).toEqual([
      `dunning:${id}:-3/email/es`,
      `dunning:${id}:0/email/es`,
      `dunning:${id}:3/email/es`,
      `late_fee:${id}/email/es`,
      `dunning:${id}:7/email/es`,
    ]);
    expect(await steps(id)).toEqual([-3, 0, 3, 7]);

    // The fee: one invoice for the same customer and subscription, untaxed, in the ledger like any invoice.
    const fees = await t.rows<{
      id: string;
      number: string;
      user_id: string;
      subscription_id: string;
      subtotal: number;
      tax: number;
      total_amount: number;
      status: string;
      issue_date: string;
    }>(
      sql`select id, number, user_id, subscription_id, subtotal, tax, total_amount, status, issue_date::text from invoices where late_fee_for_invoice_id = ${id}`,
    );
    expect(fees).toHaveLength(1);
    const [original] = await t.rows<{ subscription_id: string }>(
      sql`select subscription_id from invoices where id = ${id}`,
    );
    expect(fees[0]).toMatchObject({
      user_id: ana.user.id,
      subscription_id: original.subscription_id,
      subtotal: 500,
      tax: 0,
      total_amount: 500,
      status: 'unpaid', // issued on the 22nd, due on the 29th
      issue_date: '2026-01-22',
    });
    // Paid like any invoice; the customer's books still balance.
    const paidFee = await call('POST', `/payments/invoices/${fees[0].id}/manual`, 'admin', {
      amount: 500,
      payment_method: 'cash',
      reference: 'R-fee',
    });
    expect(paidFee.statusCode, paidFee.body).toBe(201);
    expect(
      (await t.rows<{ status: string }>(sql`select status from invoices where id = ${fees[0].id}`))[0].status,
    ).toBe('paid');
    for (const books of await booksOf(t.database.db, ana.user.id))
      expect(books).toMatchObject({ difference: 0, mismatches: [] });

    // What Ana read, in Spanish: before, on and after the due date (days late, amount due, the pay link), the fee.
    const mails = await mailTo('ana@example.com');
    const link = `/invoice/${id}`;
    const subjects = mails.map((m) => m.subject);
    expect(subjects.filter((s) => s.includes(ana.invoice.number))).toEqual([
      expect.stringMatching(/^Factura .* emitida/),
      expect.stringMatching(/vence en 3 días/),
      expect.stringMatching(/vence hoy/),
      expect.stringMatching(/vencida/), // the overdue e-mail of the 18th, unchanged
      expect.stringMatching(/3 días de retraso/),
      expect.stringMatching(/recargo por mora/),
      expect.stringMatching(/7 días de retraso/),
    ]);
    const seventh = mails.find((m) => m.subject.includes('7 días de retraso'))!;
    expect(seventh.text).toContain('33,00');
    expect(seventh.text).toContain(link);
    expect(seventh.text).toContain(`/invoice/${fees[0].id}`); // the fee is named, with its own page
    const fee = mails.find((m) => m.subject.includes('recargo por mora'))!;
    expect(fee.text).toContain('5,00');
    expect(fee.text).toContain(fees[0].number);

    // Ben paid on the 15th: the −3 reminder (in English) and nothing after.
    expect((await messagesOf(ben.user.id)).map((m) => m.event_key)).toEqual([`dunning:${ben.invoice.id}:-3`]);
    expect((await mailTo('ben@example.com')).map((m) => m.subject)).toContain(
      `Reminder: invoice ${ben.invoice.number} is due in 3 days ($33.00)`,
    );
    expect(await steps(ben.invoice.id)).toEqual([-3]);
    // The late-fee invoice is not dunned and gets no fee of its own.
    expect(await steps(fees[0].id)).toEqual([]);
    expect(await t.rows(sql`select id from invoices where late_fee_for_invoice_id = ${fees[0].id}`)).toEqual([]);
  });

  it('missed days: only the latest step that came is sent, the others recorded', async () => {
    const cleo = await customer('cleo@example.com', 'fr'); // issued 27 January, due 3 February
    const dan = await customer('dan@example.com', 'en');
    await runDays('2026-01-28', '2026-02-04'); // −3 on 31 January, 0 on the 3rd, overdue e-mail on the 4th
    // Nobody runs billing from 5 to 11 February; on the 12th steps 3 and 7 have come (and the late fee).
    await runDay('2026-02-12');
    const id = cleo.invoice.id;
    expect((await messagesOf(cleo.user.id)).map((m) => m.event_key)).toEqual([
      `dunning:${id}:-3`,
      `dunning:${id}:0`,
      `dunning:${id}:7`,
    ]);
    expect(await steps(id)).toEqual([-3, 0, 3, 7]);
    // The fee added the same day is named in the step-7 reminder, not in a notice of its own.
    const [fee] = await t.rows<{ id: string }>(sql`select id from invoices where late_fee_for_invoice_id = ${id}`);
    const seventh = (await mailTo('cleo@example.com')).at(-1)!;
    expect(seventh.subject).toContain('9 jours de retard'); // the step of day 7, said as it is on day 9
    expect(seventh.text).toContain(`/invoice/${fee.id}`);
    expect((await messagesOf(dan.user.id)).map((m) => m.event_key)).toEqual([
      `dunning:${dan.invoice.id}:-3`,
      `dunning:${dan.invoice.id}:0`,
      `dunning:${dan.invoice.id}:7`,
    ]);
    // The next day, run by both nodes: nothing more.
    await runDay('2026-02-13');
    expect(await messagesOf(dan.user.id)).toHaveLength(3);
  });

  it('a run that rolls back sends nothing and records nothing; the next run does the work once', async () => {
    const eve = await customer('eve@example.com', 'en'); // issued 13 February, due the 20th
    await t.rows(sql`update settings set value = jsonb_set(value, '{late_fee,after_days}', '1') where key = 'dunning'`);
    const failing = createBillingJob(t.app, {
      issueInvoice: async () => {
        throw new Error('disk full');
      },
    });
    clock.set('2026-02-21T06:00:00.000Z'); // a day past due: a late fee (fails), step 0 came
    await expect(failing.run({ by: 'scheduler' })).rejects.toThrow('disk full');
    await t.app.notifier.idle();
    expect(await messagesOf(eve.user.id)).toEqual([]);
    expect(await steps(eve.invoice.id)).toEqual([]);
    await runDay('2026-02-21');
    expect(await t.rows(sql`select id from invoices where late_fee_for_invoice_id = ${eve.invoice.id}`)).toHaveLength(
      1,
    );
    expect(await steps(eve.invoice.id)).toEqual([-3, 0]);
    // Step 0 came the day the invoice turned overdue: the overdue e-mail goes out, the reminder not by e-mail too
    // (other channels only); the fee gets its own notice.
    expect((await messagesOf(eve.user.id)).map((m) => m.event_key)).toEqual([`late_fee:${eve.invoice.id}`]);
    const subjects = (await mailTo('eve@example.com')).map((m) => m.subject);
    expect(subjects).toEqual([
      expect.stringContaining('issued'),
      expect.stringContaining('is overdue'),
      expect.stringContaining('A late fee of $5.00 was added'),
    ]);
  });
});
