/**
 * The invoice as a PDF (GET /api/payments/invoices/{id}/pdf), drawn with pdfkit in the invoice owner's language
 * (issue 37): the company (settings), invoice number, status (a PAID stamp once paid), issue/due/paid dates, who
 * it is billed to, the line items, subtotal, tax and total, and how to pay (the public invoice page) or when it
 * was paid. Texts are the pdf.invoice.* keys (src/i18n/en/mail/pdf.ts and the languages' files); money, dates and
 * numbers are written by Intl in the language's locale; the fonts, joined Arabic letters and right-to-left lines
 * come from server/lib/pdf-text.ts. In Arabic the page is mirrored: the company and the descriptions on the right,
 * the title, dates and amounts on the left.
 */
import PDFDocument from 'pdfkit';
import type { LanguageCode } from '../../../contract/languages';
import { formatMoney } from '../../../contract/money';
import { dayIn } from '../../../contract/time-zone';
import type { Invoice, InvoiceLineItem } from '../../../contract/schemas/invoice';
import { localeOf } from '../../i18n';
import { PdfText, pdfTranslator } from '../../lib/pdf-text';

export interface InvoicePdfInput {
  invoice: Invoice;
  company: { name: string; address: string; support_email: string; support_phone: string };
  /** email: null when the reader may not see it (the anonymous, public-link reader). */
  customer: { name: string; email: string | null };
  planName: string | null;
  /** The public invoice page, where it can be paid online. */
  publicUrl: string;
  /** The invoice owner's language (their users.language, else the ISP's default), whoever downloads it. */
  language: LanguageCode;
  /** The ISP's time zone (settings.time_zone): the paid date is the day the payment came in there; null: in UTC. */
  timeZone?: string | null;
}

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * "2026-11-23" or an ISO timestamp → the day in the language ("Nov 23, 2026", "23 nov 2026"): a calendar day as it
 * is, a timestamp as its UTC day, or with `timeZone` (for a moment: the paid date) as the day it fell on there.
 */
export function pdfDate(language: LanguageCode, value: string, timeZone?: string | null): string {
  const moment = timeZone && !CALENDAR_DAY.test(value) ? new Date(value) : null; // a calendar day never moves
  const day = moment && !Number.isNaN(moment.getTime()) ? dayIn(moment, timeZone) : value.slice(0, 10);
  return new Intl.DateTimeFormat(localeOf(language), { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/**
 * Money in the language's locale; the currency sign kept left to right as one piece ("US$", not "$US", inside an
 * Arabic line) by an isolate around it.
 */
export function pdfMoney(language: LanguageCode, minor: number, currency: string): string {
  const text = formatMoney(minor, currency, localeOf(language));
  return language === 'ar' ? text.replace(/[A-Za-z]+[^\d\s\u00A0\u200E\u200F\u061C.,-]*/u, '\u2066$&\u2069') : text;
}

/** A file name safe for Content-Disposition: the invoice number without quotes, slashes or control characters. */
export function invoicePdfFilename(number: string): string {
  const safe = number.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '');
  return `${safe || 'invoice'}.pdf`;
}

export function renderInvoicePdf(input: InvoicePdfInput): Promise<Buffer> {
  const { invoice, company, customer, language, timeZone } = input;
  const t = pdfTranslator(language);
  const locale = localeOf(language);
  const money = (minor: number) => pdfMoney(language, minor, invoice.currency);
  // Calendar days (issue and due dates) and billing periods (UTC day boundaries) as they are; the paid date, a
  // moment, as the day it fell on in the ISP's time zone.
  const day = (value: string) => pdfDate(language, value);
  const paidDay = (value: string) => pdfDate(language, value, timeZone);
  const label = (key: string) => t('pdf.label', { label: t(key) });
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    bufferPages: true,
    lang: language,
    info: {
      Title: t('pdf.invoice.documentTitle', { number: invoice.number }),
      Author: company.name,
      Subject: t('pdf.invoice.documentSubject', { number: invoice.number, name: customer.name }),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const text = new PdfText(doc, language);

  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right;
  const width = right - left;
  const grey = '#555555';
  /** A box laid out left to right, on the mirrored side in Arabic. */
  const at = (x: number, w: number) => text.x(x, w, left, right);

  // Company (at the start) and the document title (at the end).
  let y = 50;
  text.line(company.name, at(left, width / 2), y, { size: 18, bold: true, width: width / 2, dir: 'auto' });
  y += text.lineHeight({ size: 18 });
  for (const line of [company.address, company.support_email, company.support_phone].filter(Boolean)) {
    y = text.paragraph(line, at(left, width / 2), y, { size: 9, color: grey, width: width / 2, dir: 'auto' });
  }
  const companyBottom = y;

  text.line(t('pdf.invoice.title'), at(left + width / 2, width / 2), 50, {
    size: 22,
    bold: true,
    width: width / 2,
    align: 'end',
  });
  const meta: Array<[string, string]> = [
    [label('pdf.invoice.number'), invoice.number],
    [label('pdf.invoice.status'), t(`pdf.invoice.status.${invoice.status}`)],
    [label('pdf.invoice.issueDate'), day(invoice.issue_date)],
    [label('pdf.invoice.dueDate'), day(invoice.due_date)],
  ];
  if (invoice.paid_date) meta.push([label('pdf.invoice.paidDate'), paidDay(invoice.paid_date)]);
  let metaY = 50 + text.lineHeight({ size: 22 }) + 4;
  for (const [name, value] of meta) {
    text.line(name, at(left + width * 0.4, width * 0.35), metaY, {
      size: 10,
      color: grey,
      width: width * 0.35,
      align: 'end',
    });
    text.line(value, at(left + width * 0.77, width * 0.23), metaY, { size: 10, width: width * 0.23, align: 'end' });
    metaY += text.lineHeight({ size: 10 });
  }
  const metaBottom = metaY;

  // Bill to.
  y = Math.max(companyBottom, metaBottom) + 25;
  const fullWidth = { width, x: at(left, width) };
  text.line(t('pdf.invoice.billTo'), fullWidth.x, y, { size: 10, bold: true, color: grey, width });
  y += text.lineHeight({ size: 10 });
  text.line(customer.name, fullWidth.x, y, { size: 11, width, dir: 'auto' });
  y += text.lineHeight({ size: 11 });
  if (customer.email) {
    text.line(customer.email, fullWidth.x, y, { size: 10, width, dir: 'auto' });
    y += text.lineHeight({ size: 10 });
  }
  if (input.planName) {
    text.line(t('pdf.invoice.plan', { name: input.planName }), fullWidth.x, y, { size: 10, color: grey, width });
    y += text.lineHeight({ size: 10 });
  }

  // Line items: the description at the start, the amounts at the end (mirrored in Arabic).
  y += 20;
  const cols = {
    description: { x: left + 4, w: width * 0.53 },
    quantity: { x: left + width * 0.55, w: width * 0.08 },
    unit: { x: left + width * 0.65, w: width * 0.16 },
    amount: { x: left + width * 0.82, w: width * 0.18 },
  };
  const cell = (col: keyof typeof cols, value: string, top: number, style: { size: number; bold?: boolean }) =>
    text.line(value, at(cols[col].x, cols[col].w), top, {
      ...style,
      width: cols[col].w,
      align: col === 'description' ? 'start' : 'end',
    });
  const headerHeight = text.lineHeight({ size: 9 }) + 4;
  doc.rect(left, y - 3, width, headerHeight).fill('#f0f0f0');
  const header = { size: 9, bold: true };
  cell('description', t('pdf.invoice.description'), y, header);
  cell('quantity', t('pdf.invoice.quantity'), y, header);
  cell('unit', t('pdf.invoice.unitPrice'), y, header);
  cell('amount', t('pdf.invoice.amount'), y, header);
  y += headerHeight + 4;
  const count = new Intl.NumberFormat(locale);
  for (const item of invoice.line_items) {
    const description = lineDescription(item, t, day);
    const descriptionBox = { size: 9, width: cols.description.w - 4, dir: 'auto' as const };
    const height = Math.max(text.heightOf(description, descriptionBox), 12);
    if (y + height > doc.page.height - doc.page.margins.bottom - 120) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    text.paragraph(description, at(cols.description.x, cols.description.w - 4), y, descriptionBox);
    cell('quantity', count.format(item.quantity), y, { size: 9 });
    cell('unit', money(item.unit_amount), y, { size: 9 });
    cell('amount', money(item.amount), y, { size: 9 });
    y += height + 6;
    doc
      .moveTo(left, y - 3)
      .lineTo(right, y - 3)
      .lineWidth(0.5)
      .strokeColor('#dddddd')
      .stroke();
  }

  // Totals.
  y += 6;
  const rate = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(
    invoice.tax_rate_bp / 10_000,
  );
  const totals: Array<[string, string, boolean]> = [
    [t('pdf.invoice.subtotal'), money(invoice.subtotal), false],
    [t('pdf.invoice.tax', { rate }), money(invoice.tax), false],
    [t('pdf.invoice.total'), money(invoice.total_amount), true],
    // Customer credit used when it was issued (issue 21), and what is left to pay.
    ...(invoice.credit_applied > 0
      ? ([
          [t('pdf.invoice.creditApplied'), money(-invoice.credit_applied), false],
          [t('pdf.invoice.amountDue'), money(invoice.amount_due), true],
        ] as Array<[string, string, boolean]>)
      : []),
  ];
  for (const [name, value, bold] of totals) {
    const style = { size: bold ? 12 : 10, bold };
    const labelBox = { x: cols.unit.x - width * 0.2, w: cols.unit.w + width * 0.2 };
    text.line(name, at(labelBox.x, labelBox.w), y, { ...style, width: labelBox.w, align: 'end' });
    cell('amount', value, y, style);
    y += bold ? 20 : 16;
  }

  // How to pay, or that it was paid.
  y += 20;
  text.line(t('pdf.invoice.payment'), fullWidth.x, y, { size: 10, bold: true, width });
  y += text.lineHeight({ size: 10 });
  const body = { size: 9, color: grey, width };
  let payment: string;
  if (invoice.status === 'paid') {
    const byCredit = invoice.credit_applied > 0 && invoice.amount_due === 0;
    payment = invoice.paid_date
      ? t(byCredit ? 'pdf.invoice.paidByCreditOn' : 'pdf.invoice.paidOn', { date: paidDay(invoice.paid_date) })
      : t(byCredit ? 'pdf.invoice.paidByCredit' : 'pdf.invoice.paid');
  } else if (invoice.status === 'unpaid' || invoice.status === 'overdue') {
    payment = t('pdf.invoice.pleasePay', {
      amount: money(invoice.amount_due),
      date: day(invoice.due_date),
      number: invoice.number,
    });
  } else {
    payment = t(`pdf.invoice.nothingDue.${invoice.status}`);
  }
  y = text.paragraph(payment, fullWidth.x, y, body);
  text.line(input.publicUrl, fullWidth.x, y, {
    ...body,
    color: '#1a56db',
    link: input.publicUrl,
    underline: true,
    dir: 'auto',
  });
  y += text.lineHeight(body);
  if (company.support_email)
    text.line(t('pdf.invoice.questions', { email: company.support_email }), fullWidth.x, y, body);

  // The stamp.
  const stamp =
    invoice.status === 'paid'
      ? { text: t('pdf.invoice.stamp.paid'), color: '#1e8e3e' }
      : invoice.status === 'refunded'
        ? { text: t('pdf.invoice.stamp.refunded'), color: '#b26a00' }
        : null;
  if (stamp) {
    doc.switchToPage(0);
    doc.save();
    // Beside "Bill to", clear of the dates above and the table below (on the left in Arabic).
    const box = at(right - 240, 240);
    doc.rotate(-15, { origin: [box + 120, metaBottom + 45] });
    doc.opacity(0.35);
    text.line(stamp.text, box, metaBottom + 25, {
      size: 40,
      bold: true,
      color: stamp.color,
      width: 240,
      align: 'center',
    });
    doc.restore();
  }

  doc.end();
  return done;
}

function lineDescription(
  item: InvoiceLineItem,
  t: (key: string, params?: Record<string, string>) => string,
  day: (value: string) => string,
): string {
  return item.period_start && item.period_end
    ? `${item.description}\n${t('pdf.invoice.period', { start: day(item.period_start), end: day(item.period_end) })}`
    : item.description;
}
