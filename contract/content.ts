/**
 * The ISP's own texts in the reader's language (issue 37): FAQ, achievements, the about text, the policies and the
 * plans' descriptions are written in the ISP's default language (the fields they always had) and may be given in
 * other offered languages too. A reader gets their language's version of each field, else the default's.
 */
import type { LanguageCode } from './languages';
import type { PublicSettings } from './schemas/settings';

type Translations<T> = Partial<Record<LanguageCode, T>> | undefined;

/** A translated text, or undefined when it is missing or blank (then the default language's is shown). */
export function ownText(text: string | null | undefined): string | undefined {
  return text?.trim() ? text : undefined;
}

/** A translated list, or undefined when it is missing or empty. */
function ownList<T>(list: T[] | undefined): T[] | undefined {
  return list?.length ? list : undefined;
}

/** The settings with achievements, faq and about in `language`, field by field, else the default language's. */
export function localizedContent<
  T extends Pick<PublicSettings, 'achievements' | 'faq' | 'about' | 'content_translations'>,
>(settings: T, language: string): T {
  const own = (settings.content_translations as Translations<NonNullable<T['content_translations']>[LanguageCode]>)?.[
    language as LanguageCode
  ];
  if (!own) return settings;
  return {
    ...settings,
    achievements: ownList(own.achievements) ?? settings.achievements,
    faq: ownList(own.faq) ?? settings.faq,
    about: ownText(own.about) ?? settings.about,
  };
}

/** A plan's description in `language`, else the default language's. */
export function planDescription(
  plan: { description: string | null; description_translations?: Translations<string> },
  language: string,
): string | null {
  return ownText(plan.description_translations?.[language as LanguageCode]) ?? plan.description;
}
