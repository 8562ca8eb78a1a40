/**
 * Issue 37: the invoice PDF in its owner's language and the voucher sheet in the ISP's (or the chosen) one,
 * checked the way a reader sees them: the pages rendered to images (pdftoppm) and read back by tesseract with its
 * Arabic and Spanish data. Arabic must come out with its letters joined (a word drawn letter by letter makes more
 * separate shapes of ink) and right to left (phrases read in order, the page mirrored: descriptions on the right,
 * amounts on the left).
 */
import { sql } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../contract/money';
import type { Invoice } from '../../contract/schemas/invoice';
import { ManualClock } from '../../server/lib/clock';
import { PdfText } from '../../server/lib/pdf-text';
import { groupedCode } from '../../server/modules/vouchers/cards';
import { cleanUpOcr, ensureOcr, inkShapes, ocrText, ocrWords, renderPages } from '../helpers/ocr';
import { pdfText } from '../helpers/pdf-text';
import { bearer, createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

/**
 * Arabic as tesseract may spell it: without vowel marks or tatweel, hamza forms of alef as alef, final yeh as
 * alef maksura (ى/ي), both sides compared the same way.
 */
const plain = (text: string) =>
  text
    .normalize('NFC')
    .replace(/[\u064B-\u065F\u0670\u0640\u200C-\u200F\u061C\u2066-\u2069]/g, '')
    .replace(/[أإآ]/g, 'ا')
    .replace(/ى/g, 'ي')
    .replace(/\s+/g, ' ');

describe("PDFs in the reader's language, read back by OCR", () => {
  let t: TestApp;
  let as: CallAs;
  const clock = new ManualClock('2026-05-01T08:00:00.000Z');
  const tokens: Record<string, string> = {};
  let planId: string;

  beforeAll(async () => {
    ensureOcr();
    t = await createTestApp({ clock, config: { accessTokenTtlSeconds: 365 * 86_400 } });
    as = await signInEveryRole(t, ['admin', 'billing']);
    const settings = await as('PUT', '/settings', 'admin', {
      company: { name: 'Lakeside Fibre Co', address: '42 Harbour Road', support_email: 'help@lakeside.example' },
      tax_rate_bp: 1000,
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const plan = await as('POST', '/plans', 'admin', {
      name: 'Fiber 500',
      download_mbps: 500,
      upload_mbps: 100,
      price: 6999,
      setup_fee: 1500,
      billing_cycle: 'monthly',
    });
    expect(plan.statusCode, plan.body).toBe(201);
    planId = plan.json().data.id;
    for (const [email, language] of [
      ['layla@example.com', 'ar'],
      ['lucia@example.com', 'es'],
    ] as const) {
      await t.createUser({ email, name: email === 'layla@example.com' ? 'Layla Haddad' : 'Lucía Pérez' });
      tokens[email] = (await t.login(email)).token;
      const profile = await t.app.inject({
        method: 'PUT',
        url: '/api/auth/profile',
        headers: bearer(tokens[email]!),
        payload: { language },
      });
      expect(profile.statusCode, profile.body).toBe(200);
    }
  }, 120_000);
  afterAll(async () => {
    cleanUpOcr();
    await t?.close();
  });

  async function invoiceOf(email: string): Promise<Invoice> {
    const sub = await t.app.inject({
      method: 'POST',
      url: '/api/subscriptions',
      headers: bearer(tokens[email]!),
      payload: { plan_id: planId },
    });
    expect(sub.statusCode, sub.body).toBe(201);
    return sub.json().data.invoice;
  }

  it("an Arabic customer's invoice is Arabic, right to left, its letters joined, whoever downloads it", async () => {
    const invoice = await invoiceOf('layla@example.com');
    // The public link (no token) and staff get the owner's language too.
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/payments/invoices/${invoice.id}/pdf` });
    expect(anonymous.statusCode).toBe(200);
    const byStaff = await as('GET', `/payments/invoices/${invoice.id}/pdf`, 'admin');
    expect((await pdfText(byStaff.rawPayload)).join(' ')).not.toContain('INVOICE');

    const [page] = await renderPages(anonymous.rawPayload, { pages: 1 });
    const read = plain(await ocrText(page!, 'ara+eng'));
    // The title, the labels (two-word ones read in their order: the words are laid out right to left), the
    // status, the line "Plan: Fiber 500" with its English name inside, and the total in Western digits.
    for (const words of ['فاتورة', 'رقم الفاتورة', 'تاريخ الاستحقاق', 'غير مدفوعة', 'المجموع الفرعي', 'الإجمالي'])
      expect(read).toContain(plain(words));
    expect(read).toMatch(/Fiber/);
    expect(read).toContain((invoice.total_amount / 100).toFixed(2));

    // Mirrored: the table's description heading on the right of its amount heading, "Bill to" at the right margin.
    const words = await ocrWords(page!, 'ara');
    const find = (word: string) => words.find((w) => plain(w.text) === plain(word));
    const description = find('الوصف');
    const amount = find('المبلغ');
    expect(description, JSON.stringify(words.map((w) => w.text))).toBeDefined();
    expect(amount).toBeDefined();
    expect(description!.left).toBeGreaterThan(amount!.left + 200);
    const pageWidth = (595.28 / 72) * 200;
    expect(description!.left + description!.width).toBeGreaterThan(pageWidth * 0.85);
  }, 120_000);

  it('joined letters: phrases drawn as the font shapes them read back; drawn letter by letter they do not, in more shapes of ink', async () => {
    // Words with letters in their middle forms (م, س, ت inside a word), which tesseract misreads when isolated.
    const phrases = ['المبلغ المستحق', 'تاريخ الاستحقاق', 'الرصيد المستخدم', 'المجموع الفرعي', 'سعر الوحدة'];
    const draw = async (shape: (phrase: string) => string) => {
      const doc = new PDFDocument({ size: 'A4', margin: 50 });
      const chunks: Buffer[] = [];
      const done = new Promise<Buffer>((resolve) => {
        doc.on('data', (c: Buffer) => chunks.push(c));
        doc.on('end', () => resolve(Buffer.concat(chunks)));
      });
      const text = new PdfText(doc, 'ar');
      phrases.forEach((phrase, i) => {
        text.line(shape(phrase), 50, 60 + i * 40, { size: 16, width: 495 });
      });
      doc.end();
      return done;
    };
    const joined = await draw((phrase) => phrase);
    // The same letters with a zero-width non-joiner between them: each in its isolated form, an unshaped rendering.
    const apart = await draw((phrase) => [...phrase].join('\u200C'));
    const recognised = async (pdf: Buffer) => {
      const read = plain(await ocrText((await renderPages(pdf))[0]!, 'ara'));
      return phrases.filter((phrase) => read.includes(plain(phrase)));
    };
    expect(await recognised(joined)).toEqual(phrases);
    expect((await recognised(apart)).length).toBeLessThanOrEqual(phrases.length - 2);
    const [joinedGray] = await renderPages(joined, { gray: true });
    const [apartGray] = await renderPages(apart, { gray: true });
    expect(inkShapes(joinedGray!) + 20).toBeLessThan(inkShapes(apartGray!));
  }, 120_000);

  it("a Spanish customer's invoice is Spanish, with money and dates written the Spanish way", async () => {
    const invoice = await invoiceOf('lucia@example.com');
    const res = await as('GET', `/payments/invoices/${invoice.id}/pdf`, 'admin');
    expect(res.statusCode).toBe(200);
    const total = formatMoney(invoice.total_amount, invoice.currency, 'es').replace(/\s/g, ' ');
    const text = (await pdfText(res.rawPayload)).join(' ');
    expect(text).toContain('Estado: Pendiente');
    expect(text).toContain(`Total ${total}`);

    const [page] = await renderPages(res.rawPayload, { pages: 1 });
    const read = await ocrText(page!, 'spa');
    for (const words of ['FACTURA', 'Número de factura', 'Fecha de vencimiento', 'Pendiente', 'Descripción', 'Importe'])
      expect(read).toContain(words);
    expect(read).toContain(total.split(' ')[0]);
    expect(read).toMatch(/Lucía Pérez/);
  }, 120_000);

  describe('voucher sheet', () => {
    let batch: { id: string; codes: string[] };
    beforeAll(async () => {
      const res = await as('POST', '/vouchers/batches', 'billing', {
        plan_id: planId,
        count: 4,
        validity_minutes: 10_080,
        data_allowance_mb: 5_120,
        price: 1250,
        code_length: 10,
      });
      expect(res.statusCode, res.body).toBe(201);
      batch = res.json().data;
    });
    const exports = async () =>
      (
        await t.rows<{ n: number }>(
          sql`select count(*)::int as n from audit_events where target_id = ${batch.id} and action = 'voucher_batch.exported'`,
        )
      )[0]!.n;

    it('in Arabic when staff choose it (?language=ar): read back joined, the price and codes left to right', async () => {
      const res = await as('GET', `/vouchers/batches/${batch.id}/cards.pdf?language=ar`, 'billing');
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const [page] = await renderPages(res.rawPayload, { pages: 1 });
      const read = plain(await ocrText(page!, 'ara+eng'));
      expect(read).toContain(plain('صالحة لمدة'));
      expect(read).toContain(plain('من البيانات'));
      expect(read).toContain('12.50');
      expect(read).toContain(plain('Lakeside Fibre Co'));
      const codes = (await pdfText(res.rawPayload)).join(' ');
      for (const code of batch.codes) expect(codes).toContain(groupedCode(code));
    }, 120_000);

    it("in the ISP's default language otherwise, and in any offered one chosen", async () => {
      const setDefault = (language: string) =>
        as('PUT', '/settings', 'admin', { languages: { default: language, offered: ['en', 'es', 'fr', 'id', 'ar'] } });
      expect((await setDefault('es')).statusCode).toBe(200);
      const spanish = (
        await pdfText((await as('GET', `/vouchers/batches/${batch.id}/cards.pdf`, 'billing')).rawPayload)
      )
        .join(' ')
        .normalize('NFC');
      expect(spanish).toContain('Válida 7 días desde el primer uso');
      expect(spanish).toContain('5 GB de datos');
      expect(spanish).toContain('Recorte por las líneas discontinuas.');
      const french = (
        await pdfText((await as('GET', `/vouchers/batches/${batch.id}/cards.pdf?language=fr`, 'billing')).rawPayload)
      )
        .join(' ')
        .normalize('NFC');
      expect(french).toContain('Valable 7 jours dès la première utilisation');
      expect(french).toContain('5 Go de données');
      expect((await setDefault('en')).statusCode).toBe(200);
    }, 60_000);

    it('an unknown ?language is a 400 with the error envelope, and nothing is exported', async () => {
      const before = await exports();
      const res = await as('GET', `/vouchers/batches/${batch.id}/cards.pdf?language=xx`, 'billing');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        errors: [expect.objectContaining({ field: 'language', message: 'Choose one of en, es, fr, id, ar' })],
      });
      expect(await exports()).toBe(before);
    });
  });
});
