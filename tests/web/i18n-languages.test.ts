/**
 * Issue 37: every language is complete and says the same things. Each translation (src/i18n/locales/<code>.json)
 * has every key of the English texts, no key English lacks, the same arguments in each text (a {name} renamed or
 * dropped would show a raw brace or lose the customer's amount), and an `other` form in each plural; the
 * languages in contract/languages.ts and the files agree. The ICU messages pick the language's plural form.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, pickLanguage } from '../../contract/languages';
import { englishTexts } from '../../scripts/i18n-english';
import { collectMessages, messagesModule } from '../../scripts/i18n-messages';
import { translationProblems } from '../../scripts/i18n-check';
import { formatMessage } from '../../contract/message-format';

const LOCALES = join(__dirname, '../../src/i18n/locales');
const read = (code: string): Record<string, string> => JSON.parse(readFileSync(join(LOCALES, `${code}.json`), 'utf8'));

describe('the translations', () => {
  it('exist for every offered language but English, and only for those', () => {
    const files = readdirSync(LOCALES)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''))
      .sort();
    expect(files).toEqual(
      LANGUAGES.map((l) => l.code)
        .filter((c) => c !== 'en')
        .sort(),
    );
  });

  for (const { code, name } of LANGUAGES.filter((l) => l.code !== 'en')) {
    it(`${name} (${code}) has every English key with the same arguments`, async () => {
      expect(translationProblems(await englishTexts(), read(code))).toEqual([]);
    });
  }

  it('the check finds a missing key, an unknown one, a renamed argument and a plural without "other"', () => {
    const english = { a: 'Pay {amount}', b: '{n, plural, one {# day} other {# days}}', c: 'Hello' };
    expect(translationProblems(english, { a: 'Pague {importe}', b: '{n, plural, one {# día}}', x: 'Hola' })).toEqual([
      'arguments differ: a: English {amount}, translation {importe}',
      'no "other" form: b (n, plural)',
      'missing: c',
      'unknown key: x',
    ]);
  });

  it("include the API's and the contract's messages, fixed and run-time patterns, as in the source today", () => {
    // A new or changed message (a run-time one as msgp.<pattern>) fails here until `npx tsx scripts/i18n-messages.ts`
    // collects it, and then the key tests above until every language has it.
    expect(readFileSync(join(__dirname, '../../src/i18n/en/messages.ts'), 'utf8')).toBe(
      messagesModule(collectMessages()),
    );
  }, 30_000);

  it('is mostly not English: at most one text in ten is the same as the English (names, units, arguments)', async () => {
    const english = await englishTexts();
    for (const { code } of LANGUAGES.filter((l) => l.code !== 'en')) {
      const same = Object.entries(read(code)).filter(([k, v]) => v === english[k]).length;
      expect(same / Object.keys(english).length, code).toBeLessThan(0.1);
    }
  });
});

describe('ICU messages', () => {
  const days =
    '{n, plural, zero {no days} one {# day} two {two days} few {# days (few)} many {# days (many)} other {# days}}';
  it("use the language's plural rules: Arabic's six forms, French's one for 0 and 1, Indonesian's one form", () => {
    expect([0, 1, 2, 3, 11, 100].map((n) => formatMessage(days, { n }, 'ar'))).toEqual([
      'no days',
      '1 day',
      'two days',
      '3 days (few)',
      '11 days (many)',
      '100 days',
    ]);
    expect([0, 1, 2].map((n) => formatMessage('{n, plural, one {# jour} other {# jours}}', { n }, 'fr'))).toEqual([
      '0 jour',
      '1 jour',
      '2 jours',
    ]);
    expect(formatMessage('{n, plural, other {# hari}}', { n: 1 }, 'id')).toBe('1 hari');
  });

  it('format the count in the language, prefer an exact =N form, and fill arguments inside a form', () => {
    expect(formatMessage('{count, plural, one {# voucher} other {# vouchers}}', { count: 20000 }, 'en')).toBe(
      '20,000 vouchers',
    );
    expect(formatMessage('{count, plural, =0 {none} one {# item} other {# items}}', { count: 0 }, 'en')).toBe('none');
    expect(
      formatMessage('{n, plural, one {# invoice for {who}} other {# invoices for {who}}}', { n: 2, who: 'Ana' }, 'en'),
    ).toBe('2 invoices for Ana');
    expect(formatMessage('{kind, select, pppoe {PPPoE} other {Hotspot}}', { kind: 'pppoe' }, 'en')).toBe('PPPoE');
    expect(formatMessage('{kind, select, pppoe {PPPoE} other {Hotspot}}', { kind: 'x' }, 'en')).toBe('Hotspot');
  });

  it('leave a missing argument and a brace that is not an argument as written', () => {
    expect(formatMessage('Hello {name}', undefined, 'en')).toBe('Hello {name}');
    expect(formatMessage('A set { like this } stays', {}, 'en')).toBe('A set { like this } stays');
  });
});

describe("the visitor's language", () => {
  it("is the first of the browser's languages that the ISP offers, by its primary subtag, else the default", () => {
    expect(pickLanguage(['es-MX', 'en'], ['en', 'es'])).toBe('es');
    expect(pickLanguage(['de-DE', 'fr-CA'], ['en', 'fr'])).toBe('fr');
    expect(pickLanguage(['ar'], ['en', 'es'])).toBe('en');
    expect(pickLanguage(['de'], ['en', 'es'], 'es')).toBe('es');
  });
});
