/**
 * Every English text of the web app as one flat dictionary: the modules under src/i18n/en, the resources' own
 * texts (resources/<folder>/i18n.ts) and the texts a screen adds when it loads (resources/<folder>/texts.ts).
 * The translations (src/i18n/locales/<code>.json) have exactly these keys (tests/web/i18n-parity.test.ts).
 *
 * `npx tsx scripts/i18n-english.ts > en.json` prints them, the file a translator starts from.
 */
import { readdirSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

let collected: Promise<Record<string, string>> | undefined;

/** Read once per process: a screen's texts.ts adds its texts when first imported, not again. */
export function englishTexts(): Promise<Record<string, string>> {
  collected ??= collect();
  return collected;
}

async function collect(): Promise<Record<string, string>> {
  const { en } = await import('../src/i18n/en/index');
  const { auth } = await import('../src/i18n/en/auth');
  const { dashboard } = await import('../src/i18n/en/dashboard');
  const { home } = await import('../src/i18n/en/home');
  const { screens } = await import('../src/i18n/en/screens');
  const { site } = await import('../src/i18n/en/site');
  const { mail } = await import('../src/i18n/en/mail/index');
  const { messages } = await import('../src/i18n/en/messages');
  const out: Record<string, string> = {
    ...en,
    ...site,
    ...auth,
    ...dashboard,
    ...home,
    ...screens,
    ...mail,
    ...messages,
  };
  for (const folder of readdirSync(join(root, 'resources')).sort()) {
    const own = join(root, 'resources', folder, 'i18n.ts');
    if (existsSync(own)) Object.assign(out, (await import(pathToFileURL(own).href)).default);
    // A screen's texts added when it loads (resources/<folder>/texts.ts): the dictionaries the module exports.
    const added = join(root, 'resources', folder, 'texts.ts');
    if (existsSync(added))
      for (const value of Object.values(await import(pathToFileURL(added).href)))
        if (value && typeof value === 'object') Object.assign(out, value);
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(await englishTexts(), null, 2)}\n`);
}
