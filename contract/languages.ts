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

/** An Accept-Language header's languages, most wanted first ("es-MX,es;q=0.9,en;q=0.5" → es-MX, es, en). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((l) => l.tag && l.tag !== '*' && l.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((l) => l.tag);
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
