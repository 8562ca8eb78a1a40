/**
 * Compares each translation (src/i18n/locales/<code>.json) with the English texts: missing and unknown keys,
 * arguments that differ ({name}, plural and select arguments), plural/select without an `other` form.
 * `npx tsx scripts/i18n-check.ts [code…]` prints the problems and exits 1 when there are any; the same check runs
 * in tests/web/i18n-parity.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LANGUAGES } from '../contract/languages';
import { argumentsOf, formsOf } from '../contract/message-format';
import { englishTexts } from './i18n-english';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function translationProblems(english: Record<string, string>, translated: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(english)) {
    if (!(key in translated)) {
      problems.push(`missing: ${key}`);
      continue;
    }
    const want = argumentsOf(english[key]).join(',');
    const got = argumentsOf(translated[key]).join(',');
    if (want !== got) problems.push(`arguments differ: ${key}: English {${want}}, translation {${got}}`);
    for (const form of formsOf(translated[key]))
      if (!form.keys.includes('other')) problems.push(`no "other" form: ${key} (${form.arg}, ${form.kind})`);
    if (!translated[key].trim()) problems.push(`empty: ${key}`);
  }
  for (const key of Object.keys(translated)) if (!(key in english)) problems.push(`unknown key: ${key}`);
  return problems;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const english = await englishTexts();
  const codes = process.argv.slice(2).length
    ? process.argv.slice(2)
    : LANGUAGES.map((l) => l.code).filter((c) => c !== 'en');
  let failed = false;
  for (const code of codes) {
    const file = join(root, 'src/i18n/locales', `${code}.json`);
    if (!existsSync(file)) {
      console.log(`${code}: no file ${file}`);
      failed = true;
      continue;
    }
    const problems = translationProblems(english, JSON.parse(readFileSync(file, 'utf8')));
    console.log(`${code}: ${problems.length ? `${problems.length} problem(s)` : 'complete'}`);
    for (const p of problems.slice(0, 50)) console.log(`  ${p}`);
    if (problems.length) failed = true;
  }
  process.exit(failed ? 1 : 0);
}
