/**
 * GET /api/payments/invoices/{id}/pdf: a real PDF (read back with pdf.js's text extractor), reached like the
 * public invoice page through the unguessable uuid; the customer's e-mail only for the owner and staff.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../contract/money';
import type { Invoice } from '../../contract/schemas/invoice';
import { pdfDate } from '../../server/modules/invoices/pdf';
import { pdfText } from '../helpers/pdf-text';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

describe('invoice PDF', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let invoice: Invoice;

  beforeAll(async () => {
    t = await createTestApp();
    for (const [role, name] of [
      ['admin', 'Admin Person'],
      ['user', 'Grace Hopper'],
      ['support', 'Sam Support'],
    ] as const) {
      await t.createUser({ email: `${role}@example.com`, role, name });
      tokens[role] = (await t.login(`${role}@example.com`)).token;
    }
    await t.createUser({ email: 'other@example.com', name: 'Other Customer' });
    tokens.other = (await t.login('other@example.com')).token;
    const settings = await call('PUT', '/settings', 'admin', {
      company: {
        name: 'Lakeside Fibre Co',
        address: '42 Harbour Road, Lakeside',
        support_email: 'help@lakeside.example',
      },
      tax_rate_bp: 1000,
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const plan = await call('POST', '/plans', 'admin', {
      name: 'Fiber 500',
      download_mbps: 500,
      upload_mbps: 100,
      price: 6999,
      setup_fee: 1500,
      billing_cycle: 'monthly',
    });
    expect(plan.statusCode, plan.body).toBe(201);
    const sub = await call('POST', '/subscriptions', 'user', { plan_id: plan.json().data.id });
    expect(sub.statusCode, sub.body).toBe(201);
    invoice = sub.json().data.invoice;
  });
  afterAll(() => t.close());

  function call(method: 'GET' | 'POST' | 'PUT', url: string, who?: string, payload?: unknown) {
    return t.app.inject({
      method,
      url: `/api${url}`,
      headers: who ? bearer(tokens[who]) : {},
      payload: payload as object,
    });
  }
  const download = (id: string, who?: string) => call('GET', `/payments/invoices/${id}/pdf`, who);
  const textOf = async (r: LightMyRequestResponse) => (await pdfText(r.rawPayload)).join('\n');

  it('anyone with the invoice link downloads a real PDF: company, number, dates, customer name, lines, subtotal, tax, total, how to pay', async () => {
    expect(invoice.tax).toBeGreaterThan(0);
    const r = await download(invoice.id);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.headers['content-disposition']).toBe(`attachment; filename="${invoice.number}.pdf"`);
    expect(r.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const text = await textOf(r);
    expect(text).toContain('Lakeside Fibre Co');
    expect(text).toContain('42 Harbour Road, Lakeside');
    expect(text).toContain(invoice.number);
    expect(text).toContain('Grace Hopper');
    expect(text).toContain('Status: Unpaid');
    // Dates as the language writes them (Intl): "Nov 30, 2026" in English.
    expect(text).toContain(`Issue date: ${pdfDate('en', invoice.issue_date)}`);
    expect(text).toContain(`Due date: ${pdfDate('en', invoice.due_date)}`);
    for (const item of invoice.line_items) {
      expect(text).toContain(item.description);
      expect(text).toContain(formatMoney(item.amount, invoice.currency, 'en-US'));
    }
    expect(text).toMatch(
      new RegExp(`Subtotal ${escapeRegExp(formatMoney(invoice.subtotal, invoice.currency, 'en-US'))}`),
    );
    expect(text).toMatch(
      new RegExp(`Tax \\(10%\\) ${escapeRegExp(formatMoney(invoice.tax, invoice.currency, 'en-US'))}`),
    );
    expect(text).toMatch(
      new RegExp(`Total ${escapeRegExp(formatMoney(invoice.total_amount, invoice.currency, 'en-US'))}`),
    );
    expect(text).toContain(`http://portal.test/invoice/${invoice.id}`);
    expect(text).not.toMatch(/\bPAID\b/);
    // The anonymous reader sees what the public page shows: a name, not the e-mail address.
    expect(text).not.toContain('user@example.com');
  });

  it('the e-mail address is added for the owner and for staff who list invoices, not for another customer', async () => {
    expect(await textOf(await download(invoice.id, 'user'))).toContain('user@example.com');
    expect(await textOf(await download(invoice.id, 'admin'))).toContain('user@example.com');
    expect(await textOf(await download(invoice.id, 'support'))).toContain('user@example.com');
    const other = await download(invoice.id, 'other');
    expect(other.statusCode).toBe(200);
    expect(await textOf(other)).not.toContain('user@example.com');
  });

  it('after payment the PDF carries the PAID stamp and the paid date', async () => {
    const paid = await call('POST', `/payments/invoices/${invoice.id}/manual`, 'admin', {
      amount: invoice.total_amount,
      payment_method: 'cash',
      reference: 'counter receipt 17',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const paidDate = pdfDate('en', (await call('GET', `/payments/invoices/${invoice.id}`)).json().data.paid_date);
    const text = await textOf(await download(invoice.id));
    expect(text).toMatch(/\bPAID\b/);
    expect(text).toContain('Status: Paid');
    expect(text).toContain(`Paid date: ${paidDate}`);
    expect(text).toContain(`Paid on ${paidDate}. Thank you.`);
    expect(text).not.toContain('Please pay');
  });

  it('an invoice that used the customer\'s credit shows "Credit applied" and "Amount due", and asks only for the amount due', async () => {
    const found = await call('GET', '/users?search=other%40example.com', 'admin');
    const otherId = found.json().data.items[0].id as string;
    expect(
      (await call('POST', `/users/${otherId}/credit`, 'admin', { amount: 3000, reason: 'Goodwill credit' })).statusCode,
    ).toBe(201);
    const plans = await call('GET', '/plans', 'admin');
    const planId = (plans.json().data.items ?? plans.json().data)[0].id as string;
    const sub = await call('POST', '/subscriptions', 'other', { plan_id: planId });
    const credited: Invoice = sub.json().data.invoice;
    expect(credited.credit_applied).toBe(3000);
    const text = await textOf(await download(credited.id));
    expect(text).toMatch(new RegExp(`Credit applied ${escapeRegExp(formatMoney(-3000, credited.currency, 'en-US'))}`));
    expect(text).toMatch(
      new RegExp(`Amount due ${escapeRegExp(formatMoney(credited.amount_due, credited.currency, 'en-US'))}`),
    );
    expect(text).toContain(`Please pay ${formatMoney(credited.amount_due, credited.currency, 'en-US')} by`);
  });

  it('an unknown invoice answers the 404 envelope; a malformed id 400', async () => {
    const missing = await download('00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toContain('application/json');
    expect(missing.json()).toEqual({ success: false, message: 'Invoice not found' });
    const malformed = await download('not-a-uuid');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({
      success: false,
      errors: [{ field: 'id', message: 'Invoice id must be a valid id' }],
    });
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
