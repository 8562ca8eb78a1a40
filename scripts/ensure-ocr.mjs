// The PDF language tests (tests/server/pdf-language.test.ts) render pages to PNG with poppler's pdftoppm and read
// them back with tesseract and its Arabic and Spanish data (Debian's poppler-utils, tesseract-ocr,
// tesseract-ocr-ara, tesseract-ocr-spa). Install them when missing.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const PACKAGES = ['poppler-utils', 'tesseract-ocr', 'tesseract-ocr-ara', 'tesseract-ocr-spa'];
const PDFTOPPM = process.env.PDFTOPPM_PATH ?? '/usr/bin/pdftoppm';
const TESSERACT = process.env.TESSERACT_PATH ?? '/usr/bin/tesseract';

/** The languages tesseract has data for ("ara", "spa", "eng"), or none when it is not installed. */
function tesseractLanguages() {
  if (!existsSync(TESSERACT)) return [];
  const r = spawnSync(TESSERACT, ['--list-langs'], { encoding: 'utf8' });
  return `${r.stdout ?? ''}\n${r.stderr ?? ''}`.split('\n').map((l) => l.trim());
}
const ready = () => existsSync(PDFTOPPM) && ['ara', 'spa'].every((l) => tesseractLanguages().includes(l));
if (ready()) process.exit(0);

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const sudo = asRoot ? [] : ['sudo', '-n'];
console.log(`pdftoppm or tesseract (with Arabic and Spanish) not found: installing ${PACKAGES.join(' ')}...`);
const run = (args) =>
  spawnSync(args[0], args.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
let r = run([...sudo, 'apt-get', 'install', '-y', '-qq', ...PACKAGES]);
if (r.status !== 0 || !ready()) {
  r = run([...sudo, 'apt-get', 'update', '-qq']);
  if (r.status === 0) r = run([...sudo, 'apt-get', 'install', '-y', '-qq', ...PACKAGES]);
}
if (r.status !== 0 || !ready()) {
  console.error(`Could not install the OCR tools. Install them with: apt-get install -y ${PACKAGES.join(' ')}`);
  process.exit(1);
}
