/*
 * Every date and time the portal shows, in one format: the reader's own (their language and browser's region), through
 * Intl.DateTimeFormat: a day as "28 Nov 2026" / "Nov 28, 2026" (dateStyle medium), a moment with its time of day
 * (timeStyle short). Plain Intl, no dayjs: the dashboard's first screen uses it and must not load dayjs.
 * Date pickers keep their own input formats.
 */
import { readerLocale } from '../i18n/language';

type DateValue = string | number | Date | null | undefined;

const EMPTY = '—';

/** The reader's locale: their language with their browser's region (src/i18n/language.ts). */
export function userLocale(): string | undefined {
  return readerLocale();
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat(locale, options);
    } catch {
      f = new Intl.DateTimeFormat(undefined, options); // an odd browser language Intl does not know
    }
    formatters.set(key, f);
  }
  return f;
}

function toDate(value: DateValue): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A moment as the day it falls on, in the reader's time zone: "28 Nov 2026". */
export function formatDate(value: DateValue, locale = userLocale()): string {
  const d = toDate(value);
  return d ? formatter(locale, { dateStyle: 'medium' }).format(d) : EMPTY;
}

/** A moment with its time of day: "28 Nov 2026, 17:00". */
export function formatDateTime(value: DateValue, locale = userLocale()): string {
  const d = toDate(value);
  return d ? formatter(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(d) : EMPTY;
}

/** Only the time of day: "17:00" / "5:00 PM". */
export function formatTime(value: DateValue, locale = userLocale()): string {
  const d = toDate(value);
  return d ? formatter(locale, { timeStyle: 'short' }).format(d) : EMPTY;
}

/** The time of day to the second, for "last updated" clocks: "17:05:29" / "5:05:29 PM". */
export function formatClock(value: DateValue, locale = userLocale()): string {
  const d = toDate(value);
  return d ? formatter(locale, { timeStyle: 'medium' }).format(d) : EMPTY;
}

/**
 * A calendar day written as YYYY-MM-DD (an invoice's due date, a report's last day): that day as written, in the
 * same style as formatDate, never shifted by the reader's time zone.
 */
export function formatDay(value: unknown, locale = userLocale()): string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) return EMPTY;
  const d = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return EMPTY;
  return formatter(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(d);
}

const relativeFormatters = new Map<string, Intl.RelativeTimeFormat>();
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** How long ago or ahead a moment is: "3 hours ago", "in 2 days", "now" (under a minute). */
export function formatRelative(value: DateValue, now: number = Date.now(), locale = userLocale()): string {
  const d = toDate(value);
  if (!d) return EMPTY;
  const key = locale ?? '';
  let f = relativeFormatters.get(key);
  if (!f) {
    try {
      f = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    } catch {
      f = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
    }
    relativeFormatters.set(key, f);
  }
  const diff = d.getTime() - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return f.format(Math.trunc(diff / ms), unit);
  }
  return f.format(0, 'second');
}
