/**
 * A tiny i18n core: dictionaries per locale, merged from one module per concern (src/i18n/en/*.ts),
 * {name}-style interpolation. Every user-facing text goes through translate(); spec texts are stored verbatim.
 */
import { en } from './en';

export type Dictionary = Record<string, string>;
type Params = Record<string, string | number | undefined | null>;

const dictionaries: Record<string, Dictionary> = { en };
let locale = 'en';
const listeners = new Set<() => void>();

export function translate(key: string, params?: Params, defaultMessage?: string): string {
  const template = dictionaries[locale]?.[key] ?? dictionaries.en[key] ?? defaultMessage ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = params[name];
    return v === undefined || v === null ? whole : String(v);
  });
}

/**
 * translate's short name, the one the screens use.
 * @alias translate
 */
export const t = translate;

/**
 * Replaces texts at run time (the product name comes from the admin's settings). Components re-read texts
 * when they render, so call this before the first render or follow it with a re-render.
 */
export function overrideMessages(messages: Dictionary, forLocale = 'en'): void {
  dictionaries[forLocale] = { ...dictionaries[forLocale], ...messages };
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

export function changeLocale(next: string): void {
  if (!dictionaries[next] || next === locale) return;
  locale = next;
  for (const fn of listeners) fn();
}

export function onLocaleChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
