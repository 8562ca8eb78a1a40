/*
 * Every date and time the portal shows, in one format: the reader's own (their language and browser's region), through
 * Intl.DateTimeFormat: a day as "28 Nov 2026" / "Nov 28, 2026" (dateStyle medium), a moment with its time of day
 * (timeStyle short). Plain Intl, no dayjs: the dashboard's first screen uses it and must not load dayjs.
 * Date pickers keep their own input formats.
 *
 * Moments are written in the ISP's time zone when it set one (settings.time_zone, issue 37), else in the reader's
 * browser's. A calendar day (formatDay: a due date, a billing period's day) is written as it is, in every zone.
 */
import { isTimeZone } from '../../contract/time-zone';
import { readerLocale } from '../i18n/language';

type DateValue = string | number | Date | null | undefined;

const EMPTY = '—';
/** A calendar day on its own: 2026-11-28. */
const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The reader's locale: their language with their browser's region (src/i18n/language.ts). */
export function userLocale(): string | undefined {
  return readerLocale();
}

let ispZone: string | undefined;

/** The ISP's time zone from the public settings (src/site/portal-settings.ts); null, absent or unknown: none. */
export function setIspTimeZone(zone: string | null | undefined): void {
  ispZone = isTimeZone(zone) ? zone : undefined;
}

/** The zone moments are written in: the ISP's, or undefined for the reader's browser's own. */
export function ispTimeZone(): string | undefined {
  return ispZone;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** A formatter per locale, options and time zone (the zone is part of the options, so of the key). */
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

/** The options with the zone a moment is written in (none: the browser's own). */
const inZone = (options: Intl.DateTimeFormatOptions, timeZone: string | undefined): Intl.DateTimeFormatOptions =>
  timeZone ? { ...options, timeZone } : options;

function toDate(value: DateValue): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * A moment as the day it falls on, in the ISP's time zone (else the reader's): "28 Nov 2026". A calendar day given
 * as YYYY-MM-DD is that day (formatDay), never moved by a zone west of UTC.
 */
export function formatDate(value: DateValue, locale = userLocale(), timeZone = ispTimeZone()): string {
  if (typeof value === 'string' && CALENDAR_DAY.test(value)) return formatDay(value, locale);
  const d = toDate(value);
  return d ? formatter(locale, inZone({ dateStyle: 'medium' }, timeZone)).format(d) : EMPTY;
}

/** A moment with its time of day, in the ISP's time zone (else the reader's): "28 Nov 2026, 17:00". */
export function formatDateTime(value: DateValue, locale = userLocale(), timeZone = ispTimeZone()): string {
  const d = toDate(value);
  return d ? formatter(locale, inZone({ dateStyle: 'medium', timeStyle: 'short' }, timeZone)).format(d) : EMPTY;
}

/** Only the time of day: "17:00" / "5:00 PM". */
export function formatTime(value: DateValue, locale = userLocale(), timeZone = ispTimeZone()): string {
  const d = toDate(value);
  return d ? formatter(locale, inZone({ timeStyle: 'short' }, timeZone)).format(d) : EMPTY;
}

/** The time of day to the second, for "last updated" clocks: "17:05:29" / "5:05:29 PM". */
export function formatClock(value: DateValue, locale = userLocale(), timeZone = ispTimeZone()): string {
  const d = toDate(value);
  return d ? formatter(locale, inZone({ timeStyle: 'medium' }, timeZone)).format(d) : EMPTY;
}

/**
 * A calendar day written as YYYY-MM-DD (an invoice's due date, a report's last day): that day as written, in the
 * same style as formatDate, never shifted by the reader's or the ISP's time zone (a timestamp: its UTC day, which is
 * how the billing periods' boundaries are kept).
 */
export function formatDay(value: unknown, locale = userLocale()): string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) return EMPTY;
  const d = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return EMPTY;
  return formatter(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(d);
}

/**
 * The day a moment fell on, as the ISP's papers have it (a payment's day, a credit entry's): in the ISP's time zone
 * when it set one, else its UTC day, like the e-mails and PDFs (formatDay). A calendar day (YYYY-MM-DD) as it is.
 */
export function formatMomentDay(value: unknown, locale = userLocale(), timeZone = ispTimeZone()): string {
  if (!timeZone || typeof value !== 'string' || CALENDAR_DAY.test(value)) return formatDay(value, locale);
  const d = toDate(value);
  return d ? formatDate(d, locale, timeZone) : EMPTY;
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
