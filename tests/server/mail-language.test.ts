/**
 * Issue 37: the e-mails the server sends are written in the recipient's language (users.language), else in the
 * ISP's default language (settings.languages.default); English stays as it was.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../contract/money';
import { ManualClock } from '../../server/lib/clock';
import { autopayFailedMail, cardExpiringMail, cardLabel } from '../../server/modules/autopay/emails';
import type { InvoiceMailContext } from '../../server/modules/billing/emails';
import { usageNoticeMail } from '../../server/modules/radius/emails';
import es from '../../src/i18n/locales/es.json';
import { createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

async function rows<T = Record<string, unknown>>(t: TestApp, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await t.database.db.execute(query);
  return ((result as unknown as { rows?: T[] }).rows ?? (result as unknown as T[])) as T[];
}

describe('e-mails in the recipient language: the billing run and the invoice notices', () => {
  const clock = new ManualClock('2026-01-10T10:00:00.000Z');
  let t: TestApp;
  let call: CallAs;
  const subs: Record<string, string> = {};

  const customer = async (email: string, language: string | null, pay: boolean) => {
    const user = await t.createUser({ email, name: email.split('@')[0] });
    await t.database.db.execute(sql`update users set language = ${language} where id = ${user.id}`);
    const created = await call('POST', '/subscriptions', 'admin', { plan_id: planId, user_id: user.id });
    expect(created.statusCode, created.body).toBe(201);
    const { subscription, invoice } = created.json().data as {
      subscription: { id: string };
      invoice: { id: string; total_amount: number };
    };
    subs[email] = subscription.id;
    if (pay) {
      const paid = await call('POST', `/payments/invoices/${invoice.id}/manual`, 'admin', {
        amount: invoice.total_amount,
        payment_method: 'cash',
        reference: `R-${email}`,
      });
      expect(paid.statusCode, paid.body).toBe(201);
    }
  };
  let planId: string;
  const run = async (at: string) => {
    clock.set(at);
    const res = await call('POST', '/billing/run', 'admin');
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const invoicesOf = (email: string) =>
    rows<{ id: string; number: string; status: string; total_amount: number; due_date: string }>(
      t,
      sql`select id, number, status, total_amount, due_date::text as due_date from invoices where subscription_id = ${subs[email]} order by number`,
    );

  beforeAll(async () => {
    t = await createTestApp({ clock, config: { accessTokenTtlSeconds: 5 * 365 * 86_400 } });
    call = await signInEveryRole(t);
    await call('PUT', '/settings', 'admin', { tax_rate_bp: 1000 });
    const plan = await call('POST', '/plans', 'admin', {
      name: 'Basic',
      download_mbps: 50,
      upload_mbps: 10,
      price: 3000,
      billing_cycle: 'monthly',
    });
    expect(plan.statusCode, plan.body).toBe(201);
    planId = plan.json().data.id;
    await customer('sofia@example.com', 'es', true);
    await customer('amal@example.com', 'ar', false);
    await customer('nobody@example.com', null, true);
    await customer('edith@example.com', 'en', true);
  });
  afterAll(() => t.close());

  it('the ISP default language is French (offered)', async () => {
    const res = await call('PUT', '/settings', 'admin', {
      languages: { default: 'fr', offered: ['en', 'es', 'fr', 'id', 'ar'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.languages).toMatchObject({ default: 'fr' });
  });

  it('an Arabic customer gets the overdue reminder of the billing run in Arabic', async () => {
    const before = (await t.sentMail()).length;
    await run('2026-01-20T03:00:00.000Z');
    const [first] = await invoicesOf('amal@example.com');
    expect(first.status).toBe('overdue');
    const mail = await t.lastMailTo('amal@example.com');
    expect((await t.sentMail()).length).toBe(before + 1);
    expect(mail.subject).toBe(`الفاتورة ${first.number} متأخرة السداد`);
    expect(mail.text).toContain('مرحبًا amal،');
    expect(mail.text).toContain(`كانت الفاتورة ${first.number} بمبلغ ${formatMoney(3300, 'USD', 'ar-u-nu-latn')}`);
    expect(mail.text).toContain(`المبلغ: ${formatMoney(3300, 'USD', 'ar-u-nu-latn')}`);
    expect(mail.text).toContain('إذا كنت قد دفعت بالفعل، فيُرجى تجاهل هذه الرسالة.');
    expect(mail.text).toContain(`/invoice/${first.id}`);
    expect(mail.text).not.toContain('Invoice');
  });

  it('the renewal invoice e-mail: Spanish for a Spanish customer, French (ISP default) for one with no language, English stays English', async () => {
    await run('2026-02-03T03:00:00.000Z');
    // Spanish, money and date written for Spanish.
    const [, renewal] = await invoicesOf('sofia@example.com');
    const money = formatMoney(3300, 'USD', 'es');
    expect(money).toContain('33,00');
    const spanish = await t.lastMailTo('sofia@example.com');
    expect(spanish.subject).toBe(`Factura ${renewal.number} emitida (${money}, vence el 10 de febrero de 2026)`);
    expect(spanish.subject).toBe(
      es['mail.billing.issued.subject']
        .replace('{number}', renewal.number)
        .replace('{amount}', money)
        .replace('{dueDate}', '10 de febrero de 2026'),
    );
    expect(spanish.text).toContain('Hola, sofia:');
    expect(spanish.text).toContain(
      `Se ha emitido la factura ${renewal.number} por ${money}. Páguela antes del 10 de febrero de 2026.`,
    );
    expect(spanish.text).toContain(`Importe: ${money}`);
    expect(spanish.text).toContain('Fecha de vencimiento: 10 de febrero de 2026');
    expect(spanish.text).toContain(`Véala y páguela en línea: http://portal.test/invoice/${renewal.id}`);
    expect(spanish.text).not.toMatch(/Invoice|Hello|\$33\.00/);

    // No language: the ISP's default (French).
    const [, french] = await invoicesOf('nobody@example.com');
    const euros = formatMoney(3300, 'USD', 'fr');
    const fr = await t.lastMailTo('nobody@example.com');
    expect(fr.subject).toBe(`Facture ${french.number} émise (${euros}, échéance le 10 février 2026)`);
    expect(fr.text).toContain('Bonjour nobody,');
    expect(fr.text).toContain(`Montant : ${euros}`);

    // English, byte for byte as before.
    const [, english] = await invoicesOf('edith@example.com');
    const en = await t.lastMailTo('edith@example.com');
    expect(en.subject).toBe(`Invoice ${english.number} issued ($33.00, due 2026-02-10)`);
    expect(en.text).toContain(
      `Hello edith,\n\nInvoice ${english.number} of $33.00 has been issued. Please pay it by 2026-02-10.\n\nInvoice: ${english.number}\n`,
    );
    expect(en.text).toContain(
      `Amount: $33.00\nDue date: 2026-02-10\n\nView and pay it online: http://portal.test/invoice/${english.id}\n`,
    );
  });

  it('the payment received e-mail (after the request) is in the customer language too', async () => {
    const [, renewal] = await invoicesOf('sofia@example.com');
    clock.set('2026-02-04T10:00:00.000Z');
    const paid = await call('POST', `/payments/invoices/${renewal.id}/manual`, 'admin', {
      amount: renewal.total_amount,
      payment_method: 'cash',
      reference: 'R-sofia-2',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const mail = await t.lastMailTo('sofia@example.com');
    expect(mail.subject).toBe(`Pago recibido de la factura ${renewal.number}`);
    expect(mail.text).toContain(
      `Hemos recibido su pago de ${formatMoney(3300, 'USD', 'es')} de la factura ${renewal.number} el 4 de febrero de 2026. Gracias.`,
    );
  });
});

describe('autopay and fair-use e-mails in a language', () => {
  const context = (language: InvoiceMailContext['language']): InvoiceMailContext => ({
    to: 'a@example.com',
    name: 'Ana',
    company: 'ISP',
    appUrl: 'http://portal.test/',
    language,
    invoice: {
      id: 'inv-1',
      number: 'INV-1',
      totalAmount: 123456,
      currency: 'USD',
      dueDate: '2026-03-01',
      description: 'Basic',
    },
  });

  it('autopay failure and card expiry: English as before, Spanish and Indonesian translated', () => {
    const english = autopayFailedMail({
      ...context('en'),
      amount: 123456,
      card: cardLabel({ brand: 'visa', last4: '4242' }, 'en'),
      reason: 'Card declined',
      nextRetry: '2026-03-02',
    });
    expect(english.subject).toBe('Automatic payment of invoice INV-1 failed');
    expect(english.text).toBe(
      [
        'Hello Ana,',
        '',
        'We tried to charge $1,234.56 for invoice INV-1 to your Visa card ending in 4242, but the payment did not go through: Card declined',
        'We will try again on 2026-03-02.',
        '',
        'You can pay it by hand now: http://portal.test/invoice/inv-1',
        'Due date: 2026-03-01',
        '',
        'ISP',
        '',
      ].join('\n'),
    );
    const spanish = autopayFailedMail({
      ...context('es'),
      amount: 123456,
      card: cardLabel({ brand: 'visa', last4: '4242' }, 'es'),
      reason: 'Card declined',
      nextRetry: null,
    });
    expect(spanish.subject).toBe('Falló el pago automático de la factura INV-1');
    expect(spanish.text).toContain(
      `Intentamos cobrar ${formatMoney(123456, 'USD', 'es')} de la factura INV-1 a su tarjeta Visa terminada en 4242`,
    );
    expect(spanish.text).toContain('No lo volveremos a intentar automáticamente.');
    expect(cardLabel(null, 'fr')).toBe('carte enregistrée');
    const expiring = cardExpiringMail({
      to: 'a@example.com',
      name: 'Ana',
      company: 'ISP',
      appUrl: 'http://portal.test',
      language: 'id',
      card: cardLabel({ brand: 'visa', last4: '4242' }, 'id'),
      expiry: '02/2026',
      subscriptionId: 'sub-1',
      nextInvoice: '2026-03-01',
    });
    expect(expiring.subject).toBe('Masa berlaku kartu Visa berakhiran 4242 Anda berakhir sebelum tagihan berikutnya');
    expect(expiring.text).toContain('Halo Ana,');
    expect(expiring.text).toContain('http://portal.test/subscription/sub-1');
  });

  it('a fair-use notice: English as before, Arabic translated', () => {
    const notice = {
      subscriptionId: 's',
      cycleStart: new Date('2026-01-01T00:00:00Z'),
      tier: 1,
      threshold: 80,
      thresholdBytes: 100 * 1024 ** 3,
      bytes: 80.04 * 1024 ** 3,
      kind: 'tier' as const,
      rate: { downloadKbps: 10_000, uploadKbps: 2_000 },
    };
    const base = {
      to: 'a@example.com',
      name: 'Ana',
      company: 'ISP',
      appUrl: 'http://portal.test',
      planName: 'Basic',
      cycleEnd: new Date('2026-02-01T00:00:00Z'),
    };
    const english = usageNoticeMail({ ...base, language: 'en' }, notice);
    expect(english.subject).toMatch(/^You have used 80 % of [\d.]+ GB this cycle$/);
    expect(english.text).toContain('(the cycle ends on 2026-02-01).');
    expect(english.text).toContain('your speed drops to 10/2 Mbit/s');
    const arabic = usageNoticeMail({ ...base, language: 'ar' }, notice);
    expect(arabic.subject).toMatch(/^لقد استخدمت 80% من [\d.]+ غيغابايت في هذه الدورة$/);
    expect(arabic.text).toContain('تنخفض سرعتك إلى 10/2 Mbit/s');
    expect(arabic.text).toContain('مرحبًا Ana،');
    const reached = usageNoticeMail(
      { ...base, language: 'ar' },
      { ...notice, threshold: 100, kind: 'stop', rate: null },
    );
    expect(reached.subject).toContain('تم بلوغ حد البيانات');
    expect(reached.text).toContain('يتوقف وصولك إلى الإنترنت حتى نهاية الدورة');
  });
});
