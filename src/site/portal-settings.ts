import { useEffect, useState } from 'react';
import { localizedContent } from '../../contract/content';
import type { PublicSettings } from '../../contract/schemas/settings';
import { setIspTimeZone } from '../components/dates';
import { getLocale, overrideMessages } from '../i18n';
import { setOfferedLanguages } from '../i18n/language';
import { siteApi } from './api';

/**
 * The admin's public settings (company, achievements, FAQ, coverage). The server injects them into
 * index.html (#portal-settings) so the product name is known before the first paint; otherwise they are fetched.
 */
let current: PublicSettings | null = null;
let pending: Promise<PublicSettings | null> | null = null;
const listeners = new Set<(s: PublicSettings) => void>();

function apply(settings: PublicSettings) {
  current = settings;
  if (settings.company?.name) overrideMessages({ 'app.name': settings.company.name });
  // The ISP's languages (issue 37): what the visitor may be shown and the default (src/i18n/language.ts).
  setOfferedLanguages(settings.languages?.offered, settings.languages?.default);
  // The ISP's time zone (issue 37): moments are written in it (src/components/dates.ts); none: the browser's own.
  setIspTimeZone(settings.time_zone);
  for (const fn of listeners) fn(settings);
}

/** Reads the settings the server injected into the page, once, before the app renders. */
export function loadInjectedSettings(doc: Document = document): PublicSettings | null {
  const el = doc.getElementById('portal-settings');
  if (!el?.textContent) return null;
  try {
    apply(JSON.parse(el.textContent) as PublicSettings);
    return current;
  } catch {
    return null;
  }
}

export function getPublicSettings(): Promise<PublicSettings | null> {
  if (current) return Promise.resolve(current);
  pending ??= siteApi
    .publicSettings()
    .then((s) => {
      apply(s);
      return s;
    })
    .catch((e: unknown) => {
      console.warn('[site] public settings could not be loaded', e);
      pending = null;
      return null;
    });
  return pending;
}

/**
 * The public settings, with the ISP's content (achievements, FAQ, about) in the reader's language when the ISP gave
 * it one, else in its default language (issue 37). Read at each render: a switch of language re-renders the app.
 */
export function usePublicSettings(): PublicSettings | null {
  const [settings, setSettings] = useState<PublicSettings | null>(current);
  useEffect(() => {
    listeners.add(setSettings);
    if (!current) void getPublicSettings();
    return () => {
      listeners.delete(setSettings);
    };
  }, []);
  return settings ? localizedContent(settings, getLocale()) : null;
}
