/**
 * What the server writes for a person in their language (issue 37): e-mails, the invoice PDF and the voucher sheet
 * (server/lib/pdf-text.ts draws their texts).
 * English is src/i18n/en/mail (compiled in); each other language is the web app's translation file
 * (src/i18n/locales/<code>.json), read once when first needed, so a language is still one file. A key missing
 * in a language falls back to English; an unknown language is English.
 */
import { readFileSync } from 'node:fs';
import { formatMessage, type MessageParams } from '../contract/message-format';
import { DEFAULT_LANGUAGE, isLanguage, type LanguageCode } from '../contract/languages';
import { mail } from '../src/i18n/en/mail/index';
import { projectPath } from './lib/paths';

const dictionaries = new Map<string, Record<string, string>>([['en', mail]]);

function dictionary(language: LanguageCode): Record<string, string> {
  let found = dictionaries.get(language);
  if (!found) {
    try {
      found = JSON.parse(readFileSync(projectPath('src/i18n/locales', `${language}.json`), 'utf8')) as Record<
        string,
        string
      >;
    } catch {
      found = {};
    }
    dictionaries.set(language, found);
  }
  return found;
}

/** A person's language as stored (users.language), or the ISP's default when they have none. */
export function languageOf(stored: string | null | undefined, fallback: string = DEFAULT_LANGUAGE): LanguageCode {
  if (isLanguage(stored)) return stored;
  return isLanguage(fallback) ? fallback : DEFAULT_LANGUAGE;
}

/**
 * The locale a message's numbers, money and dates are written in: the language itself (Arabic with Western digits,
 * as the web app shows it: src/i18n/language.ts).
 */
export function localeOf(language: LanguageCode): string {
  return language === 'ar' ? 'ar-u-nu-latn' : language;
}

/** A text of what is sent, in the person's language: mt('es', 'mail.billing.subject', { number }). */
export function mt(language: LanguageCode, key: string, params?: MessageParams): string {
  const template = dictionary(language)[key] ?? mail[key] ?? key;
  return formatMessage(template, params, localeOf(language));
}

/**
 * A fixed English message (src/i18n/en/messages.ts, collected by scripts/i18n-messages.ts) in a language, as the web
 * app's translateMessage does: its msg.<text> translation, else the text itself.
 */
export function serverMessage(language: LanguageCode, english: string): string {
  return language === 'en' ? english : (dictionary(language)[`msg.${english}`] ?? english);
}

/** A translator bound to one language, for a message with many texts. */
export function translatorFor(language: LanguageCode): (key: string, params?: MessageParams) => string {
  return (key, params) => mt(language, key, params);
}
