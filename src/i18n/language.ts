/**
 * The language the web app speaks (issue 37), in the browser: chosen from the visitor's stored choice or their
 * browser's languages among those the ISP offers, then the signed-in person's own (their account's) once known.
 * A language's texts (src/i18n/locales/<code>.json), antd's locale pack (date pickers, pagination, empty states)
 * and dayjs's (month and day names in the pickers) are each a lazily loaded chunk: an English page downloads
 * none of them. The page's `lang` and `dir` follow, so Arabic lays out right to left.
 */
import type { Locale } from 'antd/es/locale';
import {
  DEFAULT_LANGUAGE,
  directionOf,
  isLanguage,
  LANGUAGE_CODES,
  LANGUAGES,
  type LanguageCode,
  pickLanguage,
} from '../../contract/languages';
import { setDefaultMoneyLocale } from '../../contract/money';
import { getAuthState, subscribeAuthState } from '../../providers/auth-store';
import { changeLocale, type Dictionary, getLocale, loadLocale, PSEUDO_LOCALE, setLocaleLoader } from './index';

const STORAGE_KEY = 'isp.language';

const dictionaries = import.meta.glob<Dictionary>('./locales/*.json', { import: 'default' });
setLocaleLoader(async (code) => dictionaries[`./locales/${code}.json`]?.());

/** antd's own texts per language; English is antd's built-in default. */
const ANTD_LOCALES: Record<string, () => Promise<{ default: Locale }>> = {
  es: () => import('antd/es/locale/es_ES'),
  fr: () => import('antd/es/locale/fr_FR'),
  id: () => import('antd/es/locale/id_ID'),
  ar: () => import('antd/es/locale/ar_EG'),
};
const DAYJS_LOCALES: Record<string, () => Promise<unknown>> = {
  es: () => import('dayjs/locale/es'),
  fr: () => import('dayjs/locale/fr'),
  id: () => import('dayjs/locale/id'),
  ar: () => import('dayjs/locale/ar'),
};

let antdLocale: Locale | undefined;
let dayjsChanged = false;
let requested = 0;
let offered: readonly string[] = [];
let fallback: LanguageCode = DEFAULT_LANGUAGE;
const listeners = new Set<() => void>();

/** antd's locale pack for the current language (undefined: antd's English). */
export function currentAntdLocale(): Locale | undefined {
  return antdLocale;
}

export function currentDirection(): 'ltr' | 'rtl' {
  return directionOf(getLocale());
}

/** Runs after each switch of language, once its texts and packs are in (the app re-renders from the top). */
export function onLanguageChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The languages the ISP offers and its default (public settings); until they are known, every language. */
export function setOfferedLanguages(codes: readonly string[] | undefined, defaultCode: string | undefined): void {
  offered = codes?.filter(isLanguage) ?? [];
  fallback = isLanguage(defaultCode) ? defaultCode : DEFAULT_LANGUAGE;
}

/** What may be chosen now: the ISP's offered languages once known, else every language the portal speaks. */
function candidates(): readonly string[] {
  return offered.length ? offered : LANGUAGE_CODES;
}

function stored(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** The visitor's language: their stored choice if it is offered, else their browser's first offered one, else the ISP's default. */
export function initialLanguage(): string {
  const choice = stored();
  if (choice === PSEUDO_LOCALE) return choice;
  if (isLanguage(choice) && candidates().includes(choice)) return choice;
  return pickLanguage(navigator.languages ?? [navigator.language], candidates(), fallback);
}

/**
 * Switches to a language: its texts, antd's and dayjs's packs load first, then the page's lang/dir are set and the
 * app re-renders. `remember` stores it as this browser's choice (the switcher); a language not offered is ignored.
 */
export async function switchLanguage(code: string, { remember = false } = {}): Promise<void> {
  if (code !== PSEUDO_LOCALE && (!isLanguage(code) || !candidates().includes(code))) return;
  if (remember) {
    try {
      localStorage.setItem(STORAGE_KEY, code);
    } catch {
      /* private mode: the choice lasts this visit */
    }
  }
  const ticket = ++requested;
  // English as the page starts: nothing to load (the public site does not download dayjs for it).
  if (code === getLocale() && code === DEFAULT_LANGUAGE && !dayjsChanged) {
    applyToPage(code);
    return;
  }
  const [pack] = await Promise.all([
    ANTD_LOCALES[code]?.().then((m) => m.default),
    DAYJS_LOCALES[code]?.(),
    loadLocale(code),
  ]);
  // A later choice (the account's language arriving after the browser's) wins, whichever loads first.
  if (ticket !== requested) return;
  await changeLocale(code);
  antdLocale = pack;
  const dayjs = (await import('dayjs')).default;
  dayjs.locale(code === PSEUDO_LOCALE ? DEFAULT_LANGUAGE : code);
  dayjsChanged = code !== DEFAULT_LANGUAGE;
  applyToPage(code);
  for (const fn of listeners) fn();
}

/** The page's language and direction, and the locale money is written in, for the language now shown. */
function applyToPage(code: string): void {
  document.documentElement.lang = code;
  document.documentElement.dir = directionOf(code);
  setDefaultMoneyLocale(readerLocale());
}

/**
 * The locale dates, numbers and money are written in: the chosen language with the browser's region when the
 * browser asks for that language ("es" + "es-MX" → "es-MX"), else the language alone. Arabic keeps the Western
 * digits its texts use (-u-nu-latn), as most Arabic-language ISP and banking portals do.
 */
export function readerLocale(): string {
  const language = getLocale();
  if (language === PSEUDO_LOCALE) return DEFAULT_LANGUAGE;
  const browser =
    typeof navigator === 'undefined'
      ? undefined
      : (navigator.languages ?? [navigator.language]).find((tag) => tag?.toLowerCase().split('-')[0] === language);
  const tag = browser ?? language;
  return language === 'ar' && !tag.includes('-u-') ? `${tag}-u-nu-latn` : tag;
}

/** The ISP's default language (public settings), the one its own content is written in first (issue 37). */
export function defaultLanguage(): LanguageCode {
  return fallback;
}

/** The languages offered now, as the switchers list them. */
export function offeredLanguages(): ReadonlyArray<(typeof LANGUAGES)[number]> {
  return LANGUAGES.filter((l) => candidates().includes(l.code));
}

/**
 * Follows the signed-in person's own language (their account's, issue 37): on sign-in, on a session restored at
 * start-up and when it changes on another screen. Called once at start-up (src/main.tsx).
 */
export function followAccountLanguage(): void {
  let seen: string | null | undefined;
  const check = () => {
    const language = getAuthState().user?.language;
    if (language === seen) return;
    seen = language;
    if (language && language !== getLocale()) void switchLanguage(language, { remember: true });
  };
  subscribeAuthState(check);
  check();
}
