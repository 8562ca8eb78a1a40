/// <reference path="../fontkit.d.ts" />
/// <reference path="../bidi-js.d.ts" />
/**
 * Text in the portal's PDFs (the invoice, the voucher sheet) in any of its languages (issue 37), Arabic included:
 *
 * - **Fonts**: Noto Sans (Latin, Latin Extended, Greek, Cyrillic) and Noto Sans Arabic, embedded (pdfkit
 *   subsets them), from the npm packages @fontsource/noto-sans and @fontsource/noto-sans-arabic. Fontsource ships
 *   Google Fonts' Noto files under the SIL Open Font License 1.1 (free to embed and redistribute), versioned with
 *   the portal's other packages instead of binary files copied into the repository; fontkit (pdfkit's font
 *   engine) reads their WOFF files as they are. Each character is drawn in the first font that has it, so an
 *   English plan name in an Arabic invoice or an Arabic customer name in a Spanish one still renders.
 * - **Joined letters**: pdfkit lays a run out through fontkit, which applies the font's OpenType features (Arabic
 *   init/medi/fina/isol forms and ligatures). pdfkit lays text out word by word (cutting at spaces, to cache each
 *   word) and puts the words side by side in the order they are written, which would turn an Arabic run's words
 *   around; an Arabic run's spaces are no-break spaces, so pdfkit lays it out (and caches it) whole.
 * - **Right to left**: each line goes through the Unicode Bidirectional Algorithm (bidi-js, a maintained
 *   implementation of UAX #9) in the document's direction; its level runs are put in visual order (rule L2) and
 *   drawn one after the other. fontkit itself reverses a run in an RTL script (its glyphs come back in visual
 *   order), so an Arabic run is given in logical order; a right-to-left run without Arabic letters (a colon and a
 *   space between two Arabic words) is reversed here, and its brackets mirrored. Numbers and Latin words stay left
 *   to right inside an Arabic line. Alignment is logical: `start` is the right edge in Arabic.
 */
import { readFileSync } from 'node:fs';
import bidiFactory from 'bidi-js';
import * as fontkit from 'fontkit';
import { directionOf, type LanguageCode } from '../../contract/languages';
import type { MessageParams } from '../../contract/message-format';
import { mt } from '../i18n';
import { projectPath } from './paths';

const bidi = bidiFactory();

/** The fonts in the order a character looks for itself in them. */
const FACES = [
  { key: 'latin', pkg: 'noto-sans', file: 'noto-sans-latin' },
  { key: 'latin-ext', pkg: 'noto-sans', file: 'noto-sans-latin-ext' },
  { key: 'greek', pkg: 'noto-sans', file: 'noto-sans-greek' },
  { key: 'cyrillic', pkg: 'noto-sans', file: 'noto-sans-cyrillic' },
  { key: 'arabic', pkg: 'noto-sans-arabic', file: 'noto-sans-arabic-arabic' },
] as const;
type FaceKey = (typeof FACES)[number]['key'];

interface Face {
  key: FaceKey;
  regular: Buffer;
  bold: Buffer;
  has: (codePoint: number) => boolean;
}

let faces: Face[] | undefined;
/** The font files, read once (about 400 KB together). */
function loadFaces(): Face[] {
  faces ??= FACES.map(({ key, pkg, file }) => {
    const read = (weight: number) =>
      readFileSync(projectPath('node_modules/@fontsource', pkg, 'files', `${file}-${weight}-normal.woff`));
    const regular = read(400);
    const font = fontkit.create(regular);
    return { key, regular, bold: read(700), has: (cp: number) => font.hasGlyphForCodePoint(cp) };
  });
  return faces;
}

const fontName = (key: FaceKey, bold: boolean) => `noto-${key}${bold ? '-bold' : ''}`;

/** Bidi controls (marks, embeddings, isolates) steer the algorithm; they are not drawn. */
const BIDI_CONTROL = /^[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]$/u;
/** A run fontkit lays out right to left by itself (its script is Arabic). */
const RTL_SCRIPT = /\p{Script=Arabic}/u;
const LETTER = /[\p{L}\p{N}]/u;

export interface TextStyle {
  size: number;
  bold?: boolean;
  color?: string;
}

export interface LineOptions extends TextStyle {
  width: number;
  /** Logical: start is the left edge in a left-to-right language, the right edge in Arabic. */
  align?: 'start' | 'end' | 'center';
  /** Cut the line with "…" when it is wider than the box. */
  ellipsis?: boolean;
  link?: string;
  underline?: boolean;
  /**
   * 'auto': the text's own direction, from its first letter (HTML's dir="auto"), for what people typed (a name,
   * an address, a plan, an e-mail address): "42 Harbour Road" stays so in an Arabic invoice. The line is still
   * aligned in the document's direction.
   */
  dir?: 'auto';
  /** Extra space between wrapped lines. */
  lineGap?: number;
}

interface Run {
  text: string;
  font: string;
  width: number;
}

/**
 * A translator for a PDF: mt() with each text argument isolated (FSI … PDI), so a name or an amount inside a
 * translated sentence keeps its own direction ("الباقة: 42 Harbour" and not "الباقة: Harbour 42").
 */
export function pdfTranslator(language: LanguageCode): (key: string, params?: MessageParams) => string {
  return (key, params) =>
    mt(
      language,
      key,
      params &&
        Object.fromEntries(
          Object.entries(params).map(([name, value]) => [
            name,
            typeof value === 'string' ? `\u2068${value}\u2069` : value,
          ]),
        ),
    );
}

/** A document's text writer in one language: registers the fonts and draws lines in reading order. */
export class PdfText {
  readonly dir: 'ltr' | 'rtl';
  private readonly cache = new Map<string, { runs: Run[]; width: number }>();

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    language: LanguageCode,
  ) {
    this.dir = directionOf(language);
    for (const face of loadFaces()) {
      doc.registerFont(fontName(face.key, false), face.regular);
      doc.registerFont(fontName(face.key, true), face.bold);
    }
  }

  /**
   * A box's left edge in this document's direction: a box laid out for a left-to-right page between `left` and
   * `right`, mirrored in Arabic (the description column on the right, the amounts on the left).
   */
  x(x: number, width: number, left: number, right: number): number {
    return this.dir === 'rtl' ? left + right - x - width : x;
  }

  /** The width of one line of text. */
  width(text: string, style: TextStyle & { dir?: 'auto' }): number {
    return this.layout(text, style).width;
  }

  /** The height `paragraph` takes for the text in a box this wide. */
  heightOf(text: string, options: LineOptions): number {
    const lines = this.wrap(text, options);
    return lines.length * this.lineHeight(options) + Math.max(0, lines.length - 1) * (options.lineGap ?? 0);
  }

  /** Arabic letters reach further above and below the line than Latin ones. */
  lineHeight(style: TextStyle): number {
    return style.size * (this.dir === 'rtl' ? 1.6 : 1.36);
  }

  /** One line at (x, y) in a box `width` wide, aligned in reading order. */
  line(text: string, x: number, y: number, options: LineOptions): void {
    let { runs, width } = this.layout(text, options);
    if (options.ellipsis && width > options.width) {
      const chars = [...text];
      while (chars.length > 0 && width > options.width) {
        chars.pop();
        ({ runs, width } = this.layout(`${chars.join('').trimEnd()}…`, options));
      }
    }
    const align = options.align ?? 'start';
    const leftAligned = (align === 'start') === (this.dir === 'ltr');
    let at = align === 'center' ? x + (options.width - width) / 2 : leftAligned ? x : x + options.width - width;
    const color = options.color ?? '#111111';
    // Every run on the same baseline, whatever its font's ascent (Noto Sans Arabic's is taller).
    const baseline = y + options.size * (this.dir === 'rtl' ? 1.12 : 1.07);
    const start = at;
    this.doc.fillColor(color);
    for (const run of runs) {
      this.doc
        .font(run.font)
        .fontSize(options.size)
        .text(run.text, at, baseline, { baseline: 'alphabetic', lineBreak: false });
      at += run.width;
    }
    // pdfkit places its own underline and link box from the top of the text: drawn here from the baseline.
    if (options.underline)
      this.doc
        .save()
        .moveTo(start, baseline + options.size * 0.12)
        .lineTo(at, baseline + options.size * 0.12)
        .lineWidth(Math.max(0.5, options.size / 16))
        .strokeColor(color)
        .stroke()
        .restore();
    if (options.link) this.doc.link(start, y, at - start, this.lineHeight(options), options.link);
  }

  /** Text wrapped to the box (and at its line breaks), line by line from y; returns the y below it. */
  paragraph(text: string, x: number, y: number, options: LineOptions): number {
    let at = y;
    for (const line of this.wrap(text, options)) {
      this.line(line, x, at, options);
      at += this.lineHeight(options) + (options.lineGap ?? 0);
    }
    return at - (options.lineGap ?? 0);
  }

  /** The lines of a text in a box: its own line breaks, then words moved down when a line is full. */
  wrap(text: string, options: LineOptions): string[] {
    const lines: string[] = [];
    for (const hard of text.split('\n')) {
      let current = '';
      for (const word of hard.split(' ')) {
        const tried = current ? `${current} ${word}` : word;
        if (current && this.width(tried, options) > options.width) {
          lines.push(current);
          current = word;
        } else current = tried;
      }
      lines.push(current);
    }
    return lines;
  }

  /** A line's runs in visual order, each in its font, measured. */
  private layout(text: string, style: TextStyle & { dir?: 'auto' }): { runs: Run[]; width: number } {
    const key = `${style.bold ? 'b' : 'r'}${style.size}${style.dir ?? ''}|${text}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const found = loadFaces();
    // Intl's narrow spaces (French digit groups) are not in the Latin font: a no-break space instead.
    const clean = text.replace(/[\u2007\u2009\u202F]/g, '\u00A0');
    const { levels } = bidi.getEmbeddingLevels(clean, style.dir ?? this.dir);

    const logical: Array<{ text: string; face: FaceKey; level: number }> = [];
    let index = 0;
    for (const char of clean) {
      const level = levels[index] ?? 0;
      index += char.length;
      if (BIDI_CONTROL.test(char)) continue;
      const cp = char.codePointAt(0) ?? 0;
      const last = logical[logical.length - 1];
      const first = found.find((f) => f.has(cp))?.key ?? 'latin';
      // Spaces and punctuation stay in the font of the run they are in, when it has them.
      const face =
        last && last.level === level && !LETTER.test(char) && found.find((f) => f.key === last.face)?.has(cp)
          ? last.face
          : first;
      if (last && last.level === level && last.face === face) last.text += char;
      else logical.push({ text: char, face, level });
    }

    // Rule L2: from the highest level down to the lowest odd one, reverse every sequence of runs at that level or above.
    const visual = [...logical];
    const max = Math.max(0, ...visual.map((r) => r.level));
    const lowestOdd = Math.min(...visual.map((r) => (r.level % 2 ? r.level : r.level + 1)), max + 1);
    for (let level = max; level >= lowestOdd; level--) {
      for (let i = 0; i < visual.length; i++) {
        if (visual[i]!.level < level) continue;
        let end = i;
        while (end + 1 < visual.length && visual[end + 1]!.level >= level) end++;
        visual.splice(i, end - i + 1, ...visual.slice(i, end + 1).reverse());
        i = end;
      }
    }

    const runs = visual.map((run) => {
      let shown = run.text;
      if (run.level % 2 === 1) {
        shown = [...shown].map((c) => bidi.getMirroredCharacter(c) ?? c).join('');
        // fontkit reverses an Arabic run itself (laid out whole: no-break spaces); anything else right to left is
        // reversed here.
        if (RTL_SCRIPT.test(shown)) shown = shown.replace(/ /g, '\u00A0');
        else shown = [...shown].reverse().join('');
      }
      const font = fontName(run.face, !!style.bold);
      const width = this.doc.font(font).fontSize(style.size).widthOfString(shown);
      return { text: shown, font, width };
    });
    const result = { runs, width: runs.reduce((sum, r) => sum + r.width, 0) };
    if (this.cache.size < 2000) this.cache.set(key, result);
    return result;
  }
}
