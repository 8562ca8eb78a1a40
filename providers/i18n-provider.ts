/**
 * Refine's i18n provider over the app's dictionaries (src/i18n): Refine's own texts (buttons, notifications,
 * table labels) go through the same translate() as ours, falling back to Refine's English default.
 */
import type { I18nProvider } from '@refinedev/core';
import { changeLocale, getLocale, translate } from '../src/i18n';

type Params = Parameters<typeof translate>[1];

export const i18nProvider: I18nProvider = {
  // Refine passes (key, params, default) and, in a few places, (key, default).
  translate: (key: string, options?: unknown, defaultMessage?: string) =>
    typeof options === 'string'
      ? translate(key, undefined, options)
      : translate(key, (options ?? undefined) as Params, defaultMessage),
  changeLocale: (locale: string) => changeLocale(locale),
  getLocale: () => getLocale(),
};
