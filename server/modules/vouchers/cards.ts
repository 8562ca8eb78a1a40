/**
 * The printable sheet of a voucher batch (GET /api/vouchers/batches/:id/cards.pdf): A4 pages of 10 cards (2 × 5)
 * with dashed cut lines. Each card: the ISP's name (settings), the plan, what the card gives (validity from first
 * use, data allowance), its price, the code in a large monospace font grouped for reading aloud, and a QR code of
 * the portal's redeem link with the code (`<APP_URL>/dashboard/subscriptions?voucher=CODE`).
 *
 * Why the link and not the bare code: a phone's camera app opens a link, so a customer who scans the card lands
 * on the redeem card with the code filled in (signing in first if needed) instead of being shown a string to
 * copy; the code stays readable in the link for a scanner that wants it, and it is printed in full below.
 *
 * Drawn with pdfkit and the QR as vector squares (one path per card), streamed page by page so a batch of 100 000
 * codes is not held in memory as one document. The texts are in the ISP's default language or the one staff
 * chose (`?language=`, issue 37): the pdf.vouchers.* keys, the terms and price by Intl in its locale, the fonts,
 * joined Arabic letters and right-to-left lines from server/lib/pdf-text.ts. In Arabic a card is mirrored: the
 * texts on the right, the QR code on the left. The code itself stays in Courier, left to right.
 */
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import type { LanguageCode } from '../../../contract/languages';
import { localeOf } from '../../i18n';
import { PdfText, pdfTranslator } from '../../lib/pdf-text';
import { pdfMoney } from '../invoices/pdf';

export interface VoucherCardsInput {
  company: string;
  planName: string;
  validityMinutes: number | null;
  dataAllowanceMb: number | null;
  price: number;
  currency: string;
  codes: string[];
  /** The portal's address (APP_URL), for the QR codes' redeem link. */
  appUrl: string;
  language: LanguageCode;
}

export const CARDS_PER_PAGE = 10;
const COLUMNS = 2;
const ROWS = CARDS_PER_PAGE / COLUMNS;
const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 28;
const PAD = 12;
const QR_SIZE = 92;

const unit = (language: LanguageCode, value: number, name: string, unitDisplay: 'long' | 'short') =>
  new Intl.NumberFormat(localeOf(language), { style: 'unit', unit: name, unitDisplay }).format(value);

/** "30 days", "2 hours", "1 day 6 hours", "90 minutes" (from first use), in the language (Intl). */
export function validityText(minutes: number, language: LanguageCode = 'en'): string {
  const days = Math.floor(minutes / 1440);
  if (minutes % 1440 === 0) return unit(language, days, 'day', 'long');
  if (minutes % 60 === 0) {
    const hours = unit(language, (minutes % 1440) / 60, 'hour', 'long');
    return days > 0
      ? new Intl.ListFormat(localeOf(language), { type: 'unit', style: 'narrow' }).format([
          unit(language, days, 'day', 'long'),
          hours,
        ])
      : hours;
  }
  return unit(language, minutes, 'minute', 'long');
}

/** "5 GB" (whole gigabytes of 1024 MB), else "500 MB", in the language (Intl: "5 Go" in French). */
export function allowanceText(mb: number, language: LanguageCode = 'en'): string {
  return mb >= 1024 && mb % 1024 === 0
    ? unit(language, mb / 1024, 'gigabyte', 'short')
    : unit(language, mb, 'megabyte', 'short');
}

/** The code in groups of 3 to 5 for reading and typing: ABCDE-FGHJK, ABCD-EFGH-JKLM. Redeeming strips the dashes. */
export function groupedCode(code: string): string {
  const groups = Math.ceil(code.length / 5);
  const parts: string[] = [];
  let at = 0;
  for (let g = 0; g < groups; g++) {
    const size = Math.ceil((code.length - at) / (groups - g));
    parts.push(code.slice(at, at + size));
    at += size;
  }
  return parts.join('-');
}

/** The link a card's QR code holds. */
export function redeemLink(appUrl: string, code: string): string {
  return `${appUrl.replace(/\/+$/, '')}/dashboard/subscriptions?voucher=${encodeURIComponent(code)}`;
}

/** The QR code of `text` as squares in a size × size box at (x, y): runs of dark modules become one rectangle. */
function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number): void {
  // One fixed mask (all eight are valid QR codes): choosing the "best" by the penalty rules costs eight times as
  // long (about 1.3 ms a code here, minutes for a batch of 100 000) for a symbol a phone reads either way.
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M', maskPattern: 2 });
  const quiet = 2;
  const cell = size / (modules.size + quiet * 2);
  for (let row = 0; row < modules.size; row++) {
    let col = 0;
    while (col < modules.size) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < modules.size && modules.get(row, col)) col++;
      // A hair wider and taller than the module, so neighbouring squares print without white seams.
      doc.rect(x + (start + quiet) * cell, y + (row + quiet) * cell, (col - start) * cell + 0.05, cell + 0.05);
    }
  }
  doc.fillColor('#000000').fill();
}

/** Waits between pages: other requests get their turn, and a reader slower than the drawing catches up. */
async function breathe(doc: PDFKit.PDFDocument): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  while (!doc.destroyed && doc.readableLength > 8 * 1024 * 1024)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * The sheet as a stream (pdfkit's document), drawn a page at a time without holding the event loop (a batch of
 * 100 000 codes is 10 000 pages); it ends by itself once every card is drawn, and stops if the reader goes away.
 */
export function renderVoucherCards(input: VoucherCardsInput): PDFKit.PDFDocument {
  const { language } = input;
  const t = pdfTranslator(language);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    autoFirstPage: false,
    lang: language,
    info: {
      Title: t('pdf.vouchers.documentTitle', { plan: input.planName }),
      Author: input.company,
      Subject: t('pdf.vouchers.documentSubject', { count: input.codes.length }),
    },
  });
  const text = new PdfText(doc, language);
  const cardW = (PAGE.width - MARGIN * 2) / COLUMNS;
  const cardH = (PAGE.height - MARGIN * 2) / ROWS;
  const terms = [
    input.validityMinutes !== null
      ? t('pdf.vouchers.validity', { duration: validityText(input.validityMinutes, language) })
      : null,
    input.dataAllowanceMb !== null
      ? t('pdf.vouchers.data', { amount: allowanceText(input.dataAllowanceMb, language) })
      : null,
  ].filter((s): s is string => s !== null);
  const price = pdfMoney(language, input.price, input.currency);
  const portal = input.appUrl.replace(/^https?:\/\//, '').replace(/\/+$/, '');
  const redeem = t('pdf.vouchers.redeem', { portal });

  /** The dashed grid around the rows this page fills. */
  const cutLines = (cards: number) => {
    const rows = Math.ceil(cards / COLUMNS);
    doc.save().lineWidth(0.5).strokeColor('#9a9a9a').dash(4, { space: 3 });
    for (let c = 0; c <= COLUMNS; c++)
      doc.moveTo(MARGIN + c * cardW, MARGIN - 10).lineTo(MARGIN + c * cardW, MARGIN + rows * cardH + 10);
    for (let r = 0; r <= rows; r++)
      doc.moveTo(MARGIN - 10, MARGIN + r * cardH).lineTo(PAGE.width - MARGIN + 10, MARGIN + r * cardH);
    doc.stroke().undash().restore();
    text.line(t('pdf.vouchers.cut'), MARGIN, PAGE.height - MARGIN + 8, {
      size: 7,
      color: '#6b6b6b',
      width: PAGE.width - MARGIN * 2,
      align: 'center',
    });
  };

  const drawCard = (code: string, i: number) => {
    const slot = i % CARDS_PER_PAGE;
    if (slot === 0) {
      doc.addPage();
      cutLines(Math.min(CARDS_PER_PAGE, input.codes.length - i));
    }
    const x = MARGIN + (slot % COLUMNS) * cardW;
    const y = MARGIN + Math.floor(slot / COLUMNS) * cardH;
    const textW = cardW - PAD * 3 - QR_SIZE;
    // The texts at the card's start, the QR code at its end (mirrored in Arabic).
    const textX = text.x(x + PAD, textW, x, x + cardW);
    const line = { width: textW, ellipsis: true };
    text.line(input.company, textX, y + PAD - 2, { ...line, size: 11, bold: true, dir: 'auto' });
    text.line(input.planName, textX, y + PAD + 15, { ...line, size: 10, color: '#222222', dir: 'auto' });
    // The terms wrap (a language's words are longer than English's), four lines at most, then the price.
    const termLines = terms.flatMap((term) => text.wrap(term, { width: textW, size: 8 })).slice(0, 4);
    termLines.forEach((term, n) => {
      text.line(term, textX, y + PAD + 31 + n * 10, { ...line, size: 8, color: '#444444' });
    });
    text.line(price, textX, y + PAD + Math.max(58, 31 + termLines.length * 10 + 4), { ...line, size: 14, bold: true });
    drawQr(
      doc,
      redeemLink(input.appUrl, code),
      text.x(x + cardW - PAD - QR_SIZE, QR_SIZE, x, x + cardW),
      y + PAD - 4,
      QR_SIZE,
    );
    doc
      .font('Courier-Bold')
      .fontSize(code.length > 12 ? 16 : 19)
      .fillColor('#000000')
      .text(groupedCode(code), x + PAD, y + cardH - PAD - 42, {
        width: cardW - PAD * 2,
        align: 'center',
        lineBreak: false,
      });
    text.line(redeem, x + PAD, y + cardH - PAD - 14, {
      size: 7,
      color: '#555555',
      width: cardW - PAD * 2,
      align: 'center',
      ellipsis: true,
    });
  };

  const draw = async () => {
    for (let i = 0; i < input.codes.length; i++) {
      if (i > 0 && i % CARDS_PER_PAGE === 0) {
        await breathe(doc);
        if (doc.destroyed) return;
      }
      drawCard(input.codes[i]!, i);
    }
    if (input.codes.length === 0) {
      doc.addPage();
      text.line(t('pdf.vouchers.empty'), MARGIN, MARGIN, { size: 12, width: PAGE.width - MARGIN * 2 });
    }
    doc.end();
  };
  draw().catch((error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))));
  return doc;
}
