/**
 * The invoice as a PDF (GET /api/payments/invoices/{id}/pdf), drawn with pdfkit and its built-in Helvetica:
 * the company (settings), invoice number, status (a PAID stamp once paid), issue/due/paid dates, who it is
 * billed to, the line items, subtotal, tax and total (contract/money.ts formatting), and how to pay (the public
 * invoice page) or when it was paid.
 */
import PDFDocument from 'pdfkit';
import { formatMoney } from '../../../contract/money';
import type { Invoice, InvoiceLineItem } from '../../../contract/schemas/invoice';

export interface InvoicePdfInput {
  invoice: Invoice;
  company: { name: string; address: string; support_email: string; support_phone: string };
  /** email: null when the reader may not see it (the anonymous, public-link reader). */
  customer: { name: string; email: string | null };
  planName: string | null;
  /** The public invoice page, where it can be paid online. */
  publicUrl: string;
}

const STATUS_LABELS: Record<Invoice['status'], string> = {
  unpaid: 'Unpaid',
  paid: 'Paid',
  overdue: 'Overdue',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
};

/** Money as the portal shows it; a locale fixed so the PDF reads the same for everybody. */
const money = (minor: number, currency: string) => formatMoney(minor, currency, 'en-US');
/** "2026-11-23" or an ISO timestamp → "2026-11-23". */
const day = (value: string) => value.slice(0, 10);

/** A file name safe for Content-Disposition: the invoice number without quotes, slashes or control characters. */
export function invoicePdfFilename(number: string): string {
  const safe = number.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '');
  return `${safe || 'invoice'}.pdf`;
}

function lineDescription(item: InvoiceLineItem): string {
  return item.period_start && item.period_end
    ? `${item.description}\n${day(item.period_start)} to ${day(item.period_end)}`
    : item.description;
}

export function renderInvoicePdf(input: InvoicePdfInput): Promise<Buffer> {
  const { invoice, company, customer } = input;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    bufferPages: true,
    info: {
      Title: `Invoice ${invoice.number}`,
      Author: company.name,
      Subject: `Invoice ${invoice.number} for ${customer.name}`,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right;
  const width = right - left;
  const grey = '#555555';

  // Company (left) and the document title (right).
  doc
    .font('Helvetica-Bold')
    .fontSize(18)
    .fillColor('#111111')
    .text(company.name, left, 50, { width: width / 2 });
  doc.font('Helvetica').fontSize(9).fillColor(grey);
  for (const line of [company.address, company.support_email, company.support_phone].filter(Boolean))
    doc.text(line, { width: width / 2 });
  const companyBottom = doc.y;

  doc
    .font('Helvetica-Bold')
    .fontSize(22)
    .fillColor('#111111')
    .text('INVOICE', left + width / 2, 50, { width: width / 2, align: 'right' });
  doc.font('Helvetica').fontSize(10);
  const meta: Array<[string, string]> = [
    ['Invoice number', invoice.number],
    ['Status', STATUS_LABELS[invoice.status]],
    ['Issue date', day(invoice.issue_date)],
    ['Due date', day(invoice.due_date)],
  ];
  if (invoice.paid_date) meta.push(['Paid date', day(invoice.paid_date)]);
  let metaY = doc.y + 4;
  for (const [label, value] of meta) {
    doc.fillColor(grey).text(`${label}:`, left + width * 0.45, metaY, { width: width * 0.3, align: 'right' });
    doc.fillColor('#111111').text(value, left + width * 0.77, metaY, { width: width * 0.23, align: 'right' });
    metaY += 13;
  }
  const metaBottom = metaY;

  // Bill to.
  let y = Math.max(companyBottom, metaBottom) + 25;
  doc.font('Helvetica-Bold').fontSize(10).fillColor(grey).text('BILL TO', left, y);
  doc.font('Helvetica').fontSize(11).fillColor('#111111').text(customer.name);
  if (customer.email) doc.fontSize(10).text(customer.email);
  if (input.planName) doc.fontSize(10).fillColor(grey).text(`Plan: ${input.planName}`);

  // Line items.
  y = doc.y + 20;
  const cols = {
    description: left,
    quantity: left + width * 0.55,
    unit: left + width * 0.65,
    amount: left + width * 0.82,
  };
  const colWidth = { description: width * 0.53, quantity: width * 0.08, unit: width * 0.16, amount: width * 0.18 };
  doc.rect(left, y - 4, width, 18).fill('#f0f0f0');
  doc.font('Helvetica-Bold').fontSize(9).fillColor('#111111');
  doc.text('Description', cols.description + 4, y, { width: colWidth.description });
  doc.text('Qty', cols.quantity, y, { width: colWidth.quantity, align: 'right' });
  doc.text('Unit price', cols.unit, y, { width: colWidth.unit, align: 'right' });
  doc.text('Amount', cols.amount, y, { width: colWidth.amount, align: 'right' });
  y += 20;
  doc.font('Helvetica').fontSize(9);
  for (const item of invoice.line_items) {
    const text = lineDescription(item);
    const height = Math.max(doc.heightOfString(text, { width: colWidth.description }), 12);
    if (y + height > doc.page.height - doc.page.margins.bottom - 120) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    doc.fillColor('#111111').text(text, cols.description + 4, y, { width: colWidth.description });
    doc.text(String(item.quantity), cols.quantity, y, { width: colWidth.quantity, align: 'right' });
    doc.text(money(item.unit_amount, invoice.currency), cols.unit, y, { width: colWidth.unit, align: 'right' });
    doc.text(money(item.amount, invoice.currency), cols.amount, y, { width: colWidth.amount, align: 'right' });
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
  const taxLabel = `Tax (${(invoice.tax_rate_bp / 100).toFixed(2).replace(/\.?0+$/, '')}%)`;
  const totals: Array<[string, string, boolean]> = [
    ['Subtotal', money(invoice.subtotal, invoice.currency), false],
    [taxLabel, money(invoice.tax, invoice.currency), false],
    ['Total', money(invoice.total_amount, invoice.currency), true],
    // Customer credit used when it was issued (issue 21), and what is left to pay.
    ...(invoice.credit_applied > 0
      ? ([
          ['Credit applied', money(-invoice.credit_applied, invoice.currency), false],
          ['Amount due', money(invoice.amount_due, invoice.currency), true],
        ] as Array<[string, string, boolean]>)
      : []),
  ];
  for (const [label, value, bold] of totals) {
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(bold ? 12 : 10)
      .fillColor('#111111');
    doc.text(label, cols.unit - width * 0.1, y, { width: colWidth.unit + width * 0.1, align: 'right' });
    doc.text(value, cols.amount, y, { width: colWidth.amount, align: 'right' });
    y += bold ? 20 : 16;
  }

  // How to pay, or that it was paid.
  y += 20;
  doc.font('Helvetica-Bold').fontSize(10).fillColor('#111111').text('Payment', left, y);
  doc.font('Helvetica').fontSize(9).fillColor(grey);
  if (invoice.status === 'paid') {
    const byCredit = invoice.credit_applied > 0 && invoice.amount_due === 0 ? ' with your account credit' : '';
    doc.text(`Paid${byCredit}${invoice.paid_date ? ` on ${day(invoice.paid_date)}` : ''}. Thank you.`, { width });
  } else if (invoice.status === 'unpaid' || invoice.status === 'overdue') {
    doc.text(
      `Please pay ${money(invoice.amount_due, invoice.currency)} by ${day(invoice.due_date)}, online at the address below, or by bank transfer or cash quoting ${invoice.number}.`,
      { width },
    );
  } else {
    doc.text(`This invoice is ${STATUS_LABELS[invoice.status].toLowerCase()}: nothing is due.`, { width });
  }
  doc.fillColor('#1a56db').text(input.publicUrl, { width, link: input.publicUrl, underline: true });
  if (company.support_email) doc.fillColor(grey).text(`Questions: ${company.support_email}`, { width });

  // The stamp.
  const stamp =
    invoice.status === 'paid'
      ? { text: 'PAID', color: '#1e8e3e' }
      : invoice.status === 'refunded'
        ? { text: 'REFUNDED', color: '#b26a00' }
        : null;
  if (stamp) {
    doc.switchToPage(0);
    doc.save();
    // Beside "Bill to", clear of the dates above and the table below.
    doc.rotate(-15, { origin: [right - 120, metaBottom + 45] });
    doc
      .font('Helvetica-Bold')
      .fontSize(40)
      .fillColor(stamp.color)
      .opacity(0.35)
      .text(stamp.text, right - 240, metaBottom + 25, { width: 240, align: 'center', lineBreak: false });
    doc.restore();
  }

  doc.end();
  return done;
}
