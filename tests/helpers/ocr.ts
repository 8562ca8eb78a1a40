/**
 * Reading a PDF the way a person sees it (issue 37): its pages rendered to images by poppler's pdftoppm and read
 * back by tesseract (Debian's poppler-utils, tesseract-ocr, tesseract-ocr-ara, tesseract-ocr-spa), installed with
 * apt-get when missing (scripts/ensure-ocr.mjs, also run by `npm test`). What pdf.js extracts is the text the PDF
 * says it holds; what tesseract reads is what is drawn: joined Arabic letters, words in right-to-left order.
 *
 *   const pages = await renderPages(pdf, { dpi: 200, gray: false });  // one PNG a page
 *   const words = await ocrWords(pages[0], 'ara');                     // [{ text, left, top, width, height }]
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PDFTOPPM = process.env.PDFTOPPM_PATH ?? '/usr/bin/pdftoppm';
const TESSERACT = process.env.TESSERACT_PATH ?? '/usr/bin/tesseract';

/** Installs poppler-utils and tesseract with its Arabic and Spanish data when they are missing. */
export function ensureOcr(): void {
  const script = fileURLToPath(new URL('../../scripts/ensure-ocr.mjs', import.meta.url));
  const r = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (r.status !== 0 || !existsSync(PDFTOPPM) || !existsSync(TESSERACT))
    throw new Error('pdftoppm and tesseract are not installed (apt-get install -y poppler-utils tesseract-ocr)');
}

const folders: string[] = [];
/** Removes the images made so far. */
export function cleanUpOcr(): void {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

/**
 * The pages of a PDF as images (PNG, or greyscale PGM with gray: true), in page order. `pages` limits them to the
 * first n.
 */
export async function renderPages(
  pdf: Uint8Array,
  options: { dpi?: number; gray?: boolean; pages?: number } = {},
): Promise<string[]> {
  const folder = mkdtempSync(join(tmpdir(), 'pdf-ocr-'));
  folders.push(folder);
  writeFileSync(join(folder, 'doc.pdf'), pdf);
  const args = ['-r', String(options.dpi ?? 200), options.gray ? '-gray' : '-png'];
  if (options.pages) args.push('-l', String(options.pages));
  await run(PDFTOPPM, [...args, join(folder, 'doc.pdf'), join(folder, 'page')]);
  return readdirSync(folder)
    .filter((f) => f.startsWith('page-'))
    .sort()
    .map((f) => join(folder, f));
}

/** The text tesseract reads on an image, in one of its languages ("ara", "spa", "ara+eng"). */
export async function ocrText(image: string, language: string): Promise<string> {
  const { stdout } = await run(TESSERACT, [image, '-', '-l', language], { maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

export interface OcrWord {
  text: string;
  left: number;
  top: number;
  width: number;
  height: number;
  /** The line it was read in (block, paragraph, line numbers). */
  line: string;
}

/** The words tesseract reads with their boxes (its TSV output). */
export async function ocrWords(image: string, language: string): Promise<OcrWord[]> {
  const { stdout } = await run(TESSERACT, [image, '-', '-l', language, 'tsv'], { maxBuffer: 16 * 1024 * 1024 });
  return stdout
    .split('\n')
    .slice(1)
    .map((row) => row.split('\t'))
    .filter((cols) => cols.length >= 12 && cols[0] === '5' && cols[11]!.trim())
    .map((cols) => ({
      text: cols[11]!.trim(),
      left: Number(cols[6]),
      top: Number(cols[7]),
      width: Number(cols[8]),
      height: Number(cols[9]),
      line: `${cols[2]}.${cols[3]}.${cols[4]}`,
    }));
}

/**
 * The number of separate shapes of ink on a greyscale image (PGM from renderPages with gray: true): dark pixels
 * connected side by side or corner to corner. Joined Arabic letters make fewer, larger shapes than the same
 * letters drawn apart.
 */
export function inkShapes(pgm: string): number {
  const bytes = readFileSync(pgm);
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(bytes.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error(`${pgm} is not a binary PGM`);
  const [width, height] = [Number(header[1]), Number(header[2])];
  const pixels = bytes.subarray(header[0].length);
  const seen = new Uint8Array(width * height);
  const dark = (i: number) => pixels[i]! < 128;
  let shapes = 0;
  const stack: number[] = [];
  for (let start = 0; start < width * height; start++) {
    if (seen[start] || !dark(start)) continue;
    shapes++;
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const at = stack.pop()!;
      const x = at % width;
      const y = (at - x) / width;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const next = ny * width + nx;
          if (!seen[next] && dark(next)) {
            seen[next] = 1;
            stack.push(next);
          }
        }
    }
  }
  return shapes;
}
