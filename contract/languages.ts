/**
 * The languages the portal speaks (issue 37). Adding one is its translation file
 * (src/i18n/locales/<code>.json, every key of the English texts: npx tsx scripts/i18n-english.ts prints them) and
 * one line here; docs/languages.md has the steps. The server accepts these codes for a person's language and the
 * ISP's default and offered languages; the web app loads a language's file when it is first chosen.
 */
export const LANGUAGES = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'es', name: 'Español', dir: 'ltr' },
  { code: 'fr', name: 'Français', dir: 'ltr' },
  { code: 'id', name: 'Bahasa Indonesia', dir: 'ltr' },
  { code: 'ar', name: 'العربية', dir: 'rtl' },
] as const satisfies ReadonlyArray<{ code: string; name: string; dir: 'ltr' | 'rtl' }>;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

export const LANGUAGE_CODES = LANGUAGES.map((l) => l.code) as [LanguageCode, ...LanguageCode[]];

export const DEFAULT_LANGUAGE: LanguageCode = 'en';

export function isLanguage(code: unknown): code is LanguageCode {
  return typeof code === 'string' && LANGUAGES.some((l) => l.code === code);
}

export function directionOf(code: string): 'ltr' | 'rtl' {
  return LANGUAGES.find((l) => l.code === code)?.dir ?? 'ltr';
}

/**
 * The first of the browser's preferred languages (navigator.languages, or an Accept-Language header's order) that
 * is offered, by its primary subtag ("es-MX" → es); else the fallback.
 */
export function pickLanguage(
  preferred: readonly string[],
  offered: readonly string[],
  fallback: LanguageCode = DEFAULT_LANGUAGE,
): LanguageCode {
  for (const tag of preferred) {
    const primary = tag.trim().toLowerCase().split(/[-_;]/)[0];
    if (isLanguage(primary) && offered.includes(primary)) return primary;
  }
  return fallback;
}
