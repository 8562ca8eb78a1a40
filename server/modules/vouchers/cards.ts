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
 * Drawn with pdfkit's built-in fonts and the QR as vector squares (one path per card), streamed page by page
 * so a batch of 100 000 codes is not held in memory as one document.
 */
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { formatMoney } from '../../../contract/money';

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
}

export const CARDS_PER_PAGE = 10;
const COLUMNS = 2;
const ROWS = CARDS_PER_PAGE / COLUMNS;
const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 28;
const PAD = 12;
const QR_SIZE = 92;

/** "30 days", "2 hours", "1 day 6 hours", "90 minutes" (from first use). */
export function validityText(minutes: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (minutes % 1440 === 0) return plural(minutes / 1440, 'day');
  if (minutes % 60 === 0)
    return minutes > 1440
      ? `${plural(Math.floor(minutes / 1440), 'day')} ${plural((minutes % 1440) / 60, 'hour')}`
      : plural(minutes / 60, 'hour');
  return plural(minutes, 'minute');
}

/** "5 GB" (whole gigabytes of 1024 MB), else "500 MB". */
export function allowanceText(mb: number): string {
  return mb >= 1024 && mb % 1024 === 0 ? `${mb / 1024} GB` : `${mb} MB`;
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
  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    autoFirstPage: false,
    info: {
      Title: `Vouchers: ${input.planName}`,
      Author: input.company,
      Subject: `${input.codes.length} prepaid vouchers`,
    },
  });
  const cardW = (PAGE.width - MARGIN * 2) / COLUMNS;
  const cardH = (PAGE.height - MARGIN * 2) / ROWS;
  const terms = [
    input.validityMinutes !== null ? `Valid ${validityText(input.validityMinutes)} from first use` : null,
    input.dataAllowanceMb !== null ? `${allowanceText(input.dataAllowanceMb)} of data` : null,
  ].filter((s): s is string => s !== null);
  const price = formatMoney(input.price, input.currency, 'en-US');
  const portal = input.appUrl.replace(/^https?:\/\//, '').replace(/\/+$/, '');

  /** The dashed grid around the rows this page fills. */
  const cutLines = (cards: number) => {
    const rows = Math.ceil(cards / COLUMNS);
    doc.save().lineWidth(0.5).strokeColor('#9a9a9a').dash(4, { space: 3 });
    for (let c = 0; c <= COLUMNS; c++)
      doc.moveTo(MARGIN + c * cardW, MARGIN - 10).lineTo(MARGIN + c * cardW, MARGIN + rows * cardH + 10);
    for (let r = 0; r <= rows; r++)
      doc.moveTo(MARGIN - 10, MARGIN + r * cardH).lineTo(PAGE.width - MARGIN + 10, MARGIN + r * cardH);
    doc.stroke().undash().restore();
    doc
      .font('Helvetica')
      .fontSize(7)
      .fillColor('#6b6b6b')
      .text('Cut along the dashed lines.', MARGIN, PAGE.height - MARGIN + 12, {
        width: PAGE.width - MARGIN * 2,
        align: 'center',
        lineBreak: false,
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
    doc
      .font('Helvetica-Bold')
      .fontSize(11)
      .fillColor('#111111')
      .text(input.company, x + PAD, y + PAD, { width: textW, height: 14, ellipsis: true, lineBreak: false });
    doc
      .font('Helvetica')
      .fontSize(10)
      .fillColor('#222222')
      .text(input.planName, x + PAD, y + PAD + 17, { width: textW, height: 13, ellipsis: true, lineBreak: false });
    doc.fontSize(8).fillColor('#444444');
    terms.forEach((line, n) => {
      doc.text(line, x + PAD, y + PAD + 33 + n * 11, { width: textW, height: 10, ellipsis: true, lineBreak: false });
    });
    doc
      .font('Helvetica-Bold')
      .fontSize(14)
      .fillColor('#111111')
      .text(price, x + PAD, y + PAD + 58, { width: textW, lineBreak: false });
    drawQr(doc, redeemLink(input.appUrl, code), x + cardW - PAD - QR_SIZE, y + PAD - 4, QR_SIZE);
    doc
      .font('Courier-Bold')
      .fontSize(code.length > 12 ? 16 : 19)
      .fillColor('#000000')
      .text(groupedCode(code), x + PAD, y + cardH - PAD - 42, {
        width: cardW - PAD * 2,
        align: 'center',
        lineBreak: false,
      });
    doc
      .font('Helvetica')
      .fontSize(7)
      .fillColor('#555555')
      .text(`Redeem at ${portal} or log in with the code at the hotspot.`, x + PAD, y + cardH - PAD - 12, {
        width: cardW - PAD * 2,
        align: 'center',
        height: 9,
        ellipsis: true,
        lineBreak: false,
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
      doc
        .font('Helvetica')
        .fontSize(12)
        .fillColor('#111111')
        .text('This batch has no unused vouchers left to print.', MARGIN, MARGIN);
    }
    doc.end();
  };
  draw().catch((error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))));
  return doc;
}
