/**
 * A tiny i18n core: the English texts merged from one module per concern (src/i18n/en/*.ts) and loaded with the
 * code that shows them; each other language one file (src/i18n/locales/<code>.json) loaded when it is chosen;
 * ICU messages ({name}, plural, select: ./message-format.ts) with the language's plural rules. Every user-facing text goes through translate(); spec texts are stored verbatim.
 */
import { en } from './en';
import { formatMessage, type MessageParams } from '../../contract/message-format';

export type Dictionary = Record<string, string>;
type Params = MessageParams;

const dictionaries: Record<string, Dictionary> = { en };
/** Texts that win in every language (the company's name from the settings): overrideMessages without a language. */
let everywhere: Dictionary = {};
let locale = 'en';
const listeners = new Set<() => void>();
/** Loads a language's dictionary (src/i18n/locales.ts sets it: one lazily loaded file per language). */
let loader: ((code: string) => Promise<Dictionary | undefined>) | null = null;

/**
 * The pseudo-locale (issue 37): every translated text shown as ⟦ṫḗẋṫ⟧, so a text that reaches the screen without
 * going through translate() stands out as plain English. Not a language anyone is offered: a developer or a test
 * chooses it with `localStorage.setItem('isp.language', 'en-XA')` (docs/languages.md; tests/e2e/screens-*-language
 * files run the screen matrix in it). Its texts are the English ones; numbers and dates are written as in English.
 */
export const PSEUDO_LOCALE = 'en-XA';
const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'aeiouyAEIOUYcnsCNSzZ'].map((c, i) => [c, [...'áḗíṓúýÁḖÍṒÚÝçñšÇÑŠžŽ'][i]]),
);
function pseudo(text: string): string {
  return `⟦${text.replace(/[aeiouyAEIOUYcnsCNSzZ]/g, (c) => ACCENTED[c])}⟧`;
}

export function translate(key: string, params?: Params, defaultMessage?: string): string {
  const template = everywhere[key] ?? dictionaries[locale]?.[key] ?? dictionaries.en[key] ?? defaultMessage ?? key;
  if (locale === PSEUDO_LOCALE) return pseudo(formatMessage(template, params, 'en'));
  return formatMessage(template, params, locale);
}

/**
 * A message from the server or from a contract schema ("Enter a valid e-mail address") in the reader's language:
 * its translation under msg.<the English text> (src/i18n/en/messages.ts, collected by scripts/i18n-messages.ts);
 * else, for a message built at run time ("10.0.0.7 is reserved"), the first msgp.<pattern> ("{0} is reserved")
 * that matches it, with the values it caught put into the translation as they came; else the text as it came.
 */
export function translateMessage(text: string): string {
  if (locale === PSEUDO_LOCALE) return pseudo(text);
  const dictionary = dictionaries[locale];
  if (!dictionary) return text;
  const fixed = dictionary[`msg.${text}`];
  if (fixed !== undefined) return fixed;
  for (const { regex, translation } of compiledPatterns(dictionary)) {
    const match = regex.exec(text);
    if (match) return translation.replace(/\{(\d+)\}/g, (all, n: string) => match[Number(n) + 1] ?? all);
  }
  return text;
}

type CompiledPattern = { regex: RegExp; translation: string };
/** Each English pattern's regex, compiled once: `{0} is reserved` → /^(.+?) is reserved$/s. */
const regexes = new Map<string, RegExp>();
/** A language's patterns, most specific first; a dictionary is replaced (not changed) when texts are added. */
const compiled = new WeakMap<Dictionary, CompiledPattern[]>();

function compiledPatterns(dictionary: Dictionary): CompiledPattern[] {
  let list = compiled.get(dictionary);
  if (list) return list;
  const found: Array<CompiledPattern & { fixed: number }> = [];
  for (const key in dictionary) {
    if (!key.startsWith('msgp.')) continue;
    const pattern = key.slice(5);
    let regex = regexes.get(pattern);
    if (!regex) {
      const source = pattern
        .split(/(\{\d+\})/)
        .map((part, i) => (i % 2 ? '(.+?)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('');
      regex = new RegExp(`^${source}$`, 's');
      regexes.set(pattern, regex);
    }
    // The more fixed text a pattern has, the more specific it is: `{0} must be at most 256 characters` is tried
    // before `{0} must be at most {1} characters`.
    found.push({ regex, translation: dictionary[key], fixed: pattern.replace(/\{\d+\}/g, '').length });
  }
  found.sort((a, b) => b.fixed - a.fixed);
  list = found.map(({ regex, translation }) => ({ regex, translation }));
  compiled.set(dictionary, list);
  return list;
}

/**
 * translate's short name, the one the screens use.
 * @alias translate
 */
export const t = translate;

/**
 * Replaces texts at run time: without a language in every language (the product name comes from the admin's
 * settings), with one in that language only. Components re-read texts when they render, so call this before the
 * first render or follow it with a re-render.
 */
export function overrideMessages(messages: Dictionary, forLocale?: string): void {
  if (forLocale) dictionaries[forLocale] = { ...dictionaries[forLocale], ...messages };
  else everywhere = { ...everywhere, ...messages };
  for (const fn of listeners) fn();
}

/**
 * Adds texts under the ones already there, so a later override of the same key (the company's name) stays. The
 * portal's texts are added this way when its code loads (src/i18n/portal.ts, src/i18n/screens.ts).
 */
export function addMessages(messages: Dictionary, forLocale = 'en'): void {
  dictionaries[forLocale] = { ...messages, ...dictionaries[forLocale] };
  for (const fn of listeners) fn();
}

export function getLocale(): string {
  return locale;
}

const loaded = new Set<string>(['en']);

/** Loads a language's dictionary without switching to it (once; a failed load is tried again next time). */
export async function loadLocale(code: string): Promise<void> {
  if (code === PSEUDO_LOCALE) dictionaries[code] ??= {};
  if (loaded.has(code) || !loader || code === PSEUDO_LOCALE) return;
  const dictionary = await loader(code);
  if (!dictionary) return;
  // Under what the screens added at run time for this language, if anything.
  dictionaries[code] = { ...dictionary, ...dictionaries[code] };
  loaded.add(code);
}

export function setLocaleLoader(load: (code: string) => Promise<Dictionary | undefined>): void {
  loader = load;
}

/**
 * Switches the language: its dictionary is loaded first (English is always there), then every listener re-renders.
 * A language without a dictionary (an unknown code, a file that failed to load) leaves the current one.
 */
export async function changeLocale(next: string): Promise<void> {
  if (next === locale) return;
  await loadLocale(next);
  if (!dictionaries[next] || next === locale) return;
  locale = next;
  for (const fn of listeners) fn();
}

export function onLocaleChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
